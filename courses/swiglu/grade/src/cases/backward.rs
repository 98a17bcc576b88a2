//! Contract of 05-backward: silu′ and the block's gradients by hand, in f64, graded tightly
//! enough that only an analytic gradient passes (central differences miss by ~1e-11 and more).

use ndarray::{Array2, ArrayD, IxDyn};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use tutor_grade::evidence::{scoped, Sighting};
use tutor_grade::fault::Fault;
use tutor_grade::outcome::run_guarded;
use tutor_grade::report::Contract;
use tutor_grade::{candidate, Case, Failure, Observation, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_kit::{Float, MlpError};
use tutor_subject::wire::Dtype;

use super::block::{holding, seeded_weights};
use super::{close, err, learner, ok, tolerance, wide, Candidate};
use crate::fixtures::{self, Stored};
use crate::mistakes::{through_given_forward, CHAIN_RULE_SLIPS, WRONG_SLOPES};
use crate::oracle::{self, Slip};
use crate::subject::FeedForward;
use crate::text;

/// Backward, 05-backward.
pub const BACKWARD: Contract = Contract { id: "backward", zh: "反向传播契约", en: "Backward contract" };

/// An analytic f64 gradient meets this; central differences do not.
const ANALYTIC: (f64, f64) = (1e-14, 1e-12);

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![BACKWARD;
        "silu-grad-f64",
            "silu_grad 与 f64 参考一致，相对误差 1e-12（只有解析导数能做到；负尾部 −30.5…−300 只按相对误差），在 ±710 以外的尾部也没有 NaN",
            "silu_grad matches an f64 reference to 1e-12 relative (only an analytic derivative does; the negative tail, −30.5…−300, relatively alone), with no NaN in the tails beyond ±710"
            => silu_grad;
        "backward-f64",
            "f64 输入：dx 与 f64 参考一致到 1e-12，三个权重的梯度与参考一致到 f32 精度",
            "f64 input: dx matches an f64 reference to 1e-12, the three weights' gradients to f32 precision"
            => against_oracle;
        "backward-tails",
            "gate 的输出远在负尾部（f64 中低于 −709.8，f32 输入中低于 −88.7）：梯度没有 NaN，与参考一致",
            "gate outputs far in the negative tail (below −709.8 in f64, below −88.7 for f32 inputs): no NaN in the gradients, which match the reference"
            => tails;
        "backward-pytorch",
            "dx 与三个权重梯度与 PyTorch 的 autograd 一致（f32、f16、bf16 输入）",
            "dx and the three weights' gradients match PyTorch's autograd (f32, f16, bf16 inputs)" => against_pytorch;
        "backward-accumulates",
            "两次 backward 之后梯度是两次之和；冻结的权重没有梯度，其余照常；grad_out 形状不对时返回 Err（元素个数相同也一样）；空批次的梯度是全零",
            "after two backward calls the gradients hold their sum; a frozen weight gets no gradient, the others still do; Err for a grad_out of the wrong shape (of x's element count too); an empty batch's gradients are zeros"
            => accumulates;
    ]
}

fn silu_grad(run: &Run) -> Outcome {
    let x = silu_grad_inputs(run);
    let expected = x.mapv(oracle::silu_grad);
    let actual = learner(run).silu_grad(&x);
    // f32's exponential overflows past |x| ≈ 88.7: only the values short of it tell f32 apart.
    let short_of_overflow: Vec<bool> = x.iter().map(|v| v.abs() <= 80.0).collect();
    let terms = x.clone();
    let scale = move || terms.mapv(oracle::silu_grad_terms);
    observe_f32(run, "silu_grad", &actual, (&expected, scale), &short_of_overflow);
    run.compare("silu_grad(x)", "float64", &actual, &expected, ANALYTIC, slopes(x))?;
    negative_tail(run)
}

/// The inputs of `silu-grad-f64`: 200 normal draws of standard deviation 4, and values in the
/// tails and past where an exponential overflows.
fn silu_grad_inputs(run: &Run) -> ArrayD<f64> {
    let mut rng = run.rng(51);
    let mut values: Vec<f64> = (0..200).map(|_| 4.0 * rng.normal()).collect();
    values.extend([0.0, 30.0, -30.0, 700.0, -700.0, 1e-300]);
    // Past where e^(−x) or eˣ overflows (709.78): a quotient of exponentials is inf/inf there.
    values.extend([-710.0, -745.0, -1e3, -1e5, -1e300, -f64::MAX, 710.0, 1e5, f64::MAX]);
    ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("one axis")
}

