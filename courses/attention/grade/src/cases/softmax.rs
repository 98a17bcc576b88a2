//! Contract of 02-softmax: the softmax and log-sum-exp over the last axis, in FP32 with the
//! maximum subtracted, against PyTorch's fixtures and the oracle.

use ndarray::ArrayD;
use tutor_grade::evidence::Observation;
use tutor_grade::fixtures::Stored;
use tutor_grade::origin::{traced, Input};
use tutor_grade::report::Contract;
use tutor_grade::rounding::{not_rounded_once, Agreement};
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::AttnError;
use tutor_subject::wire::Dtype;

use super::{err, learner, ok, t_max, tolerance, wide};
use crate::oracle::{self, Softmax};
use crate::{mistakes, FIXTURES};

/// The softmax, 02-softmax.
pub const SOFTMAX: Contract = Contract { id: "softmax", zh: "softmax 契约", en: "Softmax contract" };

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![SOFTMAX;
        "softmax-pytorch",
            "softmax 与 log_sum_exp 与 PyTorch 一致（f32、f16、bf16；−∞、全 −∞ 的行、接近 89 与 ±60000 的值）", "softmax and log_sum_exp match PyTorch (f32, f16, bf16; −∞, rows −∞ throughout, values near 89 and ±60000)" => against_pytorch;
        "softmax-seeded",
            "softmax 在随机输入（一到三维，含很大的值）上与 f64 参考一致", "softmax matches the f64 reference on random inputs (one to three axes, large values among them)" => seeded;
        "softmax-rounded-once",
            "f16 与 bf16 的 softmax 只舍入一次：16 行、每行 64 个值，几乎每个输出都与正确舍入的结果逐位相同", "softmax rounds once in f16 and bf16: on 16 rows of 64 values, almost every output is the correctly rounded result bit for bit" => rounded_once;
        "softmax-errors",
            "零维输入返回 Err(Rank)", "Err(Rank) for a 0-d input" => errors;
    ]
}

/// The learner's softmax of `x` against the oracle's, mistakes recorded.
fn check<T: Dtype>(run: &Run, x: &ArrayD<T>) -> Outcome {
    let actual = wide(&ok("softmax(x)", learner(run).softmax(x))?);
    let x = wide(x);
    let expected = oracle::round::<T>(&oracle::softmax(&x, x.ndim() - 1, Softmax::Stable));
    let rows = x.clone();
    run.compare("softmax(x)", T::NAME, &actual, &expected, tolerance::<T>(), move || {
        mistakes::softmax::<T>(&x, t_max::<T>())
    })
    .map_err(traced(Input::Rows("x", &rows)))
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        for set in ["softmax", "softmax_edge"] {
            let read = |part: &str| FIXTURES.array::<T>(&format!("{set}.{}.{part}", T::STORED_AS));
            let (x, expected) = (read("x"), wide(&read("y")));
            let actual = wide(&ok("softmax(x)", learner(run).softmax(&x))?);
            let (wide_x, rows) = (wide(&x), wide(&x));
            let wrong = move || mistakes::softmax::<T>(&wide_x, t_max::<T>());
            run.compare("softmax(x)", T::NAME, &actual, &expected, tolerance::<T>(), wrong)
                .map_err(traced(Input::Rows("x", &rows)))?;
            let actual = wide(&ok("log_sum_exp(x)", learner(run).log_sum_exp(&x))?);
            let wide_x = wide(&x);
            let wrong = move || mistakes::log_sum_exp::<T>(&wide_x);
            run.compare("log_sum_exp(x)", T::NAME, &actual, &wide(&read("lse")), tolerance::<T>(), wrong)?;
        }
        Ok(())
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

fn seeded(run: &Run) -> Outcome {
    let mut rng = run.rng(21);
    for shape in [&[9][..], &[3, 4, 6], &[2, 0]] {
        check(run, &rng.normal_array::<f32>(shape).mapv(|v| 3.0 * v))?;
    }
    check(run, &rng.normal_array::<bf16>(&[5, 7]))?;
    // Past exp's overflow: 88.7 in FP32, 11.1 in f16.
    check(run, &rng.normal_array::<f32>(&[4, 6]).mapv(|v| 120.0 + 20.0 * v))?;
    let x: ArrayD<f16> = rng.normal_array(&[4, 6]);
    check(run, &x.mapv(|v| f16::from_f32(30.0 + 5.0 * v.to_f32())))?;
    let x = rng.normal_array::<f32>(&[3, 5]);
    let expected = oracle::round::<f32>(&oracle::log_sum_exp(&wide(&x)));
    let actual = wide(&ok("log_sum_exp(x)", learner(run).log_sum_exp(&x))?);
    let x = wide(&x);
    run.compare("log_sum_exp(x)", "float32", &actual, &expected, tolerance::<f32>(), move || {
        mistakes::log_sum_exp::<f32>(&x)
    })
}

/// Outputs that may differ from the correctly rounded softmax: another order of FP32 sums may move
/// a value across a rounding boundary now and then (none of 16,384, measured), where the exps and
/// their sum rounded to `T` move about a third of them (`tests/it/lesson_claims_attention.rs`).
const ROUNDED_ONCE: f64 = 0.02;

fn rounded_once(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, salt: u64) -> Outcome {
        let x: ArrayD<T> = run.rng(salt).normal_array::<f32>(&[16, 64]).mapv(|v| T::from_f32(2.0 * v));
        // A softmax wrong for another reason fails as such: rounding is not its problem.
        check(run, &x)?;
        let actual = ok("softmax(x)", learner(run).softmax(&x))?;
        let wide_x = wide(&x);
        let expected = oracle::softmax(&wide_x, 1, Softmax::Stable).mapv(T::from_f64);
        let (case, seen, right) = (run.case(), actual.clone(), expected.clone());
        let share = 1.0 - ROUNDED_ONCE;
        run.observe(move || {
            vec![Observation::by_bits(case, &seen, &right, mistakes::softmax_in_t::<T>(&wide_x), share)]
        });
        let agreement = Agreement::of(&actual, &expected);
        if agreement.almost_every(ROUNDED_ONCE) {
            return Ok(());
        }
        let (equal, total) = (agreement.total - agreement.differing, agreement.total);
        Err(Failure::new(not_rounded_once("softmax(x)", T::NAME, equal, total, 1.0 - ROUNDED_ONCE)))
    }
    one::<f16>(run, 24)?;
    one::<bf16>(run, 25)
}

fn errors(run: &Run) -> Outcome {
    let scalar = ArrayD::<f32>::zeros(vec![]);
    let rank = || AttnError::Rank { expected: 1, found: Vec::new() };
    err("softmax(0-d x)", learner(run).softmax(&scalar), rank())?;
    err("log_sum_exp(0-d x)", learner(run).log_sum_exp(&scalar), rank())
}
