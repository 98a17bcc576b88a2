//! Contract of 05-backward: silu′ and the block's gradients by hand, in f64, graded tightly
//! enough that only an analytic gradient passes (central differences miss by ~1e-11 and more).

use ndarray::{Array2, ArrayD, IxDyn};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Outcome, Run};
use tutor_kit::half::{bf16, f16};
use tutor_subject::wire::Dtype;

use super::block::{holding, seeded_weights};
use super::{compare, err, learner, ok, tolerance, wide};
use crate::fixtures::{self, Stored};
use crate::oracle;

/// Backward, 05-backward.
pub const BACKWARD: Contract = Contract { id: "backward", zh: "反向传播契约", en: "Backward contract" };

/// An analytic f64 gradient meets this; central differences do not.
const ANALYTIC: (f64, f64) = (1e-14, 1e-12);

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![BACKWARD;
        "silu-grad-f64",
            "silu_grad 与 f64 参考一致，相对误差 1e-12（只有解析导数能做到）",
            "silu_grad matches an f64 reference to 1e-12 relative (only an analytic derivative does)" => silu_grad;
        "backward-f64",
            "f64 输入：dx 与 f64 参考一致到 1e-12，三个权重的梯度与参考一致到 f32 精度",
            "f64 input: dx matches an f64 reference to 1e-12, the three weights' gradients to f32 precision"
            => against_oracle;
        "backward-pytorch",
            "dx 与三个权重梯度与 PyTorch 的 autograd 一致（f32、f16、bf16 输入）",
            "dx and the three weights' gradients match PyTorch's autograd (f32, f16, bf16 inputs)" => against_pytorch;
        "backward-accumulates",
            "两次 backward 之后梯度是两次之和；grad_out 形状不对时返回 Err",
            "after two backward calls the gradients hold their sum; Err for a grad_out of the wrong shape"
            => accumulates;
    ]
}

fn silu_grad(run: &Run) -> Outcome {
    let mut rng = run.rng(51);
    let mut values: Vec<f64> = (0..200).map(|_| 4.0 * rng.normal()).collect();
    values.extend([0.0, 30.0, -30.0, 700.0, -700.0, 1e-300]);
    let x = ArrayD::from_shape_vec(IxDyn(&[values.len()]), values).expect("one axis");
    let expected = x.mapv(oracle::silu_grad);
    let actual = learner(run).silu_grad(&x);
    let missing = || vec![("backward-silu-grad-missing-term", x.mapv(oracle::sigmoid))];
    compare("silu_grad(x)", "float64", &actual, &expected, ANALYTIC, missing)
}

/// Runs one backward from cleared gradients: dx and the three weights' gradients.
fn backward<T: Dtype>(
    run: &Run,
    weights: &[Array2<f32>; 3],
    x: &ArrayD<T>,
    dy: &ArrayD<T>,
    calls: usize,
) -> Result<(ArrayD<f64>, [ArrayD<f64>; 3]), Failure> {
    let mut block = holding(run, weights)?;
    let mut dx = ArrayD::zeros(IxDyn(&[]));
    for _ in 0..calls {
        dx = wide(&ok("FeedForward::backward(x, grad_out)", block.backward(x, dy))?);
    }
    let grads = [block.gate_weight(), block.up_weight(), block.down_weight()].map(|p| match p.grad {
        Some(g) => g.mapv(f64::from).into_dyn(),
        None => ArrayD::zeros(IxDyn(&[0])),
    });
    Ok((dx, grads))
}

const NAMES: [&str; 3] = ["gate.weight.grad", "up.weight.grad", "down.weight.grad"];

/// Compares the three gradients with `expected`, naming swapped gate and up gradients.
fn check_grads(actual: &[ArrayD<f64>; 3], expected: &[ArrayD<f64>; 3], scale: f64) -> Outcome {
    let (atol, rtol) = tolerance::<f32>();
    for (i, name) in NAMES.iter().enumerate() {
        let swapped = [1, 0, 2][i];
        compare(name, "float32", &actual[i], &expected[i], (atol * scale, rtol), || {
            vec![("backward-gate-up-swapped", expected[swapped].clone())]
        })?;
    }
    Ok(())
}

fn as_f32(grads: [Array2<f64>; 3]) -> [ArrayD<f64>; 3] {
    grads.map(|g| g.mapv(|v| f64::from(v as f32)).into_dyn())
}

fn against_oracle(run: &Run) -> Outcome {
    let weights = seeded_weights(run, 52, 8, 24);
    let mut rng = run.rng(53);
    let x: ArrayD<f64> = rng.normal_array(&[3, 4, 8]);
    let dy: ArrayD<f64> = rng.normal_array(&[3, 4, 8]);
    let (dx, grads) = backward(run, &weights, &x, &dy, 1)?;
    let (expected_dx, expected_grads) = oracle::backward(&x, &dy, &weights, oracle::silu_grad);
    compare("FeedForward::backward(x, grad_out)", "float64", &dx, &expected_dx, ANALYTIC, || {
        vec![("backward-silu-grad-missing-term", oracle::backward(&x, &dy, &weights, oracle::sigmoid).0)]
    })?;
    check_grads(&grads, &as_f32(expected_grads), 1.0)
}

fn against_pytorch(run: &Run) -> Outcome {
    fn one<T: Stored + Dtype>(run: &Run) -> Outcome {
        let weights = ["block.gate", "block.up", "block.down"].map(fixtures::matrix);
        let name = |part: &str| format!("block.{}.{part}", T::STORED_AS);
        let (x, dy) = (fixtures::array::<T>(&name("x")), fixtures::array::<T>(&name("dy")));
        let (dx, grads) = backward(run, &weights, &x, &dy, 1)?;
        let torch_dx = wide(&fixtures::array::<T>(&name("dx")));
        compare("FeedForward::backward(x, grad_out)", T::NAME, &dx, &torch_dx, tolerance::<T>(), Vec::new)?;
        let torch = ["dgate", "dup", "ddown"].map(|part| fixtures::matrix(&name(part)).mapv(f64::from).into_dyn());
        check_grads(&grads, &torch, 1.0)
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
    let (_, once) = backward(run, &weights, &x, &dy, 1)?;
    let (_, twice) = backward(run, &weights, &x, &dy, 2)?;
    let (atol, rtol) = tolerance::<f32>();
    for (i, name) in NAMES.iter().enumerate() {
        let doubled = &once[i] * 2.0;
        compare(name, "float32", &twice[i], &doubled, (atol, rtol), || {
            vec![("backward-grads-overwritten", once[i].clone())]
        })?;
    }
    let mut block = holding(run, &weights)?;
    let wrong: ArrayD<f32> = rng.normal_array(&[5, 5]);
    err("FeedForward::backward(x, <grad_out of shape [5, 5]>)", block.backward(&x, &wrong))
}
