//! Contract of 05-kv-cache: a prefill then one token at a time (or chunks) gives the rows of the
//! full causal forward, the cache holds the rotated keys at their positions, and a call the
//! cache cannot hold fails before writing.

use ndarray::{concatenate, s, ArrayD, Axis};
use tutor_grade::fixtures::Stored;
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::AttnError;
use tutor_subject::wire::Dtype;

use super::gqa::{holding, layer, pytorch_weights, weights};
use super::{err, ok, tolerance, wide};
use crate::mistakes::{self, Candidate, Weights};
use crate::oracle::{self, MODULE};
use crate::{text, FIXTURES};

/// The cache, 05-kv-cache.
pub const CACHE: Contract = Contract { id: "kv-cache", zh: "KV 缓存契约", en: "KV cache contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![CACHE;
        "cache-pytorch",
            "预填 3 个词元后逐个解码（共 5 个），输出与 PyTorch 中 Meta 的带缓存前向一致，缓存里是旋转后的键（f32、f16、bf16）", "a prefill of 3 tokens then one at a time (5 in all) matches Meta's cached forward run by PyTorch, and the cache holds the rotated keys (f32, f16, bf16)" => against_pytorch;
        "cache-chunks",
            "分块调用（2、1、2、1 个词元）与 f64 参考的完整因果前向一致", "calls in chunks (2, 1, 2, 1 tokens) match the f64 reference of the full causal forward" => chunks;
        "cache-read",
            "一个新模块拿到已填好的缓存后接着解码：输出来自缓存，而不是它自己见过的调用", "a fresh module handed a filled cache decodes on from it: the output comes from the cache, not from calls it has seen" => read_from_cache;
        "cache-overflow",
            "批大小或位置超出缓存时返回 Err(CacheOverflow)，并且缓存不变；恰好填满缓存的调用返回 Ok", "Err(CacheOverflow) when the batch or the positions exceed the cache, and the cache unchanged; a call that fills it exactly is Ok" => overflow;
    ]
}

/// Calls forward_cached on `x`'s chunks (their lengths), compares the concatenated outputs with
/// `expected`, and returns the learner's module.
fn decode<'c, T: Dtype>(
    run: &Run<'c>,
    (w, theta, max_seq): (&Weights, f64, usize),
    x: &ArrayD<T>,
    chunks: &[usize],
    expected: &ArrayD<f64>,
) -> Result<crate::subject::Attention<'c>, Failure> {
    let mut module = holding(run, w, (4, 2), theta, (x.shape()[0], max_seq))?;
    let (mut outputs, mut calls, mut at) = (Vec::new(), Vec::new(), 0);
    for &n in chunks {
        let piece = x.slice(s![.., at..at + n, ..]).to_owned().into_dyn();
        let what = format!("forward_cached(x, {at})");
        let output = wide(&ok(&what, module.forward_cached(&piece, at))?);
        // Joined along the sequence below: every piece must have its input's shape.
        if output.shape() != piece.shape() {
            return Err(Failure::new(tutor_grade::text::wrong_shape(
                &text::code(&what),
                piece.shape(),
                output.shape(),
            )));
        }
        outputs.push(output);
        calls.push((wide(&piece), at));
        at += n;
    }
    let views: Vec<_> = outputs.iter().map(|o| o.view()).collect();
    let actual = concatenate(Axis(1), &views)
        .map_err(|_| Failure::new(tutor_grade::text::output_differs("forward_cached(x, start_pos)", T::NAME)))?;
    let (w, max) = (w.clone(), (x.shape()[0], max_seq));
    let wrong = move || mistakes::cached::<T>(&layer(&w, (4, 2), theta), &calls, max);
    run.compare("forward_cached(x, start_pos)", T::NAME, &actual, expected, tolerance::<T>(), wrong)?;
    Ok(module)
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let dt = T::STORED_AS;
        let x = FIXTURES.array::<T>(&format!("gqa.{dt}.x"));
        let expected = wide(&FIXTURES.array::<T>(&format!("kvcache.{dt}.steps")));
        let module = decode(run, (&pytorch_weights(), 1e4, 8), &x, &[3, 1, 1], &expected)?;
        let cache = module.cache_k();
        // Its first 5 positions (fewer when a wrong answer's cache is shorter: then its shape differs).
        let keys = wide(&cache.slice(s![.., .., ..5.min(cache.dim().2), ..]).to_owned().into_dyn());
        let right = wide(&FIXTURES.array::<T>(&format!("kvcache.{dt}.cache_k")));
        // Keys cached before RoPE (rotated on every read instead): right outputs, unrotated cache.
        let w = pytorch_weights();
        let unrotated = oracle::split(&oracle::linear::<T>(&wide(&x), &w[1]), 2, false);
        let wrong = move || vec![tutor_grade::candidate("cache-keys-before-rope", "cache-unrotated", unrotated)];
        run.compare("self.cache_k", T::NAME, &keys, &right, tolerance::<T>(), wrong)
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

