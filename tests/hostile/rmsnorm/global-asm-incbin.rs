//! A hostile exercise file: embeds the course's progress file with `.incbin` in `global_asm!`,
//! which reads it at compile time without a trace in rustc's dep-info, and prints it from a
//! panic. The build may not read the workspace, so this is a compile error.
//! exercise: 02-norm
//! shows: exercises/rmsnorm/02-norm.rs does not compile
//! shows: Could not find incbin file
//! hides: [exercises.
//! hides: your code panicked

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

extern "C" {
    static incbin_start: u8;
    static incbin_end: u8;
}

std::arch::global_asm!(
    ".section .rodata.incbin,\"a\"",
    ".global incbin_start",
    ".global incbin_end",
    "incbin_start:",
    ".incbin \"{{WORKSPACE}}/.tutor/state.toml\"",
    "incbin_end:",
    ".text",
);

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        let start = unsafe { &incbin_start as *const u8 };
        let length = unsafe { (&incbin_end as *const u8).offset_from(start) } as usize;
        let embedded = unsafe { std::slice::from_raw_parts(start, length) };
        panic!("embedded {length} bytes: {}", String::from_utf8_lossy(embedded))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
