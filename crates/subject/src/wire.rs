//! The binary format between tutor and a graded program: length-prefixed frames, each a request
//! or a reply. Arrays travel as raw little-endian bits, so every value (f16 and bf16 included)
//! arrives exactly as it was computed. Deliberately tiny (no serde): it is built into every graded
//! program and its build time is the learner's wait.
//!
//! A frame is a `u32` length and that many bytes. Nothing in a reply is a verdict: a reply only
//! carries what the learner's code returned, and tutor decides what that means.

use std::io::{self, Read, Write};

use half::{bf16, f16};
use ndarray::{Array1, ArrayD, IxDyn};

use crate::{NormError, Param};

/// The largest frame either side accepts: far above any case, far below a runaway reply.
pub const MAX_FRAME: usize = 64 << 20;
/// The most axes an array may have on the wire.
const MAX_AXES: usize = 16;

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

/// What tutor asks the graded program to do.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// `RMSNorm::new(hidden_size, eps)`; replies with the new layer's handle.
    New { hidden_size: u64, eps: f32 },
    /// `layer.norm(x)`.
    Norm { layer: u32, x: AnyArray },
    /// `layer.forward(x)`.
    Forward { layer: u32, x: AnyArray },
    /// `layer.backward(x, grad_out)`.
    Backward { layer: u32, x: AnyArray, grad_out: AnyArray },
    /// A copy of `layer.weight`.
    Weight { layer: u32 },
    /// Sets `layer.weight.value`.
    SetWeight { layer: u32, value: Vec<f32> },
    /// `layer.weight.clear_grad()`.
    ClearGrad { layer: u32 },
    /// `layer.eps`.
    Eps { layer: u32 },
}

/// What the graded program answers.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Done, nothing to return.
    Unit,
    /// A new layer's handle.
    Layer(u32),
    /// An array the learner's code returned.
    Array(AnyArray),
    /// A copy of a weight.
    Param(Param),
    /// A number.
    Eps(f32),
    /// The learner's code returned `Err`.
    Error(NormError),
    /// The learner's code panicked.
    Panic { message: String, location: Option<String> },
    /// The request itself made no sense to the graded program (a layer that does not exist …).
    Refused(String),
}

/// Writes one frame.
pub fn write_frame(out: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let length = u32::try_from(payload.len()).map_err(|_| io::Error::other("frame too large"))?;
    out.write_all(&length.to_le_bytes())?;
    out.write_all(payload)?;
    out.flush()
}

/// Reads one frame; `None` at a clean end of input.
pub fn read_frame(input: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut length = [0u8; 4];
    match input.read_exact(&mut length) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let length = u32::from_le_bytes(length) as usize;
    if length > MAX_FRAME {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("a frame of {length} bytes")));
    }
    let mut payload = vec![0u8; length];
    input.read_exact(&mut payload)?;
    Ok(Some(payload))
}

impl Request {
    /// The request as frame bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            Request::New { hidden_size, eps } => {
                w.u8(1);
                w.u64(*hidden_size);
                w.f32(*eps);
            }
            Request::Norm { layer, x } => {
                w.u8(2);
                w.u32(*layer);
                w.array(x);
            }
            Request::Forward { layer, x } => {
                w.u8(3);
                w.u32(*layer);
                w.array(x);
            }
            Request::Backward { layer, x, grad_out } => {
                w.u8(4);
                w.u32(*layer);
                w.array(x);
                w.array(grad_out);
            }
            Request::Weight { layer } => {
                w.u8(5);
                w.u32(*layer);
            }
            Request::SetWeight { layer, value } => {
                w.u8(6);
                w.u32(*layer);
                w.f32s(value);
            }
            Request::ClearGrad { layer } => {
                w.u8(7);
                w.u32(*layer);
            }
            Request::Eps { layer } => {
                w.u8(8);
                w.u32(*layer);
            }
        }
        w.0
    }

    /// Reads a request from frame bytes.
    pub fn decode(bytes: &[u8]) -> Result<Request, WireError> {
        let mut r = Reader(bytes);
        let request = match r.u8()? {
            1 => Request::New { hidden_size: r.u64()?, eps: r.f32()? },
            2 => Request::Norm { layer: r.u32()?, x: r.array()? },
            3 => Request::Forward { layer: r.u32()?, x: r.array()? },
            4 => Request::Backward { layer: r.u32()?, x: r.array()?, grad_out: r.array()? },
            5 => Request::Weight { layer: r.u32()? },
            6 => Request::SetWeight { layer: r.u32()?, value: r.f32s()? },
            7 => Request::ClearGrad { layer: r.u32()? },
            8 => Request::Eps { layer: r.u32()? },
            tag => return Err(WireError(format!("unknown request {tag}"))),
        };
        r.end()?;
        Ok(request)
    }
}

