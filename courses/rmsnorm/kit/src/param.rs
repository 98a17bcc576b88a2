//! A learnable tensor, the kit's counterpart of PyTorch's `nn.Parameter`.

use ndarray::Array1;

use crate::NormError;

/// A learnable 1-D tensor. Its master value stays FP32 whatever the activations' dtype, as in
/// mixed-precision training; gradients accumulate (`+=`) until cleared, as `.grad` does in PyTorch.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The current value (FP32 master copy).
    pub value: Array1<f32>,
    /// The accumulated gradient; `None` until a backward pass reaches this parameter.
    pub grad: Option<Array1<f32>>,
    /// Whether backward passes accumulate into `grad` (a frozen parameter stays at `None`).
    pub requires_grad: bool,
}

impl Param {
    /// A parameter the optimiser trains: gradients accumulate into it.
    pub fn trainable(value: Array1<f32>) -> Self {
        Param { value, grad: None, requires_grad: true }
    }

    /// A parameter that is never trained: backward passes leave `grad` untouched.
    pub fn frozen(value: Array1<f32>) -> Self {
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

    /// Adds `delta` to the gradient when this parameter requires one; a frozen parameter ignores it.
    pub fn accumulate_grad(&mut self, delta: &Array1<f32>) -> Result<(), NormError> {
        if delta.len() != self.value.len() {
            return Err(NormError::ShapeMismatch { expected: vec![self.value.len()], found: vec![delta.len()] });
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
    fn a_gradient_of_the_wrong_length_is_an_error() {
        let mut p = Param::trainable(array![1.0, 1.0]);
        assert!(p.accumulate_grad(&array![1.0]).is_err());
        assert_eq!(p.len(), 2);
        assert!(!p.is_empty());
    }
}
