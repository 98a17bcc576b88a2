//! Contract of 03-causal-attention: `softmax(q·kᵀ/√d + mask)·v` on Meta's dtype path, against
//! PyTorch's fixtures (Meta's explicit path) and the oracle.

use ndarray::ArrayD;
use tutor_grade::fixtures::Stored;
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::AttnError;
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, t_max, tolerance, wide};
use crate::oracle::{self, RIGHT};
use crate::{mistakes, FIXTURES};

/// Causal attention, 03-causal-attention.
pub const ATTENTION: Contract =
    Contract { id: "attention", zh: "因果注意力契约", en: "Causal attention contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![ATTENTION;
        "attention-pytorch",
            "attention 与 PyTorch 中 Meta 的显式路径一致（f32、f16、bf16；6 个查询；缓存之后的 3 个查询；单个解码查询）", "attention matches Meta's explicit path run by PyTorch (f32, f16, bf16; 6 queries; 3 queries after a cache; one decode query)" => against_pytorch;
        "attention-seeded",
            "attention 在随机输入上与 f64 参考一致（head_dim 8，有无偏移）", "attention matches the f64 reference on random inputs (head_dim 8, with and without an offset)" => seeded;
        "attention-large-scores",
            "分数在 116 左右（f32 与 f16）时 attention 仍然有限且正确", "attention stays finite and right with scores near 116 (f32 and f16)" => large_scores;
        "attention-errors",
            "维数不对、形状不一致、键少于查询时返回文档规定的 Err", "the documented Err for a wrong rank, shapes that disagree, fewer keys than queries" => errors;
    ]
}

/// The learner's attention against `expected`, mistakes recorded.
fn check<T: Dtype>(run: &Run, [q, k, v]: [&ArrayD<T>; 3], expected: &ArrayD<f64>) -> Outcome {
    let what = "attention(q, k, v)";
    let actual = wide(&ok(what, learner(run).attention(q, k, v))?);
    let (q, k, v) = (wide(q), wide(k), wide(v));
    let queries = q.clone();
    // Each output row is its query's: a NaN there shows that query's row of q.
    run.compare(what, T::NAME, &actual, expected, tolerance::<T>(), move || {
        mistakes::attention::<T>(&q, &k, &v, t_max::<T>())
    })
    .map_err(traced(Input::Rows("q", &queries)))
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let read = |name: &str| FIXTURES.array::<T>(&format!("attn.{name}"));
        let dt = T::STORED_AS;
        let (k, v) = (read(&format!("{dt}.k")), read(&format!("{dt}.v")));
        for set in ["", "offset.", "decode."] {
            let expected = wide(&read(&format!("{set}{dt}.y")));
            check(run, [&read(&format!("{set}{dt}.q")), &k, &v], &expected)?;
        }
        Ok(())
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

/// Random q `[b, 2, sq, 8]` and k, v `[b, 2, sk, 8]`, each plus `shift`.
fn draw<T: Dtype>(run: &Run, salt: u64, (b, sq, sk): (usize, usize, usize), shift: f64) -> [ArrayD<T>; 3] {
    let mut rng = run.rng(salt);
    [sq, sk, sk].map(|s| rng.normal_array::<T>(&[b, 2, s, 8]).mapv(|v| T::from_f64(v.to_f64() + shift)))
}

fn seeded(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, salt: u64, sizes: (usize, usize, usize)) -> Outcome {
        let [q, k, v] = draw::<T>(run, salt, sizes, 0.0);
        let expected = oracle::attention::<T>(&wide(&q), &wide(&k), &wide(&v), RIGHT);
        check(run, [&q, &k, &v], &expected)
    }
    one::<f32>(run, 31, (2, 5, 5))?;
    one::<f32>(run, 32, (1, 3, 6))?;
    one::<bf16>(run, 33, (1, 4, 4))
}

fn large_scores(run: &Run) -> Outcome {
    // q·kᵀ of small integers is exact in any order, and /√16 too: scores near 116, past FP32's
    // exp overflow, the same for every correct answer.
    fn one<T: Dtype>(run: &Run, salt: u64) -> Outcome {
        let mut rng = run.rng(salt);
        let mut integers =
            |shape: &[usize]| rng.normal_array::<f64>(shape).mapv(|v| T::from_f64(5.0 + (2.0 * v).round()));
        let (q, k) = (integers(&[1, 2, 4, 16]), integers(&[1, 2, 4, 16]));
        let v: ArrayD<T> = run.rng(salt + 1).normal_array(&[1, 2, 4, 16]);
        let expected = oracle::attention::<T>(&wide(&q), &wide(&k), &wide(&v), RIGHT);
        check(run, [&q, &k, &v], &expected)
    }
    one::<f32>(run, 34)?;
    one::<f16>(run, 35)
}

fn errors(run: &Run) -> Outcome {
    let subject = learner(run);
    let z = |shape: &[usize]| ArrayD::<f32>::zeros(shape.to_vec());
    let (q, kv) = (z(&[1, 2, 3, 8]), z(&[1, 2, 3, 8]));
    let rank = AttnError::Rank { expected: 4, found: Vec::new() };
    err("attention(q of shape [2, 3, 8], k, v)", subject.attention(&z(&[2, 3, 8]), &kv, &kv), rank)?;
    let mismatch = || AttnError::ShapeMismatch { expected: Vec::new(), found: Vec::new() };
    err("attention(q, k with head_dim 4, v)", subject.attention(&q, &z(&[1, 2, 3, 4]), &kv), mismatch())?;
    err("attention(q, k, v of 4 positions)", subject.attention(&q, &kv, &z(&[1, 2, 4, 8])), mismatch())?;
    let fewer = AttnError::FewerKeys { queries: 0, keys: 0 };
    err("attention(q of 3 positions, k, v of 2)", subject.attention(&q, &z(&[1, 2, 2, 8]), &z(&[1, 2, 2, 8])), fewer)
}
