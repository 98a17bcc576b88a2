//! Roundings to a narrower floating-point type, read from the bits. A result meant to be rounded
//! once to nearest (ties to even) can instead have been truncated (bf16 as `bits >> 16`), rounded
//! with ties away from zero (`(bits + 0x8000) & 0xFFFF0000`), or rounded more than once; given
//! the exact values before the rounding, [`wrong_rounding`] says which of the first two the bits
//! are, and [`Agreement`] measures how far a result is from the correctly rounded one ("almost
//! every value", in ulps). Any [`Float`] works, f32 included (a rounding of f64 values).

use ndarray::ArrayD;
use tutor_subject::Float;

use crate::text::Bi;

/// The spacing of a floating-point type's values: its mantissa bits and its smallest step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spacing {
    mantissa_bits: i32,
    smallest: f64,
}

impl Spacing {
    /// Measured through `T`'s own correct rounding from f64: `1 + 2^-k` stays above 1 while k is
    /// at most the mantissa's width, and halving stays above 0 down to the smallest subnormal.
    pub fn of<T: Float>() -> Spacing {
        let mantissa_bits = (1..64).take_while(|&k| T::from_f64(1.0 + 2f64.powi(-k)).to_f64() != 1.0).count() as i32;
        let mut smallest = 1.0f64;
        while smallest > f64::MIN_POSITIVE && T::from_f64(smallest / 2.0).to_f64() != 0.0 {
            smallest /= 2.0;
        }
        Spacing { mantissa_bits, smallest }
    }

    /// The smallest positive normal value: below it the values are subnormal, one smallest step
    /// apart.
    pub fn min_normal(&self) -> f64 {
        self.smallest * 2f64.powi(self.mantissa_bits)
    }

    /// The distance between neighbouring values at `v` (the step of `v`'s binade).
    pub fn at(&self, v: f64) -> f64 {
        let magnitude = v.abs();
        if !magnitude.is_finite() || magnitude == 0.0 {
            return self.smallest;
        }
        (2f64.powi(magnitude.log2().floor() as i32 - self.mantissa_bits)).max(self.smallest)
    }

    /// How many steps of this type lie between `actual` and `expected`.
    pub fn ulps(&self, actual: f64, expected: f64) -> f64 {
        (actual - expected).abs() / self.at(expected)
    }
}

/// A way of rounding an exact value to a narrower type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// To nearest, ties to even: IEEE's default, `from_f32`'s, PyTorch's.
    NearestEven,
    /// Toward zero: the low bits dropped (`bits >> 16` for bf16).
    TowardZero,
    /// To nearest, ties away from zero (`(bits + 0x8000) & 0xFFFF0000` for bf16).
    TiesAway,
}

impl Rounding {
    /// The wrong ways, in the order they are tried.
    pub const WRONG: [Rounding; 2] = [Rounding::TowardZero, Rounding::TiesAway];

    /// `v` rounded to `T` this way (`spacing` is `T`'s).
    pub fn apply<T: Float>(self, v: f64, spacing: &Spacing) -> T {
        if !v.is_finite() || self == Rounding::NearestEven {
            return T::from_f64(v);
        }
        let step = spacing.at(v);
        let steps = v.abs() / step;
        let whole = steps.floor();
        let magnitude = match self {
            Rounding::TiesAway if steps - whole == 0.5 => (whole + 1.0) * step,
            Rounding::TiesAway => return T::from_f64(v),
            _ => whole * step,
        };
        T::from_f64(magnitude.copysign(v))
    }

    /// `values` rounded to `T` this way.
    pub fn array<T: Float>(self, values: &ArrayD<f64>) -> ArrayD<T> {
        let spacing = Spacing::of::<T>();
        values.mapv(|v| self.apply(v, &spacing))
    }
}

/// Bit-for-bit agreement of two results of one type: how many elements differ, and by how many
/// ulps at most.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Agreement {
    /// Elements whose bits differ (NaN equals NaN).
    pub differing: usize,
    /// Elements compared.
    pub total: usize,
    /// The greatest difference, in steps of the type at the expected value.
    pub worst_ulps: f64,
}

impl Agreement {
    /// `actual` against `expected`, element by element (arrays of one shape).
    pub fn of<T: Float>(actual: &ArrayD<T>, expected: &ArrayD<T>) -> Agreement {
        let spacing = Spacing::of::<T>();
        let (mut differing, mut worst_ulps) = (0, 0.0f64);
        for (a, e) in actual.iter().zip(expected.iter()).map(|(a, e)| (a.to_f64(), e.to_f64())) {
            if !same_bits(a, e) {
                differing += 1;
                worst_ulps = worst_ulps.max(if a.is_finite() { spacing.ulps(a, e) } else { f64::INFINITY });
            }
        }
        Agreement { differing, total: actual.len().min(expected.len()), worst_ulps }
    }

