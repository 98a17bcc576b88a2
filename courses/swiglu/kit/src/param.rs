//! A learnable 2-D tensor, PyTorch's `nn.Parameter` for a Linear weight.
//!
//! TEMPORARY: `tutor_subject::Param<D>` (any rank) is being written on branch i22proto; when it
//! lands this file becomes `pub type Param = tutor_subject::Param<ndarray::Ix2>;`. The fields and
//! methods below are that type's, so no exercise file changes.

use ndarray::Array2;

use crate::MlpError;

/// A learnable 2-D tensor. Its master value stays FP32 whatever the activations' dtype; gradients
/// accumulate (`+=`) until cleared, as `.grad` does in PyTorch.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The current value (FP32 master copy), `[out_features, in_features]` for a Linear weight.
    pub value: Array2<f32>,
    /// The accumulated gradient; `None` until a backward pass reaches this parameter.
    pub grad: Option<Array2<f32>>,
    /// Whether backward passes accumulate into `grad`.
    pub requires_grad: bool,
}

impl Param {
    /// A parameter the optimiser trains: gradients accumulate into it.
    pub fn trainable(value: Array2<f32>) -> Self {
        Param { value, grad: None, requires_grad: true }
    }

    /// A parameter that is never trained: backward passes leave `grad` untouched.
    pub fn frozen(value: Array2<f32>) -> Self {
        Param { value, grad: None, requires_grad: false }
    }

    /// Adds `delta` to the gradient when this parameter requires one.
    pub fn accumulate_grad(&mut self, delta: &Array2<f32>) -> Result<(), MlpError> {
        if delta.shape() != self.value.shape() {
            return Err(MlpError::ShapeMismatch {
                expected: self.value.shape().to_vec(),
                found: delta.shape().to_vec(),
            });
        }
        if !self.requires_grad {
            return Ok(());
        }
        match &mut self.grad {
            Some(grad) => *grad += delta,
            None => self.grad = Some(delta.clone()),
        }
        Ok(())
    }

    /// Forgets the accumulated gradient (PyTorch's `zero_grad(set_to_none=True)`).
    pub fn clear_grad(&mut self) {
        self.grad = None;
    }
}
