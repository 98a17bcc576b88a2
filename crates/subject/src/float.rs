//! The element types an exercise is generic over.

use std::fmt::{Debug, Display};
use std::ops::{Add, Div, Mul, Neg, Sub};

use half::{bf16, f16};
use num_traits::{One, Zero};

/// A floating-point element type: `f32`, `f64`, `half::f16` or `half::bf16`.
///
/// Arithmetic on `T` itself happens in `T`'s own precision (an `f16 * f16` is rounded to f16),
/// which is exactly why RMSNorm converts to FP32 before squaring and summing.
pub trait Float:
    Copy
    + Debug
    + Display
    + PartialOrd
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Zero
    + One
{
    /// The name used in messages, as PyTorch spells the dtype.
    const NAME: &'static str;
    /// Widen (or, for `f64`, round) to FP32.
    fn to_f32(self) -> f32;
    /// Round an FP32 value to this type: nearest, ties to even.
    fn from_f32(v: f32) -> Self;
    /// Widen to f64 (exact for every implementor).
    fn to_f64(self) -> f64;
    /// Round an f64 value to this type: nearest, ties to even.
    fn from_f64(v: f64) -> Self;
}

impl Float for f32 {
    const NAME: &'static str = "float32";
    fn to_f32(self) -> f32 {
        self
    }
    fn from_f32(v: f32) -> Self {
        v
    }
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
}

impl Float for f64 {
    const NAME: &'static str = "float64";
    fn to_f32(self) -> f32 {
        self as f32
    }
    fn from_f32(v: f32) -> Self {
        f64::from(v)
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> Self {
        v
    }
}

impl Float for f16 {
    const NAME: &'static str = "float16";
    fn to_f32(self) -> f32 {
        f16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        f16::from_f32(v)
    }
    fn to_f64(self) -> f64 {
        f16::to_f64(self)
    }
    fn from_f64(v: f64) -> Self {
        f16::from_f64(v)
    }
}

impl Float for bf16 {
    const NAME: &'static str = "bfloat16";
    fn to_f32(self) -> f32 {
        bf16::to_f32(self)
    }
    fn from_f32(v: f32) -> Self {
        bf16::from_f32(v)
    }
    fn to_f64(self) -> f64 {
        bf16::to_f64(self)
    }
    fn from_f64(v: f64) -> Self {
        bf16::from_f64(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_f32_rounds_to_nearest_even() {
        // 1 + 2^-11 lies exactly between two f16 neighbours (1 and 1 + 2^-10): ties go to even.
        let tie = 1.0 + 2f32.powi(-11);
        assert_eq!(<f16 as Float>::from_f32(tie).to_f32(), 1.0);
        let above = 1.0 + 2f32.powi(-11) + 2f32.powi(-20);
        assert_eq!(<f16 as Float>::from_f32(above).to_f32(), 1.0 + 2f32.powi(-10));
        // bf16 keeps 8 significant bits.
        let tie_bf = 1.0 + 2f32.powi(-8);
        assert_eq!(<bf16 as Float>::from_f32(tie_bf).to_f32(), 1.0);
    }

    #[test]
    fn half_arithmetic_rounds_in_its_own_precision() {
        let big = <f16 as Float>::from_f32(300.0);
        assert!((big * big).to_f32().is_infinite(), "300² overflows f16");
        assert_eq!(<f16 as Float>::NAME, "float16");
    }
}