/// Records whether `actual` is what an f32 computation gives, on the elements `kept`
/// ([`computed_in_f32`] against `expected` and the size of its terms, worked out by `scale` only
/// if some case fails), where the f64 reference is not all f32 values. `scope` keeps silu_grad's
/// finding apart from backward's (a backward may compute its own silu′).
fn observe_f32(
    run: &Run,
    scope: &'static str,
    actual: &ArrayD<f64>,
    (expected, scale): (&ArrayD<f64>, impl FnOnce() -> ArrayD<f64> + 'static),
    kept: &[bool],
) {
    let (case, seen, right, kept) = (run.case(), actual.clone(), expected.clone(), kept.to_vec());
    run.observe(move || {
        let matches = computed_in_f32(&seen, &right, &scale(), &kept);
        let is_f32 = |v: f64| v.is_nan() || f64::from(v as f32) == v;
        let same_shape = seen.shape() == right.shape() && right.len() == kept.len();
        let wrong = same_shape && !right.iter().zip(&kept).filter(|(_, &k)| k).all(|(&e, _)| is_f32(e));
        let learner_wrong = !tutor_grade::probe::all_close(&seen, &right, ANALYTIC.0, ANALYTIC.1);
        let variant = scoped(scope, "f32-values");
        vec![Observation {
            case,
            learner_wrong,
            sightings: vec![Sighting { mistake: "backward-in-f32", variant, matches, wrong }],
        }]
    });
}

/// Whether `actual` is what an f32 computation of `expected` gives, on the elements `kept`:
/// every value an f32 (widened), each within f32's reach of `expected`: 1e-4 of `scale`, the
/// size of the terms it is computed from (f32 misses each term by some ulps of that size, which
/// a sum that nearly cancels keeps: a dx or a silu′ near 0 is off by far more than 1e-4 of
/// itself), or f32's smallest normal (where f32 underflows).
fn computed_in_f32(actual: &ArrayD<f64>, expected: &ArrayD<f64>, scale: &ArrayD<f64>, kept: &[bool]) -> bool {
    let same_shape = actual.shape() == expected.shape() && scale.shape() == expected.shape();
    let is_f32 = |v: f64| v.is_nan() || f64::from(v as f32) == v;
    let near = |a: f64, e: f64, m: f64| (a - e).abs() <= 1e-4 * m + f64::from(f32::MIN_POSITIVE);
    let elements = actual.iter().zip(expected).zip(scale).zip(kept);
    same_shape
        && kept.len() == expected.len()
        && elements.filter(|(_, &k)| k).all(|(((&a, &e), &m), _)| is_f32(a) && near(a, e, m))
}

/// Where silu′ is tiny (x from −31 to −300, |silu′| from 1e-12 down to 1e-128), relatively, as
/// the case's title says: an absolute floor would let a result flushed to 0 pass, or σ through
/// a form that cancels there (`(1 + tanh(x/2))/2` is off by 5e-4 at −30.5). Not below −300,
/// where `e^(−2x)` overflows and forms right everywhere else lose the tail too.
fn negative_tail(run: &Run) -> Outcome {
    let values = vec![-30.5, -31.0, -33.5, -37.0, -40.0, -45.0, -60.0, -100.0, -250.0, -300.0];
    let x = ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("one axis");
    let expected = x.mapv(oracle::silu_grad);
    let actual = learner(run).silu_grad(&x);
    let terms = x.clone();
    let scale = move || terms.mapv(oracle::silu_grad_terms);
    observe_f32(run, "silu_grad", &actual, (&expected, scale), &vec![true; x.len()]);
    run.compare("silu_grad(x)", "float64", &actual, &expected, (0.0, ANALYTIC.1), slopes(x))
}

/// The wrong forms of silu′ on `x`.
fn slopes(x: ArrayD<f64>) -> impl FnOnce() -> Vec<Candidate> {
    move || WRONG_SLOPES.iter().map(|&(mistake, variant, slope)| candidate(mistake, variant, x.mapv(slope))).collect()
}

/// Dx and the three weights' gradients.
type Gradients = (ArrayD<f64>, [ArrayD<f64>; 3]);

/// Runs one backward from cleared gradients: dx and the three weights' gradients.
fn backward<T: Dtype>(
    run: &Run,
    weights: &[Array2<f32>; 3],
    x: &ArrayD<T>,
    dy: &ArrayD<T>,
    calls: usize,
) -> Result<Gradients, Failure> {
    let mut block = holding(run, weights)?;
    let mut dx = ArrayD::zeros(IxDyn(&[]));
    for _ in 0..calls {
        let result = products_fit(|| block.backward(x, dy))?;
        // accumulate_grad refusing a gradient: a ShapeMismatch whose expected shape is a weight's.
        let refused = match &result {
            Err(MlpError::ShapeMismatch { expected, found }) => {
                expected != found && weights.iter().any(|w| w.shape() == expected.as_slice())
            }
            _ => false,
        };
        let answer = ok("FeedForward::backward(x, grad_out)", result);
        dx = wide(&answer.map_err(|f| f.with_mistake(refused.then_some("backward-weight-grad-shape")))?);
    }
    let grads = [block.gate_weight(), block.up_weight(), block.down_weight()].map(|p| match p.grad {
        Some(g) => g.mapv(f64::from).into_dyn(),
        None => ArrayD::zeros(IxDyn(&[0])),
    });
    Ok((dx, grads))
}

/// Runs `call`, naming a panic of ndarray's `dot` on shapes that do not fit (a transpose missing
/// or one too many); any other panic goes on unwinding, to be reported as it is.
fn products_fit<V>(call: impl FnOnce() -> V) -> Result<V, Failure> {
    let payload = match catch_unwind(AssertUnwindSafe(call)) {
        Ok(value) => return Ok(value),
        Err(payload) => payload,
    };
    let message = match payload.downcast_ref::<Fault>() {
        Some(Fault::Panicked { message, .. }) => Some(message.clone()),
        Some(_) => None,
        None => payload.downcast_ref::<String>().cloned().or(payload.downcast_ref::<&str>().map(|s| s.to_string())),
    };
    if !message.is_some_and(|m| m.contains("not compatible for matrix multiplication")) {
        resume_unwind(payload);
    }
    let (_, failure) = run_guarded(|| resume_unwind(payload));
    let failure = failure.unwrap_or_else(|| Failure::new(text::panicked("FeedForward::backward(x, grad_out)", "")));
    Err(failure.with_mistake(Some("backward-product-shapes")))
}

/// One weight frozen at a time (`requires_grad = false`): its `grad` stays None, and dx and the
/// others' gradients are those of `all` (one backward with all three trainable).
fn frozen(
    run: &Run,
    weights: &[Array2<f32>; 3],
    (x, dy): (&ArrayD<f32>, &ArrayD<f32>),
    all: (&ArrayD<f64>, &[ArrayD<f64>; 3]),
) -> Outcome {
    for (i, name) in NAMES.iter().enumerate() {
        let mut block = holding(run, weights)?;
        [FeedForward::set_gate_requires_grad, FeedForward::set_up_requires_grad, FeedForward::set_down_requires_grad]
            [i](&mut block, false);
        let dx = wide(&ok("FeedForward::backward(x, grad_out)", block.backward(x, dy))?);
        close("FeedForward::backward(x, grad_out)", "float32", &dx, all.0, tolerance::<f32>())?;
        for (j, param) in [block.gate_weight(), block.up_weight(), block.down_weight()].into_iter().enumerate() {
            match param.grad {
                Some(_) if i == j => {
                    return Err(Failure::new(text::frozen_got_grad(name)).with_mistake(Some("backward-frozen-grad")))
                }
                Some(g) => close(NAMES[j], "float32", &g.mapv(f64::from).into_dyn(), &all.1[j], tolerance::<f32>())?,
                None if i != j => return Err(Failure::new(text::grad_lost(name, NAMES[j]))),
                None => {}
            }
        }
    }
    Ok(())
}

const NAMES: [&str; 3] = ["gate.weight.grad", "up.weight.grad", "down.weight.grad"];

/// The f64 gradients as the learner returns them: dx rounded to `T`, the weights' to FP32.
fn as_returned<T: Float>((dx, grads): (ArrayD<f64>, [Array2<f64>; 3])) -> Gradients {
    (oracle::round::<T>(&dx), grads.map(|g| g.mapv(|v| f64::from(v as f32)).into_dyn()))
}

/// One backward on `(x, dy)` compared with `expected` (dx within `dx_tolerance`, the weights'
/// gradients within FP32's), recording what each says about the wrong silu′ forms and gate's and
/// up's gradients swapped.
fn check<T: Dtype>(
    run: &Run,
    weights: &[Array2<f32>; 3],
    (x, dy): (&ArrayD<T>, &ArrayD<T>),
    expected: Gradients,
    dx_tolerance: (f64, f64),
) -> Outcome {
    let actual = backward(run, weights, x, dy, 1)?;
    if dx_tolerance == ANALYTIC {
        // dx of an f64 input, graded tightly: an f32 computation shows in its values (the
        // weights' gradients are f32 anyway).
        let (x, dy, weights) = (x.mapv(|v| v.to_f64()), dy.mapv(|v| v.to_f64()), weights.clone());
        let scale = move || oracle::dx_terms(&x, &dy, &weights);
        observe_f32(run, "backward", &actual.0, (&expected.0, scale), &vec![true; actual.0.len()]);
    }
    let grad_tolerance = tolerance::<f32>();
    let (case, seen, right) = (run.case(), actual.clone(), expected.clone());
    let (x, dy, weights) = (x.clone(), dy.clone(), weights.clone());
    run.observe(move || {
        // Scoped: backward may use a silu′ of its own, whatever its silu_grad answers.
        let slopes = WRONG_SLOPES
            .iter()
            .map(|&(mistake, variant, slope)| (mistake, scoped("backward", variant), slope, Slip::None));
        let mut wrong: Vec<_> = slopes
            .chain(CHAIN_RULE_SLIPS)
            .map(|(mistake, variant, slope, slip)| {
                (mistake, variant, as_returned::<T>(oracle::backward(&x, &dy, &weights, slope, slip)))
            })
            .collect();
        let given = as_returned::<T>(through_given_forward(&x, &dy, &weights));
        wrong.push(("backward-rounded-like-forward", "given-forward", given));
        let on_dx = wrong.iter().map(|(m, v, (dx, _))| candidate(m, v, dx.clone())).collect();
        let (atol, rtol) = dx_tolerance;
        let mut observed = vec![Observation::by_tolerance(case, &seen.0, &right.0, on_dx, atol, rtol)];
        for i in 0..3 {
            let mut on_grad: Vec<Candidate> =
                wrong.iter().map(|(m, v, (_, g))| candidate(m, v, g[i].clone())).collect();
            if i < 2 {
                on_grad.push(candidate("backward-gate-up-swapped", "swapped", right.1[1 - i].clone()));
            }
            let (atol, rtol) = grad_tolerance;
            observed.push(Observation::by_tolerance(case, &seen.1[i], &right.1[i], on_grad, atol, rtol));
        }
        observed
    });
    close("FeedForward::backward(x, grad_out)", T::NAME, &actual.0, &expected.0, dx_tolerance)?;
    for (i, name) in NAMES.iter().enumerate() {
        close(name, "float32", &actual.1[i], &expected.1[i], grad_tolerance)?;
    }
    Ok(())
}

fn against_oracle(run: &Run) -> Outcome {
    let (weights, x, dy) = oracle_inputs(run);
    let expected = as_returned::<f64>(oracle::backward(&x, &dy, &weights, oracle::silu_grad, Slip::None));
    check(run, &weights, (&x, &dy), expected, ANALYTIC)
}

/// The inputs of `backward-f64`: the weights (dim 8, hidden 24), x and grad_out (`[3, 4, 8]`).
fn oracle_inputs(run: &Run) -> ([Array2<f32>; 3], ArrayD<f64>, ArrayD<f64>) {
    let weights = seeded_weights(run, 52, 8, 24);
    let mut rng = run.rng(53);
    let x: ArrayD<f64> = rng.normal_array(&[3, 4, 8]);
    let dy: ArrayD<f64> = rng.normal_array(&[3, 4, 8]);
    (weights, x, dy)
}

/// Inputs thousands of times larger than usual, so that about a third of the gate's outputs lie
/// past where e^(−g) overflows: below −709.8 for f64, below −88.7 for an FP32 computation.
fn tails(run: &Run) -> Outcome {
    fn one<T: Dtype>(run: &Run, scale: f64) -> Outcome {
        let weights = seeded_weights(run, 56, 8, 24);
        let mut rng = run.rng(57);
        let x = rng.normal_array::<T>(&[4, 8]).mapv(|v| T::from_f64(scale * v.to_f64()));
        let dy: ArrayD<T> = rng.normal_array(&[4, 8]);
        let expected = as_returned::<T>(oracle::backward(&x, &dy, &weights, oracle::silu_grad, Slip::None));
        check(run, &weights, (&x, &dy), expected, tolerance::<T>())
    }
    one::<f64>(run, 3000.0)?;
    one::<f32>(run, 300.0)
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
        let name = |part: &str| format!("block.{}.{part}", T::STORED_AS);
        let (x, dy) = (fixtures::array::<T>(&name("x")), fixtures::array::<T>(&name("dy")));
        let torch_dx = wide(&fixtures::array::<T>(&name("dx")));
        let torch = ["dgate", "dup", "ddown"].map(|part| fixtures::matrix(&name(part)).mapv(f64::from).into_dyn());
        check(run, &weights, (&x, &dy), (torch_dx, torch), tolerance::<T>())
    }
    one::<f32>(run)?;
    one::<f16>(run)?;
    one::<bf16>(run)
}

