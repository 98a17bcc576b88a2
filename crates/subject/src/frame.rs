//! The binary format between tutor and a graded program, below any course: length-prefixed
//! frames, and the primitive values a course's requests and replies are made of. Arrays travel as
//! raw little-endian bits, so every value (f16 and bf16 included) arrives exactly as it was
//! computed. Deliberately tiny (no serde): it is built into every graded program and its build
//! time is the learner's wait.
//!
//! A frame is a `u32` length and that many bytes. Nothing in a reply is a verdict: a reply only
//! carries what the learner's code returned, and tutor decides what that means.

use std::io::{self, Read, Write};

use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};

/// The largest frame either side accepts: far above any case, far below a runaway reply.
pub const MAX_FRAME: usize = 64 << 20;
/// The most axes an array may have on the wire.
pub const MAX_AXES: usize = 16;

/// Why bytes could not be read as a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError(pub String);

impl std::fmt::Display for WireError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed message: {}", self.0)
    }
}

impl std::error::Error for WireError {}

/// An array of any of the four element types.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyArray {
    F32(ArrayD<f32>),
    F64(ArrayD<f64>),
    F16(ArrayD<f16>),
    Bf16(ArrayD<bf16>),
}

/// An element type that an [`AnyArray`] can hold.
pub trait Wired: Sized {
    /// Wraps a typed array.
    fn wrap(array: ArrayD<Self>) -> AnyArray;
    /// Unwraps an array of this type; `None` for another element type.
    fn unwrap(array: AnyArray) -> Option<ArrayD<Self>>;
}

macro_rules! wired {
    ($t:ty, $variant:ident) => {
        impl Wired for $t {
            fn wrap(array: ArrayD<Self>) -> AnyArray {
                AnyArray::$variant(array)
            }
            fn unwrap(array: AnyArray) -> Option<ArrayD<Self>> {
                match array {
                    AnyArray::$variant(a) => Some(a),
                    _ => None,
                }
            }
        }
    };
}

wired!(f32, F32);
wired!(f64, F64);
wired!(f16, F16);
wired!(bf16, Bf16);

/// Writes one frame.
pub fn write_frame(out: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let length = u32::try_from(payload.len()).map_err(|_| io::Error::other("frame too large"))?;
    // One write for the whole frame: on a socket, a separate write of the length wakes the
    // reader for four bytes, and every request would cost two wake-ups instead of one.
    let mut frame = Vec::with_capacity(4 + payload.len());
    frame.extend_from_slice(&length.to_le_bytes());
    frame.extend_from_slice(payload);
    out.write_all(&frame)?;
    out.flush()
}

/// Reads one frame; `None` at a clean end of input.
pub fn read_frame(input: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    read_frame_within(input, MAX_FRAME)
}

/// Reads one frame of at most `limit` bytes (and never over [`MAX_FRAME`]); a longer one is
/// refused by its length alone (`InvalidData`), before any of it is read or memory is taken for
/// it. `None` at a clean end of input.
pub fn read_frame_within(input: &mut impl Read, limit: usize) -> io::Result<Option<Vec<u8>>> {
    let mut length = [0u8; 4];
    match input.read_exact(&mut length) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let length = u32::from_le_bytes(length) as usize;
    let limit = limit.min(MAX_FRAME);
    if length > limit {
        let why = format!("a frame of {length} bytes, over the {limit} it may have");
        return Err(io::Error::new(io::ErrorKind::InvalidData, why));
    }
    let mut payload = vec![0u8; length];
    input.read_exact(&mut payload)?;
    Ok(Some(payload))
}

/// An element type's wire form.
pub trait WireElement: Copy {
    const TAG: u8;
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! wire_element {
    ($t:ty, $tag:expr, $bits:ty, $to:expr, $from:expr) => {
        impl WireElement for $t {
            const TAG: u8 = $tag;
            const SIZE: usize = std::mem::size_of::<$bits>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&$to(self).to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut raw = [0u8; std::mem::size_of::<$bits>()];
                raw.copy_from_slice(bytes);
                $from(<$bits>::from_le_bytes(raw))
            }
        }
    };
}

wire_element!(f32, 0, u32, f32::to_bits, f32::from_bits);
wire_element!(f64, 1, u64, f64::to_bits, f64::from_bits);
wire_element!(f16, 2, u16, f16::to_bits, f16::from_bits);
wire_element!(bf16, 3, u16, bf16::to_bits, bf16::from_bits);
// Integer and bool arrays (positions, token ids, masks): the same frames, their own tags. A bool
// travels as a byte, and any byte but 0 reads as true.
wire_element!(i64, 4, i64, |v: i64| v, |v: i64| v);
wire_element!(i32, 5, i32, |v: i32| v, |v: i32| v);
wire_element!(u32, 6, u32, |v: u32| v, |v: u32| v);
wire_element!(bool, 7, u8, u8::from, |v: u8| v != 0);

