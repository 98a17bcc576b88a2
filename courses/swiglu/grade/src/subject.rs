//! The learner's code as the cases see it.
//!
//! TEMPORARY ADAPTER, until the generic protocol (branch i22proto: a course declares its calls
//! with `tutor_subject`'s macro, and tutor_grade's one client reaches the kit in process and
//! over the socket) lands: then [`Subject`] is implemented by that client and [`in_process!`]
//! goes. The cases only ever see this trait, so wiring changes no case.

use ndarray::{Array2, ArrayD};
use tutor_kit::{Float, MlpError, Param};

/// What tutor can ask of an exercise file (docs/swiglu-api.md, "What tutor calls"). A graded
/// program that dies or misbehaves unwinds with a fault, which the case runner reports.
pub trait Subject {
    /// A `Linear` built by the learner's `new`.
    type Linear;
    /// A `FeedForward` built by its `new`.
    type Block;
    /// `silu::<T>(x)`.
    fn silu<T: Float>(&self, x: &ArrayD<T>) -> ArrayD<T>;
    /// `silu_grad::<T>(x)`.
    fn silu_grad<T: Float>(&self, x: &ArrayD<T>) -> ArrayD<f64>;
    /// `hidden_size(dim, multiple_of, ffn_dim_multiplier)`.
    fn hidden_size(&self, dim: usize, multiple_of: usize, multiplier: Option<f64>) -> Result<usize, MlpError>;
    /// `Linear::new(in_features, out_features, seed)`.
    fn linear(&self, in_features: usize, out_features: usize, seed: u64) -> Result<Self::Linear, MlpError>;
    /// The Linear's `weight`.
    fn linear_weight(&self, linear: &Self::Linear) -> Param;
    /// Replaces the Linear's weight value.
    fn set_linear_weight(&self, linear: &mut Self::Linear, value: Array2<f32>);
    /// `linear.forward::<T>(x)`.
    fn linear_forward<T: Float>(&self, linear: &Self::Linear, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError>;
    /// `FeedForward::new(dim, hidden, seed)`.
    fn block(&self, dim: usize, hidden: usize, seed: u64) -> Result<Self::Block, MlpError>;
    /// The block's weights: gate, up, down.
    fn block_weights(&self, block: &Self::Block) -> [Param; 3];
    /// Replaces the block's weight values (gate, up, down) and clears their gradients.
    fn set_block_weights(&self, block: &mut Self::Block, values: [Array2<f32>; 3]);
    /// `block.forward::<T>(x)`.
    fn block_forward<T: Float>(&self, block: &Self::Block, x: &ArrayD<T>) -> Result<ArrayD<T>, MlpError>;
    /// `block.backward::<T>(x, grad_out)`.
    fn block_backward<T: Float>(
        &self,
        block: &mut Self::Block,
        x: &ArrayD<T>,
        grad_out: &ArrayD<T>,
    ) -> Result<ArrayD<T>, MlpError>;
}

/// Implements [`Subject`] for `$name`, calling the exercise module `$module` in this process
/// (TEMPORARY, see the module's documentation).
#[macro_export]
macro_rules! in_process {
    ($name:ident, $module:ident) => {
        struct $name;

        impl $crate::subject::Subject for $name {
            type Linear = $module::Linear;
            type Block = $module::FeedForward;
            fn silu<T: tutor_kit::Float>(&self, x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<T> {
                $module::silu(x)
            }
            fn silu_grad<T: tutor_kit::Float>(&self, x: &ndarray::ArrayD<T>) -> ndarray::ArrayD<f64> {
                $module::silu_grad(x)
            }
            fn hidden_size(&self, dim: usize, multiple: usize, m: Option<f64>) -> Result<usize, tutor_kit::MlpError> {
                $module::hidden_size(dim, multiple, m)
            }
            fn linear(&self, i: usize, o: usize, seed: u64) -> Result<Self::Linear, tutor_kit::MlpError> {
                $module::Linear::new(i, o, seed)
            }
            fn linear_weight(&self, linear: &Self::Linear) -> tutor_kit::Param {
                linear.weight.clone()
            }
            fn set_linear_weight(&self, linear: &mut Self::Linear, value: ndarray::Array2<f32>) {
                linear.weight.value = value;
            }
            fn linear_forward<T: tutor_kit::Float>(
                &self,
                linear: &Self::Linear,
                x: &ndarray::ArrayD<T>,
            ) -> Result<ndarray::ArrayD<T>, tutor_kit::MlpError> {
                linear.forward(x)
            }
            fn block(&self, dim: usize, hidden: usize, seed: u64) -> Result<Self::Block, tutor_kit::MlpError> {
                $module::FeedForward::new(dim, hidden, seed)
            }
            fn block_weights(&self, block: &Self::Block) -> [tutor_kit::Param; 3] {
                [block.gate.weight.clone(), block.up.weight.clone(), block.down.weight.clone()]
            }
            fn set_block_weights(&self, block: &mut Self::Block, [g, u, d]: [ndarray::Array2<f32>; 3]) {
                for (param, value) in
                    [(&mut block.gate.weight, g), (&mut block.up.weight, u), (&mut block.down.weight, d)]
                {
                    param.value = value;
                    param.clear_grad();
                }
            }
            fn block_forward<T: tutor_kit::Float>(
                &self,
                block: &Self::Block,
                x: &ndarray::ArrayD<T>,
            ) -> Result<ndarray::ArrayD<T>, tutor_kit::MlpError> {
                block.forward(x)
            }
            fn block_backward<T: tutor_kit::Float>(
                &self,
                block: &mut Self::Block,
                x: &ndarray::ArrayD<T>,
                grad_out: &ndarray::ArrayD<T>,
            ) -> Result<ndarray::ArrayD<T>, tutor_kit::MlpError> {
                block.backward(x, grad_out)
            }
        }
    };
}

/// No subject at all: the case list's titles are read from `cases::<Titles>()`, whose bodies
/// never run (a value of this type cannot exist).
pub enum Titles {}

impl Subject for Titles {
    type Linear = Titles;
    type Block = Titles;
    fn silu<T: Float>(&self, _: &ArrayD<T>) -> ArrayD<T> {
        match *self {}
    }
    fn silu_grad<T: Float>(&self, _: &ArrayD<T>) -> ArrayD<f64> {
        match *self {}
    }
    fn hidden_size(&self, _: usize, _: usize, _: Option<f64>) -> Result<usize, MlpError> {
        match *self {}
    }
    fn linear(&self, _: usize, _: usize, _: u64) -> Result<Titles, MlpError> {
        match *self {}
    }
    fn linear_weight(&self, _: &Titles) -> Param {
        match *self {}
    }
    fn set_linear_weight(&self, _: &mut Titles, _: Array2<f32>) {
        match *self {}
    }
    fn linear_forward<T: Float>(&self, _: &Titles, _: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        match *self {}
    }
    fn block(&self, _: usize, _: usize, _: u64) -> Result<Titles, MlpError> {
        match *self {}
    }
    fn block_weights(&self, _: &Titles) -> [Param; 3] {
        match *self {}
    }
    fn set_block_weights(&self, _: &mut Titles, _: [Array2<f32>; 3]) {
        match *self {}
    }
    fn block_forward<T: Float>(&self, _: &Titles, _: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        match *self {}
    }
    fn block_backward<T: Float>(&self, _: &mut Titles, _: &ArrayD<T>, _: &ArrayD<T>) -> Result<ArrayD<T>, MlpError> {
        match *self {}
    }
}
