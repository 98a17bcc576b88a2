//! Contract of 01-silu: SiLU against PyTorch's `F.silu`, over each dtype's whole range.

use ndarray::{ArrayD, IxDyn};
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_subject::wire::Dtype;

use super::{learner, same_bits, tolerance, wide, Candidate, ROUNDED_ONCE};
use crate::fixtures::{self, Stored};
use crate::mistakes::{silu_candidates, special_values};
use crate::oracle;
use crate::text;
use tutor_kit::Float;

/// SiLU, 01-silu.
pub const SILU: Contract = Contract { id: "silu", zh: "SiLU 契约", en: "SiLU contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![SILU;
        "silu-pytorch",
            "silu 与 PyTorch 的 F.silu 一致（f32、f16、bf16；含 ±inf、NaN、极小值、各 dtype 的最大有限值）",
            "silu matches PyTorch's F.silu (f32, f16, bf16; ±inf, NaN, tiny values, each dtype's largest finite values)"
            => against_pytorch;
        "silu-range",
            "silu 在每种 dtype 的整个有限范围内有限，并与 f64 参考一致（负尾部 −80…−17 按相对误差比较）",
            "silu is finite over each dtype's whole finite range and matches an f64 reference (the negative tail, −80…−17, relatively)" => whole_range;
        "silu-rounds-once",
            "f16 与 bf16：x·σ(x) 在 FP32 中算完、只舍入一次，几乎每个输出（至少 99%）都与正确舍入的值逐位相同",
            "f16 and bf16: x·σ(x) computed in FP32 and rounded once, almost every output (at least 99%) equal to the correctly rounded value bit for bit"
            => rounds_once;
        "silu-shapes",
            "silu 保持任意形状（零维、空数组、四维）",
            "silu keeps any shape (0-d, empty, four axes)" => shapes;
    ]
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let x = fixtures::array::<T>(&format!("silu.{}.x", T::STORED_AS));
        let expected = wide(&fixtures::array::<T>(&format!("silu.{}.y", T::STORED_AS)));
        let actual = wide(&learner(run).silu(&x));
        let input = wide(&x);
        run.compare("silu(x)", T::NAME, &actual, &expected, tolerance::<T>(), wrong(x, &expected, &actual))
            .map_err(traced(Input::Elementwise("x", &input)))
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

/// Powers of ten from the smallest normal to the largest finite value of `T`, both signs, and
/// seeded normals: every finite magnitude the dtype has.
fn sweep<T: Dtype>(run: &Run, max_exponent: i32) -> ArrayD<T> {
    let mut values: Vec<T> = Vec::new();
    for exponent in -7..=max_exponent {
        for sign in [1.0, -1.0] {
            values.push(T::from_f64(sign * 10f64.powi(exponent)));
            values.push(T::from_f64(sign * 3.0 * 10f64.powi(exponent)));
        }
    }
    let mut rng = run.rng(11);
    values.extend((0..64).map(|_| T::from_f64(8.0 * rng.normal())));
    ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("one axis")
}

fn whole_range(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, max_exponent: i32) -> Outcome {
        let x = sweep::<T>(run, max_exponent);
        let finite = x.mapv(|v| if v.to_f64().is_finite() { v } else { T::from_f64(0.0) });
        let expected = oracle::round::<T>(&wide(&finite).mapv(oracle::silu));
        let actual = wide(&learner(run).silu(&finite));
        let input = wide(&finite);
        run.compare("silu(x)", T::NAME, &actual, &expected, tolerance::<T>(), wrong(finite, &expected, &actual))
            .map_err(traced(Input::Elementwise("x", &input)))
    }
    one::<f32>(run, 38)?;
    one::<f16>(run, 4)?;
    one::<bf16>(run, 38)?;
    negative_tail::<f32>(run)?;
    negative_tail::<bf16>(run)
}

/// Where σ(x) is tiny, relatively: an absolute tolerance would let 0 pass for x·σ(x) ≈ −4e-8
/// (σ as `1 − 1/(1+eˣ)`, or `(1 + tanh(x/2))/2`, cancels to 0 below x ≈ −17). Every value is a
/// normal number of f32 and bf16, and FP32's `eˣ` does not overflow there.
fn negative_tail<T: Dtype>(run: &Run) -> Outcome {
    let values = [-17.0, -20.0, -24.0, -30.0, -40.0, -60.0, -80.0].map(T::from_f64);
    let x = ArrayD::from_shape_vec(IxDyn(&[values.len()]), values.to_vec()).expect("one axis");
    let expected = oracle::round::<T>(&wide(&x).mapv(oracle::silu));
    let actual = wide(&learner(run).silu(&x));
    let input = wide(&x);
    run.compare("silu(x)", T::NAME, &actual, &expected, (0.0, tolerance::<T>().1), wrong(x, &expected, &actual))
        .map_err(traced(Input::Elementwise("x", &input)))
}

fn rounds_once(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run) -> Outcome {
        let x: ArrayD<T> = run.rng(13).normal_array(&[1024]).mapv(|v: T| T::from_f64(4.0 * v.to_f64()));
        let expected = oracle::round::<T>(&wide(&x).mapv(oracle::silu));
        let actual = wide(&learner(run).silu(&x));
        let input = wide(&x);
        let wrong = wrong(x, &expected, &actual);
        let failed = |equal, total| Failure::new(text::not_rounded_once("x·σ(x)", T::NAME, equal, total, ROUNDED_ONCE));
        let bits = same_bits(run, &actual, &expected, ROUNDED_ONCE, wrong.clone(), failed);
        // A silu that is wrong for another reason fails as such: rounding is not its problem.
        run.compare("silu(x)", T::NAME, &actual, &expected, tolerance::<T>(), wrong)
            .map_err(traced(Input::Elementwise("x", &input)))?;
        bits
    }
    one::<bf16>(run)?;
    one::<f16>(run)
}

fn shapes(run: &Run) -> Outcome {
    let mut rng = run.rng(12);
    for shape in [&[][..], &[0, 3], &[2, 1, 3, 2]] {
        let x: ArrayD<f32> = rng.normal_array(shape);
        let expected = wide(&x).mapv(oracle::silu);
        let actual = wide(&learner(run).silu(&x));
        run.compare("silu(x)", "float32", &actual, &expected, tolerance::<f32>(), wrong(x, &expected, &actual))?;
    }
    Ok(())
}

/// SiLU's mistakes on `x`, given the right answer and the learner's (which the special values'
/// candidate reads).
fn wrong<T: Float>(
    x: ArrayD<T>,
    expected: &ArrayD<f64>,
    actual: &ArrayD<f64>,
) -> impl FnOnce() -> Vec<Candidate> + Clone + 'static {
    let (expected, actual) = (expected.clone(), actual.clone());
    move || {
        let mut candidates = silu_candidates(&x);
        candidates.push(special_values(&x, &expected, &actual));
        candidates
    }
}