#[derive(Default)]
/// Builds a message: the primitive values in their wire form, appended in order.
pub struct Writer(pub Vec<u8>);

impl Writer {
    /// A byte.
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    /// A little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// A little-endian u64.
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// An f32, by its bits.
    pub fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    /// A length or count (as u64).
    pub fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }
    /// UTF-8 text with its length.
    pub fn text(&mut self, text: &str) {
        self.len(text.len());
        self.0.extend_from_slice(text.as_bytes());
    }
    /// A list of f32 with its length.
    pub fn f32s(&mut self, values: &[f32]) {
        self.len(values.len());
        values.iter().for_each(|v| v.put(&mut self.0));
    }
    /// A typed array: element tag, shape, elements in logical order.
    pub fn typed<T: WireElement>(&mut self, array: &ArrayD<T>) {
        self.u8(T::TAG);
        self.len(array.ndim());
        array.shape().iter().for_each(|&d| self.len(d));
        // `iter` walks in logical (row-major) order whatever the memory layout.
        array.iter().for_each(|v| v.put(&mut self.0));
    }
    /// An array of any element type.
    pub fn array(&mut self, array: &AnyArray) {
        match array {
            AnyArray::F32(a) => self.typed(a),
            AnyArray::F64(a) => self.typed(a),
            AnyArray::F16(a) => self.typed(a),
            AnyArray::Bf16(a) => self.typed(a),
        }
    }
    /// A shape: axis count, then each length.
    pub fn shape(&mut self, shape: &[usize]) {
        self.len(shape.len());
        shape.iter().for_each(|&d| self.len(d));
    }
}

/// Reads a message: the primitive values in the order they were written; every read checks the
/// bytes left, so malformed input is an error, never a panic.
pub struct Reader<'a>(pub &'a [u8]);

impl Reader<'_> {
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&[u8], WireError> {
        if self.0.len() < n {
            return Err(WireError(format!("{n} more bytes expected, {} left", self.0.len())));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Ok when every byte has been read.
    pub fn end(&self) -> Result<(), WireError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(WireError(format!("{} bytes left over", self.0.len())))
        }
    }
    /// A byte.
    pub fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }
    /// A little-endian u32.
    pub fn u32(&mut self) -> Result<u32, WireError> {
        let mut raw = [0u8; 4];
        raw.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(raw))
    }
    /// A little-endian u64.
    pub fn u64(&mut self) -> Result<u64, WireError> {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(raw))
    }
    /// An f32, by its bits.
    pub fn f32(&mut self) -> Result<f32, WireError> {
        Ok(f32::from_bits(self.u32()?))
    }
    /// A length or count, bounded by the frame size.
    pub fn len(&mut self) -> Result<usize, WireError> {
        let n = self.u64()?;
        usize::try_from(n).ok().filter(|&n| n <= MAX_FRAME).ok_or_else(|| WireError(format!("length {n}")))
    }
    /// UTF-8 text (invalid bytes replaced).
    pub fn text(&mut self) -> Result<String, WireError> {
        let n = self.len()?;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
    /// `count` elements of type `T`.
    pub fn elements<T: WireElement>(&mut self, count: usize) -> Result<Vec<T>, WireError> {
        let bytes = count.checked_mul(T::SIZE).ok_or_else(|| WireError("array too large".into()))?;
        Ok(self.take(bytes)?.chunks_exact(T::SIZE).map(T::get).collect())
    }
    /// A list of f32.
    pub fn f32s(&mut self) -> Result<Vec<f32>, WireError> {
        let n = self.len()?;
        self.elements(n)
    }
    /// A shape of at most `MAX_AXES` axes.
    pub fn shape(&mut self) -> Result<Vec<usize>, WireError> {
        let ndim = self.len()?;
        if ndim > MAX_AXES {
            return Err(WireError(format!("{ndim} axes")));
        }
        (0..ndim).map(|_| self.len()).collect()
    }
    /// An array of type `T` and `shape`.
    pub fn typed<T: WireElement>(&mut self, shape: Vec<usize>) -> Result<ArrayD<T>, WireError> {
        let count = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        let count = count.filter(|&n| n <= MAX_FRAME).ok_or_else(|| WireError(format!("shape {shape:?}")))?;
        let values = self.elements(count)?;
        ArrayD::from_shape_vec(IxDyn(&shape), values).map_err(|e| WireError(e.to_string()))
    }
    /// An array of any element type.
    pub fn array(&mut self) -> Result<AnyArray, WireError> {
        let tag = self.u8()?;
        let shape = self.shape()?;
        Ok(match tag {
            0 => AnyArray::F32(self.typed(shape)?),
            1 => AnyArray::F64(self.typed(shape)?),
            2 => AnyArray::F16(self.typed(shape)?),
            3 => AnyArray::Bf16(self.typed(shape)?),
            _ => return Err(WireError(format!("unknown element type {tag}"))),
        })
    }
}