    /// "Almost every value": none more than one ulp off, and at most `share` of them off at all
    /// (another summation order moves a value before its rounding by an ulp or two, which crosses
    /// a rounding boundary now and then).
    pub fn almost_every(&self, share: f64) -> bool {
        self.worst_ulps <= 1.0 && self.differing as f64 <= share * self.total as f64
    }

    /// At least `share` of the elements bit for bit the same.
    pub fn at_least(&self, share: f64) -> bool {
        (self.total - self.differing) as f64 >= share * self.total as f64
    }
}

/// `v` rounded to `T` (to nearest, ties to even) and widened again: one correct rounding.
pub fn rounded<T: Float>(v: f64) -> f64 {
    T::from_f64(v).to_f64()
}

/// Every element of `x` [`rounded`] to `T`.
pub fn round<T: Float>(x: &ArrayD<f64>) -> ArrayD<f64> {
    x.mapv(rounded::<T>)
}

/// A `T` array widened to f64 (exactly).
pub fn wide<T: Float>(x: &ArrayD<T>) -> ArrayD<f64> {
    x.mapv(|v| v.to_f64())
}

/// Whether two values are the same value of their type (NaN the same as NaN).
fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// Which wrong rounding `actual` is of the exact values `unrounded`: one that gives at least
/// `share` of `actual`'s elements bit for bit, where rounding to nearest even does not.
pub fn wrong_rounding<T: Float>(actual: &ArrayD<T>, unrounded: &ArrayD<f64>, share: f64) -> Option<Rounding> {
    if actual.shape() != unrounded.shape()
        || Agreement::of(actual, &Rounding::NearestEven.array(unrounded)).at_least(share)
    {
        return None;
    }
    Rounding::WRONG.into_iter().find(|r| Agreement::of(actual, &r.array::<T>(unrounded)).at_least(share))
}

/// The rounds-once comparison: `actual` against `expected`, the correctly rounded result, on
/// "almost every value" (all but `share` of them, none more than an ulp off). `Ok` when it holds;
/// otherwise how far off, and which wrong rounding of `unrounded` (the exact values before the
/// rounding) the bits are, if they are one.
pub fn rounded_once<T: Float>(
    actual: &ArrayD<T>,
    expected: &ArrayD<T>,
    unrounded: Option<&ArrayD<f64>>,
    share: f64,
) -> Result<(), (Agreement, Option<Rounding>)> {
    let agreement = Agreement::of(actual, expected);
    if actual.shape() == expected.shape() && agreement.almost_every(share) {
        return Ok(());
    }
    Err((agreement, unrounded.and_then(|u| wrong_rounding(actual, u, 1.0 - share))))
}

/// What a wrong rounding is, for a learner who rounded a `dtype` result that way.
pub fn rounding_text(rounding: Rounding, dtype: &str, differing: usize, total: usize) -> Bi {
    let (zh, en) = match rounding {
        Rounding::NearestEven => ("就近舍入（偶数优先）", "to nearest, ties to even"),
        Rounding::TowardZero => (
            "向零截断（直接丢掉低位，如 bf16 的 `bits >> 16`）",
            "truncated toward zero (the low bits dropped, as bf16's `bits >> 16` does)",
        ),
        Rounding::TiesAway => (
            "就近舍入但恰好一半时远离零（如 `(bits + 0x8000) & 0xFFFF0000`）",
            "rounded to nearest with exact ties away from zero (as `(bits + 0x8000) & 0xFFFF0000` does)",
        ),
    };
    Bi::new(
        format!("{total} 个 {dtype} 输出中有 {differing} 个不是 FP32 结果的正确舍入：它们是{zh}。转换应就近舍入、恰好一半时取偶数，用 `from_f32` 即可。"),
        format!("{differing} of {total} {dtype} outputs are not the correctly rounded FP32 result: they are {en}. The conversion rounds to nearest, exact ties to even: use `from_f32`."),
    )
}

