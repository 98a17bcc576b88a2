//! Contract of 02-linear: the parameter (shape, trainable, PyTorch's init, seeded) and
//! `y = x·Wᵀ` in FP32 for any leading shape.

use ndarray::{Array2, ArrayD};
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::MlpError;
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, pytorch_init, same_bits, tolerance, wide, zero_size, ROUNDED_ONCE};
use crate::fixtures::{self, Stored};
use crate::mistakes::linear_candidates;
use crate::oracle;
use crate::subject;
use crate::text;

/// Linear, 02-linear.
pub const LINEAR: Contract = Contract { id: "linear", zh: "Linear 契约", en: "Linear contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![LINEAR;
        "linear-init",
            "Linear::new：可训练的 [out, in] 权重，服从 U(−1/√in, 1/√in)（统计检验），同一种子给出同一权重，值是 Rng::new(seed) 的抽样（顺序不限）",
            "Linear::new: a trainable [out, in] weight from U(−1/√in, 1/√in) (checked statistically), same seed, same weight, its values Rng::new(seed)'s draws (in any order)"
            => init;
        "linear-pytorch",
            "forward 与 PyTorch 的 F.linear 一致（非方阵权重 [40, 24]；f32、f16、bf16）",
            "forward matches PyTorch's F.linear (non-square weight [40, 24]; f32, f16, bf16)" => against_pytorch;
        "linear-shapes",
            "forward 接受任意前导形状（一维、四维、空批次、方阵权重），零维或最后一维不对时返回 Err",
            "forward takes any leading shape (1-D, 4-D, empty batch, a square weight); Err for 0-d input or a wrong last axis"
            => shapes;
        "linear-rounds-once",
            "f16 与 bf16：权重先舍入到 T，乘积在 FP32 中累加，每个输出只舍入一次：几乎每个输出（至少 99%）都与正确舍入的值逐位相同",
            "f16 and bf16: the weight rounded to T, products summed in FP32, each output rounded once: almost every output (at least 99%) equal to the correctly rounded value bit for bit"
            => rounds_once;
        "linear-long-rows",
            "长度 4096 的 f16 与 bf16 行：乘积在 FP32 中累加",
            "rows of 4096 in f16 and bf16: products accumulated in FP32" => long_rows;
    ]
}

/// The init check's `Linear::new(in, out, ..)`: 60 000 draws, enough for six-standard-error
/// bounds of a few percent.
pub const INIT_SIZES: (usize, usize) = (300, 200);

/// The `Linear::new(in, out, ..)` whose values are compared with `Rng::new(seed)`'s draws.
const STREAM_SIZES: (usize, usize) = (30, 20);

