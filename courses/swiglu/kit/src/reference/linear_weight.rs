//! Answers: TODO 2.

use ndarray::Array2;

use crate::{MlpError, Param, Rng};

/// A trainable `[out, in]` weight drawn from `U(−1/√in, 1/√in)` (PyTorch's default for
/// `nn.Linear`, its `kaiming_uniform_(a=√5)`), from `Rng::new(seed)`.
pub fn linear_weight(in_features: usize, out_features: usize, seed: u64) -> Result<Param, MlpError> {
    super::check_sizes(in_features, out_features)?;
    let bound = 1.0 / (in_features as f32).sqrt();
    let mut rng = Rng::new(seed);
    Ok(Param::trainable(Array2::from_shape_fn((out_features, in_features), |_| rng.uniform(-bound, bound))))
}
