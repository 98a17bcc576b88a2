//! A hostile exercise file: right for three calls, then ends the graded program, pretending the
//! loader could not find the kit. The cases after it fail as its own exits (exit 1, not a tool
//! problem: the program had answered), and no mistake is named from a program that stopped
//! answering.
//! exercise: 02-norm
//! shows: ended the graded program during this case
//! hides: could not start
//! hides: looks like a known mistake

use ndarray::{ArrayD, Axis};
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

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        reference::check_input(x, self.weight.len())?;
        if CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 3 {
            eprintln!("error while loading shared libraries: librmsnorm_kit.so: cannot open shared object file");
            std::process::exit(127);
        }
        let x32: ArrayD<f32> = x.mapv(|v| v.to_f32());
        let last = Axis(x32.ndim() - 1);
        let mean_square = x32.mapv(|v| v * v).mean_axis(last).expect("a non-empty last axis").insert_axis(last);
        Ok(&x32 / &mean_square.mapv(|m| (m + self.eps).sqrt()))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
