//! Contract of 04-forward: the block `down(silu(gate(x)) ⊙ up(x))`, every op rounded to `T`.

use ndarray::{Array2, ArrayD};
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::{Float, MlpError};
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, pytorch_init, same_bits, tolerance, wide};
use crate::fixtures::{self, Stored};
use crate::mistakes::block_candidates;
use crate::oracle;
use crate::subject;
use crate::text;

/// The block, 04-forward.
pub const BLOCK: Contract = Contract { id: "block", zh: "SwiGLU 块契约", en: "SwiGLU block contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![BLOCK;
        "block-pytorch",
            "forward 与 PyTorch 中 f32、f16、bf16 精度的 LLaMA FeedForward 模块一致（dim 16，hidden 48）",
            "forward matches PyTorch's LLaMA FeedForward module in f32, f16 and bf16 (dim 16, hidden 48)"
            => against_pytorch;
        "block-per-op",
            "f16 与 bf16：每一步（gate、up、silu、乘积、down）都舍入到输入 dtype，与 PyTorch 模块相同",
            "f16 and bf16: every op (gate, up, silu, the product, down) rounded to the input's dtype, as PyTorch's module does"
            => per_op;
        "block-shapes",
            "forward 接受任意前导形状；零维或最后一维不对时返回 Err",
            "forward takes any leading shape; Err for 0-d input or a wrong last axis" => shapes;
    ]
}

/// A block holding `weights` (gate, up, down).
pub fn holding<'c>(run: &Run<'c>, weights: &[Array2<f32>; 3]) -> Result<subject::FeedForward<'c>, Failure> {
    let (hidden, dim) = weights[0].dim();
    let mut block =
        ok(&format!("FeedForward::new({dim}, {hidden}, 0)"), subject::FeedForward::new(&learner(run), dim, hidden, 0))?;
    let [gate, up, down] = weights.clone();
    block.set_gate_weight(gate);
    block.set_up_weight(up);
    block.set_down_weight(down);
    block.clear_grads();
    Ok(block)
}

/// Seeded weights of PyTorch's default init: gate, up `[hidden, dim]`, down `[dim, hidden]`.
pub fn seeded_weights(run: &Run, salt: u64, dim: usize, hidden: usize) -> [Array2<f32>; 3] {
    let mut rng = run.rng(salt);
    [(hidden, dim), (hidden, dim), (dim, hidden)].map(|(rows, cols)| pytorch_init(&mut rng, rows, cols))
}

/// `assert_close`'s tolerance for `T`, with the absolute part raised to the relative part of the
/// output's root mean square: four ops rounded to `T` in turn, where an FP32 sum in another order
/// now and then rounds an intermediate to its neighbour, move a small output (one that the
/// down projection's sum nearly cancelled) by more than its own relative tolerance.
fn block_tolerance<T: Float>(expected: &ArrayD<f64>) -> (f64, f64) {
    let (atol, rtol) = tolerance::<T>();
    let finite: Vec<f64> = expected.iter().copied().filter(|v| v.is_finite()).collect();
    let rms = (finite.iter().map(|v| v * v).sum::<f64>() / finite.len().max(1) as f64).sqrt();
    (atol.max(rtol * rms), rtol)
}

fn forward<T: Dtype>(run: &Run, weights: &[Array2<f32>; 3], x: &ArrayD<T>) -> Result<ArrayD<f64>, Failure> {
    let block = holding(run, weights)?;
    Ok(wide(&ok("FeedForward::forward(x)", block.forward(x))?))
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
        let x = fixtures::array::<T>(&format!("block.{}.x", T::STORED_AS));
        let torch = wide(&fixtures::array::<T>(&format!("block.{}.y", T::STORED_AS)));
        let actual = forward(run, &weights, &x)?;
        let tolerance = block_tolerance::<T>(&torch);
        let input = wide(&x);
        run.compare("FeedForward::forward(x)", T::NAME, &actual, &torch, tolerance, move || {
            block_candidates(&x, &weights)
        })
        .map_err(traced(Input::Rows("x", &input)))
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

/// The share of f16 and bf16 outputs that must equal the per-op reference bit for bit: an FP32
/// sum in another order can flip an intermediate's rounding now and then; another dtype path
/// changes most outputs' last bit (measured in oracle's tests).
pub const PER_OP_SHARE: f64 = 0.9;

fn per_op(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run) -> Outcome {
        let weights = seeded_weights(run, 41, 32, 96);
        let mut rng = run.rng(42);
        let x: ArrayD<T> = rng.normal_array(&[4, 8, 32]);
        let expected = oracle::round::<T>(&oracle::block(&x, &weights, true, true));
        let actual = forward(run, &weights, &x)?;
        let tolerance = block_tolerance::<T>(&expected);
        let input = wide(&x);
        let wrong = move || block_candidates(&x, &weights);
        // Bits are observed even when the tolerance fails: they tell roundings apart where it cannot.
        let failed = |equal, total| Failure::new(text::not_rounded_per_op(T::NAME, equal, total, PER_OP_SHARE));
        let bits = same_bits(run, &actual, &expected, PER_OP_SHARE, wrong.clone(), failed);
        run.compare("FeedForward::forward(x)", T::NAME, &actual, &expected, tolerance, wrong)
            .map_err(traced(Input::Rows("x", &input)))?;
        bits
    }
    one::<bf16>(run)?;
    one::<f16>(run)
}

fn shapes(run: &Run) -> Outcome {
    let weights = seeded_weights(run, 43, 6, 10);
    let mut rng = run.rng(44);
    for shape in [&[6][..], &[2, 1, 3, 6], &[0, 6]] {
        let x: ArrayD<f32> = rng.normal_array(shape);
        let expected = oracle::block(&x, &weights, true, true);
        let actual = forward(run, &weights, &x)?;
        let held = weights.clone();
        let tolerance = tolerance::<f32>();
        run.compare("FeedForward::forward(x)", "float32", &actual, &expected, tolerance, move || {
            block_candidates(&x, &held)
        })?;
    }
    let block = holding(run, &weights)?;
    let unchecked = |f: Failure| f.with_mistake(Some("block-input-unchecked"));
    let scalar: ArrayD<f32> = rng.normal_array(&[]);
    err("FeedForward::forward(<0-d x>)", block.forward(&scalar), MlpError::NoAxis).map_err(unchecked)?;
    let wrong: ArrayD<f32> = rng.normal_array(&[2, 5]);
    err(
        "FeedForward::forward(<x of shape [2, 5]> with dim = 6)",
        block.forward(&wrong),
        MlpError::FeatureMismatch { expected: 0, found: 0 },
    )
    .map_err(unchecked)
}
