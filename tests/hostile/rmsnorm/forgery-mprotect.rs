//! Forgery 4 of issue 28: makes the page of the kit's refusal (`refuse_if_answer`) writable and
//! executable with mprotect, writes `ret` over it, then calls the kit's own `rms_normalize`; and
//! tries code of its own, mapped writable and executable, or written and made executable after.
//! Now the graded program's filter refuses memory that is writable and executable (and any
//! mprotect to executable), and `rms_normalize` is not in 02's program to call.
//! exercise: 02-norm
//! shows: mprotect to RWX: refused
//! shows: mmap RWX: refused
//! shows: mprotect back to RX: refused
//! shows: reference::rms_normalize is not part of exercise 02-norm's program

use ndarray::ArrayD;
use tutor_kit::{reference, Float, NormError, Param};

/// RMSNorm: `y = x / sqrt(mean(x²) + eps) ⊙ weight`, statistics along the last axis only.
/// RMSNorm：只沿最后一维统计，`y = x / sqrt(mean(x²) + eps) ⊙ weight`。
pub struct RMSNorm {
    /// Added inside the square root, so that a zero vector stays finite.
    /// 加在平方根内部，保证零向量的结果有限。
    pub eps: f32,
    /// The per-feature scale γ, shape [D], FP32 master copy.
    /// 逐特征缩放参数 γ，形状 [D]，FP32 主副本。
    pub weight: Param,
}

impl RMSNorm {
    /// Builds the layer for hidden vectors of `hidden_size` features.
    /// 为 `hidden_size` 维的隐藏向量创建本层。
    pub fn new(hidden_size: usize, eps: f32) -> Result<Self, NormError> {
        reference::check_config(hidden_size, eps)?;
        // Exercise 01 writes the weight; here the kit provides it.
        // weight 由练习 01 编写；这里由 kit 提供。
        Ok(RMSNorm { eps, weight: reference::scale_parameter(hidden_size) })
    }

    /// `x / sqrt(mean(x²) + eps)` along the last axis, computed in FP32, same shape as `x`.
    /// 沿最后一维计算 `x / sqrt(mean(x²) + eps)`，在 FP32 中进行，形状与 `x` 相同。
    pub fn norm<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        reference::check_input(x, self.weight.len())?;
        patch_the_refusal();
        reference::rms_normalize(x, self.eps)
    }

    /// `norm(x) ⊙ weight`, rounded once to `T`.
    /// `norm(x) ⊙ weight`，只舍入一次回到 `T`。
    pub fn forward<T: Float>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        // Exercise 03 writes the scaling and the cast; here the kit provides them.
        // 缩放与类型恢复由练习 03 编写；这里由 kit 提供。
        reference::scale_and_cast(&self.norm(x)?, &self.weight)
    }

    /// Gradient of `sum(forward(x) ⊙ grad_out)`: returns dx, accumulates dweight into `weight.grad`.
    /// `sum(forward(x) ⊙ grad_out)` 的梯度：返回 dx，并把 dweight 累加到 `weight.grad`。
    pub fn backward<T: Float>(&mut self, x: &ArrayD<T>, grad_out: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        // Provided in every exercise: the gradient is checked against your forward, not written by you.
        // 每个练习都已提供：它会与你的 forward 做梯度核对，但不需要你来写。
        reference::backward(x, grad_out, self.eps, &mut self.weight)
    }
}

extern "C" {
    fn mprotect(addr: *mut u8, len: usize, prot: i32) -> i32;
    fn mmap(addr: *mut u8, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut u8;
}

const READ: i32 = 1;
const WRITE: i32 = 2;
const EXEC: i32 = 4;
const PRIVATE_ANONYMOUS: i32 = 0x02 | 0x20;
const FAILED: *mut u8 = usize::MAX as *mut u8;

fn said(result: bool) -> &'static str {
    if result {
        "allowed"
    } else {
        "refused"
    }
}

/// Overwrites the first byte of the refusal with `ret` through a page made writable and
/// executable; tries code written fresh besides, mapped writable and executable, or written
/// and then made executable.
fn patch_the_refusal() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let target = tutor_kit::__tutor_subject::serve::refuse_if_answer as *const () as usize;
        let page = (target & !4095) as *mut u8;
        // SAFETY: none; this is the attack.
        unsafe {
            let rwx = mprotect(page, 8192, READ | WRITE | EXEC) == 0;
            eprintln!("mprotect to RWX: {}", said(rwx));
            if rwx {
                *(target as *mut u8) = 0xC3;
            }
            let fresh = mmap(std::ptr::null_mut(), 4096, READ | WRITE | EXEC, PRIVATE_ANONYMOUS, -1, 0);
            eprintln!("mmap RWX: {}", said(fresh != FAILED));
            let scratch = mmap(std::ptr::null_mut(), 4096, READ | WRITE, PRIVATE_ANONYMOUS, -1, 0);
            if scratch != FAILED {
                *scratch = 0xC3;
                eprintln!("mprotect back to RX: {}", said(mprotect(scratch, 4096, READ | EXEC) == 0));
            }
        }
    });
}
