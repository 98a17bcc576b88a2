//! The RMSNorm subject over a [`Channel`]: every call on a layer is a request to the graded
//! program, in the course's own wire format (`tutor_kit::wire`), and every reply is what the
//! learner's code returned. A reply that does not fit its request raises a [`Fault`].

use half::{bf16, f16};
use ndarray::{Array1, ArrayD};
use tutor_grade::{call_decoded, Channel, Fault};
use tutor_kit::wire::{Reply, Request, Wired};
use tutor_kit::{Layer, NormError, Param};

use crate::subject::Subject;

/// The learner's exercise, in the graded program behind a channel.
pub struct Remote<'a>(pub &'a dyn Channel);

impl Remote<'_> {
    /// Sends `request` (about state of program `owner`, if any) and decodes the reply.
    fn call(&self, owner: Option<u64>, request: &Request) -> (Reply, u64) {
        call_decoded(self.0, owner, &request.encode(), Reply::decode)
    }
}

impl Subject for Remote<'_> {
    fn build(&self, hidden_size: usize, eps: f32) -> Result<Box<dyn Layer + '_>, NormError> {
        let (reply, generation) = self.call(None, &Request::New { hidden_size: hidden_size as u64, eps });
        match reply {
            Reply::Layer(id) => Ok(Box::new(RemoteLayer { subject: self, id, generation })),
            Reply::Error(e) => Err(e),
            other => unexpected(other),
        }
    }
}

/// A layer built in the graded program.
struct RemoteLayer<'a> {
    subject: &'a Remote<'a>,
    id: u32,
    generation: u64,
}

impl RemoteLayer<'_> {
    fn call(&self, request: Request) -> Reply {
        self.subject.call(Some(self.generation), &request).0
    }

    fn array<T: Wired>(&self, request: Request) -> Result<ArrayD<T>, NormError> {
        match self.call(request) {
            Reply::Array(array) => match T::unwrap(array) {
                Some(array) => Ok(array),
                None => Fault::Unreadable("an array of another element type".into()).raise(),
            },
            Reply::Error(e) => Err(e),
            other => unexpected(other),
        }
    }

    fn norm<T: Wired>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError>
    where
        ArrayD<T>: Clone,
    {
        self.array(Request::Norm { layer: self.id, x: T::wrap(x.clone()) })
    }

    fn forward<T: Wired>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError>
    where
        ArrayD<T>: Clone,
    {
        self.array(Request::Forward { layer: self.id, x: T::wrap(x.clone()) })
    }

    fn backward<T: Wired>(&self, x: &ArrayD<T>, g: &ArrayD<T>) -> Result<ArrayD<T>, NormError>
    where
        ArrayD<T>: Clone,
    {
        self.array(Request::Backward { layer: self.id, x: T::wrap(x.clone()), grad_out: T::wrap(g.clone()) })
    }
}

/// A reply that does not fit the request.
fn unexpected(reply: Reply) -> ! {
    Fault::Unreadable(format!("an unexpected reply: {reply:?}").chars().take(200).collect()).raise()
}

impl Layer for RemoteLayer<'_> {
    fn norm_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError> {
        self.norm(x)
    }
    fn norm_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f32>, NormError> {
        self.norm(x)
    }
    fn norm_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f32>, NormError> {
        self.norm(x)
    }
    fn norm_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<f32>, NormError> {
        self.norm(x)
    }
    fn forward_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError> {
        self.forward(x)
    }
    fn forward_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError> {
        self.forward(x)
    }
    fn forward_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError> {
        self.forward(x)
    }
    fn forward_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError> {
        self.forward(x)
    }
    fn backward_f32(&mut self, x: &ArrayD<f32>, g: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError> {
        RemoteLayer::backward(self, x, g)
    }
    fn backward_f64(&mut self, x: &ArrayD<f64>, g: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError> {
        RemoteLayer::backward(self, x, g)
    }
    fn backward_f16(&mut self, x: &ArrayD<f16>, g: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError> {
        RemoteLayer::backward(self, x, g)
    }
    fn backward_bf16(&mut self, x: &ArrayD<bf16>, g: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError> {
        RemoteLayer::backward(self, x, g)
    }
    fn eps(&self) -> f32 {
        match self.call(Request::Eps { layer: self.id }) {
            Reply::Eps(eps) => eps,
            other => unexpected(other),
        }
    }
    fn weight(&self) -> Param {
        match self.call(Request::Weight { layer: self.id }) {
            Reply::Param(param) => param,
            other => unexpected(other),
        }
    }
    fn set_weight(&mut self, value: Array1<f32>) {
        match self.call(Request::SetWeight { layer: self.id, value: value.to_vec() }) {
            Reply::Unit => {}
            other => unexpected(other),
        }
    }
    fn clear_grad(&mut self) {
        match self.call(Request::ClearGrad { layer: self.id }) {
            Reply::Unit => {}
            other => unexpected(other),
        }
    }
}
