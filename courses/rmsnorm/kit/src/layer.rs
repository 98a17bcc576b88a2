//! The object-safe view of an exercise's `RMSNorm`: one method per element type, so that the
//! request loop (and tutor's in-process tests) can call a generic learner type through a
//! `Box<dyn Layer>`. [`graded_subject!`](crate::graded_subject) writes the implementation.

use half::{bf16, f16};
use ndarray::{Array1, ArrayD};

use crate::{Float, NormError, Param};

/// An exercise's `RMSNorm`, seen through its methods.
pub trait Layer {
    /// `norm::<f32>`.
    fn norm_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    /// `norm::<f64>`.
    fn norm_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f32>, NormError>;
    /// `norm::<f16>`.
    fn norm_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f32>, NormError>;
    /// `norm::<bf16>`.
    fn norm_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<f32>, NormError>;
    /// `forward::<f32>`.
    fn forward_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    /// `forward::<f64>`.
    fn forward_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError>;
    /// `forward::<f16>`.
    fn forward_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError>;
    /// `forward::<bf16>`.
    fn forward_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError>;
    /// `backward::<f32>`.
    fn backward_f32(&mut self, x: &ArrayD<f32>, g: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    /// `backward::<f64>`.
    fn backward_f64(&mut self, x: &ArrayD<f64>, g: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError>;
    /// `backward::<f16>`.
    fn backward_f16(&mut self, x: &ArrayD<f16>, g: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError>;
    /// `backward::<bf16>`.
    fn backward_bf16(&mut self, x: &ArrayD<bf16>, g: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError>;
    /// The `eps` field.
    fn eps(&self) -> f32;
    /// A copy of the `weight` field.
    fn weight(&self) -> Param;
    /// Replaces the weight's value (the checks set non-unit weights).
    fn set_weight(&mut self, value: Array1<f32>);
    /// Forgets the weight's accumulated gradient.
    fn clear_grad(&mut self);
}

/// `RMSNorm::new`, boxed.
pub type Build = fn(usize, f32) -> Result<Box<dyn Layer>, NormError>;

/// An element type a [`Layer`] is called with: picks the matching method.
pub trait Element: Float {
    /// `norm` for this type.
    fn norm(layer: &dyn Layer, x: &ArrayD<Self>) -> Result<ArrayD<f32>, NormError>;
    /// `forward` for this type.
    fn forward(layer: &dyn Layer, x: &ArrayD<Self>) -> Result<ArrayD<Self>, NormError>;
    /// `backward` for this type.
    fn backward(layer: &mut dyn Layer, x: &ArrayD<Self>, g: &ArrayD<Self>) -> Result<ArrayD<Self>, NormError>;
}

macro_rules! element {
    ($t:ty, $norm:ident, $forward:ident, $backward:ident) => {
        impl Element for $t {
            fn norm(layer: &dyn Layer, x: &ArrayD<Self>) -> Result<ArrayD<f32>, NormError> {
                layer.$norm(x)
            }
            fn forward(layer: &dyn Layer, x: &ArrayD<Self>) -> Result<ArrayD<Self>, NormError> {
                layer.$forward(x)
            }
            fn backward(layer: &mut dyn Layer, x: &ArrayD<Self>, g: &ArrayD<Self>) -> Result<ArrayD<Self>, NormError> {
                layer.$backward(x, g)
            }
        }
    };
}

element!(f32, norm_f32, forward_f32, backward_f32);
element!(f64, norm_f64, forward_f64, backward_f64);
element!(f16, norm_f16, forward_f16, backward_f16);
element!(bf16, norm_bf16, forward_bf16, backward_bf16);

impl dyn Layer + '_ {
    /// `RMSNorm::norm` for any element type.
    pub fn norm<T: Element>(&self, x: &ArrayD<T>) -> Result<ArrayD<f32>, NormError> {
        T::norm(self, x)
    }

    /// `RMSNorm::forward` for any element type.
    pub fn forward<T: Element>(&self, x: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        T::forward(self, x)
    }

    /// `RMSNorm::backward` for any element type.
    pub fn backward<T: Element>(&mut self, x: &ArrayD<T>, g: &ArrayD<T>) -> Result<ArrayD<T>, NormError> {
        T::backward(self, x, g)
    }
}
