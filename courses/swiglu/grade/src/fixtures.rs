//! The PyTorch fixtures (`courses/swiglu/fixtures`, made by `make_fixtures.py`): raw
//! little-endian arrays, found by name through the manifest. Compiled in, so a check reads no
//! file at run time.

use ndarray::{Array2, ArrayD, IxDyn};
use tutor_kit::half::{bf16, f16};
use tutor_kit::Float;

const MANIFEST: &str = include_str!("../../fixtures/manifest.txt");
const DATA: &[u8] = include_bytes!("../../fixtures/fixtures.bin");

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

/// The array `name`, of element type `T`. Panics (tutor's bug, never the learner's) when the
/// fixtures do not hold it as `T`: the course's own tests read every name used.
pub fn array<T: Stored>(name: &str) -> ArrayD<T> {
    let line = MANIFEST
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("fixture {name} is not in the manifest"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(fields[1], T::STORED_AS, "fixture {name} is stored as {}", fields[1]);
    let shape: Vec<usize> = fields[2].split('x').map(|d| d.parse().expect("a dimension")).collect();
    let offset: usize = fields[3].parse().expect("a byte offset");
    let width = std::mem::size_of::<T>();
    let count: usize = shape.iter().product();
    let bytes = &DATA[offset..offset + count * width];
    let values = bytes.chunks_exact(width).map(T::decode).collect();
    ArrayD::from_shape_vec(IxDyn(&shape), values).expect("the manifest's shape holds its elements")
}

/// A 2-D f32 fixture (a weight or a weight's gradient).
pub fn matrix(name: &str) -> Array2<f32> {
    array::<f32>(name).into_dimensionality().expect("a weight has two axes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_reads_in_its_dtype_and_size() {
        assert_eq!(array::<f32>("silu.f32.x").len(), 256);
        assert_eq!(array::<bf16>("block.bf16.dx").shape(), &[2, 3, 16]);
        assert_eq!(matrix("linear.w").dim(), (40, 24));
        assert!(array::<f16>("silu.f16.x")[[0]].to_f32().is_infinite());
    }
}
