//! Contract of 01-rope: Meta's frequencies (LLaMA 3.1's scaling too) and RoPE, against
//! PyTorch's fixtures and the oracle.

use ndarray::ArrayD;
use tutor_grade::fixtures::Stored;
use tutor_grade::report::Contract;
use tutor_grade::{Case, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::AttnError;
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, tolerance, wide};
use crate::oracle::{self, Rope};
use crate::{mistakes, FIXTURES};

/// RoPE, 01-rope.
pub const ROPE: Contract = Contract { id: "rope", zh: "RoPE 契约", en: "RoPE contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![ROPE;
        "rope-frequencies",
            "rope_frequencies 与 PyTorch 的 f64 频率表一致（θ 10000 与 500000，head_dim 16 与 64，LLaMA 3.1 缩放）", "rope_frequencies matches PyTorch's f64 tables (θ 10000 and 500000, head_dim 16 and 64, LLaMA 3.1's scaling)" => frequencies;
        "rope-pytorch",
            "rope 与契约的 f64 参考一致（Meta 的 apply_rotary_emb 的数学，f32、f16、bf16，起始位置 0、3、35、8190）", "rope matches the contract's f64 reference (Meta's apply_rotary_emb maths; f32, f16, bf16; start 0, 3, 35, 8190)" => against_pytorch;
        "rope-seeded",
            "rope 在随机输入与随机起始位置上与 f64 参考一致", "rope matches the f64 reference on random inputs and start positions" => seeded;
        "rope-errors",
            "head_dim 为 0 或奇数、θ 不合法、维数或频率个数不对时返回文档规定的 Err", "the documented Err for a zero or odd head_dim, a bad θ, a wrong rank or number of frequencies" => errors;
    ]
}

fn frequencies(run: &Run) -> Outcome {
    let tables = [("10000", 16, 1e4, false), ("500000", 16, 5e5, false), ("llama31", 16, 5e5, true)];
    let wide_tables = [("500000.d64", 64, 5e5, false), ("llama31.d64", 64, 5e5, true)];
    for (name, d, theta, llama31) in tables.into_iter().chain(wide_tables) {
        let what = format!("rope_frequencies({d}, {theta}, {llama31})");
        let got = ok(&what, learner(run).rope_frequencies(d, theta, llama31))?;
        let actual = ArrayD::from_shape_vec(vec![got.len()], got).expect("one axis");
        let expected = FIXTURES.array::<f64>(&format!("rope.freqs.{name}"));
        run.compare(&what, "float64", &actual, &expected, (0.0, 1e-12), move || {
            mistakes::frequencies(d, theta, llama31)
        })?;
    }
    Ok(())
}

/// The learner's rope on `x` `[b, h, s, d]`, against `expected`, with the mistakes recorded.
fn check<T: Dtype>(run: &Run, x: &ArrayD<T>, start: usize, freqs: &[f64], expected: &ArrayD<f64>) -> Outcome {
    let what = format!("rope(x, {start}, freqs)");
    let actual = wide(&ok(&what, learner(run).rope(x, start, &freqs.to_vec()))?);
    let (x, freqs) = (wide(x), freqs.to_vec());
    run.compare(&what, T::NAME, &actual, expected, tolerance::<T>(), move || mistakes::rope::<T>(&x, start, &freqs))
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let dt = T::STORED_AS;
        let x = FIXTURES.array::<T>(&format!("rope.{dt}.x"));
        let sets = [("", 3, 1e4, false), (".t500000.p0", 0, 5e5, false), (".t10000.p35", 35, 1e4, false)];
        let scaled = [(".llama31.p35", 35, 5e5, true), (".llama31.p8190", 8190, 5e5, true)];
        for (name, start, theta, llama31) in sets.into_iter().chain(scaled) {
            let expected = wide(&FIXTURES.array::<T>(&format!("rope.{dt}{name}.y")));
            check(run, &x, start, &oracle::frequencies(16, theta, llama31, 2.0), &expected)?;
        }
        Ok(())
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

fn seeded(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, salt: u64) -> Outcome {
        let mut rng = run.rng(salt);
        let x: ArrayD<T> = rng.normal_array(&[2, 3, 4, 8]);
        let start = 1 + (rng.uniform() * 40.0) as usize;
        let freqs = oracle::frequencies(8, 1e4, false, 2.0);
        let expected = oracle::round::<T>(&oracle::rope(&wide(&x), start, &freqs, Rope::Pairs));
        check(run, &x, start, &freqs, &expected)
    }
    one::<f32>(run, 1)?;
    one::<bf16>(run, 2)
}

fn errors(run: &Run) -> Outcome {
    let subject = learner(run);
    let zero = || AttnError::ZeroSize { what: String::new() };
    err("rope_frequencies(0, 10000, false)", subject.rope_frequencies(0, 1e4, false), zero())?;
    err("rope_frequencies(7, 10000, false)", subject.rope_frequencies(7, 1e4, false), AttnError::OddHeadDim(7))?;
    err("rope_frequencies(8, 1, false)", subject.rope_frequencies(8, 1.0, false), AttnError::BadTheta(1.0))?;
    err("rope_frequencies(8, NaN, false)", subject.rope_frequencies(8, f64::NAN, false), AttnError::BadTheta(0.0))?;
    let rank = AttnError::Rank { expected: 4, found: Vec::new() };
    err("rope(x of shape [3, 4], 0, freqs)", subject.rope(&ArrayD::<f32>::zeros(vec![3, 4]), 0, &vec![1.0; 2]), rank)?;
    let odd = ArrayD::<f32>::zeros(vec![1, 1, 2, 3]);
    err("rope(x with head_dim 3, 0, freqs)", subject.rope(&odd, 0, &vec![1.0]), AttnError::OddHeadDim(3))?;
    let mismatch = AttnError::ShapeMismatch { expected: Vec::new(), found: Vec::new() };
    let x = ArrayD::<f32>::zeros(vec![1, 1, 2, 4]);
    err("rope(x with head_dim 4, 0, 3 freqs)", subject.rope(&x, 0, &vec![1.0; 3]), mismatch)
}