fn chunks(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, salt: u64) -> Outcome {
        let w = weights(run, salt, 32, 16);
        let x: ArrayD<T> = run.rng(salt + 1).normal_array(&[2, 6, 32]);
        let full = layer(&w, (4, 2), 1e4);
        let expected = oracle::module::<T>(&full, &wide(&x), 0, &mut oracle::cache(&full, 2, 8), MODULE);
        decode(run, (&w, 1e4, 8), &x, &[2, 1, 2, 1], &expected).map(drop)
    }
    one::<f32>(run, 51)?;
    one::<bf16>(run, 53)
}

/// A module that keeps its own record of the inputs it saw (and recomputes from them) gives the
/// right rows while never reading its cache; a fresh module given another one's cache cannot.
fn read_from_cache(run: &Run) -> Outcome {
    let w = weights(run, 57, 32, 16);
    let x: ArrayD<f32> = run.rng(58).normal_array(&[2, 6, 32]);
    let full = layer(&w, (4, 2), 1e4);
    let expected = oracle::module::<f32>(&full, &wide(&x), 0, &mut oracle::cache(&full, 2, 8), MODULE);
    let filled = decode(run, (&w, 1e4, 8), &x, &[5, 1], &expected)?;
    let mut fresh = holding(run, &w, (4, 2), 1e4, (2, 8))?;
    fresh.set_cache_k(filled.cache_k());
    fresh.set_cache_v(filled.cache_v());
    let what = "forward_cached(x[:, 5..6], 5)";
    let last = x.slice(s![.., 5..6, ..]).to_owned().into_dyn();
    let actual = wide(&ok(what, fresh.forward_cached(&last, 5))?);
    let expected = expected.slice(s![.., 5..6, ..]).to_owned().into_dyn();
    run.compare(what, "f32", &actual, &expected, tolerance::<f32>(), Vec::<Candidate>::new)
        .map_err(|failure| Failure { message: text::cache_not_read(), ..failure })
}

fn overflow(run: &Run) -> Outcome {
    let mut module = holding(run, &weights(run, 55, 32, 16), (4, 2), 1e4, (1, 4))?;
    let overflow = || AttnError::CacheOverflow { needed: 0, capacity: 0 };
    let x = |b: usize, s: usize| ArrayD::<f32>::ones(vec![b, s, 32]);
    err("forward_cached(x of batch 2, 0) with max_batch 1", module.forward_cached(&x(2, 1), 0), overflow())?;
    err("forward_cached(x of 2 tokens, 3) with max_seq_len 4", module.forward_cached(&x(1, 2), 3), overflow())?;
    let untouched = |c: ndarray::Array4<f32>| c.iter().all(|&v| v == 0.0);
    if !untouched(module.cache_k()) || !untouched(module.cache_v()) {
        return Err(Failure::new(text::cache_changed("forward_cached")));
    }
    // Exactly full is not over: start_pos + seq == max_seq_len fits.
    ok("forward_cached(x of 4 tokens, 0) with max_seq_len 4", module.forward_cached(&x(1, 4), 0)).map(drop)
}
