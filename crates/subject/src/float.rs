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
    /// Round an f64 value to this type: nearest, ties to even, correctly (one rounding of the
    /// exact value, not two). For f16 and bf16 this is not `half`'s own `from_f64`, which is
    /// not always correct in `half` 2.4.1: `1 + 2⁻¹¹ + 2⁻⁴⁰` must give `1 + 2⁻¹⁰`, and it gives 1.
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
        from_f64_via_odd(v, f16::from_f32)
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
        from_f64_via_odd(v, bf16::from_f32)
    }
}

/// Rounds an f64 to a half type correctly, through f32.
///
/// `half` 2.4.1's `from_f64` is not always correct: its software path looks only at the upper 32
/// bits of the f64 (so `1 + 2⁻¹¹ + 2⁻⁴⁰` comes out as 1, not `1 + 2⁻¹⁰`), and with the F16C
/// instructions it rounds to f32 first and then to f16 — two roundings, which can land on the
/// wrong neighbour when the first one makes (or unmakes) a tie. Going through f32 is correct when
/// the f32 value is exact, and otherwise when that first step rounds *to odd*: it keeps the f32
/// below or above the f64, whichever has an odd last bit, so an inexact value never lands on an
/// f16 or bf16 midpoint (f32 has at least two more bits than either, at every exponent where they
/// round), and the second rounding, to nearest-even, gives the correctly rounded result.
fn from_f64_via_odd<H>(v: f64, from_f32: fn(f32) -> H) -> H {
    let nearest = v as f32;
    if !v.is_finite() || f64::from(nearest) == v || nearest.is_infinite() {
        // NaN, ±∞, an exact f32, or beyond f32's range (and so beyond f16's and bf16's too).
        return from_f32(nearest);
    }
    // The f32 neighbour toward zero, then the odd one of it and the next one away from zero:
    // their bit patterns differ by one, so setting the last bit picks it.
    let toward_zero = if f64::from(nearest).abs() < v.abs() { nearest } else { f32::from_bits(nearest.to_bits() - 1) };
    from_f32(f32::from_bits(toward_zero.to_bits() | 1))
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

    /// The correctly rounded value of `v` in a half type, found without any conversion: the two
    /// neighbours of |v| among all finite values, and an exact comparison with their midpoint
    /// (f64 holds both neighbours and their midpoint exactly).
    struct Exact {
        /// Every finite non-negative value, ascending, with its bits.
        values: Vec<(f64, u16)>,
        /// The bits of +∞.
        infinity: u16,
    }

    impl Exact {
        fn new(to_f64: fn(u16) -> f64, infinity: u16) -> Exact {
            Exact { values: (0..infinity).map(|bits| (to_f64(bits), bits)).collect(), infinity }
        }

        fn round(&self, v: f64) -> u16 {
            let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
            let magnitude = v.abs();
            let &(max, max_bits) = self.values.last().expect("values");
            // Past the largest value, the next step up (to a power of two) would be ∞: its
            // midpoint with the largest value is the overflow threshold, a tie that goes to ∞
            // (the largest value has an odd last bit).
            let spacing = max - self.values[self.values.len() - 2].0;
            if magnitude >= max + spacing / 2.0 {
                assert_eq!(max_bits & 1, 1);
                return sign | self.infinity;
            }
            let above = self.values.partition_point(|&(value, _)| value <= magnitude);
            let (low, low_bits) = self.values[above - 1];
            if low == magnitude || above == self.values.len() {
                return sign | low_bits;
            }
            let (high, high_bits) = self.values[above];
            let midpoint = (low + high) / 2.0;
            let bits = match magnitude.partial_cmp(&midpoint).expect("finite") {
                std::cmp::Ordering::Less => low_bits,
                std::cmp::Ordering::Greater => high_bits,
                std::cmp::Ordering::Equal if low_bits % 2 == 0 => low_bits,
                std::cmp::Ordering::Equal => high_bits,
            };
            sign | bits
        }
    }

    /// Inputs where rounding is delicate: every value, every midpoint between neighbours, and
    /// the f64 values just around each midpoint (one f64 ulp, and 2⁻³⁰ relative: bits beyond
    /// f32's precision), with both signs; plus random f64 values over the type's whole range.
    fn delicate_inputs(exact: &Exact, exponents: std::ops::Range<i32>) -> Vec<f64> {
        let mut inputs = Vec::new();
        for pair in exact.values.windows(2) {
            let (low, high) = (pair[0].0, pair[1].0);
            let mid = (low + high) / 2.0;
            let nudge = mid * 2f64.powi(-30);
            for v in [
                low,
                mid,
                f64::from_bits(mid.to_bits() + 1),
                f64::from_bits(mid.to_bits() - 1),
                mid + nudge,
                mid - nudge,
                (low + mid) / 2.0,
                (mid + high) / 2.0,
            ] {
                inputs.push(v);
                inputs.push(-v);
            }
        }
        // SplitMix64, so that every run tries the same values.
        let mut state = 0x5EED_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let span = (exponents.end - exponents.start) as u64;
        for _ in 0..300_000 {
            let r = next();
            let exponent = exponents.start + (r % span) as i32;
            let mantissa = 1.0 + (next() >> 11) as f64 / (1u64 << 53) as f64;
            let v = mantissa * 2f64.powi(exponent);
            inputs.push(if r & (1 << 40) == 0 { v } else { -v });
        }
        inputs.extend([0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 1e-300]);
        inputs
    }

    #[test]
    fn from_f64_rounds_correctly_to_f16() {
        let exact = Exact::new(|bits| f16::from_bits(bits).to_f64(), 0x7C00);
        let one_above_tie = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(<f16 as Float>::from_f64(one_above_tie).to_f64(), 1.0 + 2f64.powi(-10));
        // `half`'s own conversion gets it wrong (pinned at 2.4.1): this is why the kit has its own.
        assert_eq!(f16::from_f64(one_above_tie).to_f64(), 1.0);
        let inputs = delicate_inputs(&exact, -30..18);
        for &v in &inputs {
            let ours = <f16 as Float>::from_f64(v).to_bits();
            assert_eq!(ours, exact.round(v), "f16 from_f64({v:e}): {ours:#06x}");
        }
        assert!(<f16 as Float>::from_f64(f64::NAN).to_f64().is_nan());
    }

    #[test]
    fn from_f64_rounds_correctly_to_bf16() {
        let exact = Exact::new(|bits| bf16::from_bits(bits).to_f64(), 0x7F80);
        let one_above_tie = 1.0 + 2f64.powi(-8) + 2f64.powi(-40);
        assert_eq!(<bf16 as Float>::from_f64(one_above_tie).to_f64(), 1.0 + 2f64.powi(-7));
        let inputs = delicate_inputs(&exact, -140..130);
        for &v in &inputs {
            let ours = <bf16 as Float>::from_f64(v).to_bits();
            assert_eq!(ours, exact.round(v), "bf16 from_f64({v:e}): {ours:#06x}");
        }
        assert!(<bf16 as Float>::from_f64(f64::NAN).to_f64().is_nan());
    }

    #[test]
    fn from_f64_is_from_f32_where_f32_is_exact() {
        for bits in (0..=u32::MAX).step_by(4099) {
            let v = f32::from_bits(bits);
            if v.is_nan() {
                continue;
            }
            assert_eq!(<f16 as Float>::from_f64(f64::from(v)).to_bits(), f16::from_f32(v).to_bits(), "{v:e}");
            assert_eq!(<bf16 as Float>::from_f64(f64::from(v)).to_bits(), bf16::from_f32(v).to_bits(), "{v:e}");
        }
    }
}
