//! Contract of 04-gqa: `repeat_kv` and Meta's attention module (projections, heads, RoPE on q
//! and k, grouped kv heads), against PyTorch's module and the oracle.

use ndarray::{Array2, ArrayD};
use tutor_grade::fixtures::Stored;
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::AttnError;
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, tolerance, wide};
use crate::mistakes::{self, Weights};
use crate::oracle::{self, Layer, MODULE};
use crate::{subject, FIXTURES};

/// The module, 04-gqa.
pub const GQA: Contract =
    Contract { id: "gqa", zh: "分组查询注意力契约", en: "Grouped-query attention contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![GQA;
        "repeat-kv",
            "repeat_kv：查询头 h 读取 kv 头 h / n_rep（2 个 kv 头重复为 4 个；n_rep 为 1 时不变）", "repeat_kv: query head h reads kv head h / n_rep (2 kv heads made 4; unchanged for n_rep 1)" => repeat_kv;
        "gqa-pytorch",
            "forward 与 PyTorch 中 f32、f16、bf16 精度的 Meta Attention 模块一致（dim 32，4 个查询头，2 个 kv 头，θ 10000）", "forward matches Meta's Attention module run by PyTorch in f32, f16, bf16 (dim 32, 4 query heads, 2 kv heads, θ 10000)" => against_pytorch;
        "gqa-seeded",
            "forward 在随机权重与输入上与 f64 参考一致（dim 32，4/2 个头，θ 10000）", "forward matches the f64 reference on random weights and inputs (dim 32, 4/2 heads, θ 10000)" => seeded;
        "gqa-errors",
            "repeat_kv 与 forward 对错误输入返回文档规定的 Err", "the documented Err from repeat_kv and forward on bad input" => errors;
    ]
}

/// Random weights of PyTorch's default init for `dim` and `kv` kv-projection rows.
pub fn weights(run: &Run, salt: u64, dim: usize, kv: usize) -> Weights {
    let mut rng = run.rng(salt);
    let bound = 1.0 / (dim as f64).sqrt();
    [(dim, dim), (kv, dim), (kv, dim), (dim, dim)]
        .map(|shape| Array2::from_shape_fn(shape, |_| ((2.0 * rng.uniform() - 1.0) * bound) as f32))
}

/// The fixtures' weights: dim 32, 4 heads, 2 kv heads (θ 10000).
pub fn pytorch_weights() -> Weights {
    ["wq", "wk", "wv", "wo"].map(|w| FIXTURES.matrix(&format!("gqa.{w}")))
}

/// A learner's module holding `weights`, with caches of `max` (batch, seq).
pub fn holding<'c>(
    run: &Run<'c>,
    w: &Weights,
    heads: (usize, usize),
    theta: f64,
    max: (usize, usize),
) -> Result<subject::Attention<'c>, Failure> {
    let dim = w[0].ncols();
    let what = format!("Attention::new({dim}, {}, {}, {}, {}, {theta}, 0)", heads.0, heads.1, max.0, max.1);
    let mut layer = ok(&what, subject::Attention::new(&learner(run), dim, heads.0, heads.1, max.0, max.1, theta, 0))?;
    let [wq, wk, wv, wo] = w.clone();
    layer.set_wq(wq);
    layer.set_wk(wk);
    layer.set_wv(wv);
    layer.set_wo(wo);
    Ok(layer)
}

/// The oracle's view of the same module.
pub fn layer(w: &Weights, heads: (usize, usize), theta: f64) -> Layer<'_> {
    let head_dim = w[0].nrows() / heads.0;
    Layer { weights: w, n_heads: heads.0, n_kv_heads: heads.1, freqs: oracle::frequencies(head_dim, theta, false, 2.0) }
}

fn repeat_kv(run: &Run) -> Outcome {
    let x: ArrayD<f32> = run.rng(41).normal_array(&[1, 2, 3, 4]);
    for n_rep in [2, 1] {
        let what = format!("repeat_kv(x, {n_rep})");
        let actual = wide(&ok(&what, learner(run).repeat_kv(&x, n_rep))?);
        let x = wide(&x);
        let expected = oracle::repeat(&x, n_rep, false);
        let wrong = move || vec![tutor_grade::candidate("kv-heads-modulo", "modulo", oracle::repeat(&x, n_rep, true))];
        run.compare(&what, "float32", &actual, &expected, (0.0, 0.0), wrong)?;
    }
    Ok(())
}

/// The learner's forward of `x` against `expected`, mistakes recorded.
fn check<T: Dtype>(
    run: &Run,
    w: &Weights,
    heads: (usize, usize),
    theta: f64,
    x: &ArrayD<T>,
    expected: &ArrayD<f64>,
) -> Outcome {
    let module = holding(run, w, heads, theta, (x.shape()[0], x.shape()[1]))?;
    let actual = wide(&ok("forward(x)", module.forward(x))?);
    let (w, x) = (w.clone(), wide(x));
    let input = x.clone();
    let wrong = move || mistakes::module::<T>(&layer(&w, heads, theta), &x);
    // Each output row is its token's: a NaN there shows that token's row of x.
    run.compare("forward(x)", T::NAME, &actual, expected, tolerance::<T>(), wrong)
        .map_err(traced(Input::Rows("x", &input)))
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let x = FIXTURES.array::<T>(&format!("gqa.{}.x", T::STORED_AS));
        let expected = wide(&FIXTURES.array::<T>(&format!("gqa.{}.y", T::STORED_AS)));
        check(run, &pytorch_weights(), (4, 2), 1e4, &x, &expected)
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

fn seeded(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, salt: u64) -> Outcome {
        let w = weights(run, salt, 32, 16);
        let x: ArrayD<T> = run.rng(salt + 1).normal_array(&[2, 5, 32]);
        let layer = layer(&w, (4, 2), 1e4);
        let expected = oracle::module::<T>(&layer, &wide(&x), 0, &mut oracle::cache(&layer, 2, 5), MODULE);
        check(run, &w, (4, 2), 1e4, &x, &expected)
    }
    one::<f32>(run, 42)?;
    one::<bf16>(run, 44)
}

fn errors(run: &Run) -> Outcome {
    let x = ArrayD::<f32>::zeros(vec![1, 2, 3, 4]);
    err("repeat_kv(x, 0)", learner(run).repeat_kv(&x, 0), AttnError::ZeroSize { what: String::new() })?;
    let rank = |expected| AttnError::Rank { expected, found: Vec::new() };
    let x3 = ArrayD::<f32>::zeros(vec![2, 3, 4]);
    err("repeat_kv(x of shape [2, 3, 4], 2)", learner(run).repeat_kv(&x3, 2), rank(4))?;
    let module = holding(run, &weights(run, 45, 32, 16), (4, 2), 1e4, (1, 4))?;
    err("forward(x of shape [4, 32])", module.forward(&ArrayD::<f32>::zeros(vec![4, 32])), rank(3))?;
    let mismatch = AttnError::ShapeMismatch { expected: Vec::new(), found: Vec::new() };
    err("forward(x of shape [1, 4, 31])", module.forward(&ArrayD::<f32>::zeros(vec![1, 4, 31])), mismatch)
}