fn init(run: &Run) -> Outcome {
    let ((fan_in, fan_out), seed) = (INIT_SIZES, run.seed);
    let what = format!("Linear::new({fan_in}, {fan_out}, {seed})");
    let linear = ok(&what, subject::Linear::new(&learner(run), fan_in, fan_out, seed))?;
    let weight = linear.weight();
    let fail = |zh: String, en: String, mistake: Option<&str>| {
        Err(Failure::new(text::parameter(zh, en)).with_mistake(mistake))
    };
    if weight.value.shape() != [fan_out, fan_in] {
        let found = weight.value.shape().to_vec();
        // [in, out]: the layout of x·W, chosen in `new` (forward then reads it consistently).
        let in_out = (found == [fan_in, fan_out]).then_some("linear-weight-in-out");
        return fail(
            format!("weight 的形状应为 [{fan_out}, {fan_in}]（[out, in]），得到 {found:?}"),
            format!("the weight's shape should be [{fan_out}, {fan_in}] ([out, in]), got {found:?}"),
            in_out,
        );
    }
    if !weight.requires_grad || weight.grad.is_some() {
        return fail(
            "weight 应当可训练（requires_grad），且新建时没有 grad".into(),
            "the weight should be trainable (requires_grad), with no grad when new".into(),
            Some("linear-init-not-trainable"),
        );
    }
    let bound = 1.0 / (fan_in as f64).sqrt();
    let values: Vec<f64> = weight.value.iter().map(|&v| f64::from(v)).collect();
    let shape = init_shape(&values);
    if !shape.uniform_within(bound) {
        let (largest, mean, variance) = (shape.largest, shape.mean, shape.variance);
        // Uniform, but over another interval; or bell-shaped (a normal's kurtosis is 3, a
        // uniform's 1.8): what the numbers are, not how far they are from the right ones.
        let mistake = if shape.uniform_on(shape.smallest, shape.highest) {
            Some("linear-init-bound")
        } else {
            shape.normal().then_some("linear-init-normal")
        };
        return fail(
            format!("weight 不像 U(−{bound:.5}, {bound:.5})：最大 |w| = {largest:.5}，均值 {mean:.2e}，方差 {variance:.3e}（应为 {:.3e}）", bound * bound / 3.0),
            format!("the weight does not look like U(−{bound:.5}, {bound:.5}): largest |w| = {largest:.5}, mean {mean:.2e}, variance {variance:.3e} (should be {:.3e})", bound * bound / 3.0),
            mistake,
        );
    }
    // Seeds and the stream on a small layer: the same answers as on the large one, without
    // drawing, sending and comparing 60 000 values three times more.
    let (small_in, small_out) = STREAM_SIZES;
    let what = format!("Linear::new({small_in}, {small_out}, {seed})");
    let small = ok(&what, subject::Linear::new(&learner(run), small_in, small_out, seed))?.weight();
    let again = ok(&what, subject::Linear::new(&learner(run), small_in, small_out, seed))?.weight();
    let other_seed = seed.wrapping_add(1);
    let other = ok(&what, subject::Linear::new(&learner(run), small_in, small_out, other_seed))?;
    if again.value != small.value || other.weight().value == small.value {
        // Ignored only if a third, distant seed gives it too (seed / 2 maps two seeds to one).
        let far = ok(&what, subject::Linear::new(&learner(run), small_in, small_out, seed ^ 0x5DEE_CE66))?;
        let ignored =
            (again.value == small.value && far.weight().value == small.value).then_some("linear-seed-ignored");
        return fail(
            "同一种子应给出同一权重，不同种子应给出不同权重（用 Rng::new(seed)）".into(),
            "the same seed should give the same weight and another seed another (use Rng::new(seed))".into(),
            ignored,
        );
    }
    // The stream, element by element, without sorting 60 000 values.
    if let Some(index) = first_not_drawn(small.value.iter().copied().collect(), seed, small_in) {
        return fail(
            format!("Linear::new({small_in}, {small_out}, {seed}) 的值不是 Rng::new({seed}) 依次抽出的 uniform(−bound, bound)（按大小排序后第 {index} 个不同；抽取顺序可以自定）"),
            format!("Linear::new({small_in}, {small_out}, {seed})'s values are not Rng::new({seed})'s draws of uniform(−bound, bound) (sorted, value {index} differs; the order of the draws is yours)"),
            Some("linear-init-stream"),
        );
    }
    let unchecked = |f: Failure| f.with_mistake(Some("linear-size-unchecked"));
    err("Linear::new(0, 3, seed)", subject::Linear::new(&learner(run), 0, 3, seed), zero_size()).map_err(unchecked)?;
    err("Linear::new(3, 0, seed)", subject::Linear::new(&learner(run), 3, 0, seed), zero_size()).map_err(unchecked)
}

/// The statistics the init check reads from the weight's values.
struct InitShape {
    n: f64,
    largest: f64,
    smallest: f64,
    highest: f64,
    mean: f64,
    variance: f64,
    /// The fourth central moment.
    fourth: f64,
    /// The values themselves, for the share within half a bound.
    values: Vec<f64>,
}

fn init_shape(values: &[f64]) -> InitShape {
    let n = values.len() as f64;
    let largest = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let smallest = values.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let fourth = values.iter().map(|v| (v - mean).powi(4)).sum::<f64>() / n;
    InitShape { n, largest, smallest, highest, mean, variance, fourth, values: values.to_vec() }
}

