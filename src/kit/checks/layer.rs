//! The exercise as the checks see it: an object-safe view of the `RMSNorm` API.
//!
//! The learner's methods are generic over the element type; a trait object cannot be. So the
//! [`graded_subject!`](crate::graded_subject) macro writes one thin method per element type the
//! checks use, and the checks themselves stay free of generics over the subject. That keeps them
//! compiled once, in the kit library, and the per-exercise binary small: a warm re-check
//! recompiles only the learner's file and these forwarding methods.

use half::{bf16, f16};
use ndarray::ArrayD;

use crate::{Float, NormError, Param};

/// The learner's `RMSNorm`, one method per element type.
#[allow(missing_docs)]
pub trait Layer {
    fn norm_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    fn norm_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f32>, NormError>;
    fn norm_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f32>, NormError>;
    fn norm_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<f32>, NormError>;
    fn forward_f32(&self, x: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    fn forward_f64(&self, x: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError>;
    fn forward_f16(&self, x: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError>;
    fn forward_bf16(&self, x: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError>;
    fn backward_f32(&mut self, x: &ArrayD<f32>, g: &ArrayD<f32>) -> Result<ArrayD<f32>, NormError>;
    fn backward_f64(&mut self, x: &ArrayD<f64>, g: &ArrayD<f64>) -> Result<ArrayD<f64>, NormError>;
    fn backward_f16(&mut self, x: &ArrayD<f16>, g: &ArrayD<f16>) -> Result<ArrayD<f16>, NormError>;
    fn backward_bf16(&mut self, x: &ArrayD<bf16>, g: &ArrayD<bf16>) -> Result<ArrayD<bf16>, NormError>;
    /// The `eps` field.
    fn eps(&self) -> f32;
    /// The `weight` field.
    fn weight(&self) -> &Param;
    /// The `weight` field, to set non-unit test weights.
    fn weight_mut(&mut self) -> &mut Param;
}

/// `RMSNorm::new`, boxed.
pub type Build = fn(usize, f32) -> Result<Box<dyn Layer>, NormError>;

/// An element type the checks feed to a [`Layer`]: picks the matching method.
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
