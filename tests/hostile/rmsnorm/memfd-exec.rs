//! A hostile exercise file: tries to become another program. It carries `/bin/true` inside
//! itself (`.incbin`, which the build may read: it is a system file), copies it into a file in
//! memory (`memfd_create`) and executes that with `execveat`, which no Landlock rule names; and
//! failing the copy, it executes `/bin/true` itself through a descriptor. Both calls are
//! refused, so it panics saying so; had either worked, `/bin/true` would have ended the
//! program with exit code 0 instead.
//! exercise: 02-norm
//! shows: memfd_create refused: Operation not permitted
//! shows: execveat refused: Operation not permitted
//! hides: exit code 0

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

pub struct RMSNorm {
    pub eps: f32,
    pub weight: Param,
}

extern "C" {
    fn syscall(number: i64, ...) -> i64;
    static incbin_start: u8;
    static incbin_end: u8;
}

#[cfg(target_arch = "x86_64")]
const SYS_MEMFD_CREATE: i64 = 319;
#[cfg(target_arch = "x86_64")]
const SYS_EXECVEAT: i64 = 322;
#[cfg(target_arch = "aarch64")]
const SYS_MEMFD_CREATE: i64 = 279;
#[cfg(target_arch = "aarch64")]
const SYS_EXECVEAT: i64 = 281;
const AT_EMPTY_PATH: i64 = 0x1000;

std::arch::global_asm!(
    ".section .rodata.incbin,\"a\"",
    ".global incbin_start",
    ".global incbin_end",
    "incbin_start:",
    ".incbin \"/bin/true\"",
    "incbin_end:",
    ".text",
);

impl RMSNorm {
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        use std::io::Write;
        use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
        reference::check_input(x, self.weight.len())?;
        let start = unsafe { &incbin_start as *const u8 };
        let length = unsafe { (&incbin_end as *const u8).offset_from(start) } as usize;
        let elf = unsafe { std::slice::from_raw_parts(start, length) };

        let memfd = unsafe { syscall(SYS_MEMFD_CREATE, c"true".as_ptr(), 0i64) };
        let (memfd_said, program) = if memfd < 0 {
            let said = format!("memfd_create refused: {}", std::io::Error::last_os_error());
            (said, std::fs::File::open("/bin/true").map(OwnedFd::from).ok())
        } else {
            let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(memfd as i32) });
            let written = file.write_all(elf);
            (format!("memfd_create worked, copy {written:?}"), Some(OwnedFd::from(file)))
        };
        let Some(program) = program else { panic!("{memfd_said}; nothing to execute") };
        let argv = [c"true".as_ptr(), std::ptr::null()];
        let envp = [std::ptr::null::<std::ffi::c_char>()];
        let fd = program.as_raw_fd() as i64;
        unsafe { syscall(SYS_EXECVEAT, fd, c"".as_ptr(), argv.as_ptr(), envp.as_ptr(), AT_EMPTY_PATH) };
        panic!("{memfd_said}; execveat refused: {}", std::io::Error::last_os_error())
    }

    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}
