//! A learnable tensor of any rank, the counterpart of PyTorch's `nn.Parameter`: one type for
//! every course (RMSNorm's `[D]` scale, SwiGLU's `[out, in]` weights), which each kit re-exports
//! at its rank (`pub type Param = tutor_subject::Param<Ix1>;`).

use std::fmt;

use ndarray::{Array, Dimension, Ix1};

use crate::text::Bi;

/// A learnable tensor. Its master value stays FP32 whatever the activations' dtype, as in
/// mixed-precision training; gradients accumulate (`+=`) until cleared, as `.grad` does in PyTorch.
#[derive(Debug, Clone, PartialEq)]
pub struct Param<D: Dimension = Ix1> {
    /// The current value (FP32 master copy).
    pub value: Array<f32, D>,
    /// The accumulated gradient; `None` until a backward pass reaches this parameter.
    pub grad: Option<Array<f32, D>>,
    /// Whether backward passes accumulate into `grad` (a frozen parameter stays at `None`).
    pub requires_grad: bool,
}

/// A gradient whose shape is not its parameter's. A course's error type converts from it, so
/// that `weight.accumulate_grad(&dw)?` works in a function returning the course's error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradShapeMismatch {
    /// The parameter's shape.
    pub expected: Vec<usize>,
    /// The gradient's shape.
    pub found: Vec<usize>,
}

impl GradShapeMismatch {
    /// What went wrong, in each language.
    pub fn text(&self) -> Bi {
        Bi::new(
            format!("梯度的形状 {:?} 与参数的形状 {:?} 不一致", self.found, self.expected),
            format!("a gradient of shape {:?} for a parameter of shape {:?}", self.found, self.expected),
        )
    }
}

impl fmt::Display for GradShapeMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.text();
        write!(f, "{} / {}", text.en, text.zh)
    }
}

impl std::error::Error for GradShapeMismatch {}

impl<D: Dimension> Param<D> {
    /// A parameter the optimiser trains: gradients accumulate into it.
    pub fn trainable(value: Array<f32, D>) -> Self {
        Param { value, grad: None, requires_grad: true }
    }

    /// A parameter that is never trained: backward passes leave `grad` untouched.
    pub fn frozen(value: Array<f32, D>) -> Self {
        Param { value, grad: None, requires_grad: false }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.value.len()
    }

    /// True when the parameter holds no element.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// Its shape (`[out, in]` for a linear layer's weight).
    pub fn shape(&self) -> &[usize] {
        self.value.shape()
    }

    /// Adds `delta` to the gradient when this parameter requires one; a frozen parameter ignores
    /// it. A `delta` of another shape is an error and changes nothing.
    pub fn accumulate_grad(&mut self, delta: &Array<f32, D>) -> Result<(), GradShapeMismatch> {
        if delta.shape() != self.value.shape() {
            return Err(GradShapeMismatch { expected: self.value.shape().to_vec(), found: delta.shape().to_vec() });
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

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn gradients_accumulate_only_when_trainable() {
        let mut trained = Param::trainable(array![1.0, 1.0]);
        trained.accumulate_grad(&array![0.5, 1.0]).unwrap();
        trained.accumulate_grad(&array![0.5, 1.0]).unwrap();
        assert_eq!(trained.grad, Some(array![1.0, 2.0]));
        trained.clear_grad();
        assert_eq!(trained.grad, None);
        let mut frozen = Param::frozen(array![1.0, 1.0]);
        frozen.accumulate_grad(&array![0.5, 1.0]).unwrap();
        assert_eq!(frozen.grad, None);
    }

    #[test]
    fn a_gradient_of_another_shape_is_an_error_at_any_rank() {
        let mut p = Param::trainable(array![1.0, 1.0]);
        assert!(p.accumulate_grad(&array![1.0]).is_err());
        assert_eq!((p.len(), p.is_empty(), p.grad.clone()), (2, false, None));
        let mut w = Param::trainable(Array::<f32, _>::zeros((2, 3)));
        let err = w.accumulate_grad(&Array::zeros((3, 2))).unwrap_err();
        assert_eq!((err.expected, err.found), (vec![2, 3], vec![3, 2]));
        w.accumulate_grad(&Array::ones((2, 3))).unwrap();
        assert_eq!(w.shape(), &[2, 3]);
        assert_eq!(w.grad.map(|g| g.sum()), Some(6.0));
    }
}
