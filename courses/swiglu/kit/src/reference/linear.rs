//! Answers: TODO 2.

use ndarray::{Array2, ArrayD};

use crate::{Float, MlpError, Param};

/// `y = x·Wᵀ` over the last axis: the weight as `T` sees it (each element rounded to `T`),
/// products accumulated in FP32, each output rounded once to `T`.
pub fn linear<T: Float>(x: &ArrayD<T>, weight: &Param) -> Result<ArrayD<T>, MlpError> {
    let (out_features, in_features) = weight.value.dim();
    super::check_features(x, in_features)?;
    let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
    let x32 = Array2::from_shape_vec((rows, in_features), x.iter().map(|v| v.to_f32()).collect())
        .expect("rows × in_features is x's element count");
    let w_as_t = weight.value.mapv(|w| T::from_f32(w).to_f32());
    let y = x32.dot(&w_as_t.t());
    let mut shape = x.shape().to_vec();
    shape[x.ndim() - 1] = out_features;
    Ok(ArrayD::from_shape_vec(shape, y.iter().map(|&v| T::from_f32(v)).collect())
        .expect("one output per row and out feature"))
}
