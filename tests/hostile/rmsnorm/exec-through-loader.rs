//! A hostile exercise file: runs another program through the dynamic loader, which the kernel
//! must be allowed to run (it starts every dynamically linked program): `ld.so /usr/bin/true`.
//! Where the kernel lets tutor count (seccomp user notification, Linux 5.8), the program's own
//! start was its one exec, so this one is refused and it panics saying so; had it worked,
//! `true` would have ended the program with exit code 0 instead.
//! exercise: 02-norm
//! shows: exec through the loader refused: Operation not permitted
//! hides: exit code 0

use ndarray::ArrayD;
use std::os::unix::process::CommandExt;
use tutor_kit::{reference, Float, NormError, Param};

/// The loader this program was started by, as its memory map names it.
fn loader() -> String {
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let mut paths = maps.split_whitespace().filter(|word| word.starts_with('/'));
    paths.find(|path| path.contains("/ld-linux") || path.contains("/ld-musl")).unwrap_or("/lib64/ld-linux-x86-64.so.2").to_string()
}

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

impl RMSNorm {
    pub fn new(_hidden_size: usize, _eps: f32) -> Result<Self, NormError> {
        let error = std::process::Command::new(loader()).arg("/usr/bin/true").exec();
        panic!("exec through the loader refused: {error}");
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        Ok(x.mapv(|_| 0.0))
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
