//! Answers: TODO 1, TODO 2, TODO 4. With chosen weights the block is SiLU or a Linear: a column
//! of ones appended to x makes `up` a constant, and `silu(gate)` or `gate` comes out.

use ndarray::{ArrayD, Zip};

use crate::{Float, MlpError, Param};

/// The block `down(silu(gate(x)) ⊙ up(x))`, every op rounded once to `T`.
pub fn feed_forward<T: Float>(x: &ArrayD<T>, gate: &Param, up: &Param, down: &Param) -> Result<ArrayD<T>, MlpError> {
    super::check_block(gate, up, down)?;
    let g = super::linear(x, gate)?;
    let u = super::linear(x, up)?;
    let product = Zip::from(&super::silu(&g)).and(&u).map_collect(|&a, &u| T::from_f32(a.to_f32() * u.to_f32()));
    super::linear(&product, down)
}
