//! A hostile exercise file (found by an adversarial learner): panics with a 90 MB message,
//! more than a reply may hold. It is a panic of the learner's code, not a reply tampered with.
//! exercise: 02-norm
//! shows: your code panicked: too long too long
//! shows: more bytes · 另有
//! hides: could not be read

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, _x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        // Once per program: 26 messages of 90 MB take long to build in a debug build.
        static ONCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        if ONCE.swap(false, std::sync::atomic::Ordering::SeqCst) {
            panic!("{}", "too long ".repeat(10_000_000))
        }
        todo!()
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
