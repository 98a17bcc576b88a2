//! A hostile exercise file (found by an adversarial learner): writes a frame of its own into
//! tutor's socket before each reply, at once. Every case fails as unreadable; none may be blamed
//! on a slow answer (the programs discarded one after another used to take the time limit).
//! exercise: 02-norm
//! args: --timeout 2
//! shows: unknown envelope 127
//! hides: used up the 2 s time limit
//! hides: not run: an earlier case used up the time limit

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

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        use std::io::Write;
        use std::os::fd::FromRawFd;
        let replies = std::env::var("TUTOR_PROTOCOL_FDS").ok().and_then(|v| v.split(',').nth(1)?.parse().ok());
        if let Some(fd) = replies {
            // SAFETY: none; this file attacks on purpose (the descriptor is the program's own).
            let socket = unsafe { std::fs::File::from_raw_fd(fd) };
            // A frame of one byte, an envelope that does not exist, before the real reply.
            let _ = (&socket).write_all(&[1, 0, 0, 0, 0x7f]);
            std::mem::forget(socket);
        }
        Ok(x.mapv(|v| v.to_f32()))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