impl InitShape {
    /// Whether the values look like `U(−bound, bound)`: six standard errors of each statistic for
    /// n uniform draws (n = 60 000 here).
    fn uniform_within(&self, bound: f64) -> bool {
        let n = self.n;
        let inner_half = self.values.iter().filter(|v| v.abs() <= bound / 2.0).count() as f64 / n;
        bound > 0.0
            && self.largest <= bound * (1.0 + 1e-6)
            && self.largest >= 0.99 * bound
            && self.mean.abs() <= 6.0 * bound / (3.0 * n).sqrt()
            && (self.variance / (bound * bound / 3.0) - 1.0).abs() <= 6.0 * 0.9 / n.sqrt()
            && (inner_half - 0.5).abs() <= 6.0 * 0.5 / n.sqrt()
    }

    /// Whether the values look uniform over `[low, high]`, their own extremes: the same
    /// statistics about the interval's centre and half-width.
    fn uniform_on(&self, low: f64, high: f64) -> bool {
        let (n, centre, half) = (self.n, (low + high) / 2.0, (high - low) / 2.0);
        let inner_half = self.values.iter().filter(|v| (*v - centre).abs() <= half / 2.0).count() as f64 / n;
        half > 0.0
            && (self.mean - centre).abs() <= 6.0 * half / (3.0 * n).sqrt()
            && (self.variance / (half * half / 3.0) - 1.0).abs() <= 6.0 * 0.9 / n.sqrt()
            && (inner_half - 0.5).abs() <= 6.0 * 0.5 / n.sqrt()
    }

    /// Whether the values look normal and centred: kurtosis 3 within six standard errors
    /// (√(24/n)), a uniform's being 1.8.
    fn normal(&self) -> bool {
        let kurtosis = self.fourth / (self.variance * self.variance);
        self.variance > 0.0
            && self.mean.abs() <= 6.0 * (self.variance / self.n).sqrt()
            && (kurtosis - 3.0).abs() <= 6.0 * (24.0 / self.n).sqrt()
    }
}

/// The first index (in sorted order) where `seen`, the weight's values, is not the multiset of
/// the first draws of `Rng::new(seed).uniform(−b, b)`, b = 1/√in in f32; `None` when every value
/// is one of them within a millionth of b (a bound computed in f64, or `(2u − 1)·b`, moves a draw
/// by an ulp).
fn first_not_drawn(mut seen: Vec<f32>, seed: u64, fan_in: usize) -> Option<usize> {
    let bound = 1.0 / (fan_in as f32).sqrt();
    let mut rng = tutor_kit::Rng::new(seed);
    let mut drawn: Vec<f32> = (0..seen.len()).map(|_| rng.uniform(-bound, bound)).collect();
    drawn.sort_unstable_by(f32::total_cmp);
    seen.sort_unstable_by(f32::total_cmp);
    let tolerance = 1e-6 * f64::from(bound);
    seen.iter().zip(&drawn).position(|(&a, &b)| {
        let difference = (f64::from(a) - f64::from(b)).abs();
        difference.is_nan() || difference > tolerance
    })
}

/// A Linear holding `weight`.
fn holding<'c>(run: &Run<'c>, weight: &Array2<f32>) -> Result<subject::Linear<'c>, Failure> {
    let (fan_out, fan_in) = weight.dim();
    let mut linear =
        ok(&format!("Linear::new({fan_in}, {fan_out}, 0)"), subject::Linear::new(&learner(run), fan_in, fan_out, 0))?;
    linear.set_weight(weight.clone());
    Ok(linear)
}

