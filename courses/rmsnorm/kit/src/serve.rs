//! The graded program's main loop: read a request, call the learner's code, write the reply.
//!
//! tutor starts the program with its socket on the descriptors of `tutor_subject::protocol`, so
//! whatever the learner's code prints never mixes with the replies. The loop itself (frames,
//! panics caught and sent back, refusals) is `tutor_subject::serve`'s; this module decodes the
//! course's requests, calls the learner's code and encodes what it returned. Nothing here decides
//! a verdict.

use std::process::ExitCode;

use ndarray::Array1;

use crate::layer::{Build, Layer};
use crate::reference::{self, Serving};
use crate::wire::{AnyArray, Reply, Request};

/// Answers tutor's requests about the exercise that `build` makes, until the requests end.
/// `todo` is the TODO this program grades: the kit's own answer to it refuses to run.
pub fn serve(build: Build, todo: u32) -> ExitCode {
    let mut layers: Vec<Box<dyn Layer>> = Vec::new();
    tutor_subject::serve::serve(todo, |bytes: &[u8]| {
        let request = Request::decode(bytes).map_err(|e| e.to_string())?;
        // Marked as the method it calls: the given pieces refuse to compute while the exercise's
        // own method is being graded. Every request sets the mark (a panic leaves it to the next).
        reference::serving(match &request {
            Request::New { .. } => Serving::New,
            Request::Norm { .. } => Serving::Norm,
            Request::Forward { .. } => Serving::Forward,
            Request::Backward { .. } => Serving::Backward,
            _ => Serving::None,
        });
        let reply = dispatch(build, &mut layers, request);
        reference::serving(Serving::None);
        Ok(reply?.encode())
    })
}

/// Calls the learner's code for one request; `Err` for a request that makes no sense.
fn dispatch(build: Build, layers: &mut Vec<Box<dyn Layer>>, request: Request) -> Result<Reply, String> {
    let result = |r: Result<AnyArray, crate::NormError>| r.map_or_else(Reply::Error, Reply::Array);
    if let Request::New { hidden_size, eps } = request {
        let Ok(hidden_size) = usize::try_from(hidden_size) else {
            return Err(format!("hidden_size {hidden_size}"));
        };
        return Ok(match build(hidden_size, eps) {
            Ok(layer) => {
                layers.push(layer);
                Reply::Layer(u32::try_from(layers.len() - 1).unwrap_or(u32::MAX))
            }
            Err(e) => Reply::Error(e),
        });
    }
    let id = match &request {
        Request::New { .. } => return Err("unreachable".into()),
        Request::Norm { layer, .. }
        | Request::Forward { layer, .. }
        | Request::Backward { layer, .. }
        | Request::Weight { layer }
        | Request::SetWeight { layer, .. }
        | Request::ClearGrad { layer }
        | Request::Eps { layer } => *layer as usize,
    };
    let Some(layer) = layers.get_mut(id) else {
        return Err(format!("there is no layer {id}"));
    };
    Ok(match request {
        Request::New { .. } => return Err("unreachable".into()),
        Request::Norm { x, .. } => result(
            match x {
                AnyArray::F32(x) => layer.norm_f32(&x),
                AnyArray::F64(x) => layer.norm_f64(&x),
                AnyArray::F16(x) => layer.norm_f16(&x),
                AnyArray::Bf16(x) => layer.norm_bf16(&x),
            }
            .map(AnyArray::F32),
        ),
        Request::Forward { x, .. } => result(match x {
            AnyArray::F32(x) => layer.forward_f32(&x).map(AnyArray::F32),
            AnyArray::F64(x) => layer.forward_f64(&x).map(AnyArray::F64),
            AnyArray::F16(x) => layer.forward_f16(&x).map(AnyArray::F16),
            AnyArray::Bf16(x) => layer.forward_bf16(&x).map(AnyArray::Bf16),
        }),
        Request::Backward { x, grad_out, .. } => result(match (x, grad_out) {
            (AnyArray::F32(x), AnyArray::F32(g)) => layer.backward_f32(&x, &g).map(AnyArray::F32),
            (AnyArray::F64(x), AnyArray::F64(g)) => layer.backward_f64(&x, &g).map(AnyArray::F64),
            (AnyArray::F16(x), AnyArray::F16(g)) => layer.backward_f16(&x, &g).map(AnyArray::F16),
            (AnyArray::Bf16(x), AnyArray::Bf16(g)) => layer.backward_bf16(&x, &g).map(AnyArray::Bf16),
            _ => return Err("x and grad_out of different element types".into()),
        }),
        Request::Weight { .. } => Reply::Param(layer.weight()),
        Request::SetWeight { value, .. } => {
            layer.set_weight(Array1::from(value));
            Reply::Unit
        }
        Request::ClearGrad { .. } => {
            layer.clear_grad();
            Reply::Unit
        }
        Request::Eps { .. } => Reply::Eps(layer.eps()),
    })
}
