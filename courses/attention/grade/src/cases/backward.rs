//! Contract of 06-backward: the softmax's backward and causal attention's dq, dk, dv by hand,
//! in f64, tightly enough that only an analytic gradient passes.

use ndarray::ArrayD;
use tutor_grade::report::Contract;
use tutor_grade::{Case, Outcome, Run};
use tutor_kit::AttnError;

use super::{err, learner, ok};
use crate::oracle::{self, Backward, Softmax};
use crate::{mistakes, FIXTURES};

/// The backward, 06-backward.
pub const BACKWARD: Contract = Contract { id: "backward", zh: "反向传播契约", en: "Backward contract" };

/// f64 gradients: a finite difference is off by 1e-6 or more; an analytic one by rounding.
const TIGHT: (f64, f64) = (1e-10, 1e-9);

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![BACKWARD;
        "softmax-backward",
            "softmax_backward 与 PyTorch 的 autograd（f64）及 f64 参考一致（含被遮住的 −∞ 项）", "softmax_backward matches PyTorch's autograd (f64) and the f64 reference (masked −∞ entries included)" => softmax;
        "attention-backward",
            "attention_backward 的 dq、dk、dv 与 PyTorch 的 autograd（f64）及 f64 参考一致（有无偏移）", "attention_backward's dq, dk, dv match PyTorch's autograd (f64) and the f64 reference (with and without an offset)" => attention;
        "backward-errors",
            "形状不一致时返回 Err(ShapeMismatch)", "Err(ShapeMismatch) for shapes that disagree" => errors;
    ]
}

fn check_softmax(run: &Run, s: ArrayD<f64>, g: ArrayD<f64>, expected: &ArrayD<f64>) -> Outcome {
    let what = "softmax_backward(s, g)";
    let actual = ok(what, learner(run).softmax_backward(&s, &g))?;
    run.compare(what, "float64", &actual, expected, TIGHT, move || mistakes::softmax_backward(&s, &g))
}

fn softmax(run: &Run) -> Outcome {
    let s = oracle::softmax(&FIXTURES.array::<f64>("softmax_bwd.x"), 1, Softmax::Stable);
    check_softmax(run, s, FIXTURES.array("softmax_bwd.g"), &FIXTURES.array("softmax_bwd.dx"))?;
    check_softmax(run, FIXTURES.array("bwd.s"), FIXTURES.array("bwd.gs"), &FIXTURES.array("bwd.ds"))?;
    let mut rng = run.rng(61);
    let s = oracle::softmax(&rng.normal_array::<f64>(&[3, 4, 5]), 2, Softmax::Stable);
    let g = rng.normal_array::<f64>(&[3, 4, 5]);
    let expected = oracle::softmax_backward(&s, &g, Backward::default());
    check_softmax(run, s, g, &expected)
}

fn check_attention(run: &Run, inputs: [ArrayD<f64>; 4], expected: &[ArrayD<f64>; 3]) -> Outcome {
    let what = "attention_backward(q, k, v, grad_out)";
    let [q, k, v, g] = &inputs;
    let (dq, dk, dv) = ok(what, learner(run).attention_backward(q, k, v, g))?;
    for (which, (name, actual)) in [("dq", dq), ("dk", dk), ("dv", dv)].into_iter().enumerate() {
        let inputs = inputs.clone();
        let what = format!("{name} of attention_backward");
        run.compare(&what, "float64", &actual, &expected[which], TIGHT, move || {
            mistakes::attention_backward(&inputs, which)
        })?;
    }
    Ok(())
}

fn attention(run: &Run) -> Outcome {
    let read = |name: &str| FIXTURES.array::<f64>(&format!("bwd.{name}"));
    let expected = ["dq", "dk", "dv"].map(read);
    check_attention(run, ["q", "k", "v", "g"].map(read), &expected)?;
    let mut rng = run.rng(62);
    for (b, sq, sk) in [(2, 5, 5), (1, 3, 5)] {
        let shapes = [sq, sk, sk, sq];
        let inputs = shapes.map(|s| rng.normal_array::<f64>(&[b, 2, s, 8]));
        let [q, k, v, g] = &inputs;
        let expected = oracle::attention_backward(q, k, v, g, Backward::default());
        check_attention(run, inputs.clone(), &expected)?;
    }
    Ok(())
}

fn errors(run: &Run) -> Outcome {
    let (z, s) = (|shape: &[usize]| ArrayD::<f64>::zeros(shape.to_vec()), learner(run));
    let mismatch = || AttnError::ShapeMismatch { expected: Vec::new(), found: Vec::new() };
    err("softmax_backward(s of [2, 3], g of [2, 4])", s.softmax_backward(&z(&[2, 3]), &z(&[2, 4])), mismatch())?;
    let (x, g) = (z(&[1, 1, 3, 4]), z(&[1, 1, 2, 4]));
    err("attention_backward(q, k, v, grad_out of [1, 1, 2, 4])", s.attention_backward(&x, &x, &x, &g), mismatch())
}
