//! The bias-free projection every chapter's kit computes the same way: `y = x·Wᵀ` over the last
//! axis, as a PyTorch module in `T` does it on the CPU (the weight rounded to `T`, products
//! summed in FP32, each output rounded once to `T`).

use ndarray::{Array2, ArrayD};

use crate::Float;

/// `x·Wᵀ` for `x` `[..., in]` and `weight` `[out, in]`: `[..., out]`, or `None` when `x` has no
/// axis or its last axis is not `in` long (the caller words its own error first).
pub fn project<T: Float>(x: &ArrayD<T>, weight: &Array2<f32>) -> Option<ArrayD<T>> {
    let (out_features, in_features) = weight.dim();
    if x.shape().last() != Some(&in_features) {
        return None;
    }
    let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
    let x32 = Array2::from_shape_vec((rows, in_features), x.iter().map(|v| v.to_f32()).collect()).ok()?;
    let w_as_t = weight.mapv(|w| T::from_f32(w).to_f32());
    let y = x32.dot(&w_as_t.t());
    let mut shape = x.shape().to_vec();
    shape[x.ndim() - 1] = out_features;
    ArrayD::from_shape_vec(shape, y.iter().map(|&v| T::from_f32(v)).collect()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::bf16;
    use ndarray::IxDyn;

    #[test]
    fn sums_in_fp32_and_refuses_a_wrong_last_axis() {
        // 512 products of 1·1 in bf16 would stall at 256 (the spacing there is 2).
        let w = Array2::ones((1, 512));
        let x = ArrayD::from_elem(IxDyn(&[2, 512]), bf16::ONE);
        let y = project(&x, &w).expect("the last axis fits");
        assert_eq!((y.shape(), y[[1, 0]].to_f32()), (&[2, 1][..], 512.0));
        assert!(project(&ArrayD::from_elem(IxDyn(&[3]), 1.0f32), &w).is_none());
    }
}
