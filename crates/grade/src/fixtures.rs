//! A course's PyTorch fixtures (`courses/<id>/fixtures`, made by the `make_fixtures.py` beside
//! them): raw little-endian arrays one after another in `fixtures.bin`, found by name through
//! `manifest.txt` (one line per array: `name dtype shape byte-offset`). A course compiles both in
//! (`include_str!`/`include_bytes!`), so a check reads no file at run time.

use ndarray::{Array2, ArrayD, IxDyn};
use tutor_subject::half::{bf16, f16};
use tutor_subject::Float;

/// An element type the fixtures store, with its manifest name and byte width.
pub trait Stored: Float {
    /// The manifest's name of the dtype.
    const STORED_AS: &'static str;
    /// Decodes one little-endian element.
    fn decode(bytes: &[u8]) -> Self;
}

impl Stored for f32 {
    const STORED_AS: &'static str = "f32";
    fn decode(bytes: &[u8]) -> Self {
        f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }
}

impl Stored for f64 {
    const STORED_AS: &'static str = "f64";
    fn decode(bytes: &[u8]) -> Self {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[..8]);
        f64::from_le_bytes(word)
    }
}

impl Stored for f16 {
    const STORED_AS: &'static str = "f16";
    fn decode(bytes: &[u8]) -> Self {
        f16::from_bits(u16::from_le_bytes([bytes[0], bytes[1]]))
    }
}

impl Stored for bf16 {
    const STORED_AS: &'static str = "bf16";
    fn decode(bytes: &[u8]) -> Self {
        bf16::from_bits(u16::from_le_bytes([bytes[0], bytes[1]]))
    }
}

/// One course's fixtures: its manifest and its data, compiled in.
pub struct Fixtures {
    manifest: &'static str,
    data: &'static [u8],
}

impl Fixtures {
    /// The fixtures of `manifest` over `data`.
    pub const fn new(manifest: &'static str, data: &'static [u8]) -> Fixtures {
        Fixtures { manifest, data }
    }

    /// The array `name`, of element type `T`. Panics (tutor's bug, never the learner's) when the
    /// fixtures do not hold it as `T`: each course's own tests read every name it uses.
    pub fn array<T: Stored>(&self, name: &str) -> ArrayD<T> {
        let line = self
            .manifest
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("fixture {name} is not in the manifest"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1], T::STORED_AS, "fixture {name} is stored as {}", fields[1]);
        let shape: Vec<usize> = match fields[2] {
            "scalar" => Vec::new(),
            dims => dims.split('x').map(|d| d.parse().expect("a dimension")).collect(),
        };
        let offset: usize = fields[3].parse().expect("a byte offset");
        let width = std::mem::size_of::<T>();
        let count: usize = shape.iter().product();
        let bytes = &self.data[offset..offset + count * width];
        let values = bytes.chunks_exact(width).map(T::decode).collect();
        ArrayD::from_shape_vec(IxDyn(&shape), values).expect("the manifest's shape holds its elements")
    }

    /// A 2-D f32 fixture (a weight or a weight's gradient).
    pub fn matrix(&self, name: &str) -> Array2<f32> {
        self.array::<f32>(name).into_dimensionality().expect("a weight has two axes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_read_by_name_in_their_dtype_and_shape() {
        let mut data = Vec::new();
        data.extend([1.5f32, -2.0].iter().flat_map(|v| v.to_le_bytes()));
        data.extend([f16::INFINITY.to_bits()].iter().flat_map(|v| v.to_le_bytes()));
        data.extend(0.25f64.to_le_bytes());
        let data: &'static [u8] = Box::leak(data.into_boxed_slice());
        let fixtures = Fixtures::new("# header\nw f32 1x2 0\nh f16 1 8\ns f64 scalar 10\n", data);
        assert_eq!(fixtures.matrix("w").into_raw_vec_and_offset().0, vec![1.5, -2.0]);
        assert!(fixtures.array::<f16>("h")[[0]].to_f32().is_infinite());
        assert_eq!(fixtures.array::<f64>("s").into_raw_vec_and_offset().0, vec![0.25]);
    }
}