/// `forward(x)` compared with `expected` (before rounding to `T`) within `T`'s tolerance and,
/// given a `share`, at least that share of the outputs bit for bit; mistakes as candidates.
fn check<T: Dtype>(
    run: &Run,
    weight: &Array2<f32>,
    x: &ArrayD<T>,
    expected: &ArrayD<f64>,
    share: Option<f64>,
) -> Outcome {
    let linear = holding(run, weight)?;
    let weight_rows = weight.nrows();
    let input = wide(x);
    let actual = wide(&ok("Linear::forward(x)", linear.forward(x))?);
    let expected = oracle::round::<T>(expected);
    let (x, weight, right, seen) = (x.clone(), weight.clone(), expected.clone(), actual.clone());
    let candidates = move || linear_candidates(&x, &weight, &right, &seen);
    // Bits are observed even when the tolerance fails: they tell roundings apart where it cannot.
    let bits = share.map_or(Ok(()), |share| {
        let failed = |equal, total| Failure::new(text::not_as_module(T::NAME, equal, total, share));
        same_bits(run, &actual, &expected, share, candidates.clone(), failed)
    });
    // [rows, out] for x of another rank: the leading axes flattened and never put back.
    let rows = x_rows(expected.shape());
    let flattened = expected.ndim() != 2 && actual.shape() == [rows, weight_rows];
    run.compare("Linear::forward(x)", T::NAME, &actual, &expected, tolerance::<T>(), candidates)
        .map_err(|f| if flattened { f.with_mistake(Some("linear-leading-axes-lost")) } else { f })
        .map_err(traced(Input::Rows("x", &input)))?;
    bits
}

/// The number of rows of an array of `shape` along its last axis (1 for a 0-d one).
fn x_rows(shape: &[usize]) -> usize {
    shape[..shape.len().saturating_sub(1)].iter().product()
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let weight = fixtures::matrix("linear.w");
        let x = fixtures::array::<T>(&format!("linear.{}.x", T::STORED_AS));
        let torch = wide(&fixtures::array::<T>(&format!("linear.{}.y", T::STORED_AS)));
        check(run, &weight, &x, &torch, None)
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

/// Seeded weights of PyTorch's default init for `[out, in]`.
fn seeded_weight(run: &Run, salt: u64, fan_out: usize, fan_in: usize) -> Array2<f32> {
    pytorch_init(&mut run.rng(salt), fan_out, fan_in)
}

fn shapes(run: &Run) -> Outcome {
    let mut rng = run.rng(22);
    // The square weight first: there an untransposed weight gives numbers, not a panic.
    let square = seeded_weight(run, 23, 8, 8);
    let x: ArrayD<f32> = rng.normal_array(&[5, 8]);
    check(run, &square, &x, &oracle::linear(&x, &square), None)?;
    let weight = seeded_weight(run, 21, 7, 5);
    for shape in [&[5][..], &[2, 3, 1, 5], &[0, 5]] {
        let x: ArrayD<f32> = rng.normal_array(shape);
        check(run, &weight, &x, &oracle::linear(&x, &weight), None)?;
    }
    let linear = holding(run, &weight)?;
    let unchecked = |f: Failure| f.with_mistake(Some("linear-input-unchecked"));
    let scalar: ArrayD<f32> = rng.normal_array(&[]);
    err("Linear::forward(<0-d x>)", linear.forward(&scalar), MlpError::NoAxis).map_err(unchecked)?;
    let wrong: ArrayD<f32> = rng.normal_array(&[2, 4]);
    err(
        "Linear::forward(<x of shape [2, 4]> with in_features = 5)",
        linear.forward(&wrong),
        MlpError::FeatureMismatch { expected: 0, found: 0 },
    )
    .map_err(unchecked)
}

fn rounds_once(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run) -> Outcome {
        let weight = seeded_weight(run, 25, 48, 64);
        let x: ArrayD<T> = run.rng(26).normal_array(&[16, 64]);
        check(run, &weight, &x, &oracle::linear(&x, &weight), Some(ROUNDED_ONCE))
    }
    one::<bf16>(run)?;
    one::<f16>(run)
}

fn long_rows(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run) -> Outcome {
        let mut rng = run.rng(24);
        // Positive terms near 1: the true sums are near 4096, far past where a sum kept in
        // f16 (spacing 4 at 4096) or bf16 (spacing 2 from 256) stops growing correctly.
        let weight = Array2::from_shape_fn((3, 4096), |_| (0.5 + rng.uniform()) as f32);
        let x = ArrayD::from_shape_fn(ndarray::IxDyn(&[2, 4096]), |_| T::from_f64(0.5 + rng.uniform()));
        check(run, &weight, &x, &oracle::linear(&x, &weight), None)
    }
    one::<f16>(run)?;
    one::<bf16>(run)
}