fn accumulates(run: &Run) -> Outcome {
    let weights = seeded_weights(run, 54, 6, 10);
    let mut rng = run.rng(55);
    let x: ArrayD<f32> = rng.normal_array(&[5, 6]);
    let dy: ArrayD<f32> = rng.normal_array(&[5, 6]);
    let (once_dx, once) = backward(run, &weights, &x, &dy, 1)?;
    let (_, twice) = backward(run, &weights, &x, &dy, 2)?;
    for (i, name) in NAMES.iter().enumerate() {
        let (doubled, overwritten) = (&once[i] * 2.0, once[i].clone());
        let wrong = move || vec![candidate("backward-grads-overwritten", "last-call-only", overwritten)];
        run.compare(name, "float32", &twice[i], &doubled, tolerance::<f32>(), wrong)?;
    }
    frozen(run, &weights, (&x, &dy), (&once_dx, &once))?;
    // A grad_out of x's element count in another shape ([3, 2, 6] for x of [2, 3, 6]), which a
    // check of the count alone lets through, then one of another count.
    let x3: ArrayD<f32> = rng.normal_array(&[2, 3, 6]);
    let shapes =
        [(&x3, rng.normal_array::<f32>(&[3, 2, 6]), "[3, 2, 6]"), (&x, rng.normal_array::<f32>(&[5, 5]), "[5, 5]")];
    for (x, wrong, shape) in shapes {
        let mut block = holding(run, &weights)?;
        let result = block.backward(x, &wrong);
        let accepted = result.is_ok();
        err(
            &format!("FeedForward::backward(<x of shape {:?}>, <grad_out of shape {shape}>)", x.shape()),
            result,
            MlpError::ShapeMismatch { expected: vec![], found: vec![] },
        )
        .map_err(|f| f.with_mistake(accepted.then_some("backward-grad-out-shape-unchecked")))?;
    }
    empty_batch(run, &weights)
}

/// An empty batch (0 rows) accumulates all the same: each trainable weight's grad becomes zeros
/// of its shape, not None (as PyTorch's autograd gives).
fn empty_batch(run: &Run, weights: &[Array2<f32>; 3]) -> Outcome {
    let (x, dy) = (ArrayD::<f32>::zeros(IxDyn(&[0, 6])), ArrayD::<f32>::zeros(IxDyn(&[0, 6])));
    let mut block = holding(run, weights)?;
    let what = "FeedForward::backward(<x of shape [0, 6]>, <grad_out of shape [0, 6]>)";
    let dx = ok(what, block.backward(&x, &dy))?;
    if dx.shape() != [0, 6] {
        return Err(Failure::new(tutor_grade::text::wrong_shape(&tutor_grade::text::code(what), &[0, 6], dx.shape())));
    }
    for (param, (name, weight)) in
        [block.gate_weight(), block.up_weight(), block.down_weight()].into_iter().zip(NAMES.iter().zip(weights))
    {
        match param.grad {
            Some(g) if g.shape() == weight.shape() && g.iter().all(|&v| v == 0.0) => {}
            _ => return Err(Failure::new(text::empty_batch_grad(name))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