/// The rounds-once check found only `equal` of `total` outputs equal to the correctly rounded
/// value of `what`, where at least `share` of them must be.
pub fn not_rounded_once(what: &str, dtype: &str, equal: usize, total: usize, share: f64) -> Bi {
    let share = 100.0 * share;
    Bi::new(
        format!(
            "{dtype}：只有 {equal}/{total} 个输出与 `{what}` 正确舍入后的值逐位相同（要求至少 {share:.0}%）：在 FP32 中算完，最后只舍入一次"
        ),
        format!(
            "{dtype}: only {equal}/{total} outputs equal the correctly rounded `{what}` bit for bit (at least {share:.0}% required): compute in FP32, round once at the end"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use tutor_subject::half::{bf16, f16};

    #[test]
    fn spacing_counts_mantissa_bits_and_subnormals() {
        let (s16, sb16) = (Spacing::of::<f16>(), Spacing::of::<bf16>());
        assert_eq!(
            (s16.at(1.0), sb16.at(1.0), Spacing::of::<f32>().at(1.0)),
            (2f64.powi(-10), 2f64.powi(-7), 2f64.powi(-23))
        );
        assert_eq!(s16.at(0.0), 2f64.powi(-24), "f16's smallest subnormal");
        assert_eq!(s16.ulps(1.0 + 3.0 * 2f64.powi(-10), 1.0), 3.0);
    }

    #[test]
    fn each_rounding_is_what_the_bit_tricks_give() {
        let bits = |v: f32| v.to_bits();
        let truncated = |v: f32| bf16::from_bits((bits(v) >> 16) as u16);
        let ties_away = |v: f32| bf16::from_bits(((bits(v) + 0x8000) >> 16) as u16);
        let s = Spacing::of::<bf16>();
        let tie = 1.0 + 2f32.powi(-8);
        for v in [tie, -tie, 1.0 + 3.0 * 2f32.powi(-8), 0.3, -7.25e-3, 3.0e38, 1e-40, 0.0] {
            let v64 = f64::from(v);
            assert_eq!(Rounding::TowardZero.apply::<bf16>(v64, &s), truncated(v), "{v}");
            assert_eq!(Rounding::TiesAway.apply::<bf16>(v64, &s), ties_away(v), "{v}");
            assert_eq!(Rounding::NearestEven.apply::<bf16>(v64, &s), bf16::from_f32(v), "{v}");
        }
        // f16: 1 + 3·2⁻¹² rounds up to 1 + 2⁻¹⁰; toward zero it is 1. A tie goes away from zero.
        let s16 = Spacing::of::<f16>();
        assert_eq!(Rounding::TowardZero.apply::<f16>(1.0 + 3.0 * 2f64.powi(-12), &s16).to_f32(), 1.0);
        assert_eq!(Rounding::TiesAway.apply::<f16>(1.0 + 2f64.powi(-11), &s16).to_f64(), 1.0 + 2f64.powi(-10));
        assert_eq!(Rounding::TiesAway.apply::<f16>(-1.0 - 2f64.powi(-11), &s16).to_f64(), -1.0 - 2f64.powi(-10));
    }

    #[test]
    fn a_wrong_rounding_is_told_from_the_bits_and_a_right_one_is_not() {
        // Random values, every other one moved onto a tie of bf16 (halfway between two values).
        let mut rng = crate::Rng::new(5);
        let s = Spacing::of::<bf16>();
        let mut exact: ArrayD<f64> = rng.normal_array::<f32>(&[32, 32]).mapv(f64::from);
        for v in exact.iter_mut().step_by(2) {
            let below = bf16::from_f64(*v).to_f64();
            *v = below + s.at(below) / 2.0;
        }
        let nearest: ArrayD<bf16> = Rounding::NearestEven.array(&exact);
        assert_eq!(wrong_rounding(&nearest, &exact, 0.99), None);
        for wrong in Rounding::WRONG {
            assert_eq!(wrong_rounding(&wrong.array::<bf16>(&exact), &exact, 0.99), Some(wrong));
        }
        // Without ties, ties away from zero is rounding to nearest.
        let no_ties = exact.mapv(|v| v + 1e-9);
        assert_eq!(wrong_rounding(&Rounding::TiesAway.array::<bf16>(&no_ties), &no_ties, 0.99), None);
        assert_eq!(rounded_once(&nearest, &nearest, Some(&exact), 0.01), Ok(()));
        let (_, named) =
            rounded_once(&Rounding::TowardZero.array::<bf16>(&exact), &nearest, Some(&exact), 0.01).unwrap_err();
        assert_eq!(named, Some(Rounding::TowardZero));
        let truncated = Agreement::of(&Rounding::TowardZero.array::<bf16>(&exact), &nearest);
        assert!(truncated.worst_ulps <= 1.0 && !truncated.almost_every(0.01) && truncated.differing > 300);
        let one_off = Agreement::of(&nearest.mapv(|v| bf16::from_bits(v.to_bits() ^ 1)), &nearest);
        assert_eq!((one_off.differing, one_off.worst_ulps), (1024, 1.0));
        let t = rounding_text(Rounding::TowardZero, "bfloat16", 3, 8);
        assert!(t.en.contains("truncated") && t.zh.contains("截断"), "{t:?}");
    }
}
