//! A hostile exercise file: announces a reply on tutor's socket, then sends it a byte every
//! tenth of a second, so that each wait for the next byte is short but the reply never ends.
//! exercise: 02-norm
//! args: --timeout 2
//! shows: used up the 2 s time limit

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
        use std::io::Write;
        use std::os::fd::FromRawFd;
        let replies = std::env::var("TUTOR_PROTOCOL_FDS").ok().and_then(|v| v.split(',').nth(1)?.parse().ok());
        if let Some(fd) = replies {
            // SAFETY: none; this file attacks on purpose (the descriptor is the program's own).
            let mut socket = unsafe { std::fs::File::from_raw_fd(fd) };
            let _ = socket.write_all(&1000u32.to_le_bytes());
            for _ in 0..1000 {
                std::thread::sleep(std::time::Duration::from_millis(100));
                let _ = socket.write_all(&[0]);
            }
        }
        Err(NormError::NoAxis)
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::check_input(x, self.weight.len())?;
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