impl Reply {
    /// The reply as frame bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::default();
        match self {
            Reply::Unit => w.u8(0),
            Reply::Layer(id) => {
                w.u8(1);
                w.u32(*id);
            }
            Reply::Array(array) => {
                w.u8(2);
                w.array(array);
            }
            Reply::Param(param) => {
                w.u8(3);
                w.f32s(&param.value.to_vec());
                match &param.grad {
                    Some(grad) => {
                        w.u8(1);
                        w.f32s(&grad.to_vec());
                    }
                    None => w.u8(0),
                }
                w.u8(u8::from(param.requires_grad));
            }
            Reply::Eps(eps) => {
                w.u8(4);
                w.f32(*eps);
            }
            Reply::Error(error) => {
                w.u8(5);
                w.error(error);
            }
            Reply::Panic { message, location } => {
                w.u8(6);
                w.text(message);
                w.text(location.as_deref().unwrap_or(""));
            }
            Reply::Refused(why) => {
                w.u8(7);
                w.text(why);
            }
        }
        w.0
    }

    /// Reads a reply from frame bytes.
    pub fn decode(bytes: &[u8]) -> Result<Reply, WireError> {
        let mut r = Reader(bytes);
        let reply = match r.u8()? {
            0 => Reply::Unit,
            1 => Reply::Layer(r.u32()?),
            2 => Reply::Array(r.array()?),
            3 => {
                let value = Array1::from(r.f32s()?);
                let grad = match r.u8()? {
                    0 => None,
                    _ => Some(Array1::from(r.f32s()?)),
                };
                Reply::Param(Param { value, grad, requires_grad: r.u8()? != 0 })
            }
            4 => Reply::Eps(r.f32()?),
            5 => Reply::Error(r.error()?),
            6 => {
                let message = r.text()?;
                let location = r.text()?;
                Reply::Panic { message, location: (!location.is_empty()).then_some(location) }
            }
            7 => Reply::Refused(r.text()?),
            tag => return Err(WireError(format!("unknown reply {tag}"))),
        };
        r.end()?;
        Ok(reply)
    }
}

