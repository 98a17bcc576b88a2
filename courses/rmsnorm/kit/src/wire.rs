//! The RMSNorm course's requests and replies, on the frames of `tutor_subject::frame`: what tutor
//! asks the graded program to do, and what the learner's code returned. Nothing in a reply is a
//! verdict.

use ndarray::Array1;

pub use tutor_subject::frame::{read_frame, write_frame, AnyArray, WireError, Wired, MAX_FRAME};
use tutor_subject::frame::{Reader, Writer};

use crate::{NormError, Param};

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
                put_error(&mut w, error);
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
            5 => Reply::Error(get_error(&mut r)?),
            tag => return Err(WireError(format!("unknown reply {tag}"))),
        };
        r.end()?;
        Ok(reply)
    }
}

fn put_error(w: &mut Writer, error: &NormError) {
    match error {
        NormError::ZeroHiddenSize => w.u8(0),
        NormError::BadEps(eps) => {
            w.u8(1);
            w.f32(*eps);
        }
        NormError::NoAxis => w.u8(2),
        NormError::HiddenSizeMismatch { expected, found } => {
            w.u8(3);
            w.len(*expected);
            w.len(*found);
        }
        NormError::ShapeMismatch { expected, found } => {
            w.u8(4);
            w.shape(expected);
            w.shape(found);
        }
    }
}

fn get_error(r: &mut Reader) -> Result<NormError, WireError> {
    Ok(match r.u8()? {
        0 => NormError::ZeroHiddenSize,
        1 => NormError::BadEps(r.f32()?),
        2 => NormError::NoAxis,
        3 => NormError::HiddenSizeMismatch { expected: r.len()?, found: r.len()? },
        4 => NormError::ShapeMismatch { expected: r.shape()?, found: r.shape()? },
        tag => return Err(WireError(format!("unknown error {tag}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::{bf16, f16};
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
        round_trip_reply(Reply::Layer(9));
        round_trip_reply(Reply::Unit);
        round_trip_reply(Reply::Eps(1e-5));
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