/// An element type's wire form.
trait WireElement: Copy {
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

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn f32(&mut self, v: f32) {
        self.u32(v.to_bits());
    }
    fn len(&mut self, n: usize) {
        self.u64(n as u64);
    }
    fn text(&mut self, text: &str) {
        self.len(text.len());
        self.0.extend_from_slice(text.as_bytes());
    }
    fn f32s(&mut self, values: &[f32]) {
        self.len(values.len());
        values.iter().for_each(|v| v.put(&mut self.0));
    }
    fn typed<T: WireElement>(&mut self, array: &ArrayD<T>) {
        self.u8(T::TAG);
        self.len(array.ndim());
        array.shape().iter().for_each(|&d| self.len(d));
        // `iter` walks in logical (row-major) order whatever the memory layout.
        array.iter().for_each(|v| v.put(&mut self.0));
    }
    fn array(&mut self, array: &AnyArray) {
        match array {
            AnyArray::F32(a) => self.typed(a),
            AnyArray::F64(a) => self.typed(a),
            AnyArray::F16(a) => self.typed(a),
            AnyArray::Bf16(a) => self.typed(a),
        }
    }
    fn shape(&mut self, shape: &[usize]) {
        self.len(shape.len());
        shape.iter().for_each(|&d| self.len(d));
    }
    fn error(&mut self, error: &NormError) {
        match error {
            NormError::ZeroHiddenSize => self.u8(0),
            NormError::BadEps(eps) => {
                self.u8(1);
                self.f32(*eps);
            }
            NormError::NoAxis => self.u8(2),
            NormError::HiddenSizeMismatch { expected, found } => {
                self.u8(3);
                self.len(*expected);
                self.len(*found);
            }
            NormError::ShapeMismatch { expected, found } => {
                self.u8(4);
                self.shape(expected);
                self.shape(found);
            }
        }
    }
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], WireError> {
        if self.0.len() < n {
            return Err(WireError(format!("{n} more bytes expected, {} left", self.0.len())));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn end(&self) -> Result<(), WireError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(WireError(format!("{} bytes left over", self.0.len())))
        }
    }
    fn u8(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, WireError> {
        let mut raw = [0u8; 4];
        raw.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(raw))
    }
    fn u64(&mut self) -> Result<u64, WireError> {
        let mut raw = [0u8; 8];
        raw.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(raw))
    }
    fn f32(&mut self) -> Result<f32, WireError> {
        Ok(f32::from_bits(self.u32()?))
    }
    fn len(&mut self) -> Result<usize, WireError> {
        let n = self.u64()?;
        usize::try_from(n).ok().filter(|&n| n <= MAX_FRAME).ok_or_else(|| WireError(format!("length {n}")))
    }
    fn text(&mut self) -> Result<String, WireError> {
        let n = self.len()?;
        Ok(String::from_utf8_lossy(self.take(n)?).into_owned())
    }
    fn elements<T: WireElement>(&mut self, count: usize) -> Result<Vec<T>, WireError> {
        let bytes = count.checked_mul(T::SIZE).ok_or_else(|| WireError("array too large".into()))?;
        Ok(self.take(bytes)?.chunks_exact(T::SIZE).map(T::get).collect())
    }
    fn f32s(&mut self) -> Result<Vec<f32>, WireError> {
        let n = self.len()?;
        self.elements(n)
    }
    fn shape(&mut self) -> Result<Vec<usize>, WireError> {
        let ndim = self.len()?;
        if ndim > MAX_AXES {
            return Err(WireError(format!("{ndim} axes")));
        }
        (0..ndim).map(|_| self.len()).collect()
    }
    fn typed<T: WireElement>(&mut self, shape: Vec<usize>) -> Result<ArrayD<T>, WireError> {
        let count = shape.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        let count = count.filter(|&n| n <= MAX_FRAME).ok_or_else(|| WireError(format!("shape {shape:?}")))?;
        let values = self.elements(count)?;
        ArrayD::from_shape_vec(IxDyn(&shape), values).map_err(|e| WireError(e.to_string()))
    }
    fn array(&mut self) -> Result<AnyArray, WireError> {
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
    fn error(&mut self) -> Result<NormError, WireError> {
        Ok(match self.u8()? {
            0 => NormError::ZeroHiddenSize,
            1 => NormError::BadEps(self.f32()?),
            2 => NormError::NoAxis,
            3 => NormError::HiddenSizeMismatch { expected: self.len()?, found: self.len()? },
            4 => NormError::ShapeMismatch { expected: self.shape()?, found: self.shape()? },
            tag => return Err(WireError(format!("unknown error {tag}"))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn round_trip_request(request: Request) {
        assert_eq!(Request::decode(&request.encode()), Ok(request));
    }

    fn round_trip_reply(reply: Reply) {
        assert_eq!(Reply::decode(&reply.encode()), Ok(reply));
    }

    #[test]
    fn every_message_round_trips_bit_for_bit() {
        let x = array![[1.5f32, -0.0], [f32::INFINITY, 3e-42]].into_dyn();
        round_trip_request(Request::New { hidden_size: 4096, eps: 1e-6 });
        round_trip_request(Request::Norm { layer: 3, x: AnyArray::F32(x.clone()) });
        let halves = x.mapv(f16::from_f32);
        round_trip_request(Request::Forward { layer: 0, x: AnyArray::F16(halves.clone()) });
        let brains = x.mapv(bf16::from_f32);
        round_trip_request(Request::Backward {
            layer: 1,
            x: AnyArray::Bf16(brains.clone()),
            grad_out: AnyArray::Bf16(brains),
        });
        round_trip_request(Request::SetWeight { layer: 2, value: vec![0.5, -2.0] });
        round_trip_request(Request::ClearGrad { layer: 2 });
        round_trip_request(Request::Eps { layer: 2 });
        round_trip_request(Request::Weight { layer: 7 });
        round_trip_reply(Reply::Array(AnyArray::F64(array![1.0, 2.0].into_dyn())));
        round_trip_reply(Reply::Param(Param {
            value: array![1.0, 1.0],
            grad: Some(array![0.5, 0.25]),
            requires_grad: true,
        }));
        round_trip_reply(Reply::Param(Param::frozen(array![1.0])));
        round_trip_reply(Reply::Error(NormError::ShapeMismatch { expected: vec![2, 3], found: vec![3] }));
        round_trip_reply(Reply::Error(NormError::BadEps(-1.0)));
        round_trip_reply(Reply::Panic {
            message: "boom 💥".into(), location: Some("exercises/02-norm.rs:3:5".into())
        });
        round_trip_reply(Reply::Panic { message: "no location".into(), location: None });
        round_trip_reply(Reply::Layer(9));
        round_trip_reply(Reply::Unit);
        round_trip_reply(Reply::Eps(1e-5));
        round_trip_reply(Reply::Refused("no layer 9".into()));
        // NaN payloads survive too (compared by bits, since NaN != NaN).
        let nan = Reply::Array(AnyArray::F32(array![f32::from_bits(0x7fc0_0001)].into_dyn()));
        assert_eq!(Reply::decode(&nan.encode()).unwrap().encode(), nan.encode());
    }

    #[test]
    fn a_transposed_array_travels_in_logical_order() {
        let x = array![[1.0f32, 2.0], [3.0, 4.0]].reversed_axes().into_dyn();
        let Ok(Reply::Array(AnyArray::F32(back))) = Reply::decode(&Reply::Array(AnyArray::F32(x.clone())).encode())
        else {
            panic!("not an array")
        };
        assert_eq!(back, x);
    }

    #[test]
    fn malformed_bytes_are_errors_not_panics() {
        assert!(Request::decode(&[]).is_err());
        assert!(Request::decode(&[42]).is_err());
        assert!(Reply::decode(&[2, 0, 1, 0, 0, 0, 0, 0, 0, 0]).is_err(), "shape cut short");
        // An array claiming 2^62 elements.
        let mut huge = vec![2u8, 0];
        huge.extend_from_slice(&1u64.to_le_bytes());
        huge.extend_from_slice(&(1u64 << 62).to_le_bytes());
        assert!(Reply::decode(&huge).is_err());
        let mut extra = Reply::Unit.encode();
        extra.push(0);
        assert!(Reply::decode(&extra).is_err(), "bytes left over");
        let mut frames = std::io::Cursor::new(vec![255u8, 255, 255, 255]);
        assert!(read_frame(&mut frames).is_err(), "a frame over the limit");
        let mut empty = std::io::Cursor::new(Vec::new());
        assert!(read_frame(&mut empty).unwrap().is_none());
    }
}
