//! Parameter contract: the per-feature scale γ and the configuration `new` keeps (TODO 1).

use ndarray::ArrayD;
use tutor_grade::data::tensor;

use super::{call, cases, grading, Case, Failure, Outcome, Run};
use crate::text;
use crate::Build;

pub fn cases() -> Vec<Case> {
    let mut cases = grading(
        &[1],
        cases! { super::PARAMETER;
            "weight-is-ones",
                "weight 是可训练的 Param，形状 [D]，初值精确为 1",
                "weight is a trainable Param of shape [D] holding exact ones" => weight_is_ones;
            "eps-is-kept",
                "new 原样保存传入的 eps（从 0 到 0.1），权重是否可训练与 eps 无关",
                "new keeps the eps it is given, exactly (from 0 to 0.1), and the weight trains whatever eps is" => eps_is_kept;
            "rejects-bad-config",
                "hidden_size = 0 或 eps 非法时 new 返回 Err",
                "new returns Err for hidden_size = 0 and for a bad eps" => rejects_bad_config;
        },
    );
    cases.extend(grading(&[1, 4], cases! { super::PARAMETER;
        "weight-gets-gradient",
            "forward + backward 之后 weight 有形状 [D] 的梯度",
            "after forward + backward the weight has a gradient of shape [D]" => weight_gets_gradient;
        "gradient-starts-empty",
            "新层的 weight.grad 为 None；两次 backward 的梯度相加（误差在 FP32 舍入之内）",
            "a fresh layer's weight.grad is None, and two backward passes add up (to FP32 rounding)" => gradient_starts_empty;
    }));
    cases
}

fn weight_is_ones(run: &Run) -> Outcome {
    let hidden = 4;
    let norm = run.build(hidden, 1e-6)?;
    let weight = norm.weight();
    if weight.value.shape() != [hidden] {
        let mistake = if weight.len() == 1 { "scalar-weight" } else { "weight-wrong-length" };
        return Err(Failure::new(text::weight_shape(weight.value.shape(), hidden)).with_mistake(Some(mistake)));
    }
    if weight.value.iter().any(|&v| v != 1.0) {
        let first = weight.value[0];
        let mistake = match weight.value.iter().all(|&v| v.to_bits() == first.to_bits()) {
            true if first == 0.0 => "zero-weight",
            true => "constant-weight",
            false => "random-weight",
        };
        return Err(Failure::new(text::weight_not_ones(&format!("{}", weight.value))).with_mistake(Some(mistake)));
    }
    if !weight.requires_grad {
        return Err(frozen());
    }
    Ok(())
}

/// The eps values `new` must keep bit for bit: zero (allowed, though a zero row then gives NaN),
/// tiny ones that a clamp would change, the usual ones, and a large one.
pub const KEPT_EPS: [f32; 6] = [0.0, 1e-12, 1e-8, 1e-6, 1e-5, 0.1];

fn eps_is_kept(run: &Run) -> Outcome {
    let mut trainable = Vec::new();
    for eps in KEPT_EPS {
        let norm = run.build(4, eps)?;
        let kept = norm.eps();
        if kept.to_bits() != eps.to_bits() {
            return Err(eps_changed(eps, kept));
        }
        trainable.push(norm.weight().requires_grad);
    }
    // The weight does not depend on eps: a layer built with eps = 0 trains like any other. (A
    // weight frozen for every eps is the cases about its gradient's finding.)
    if trainable.iter().any(|&t| t) && trainable.contains(&false) {
        return Err(frozen());
    }
    Ok(())
}

/// The failure for a layer that does not keep the eps it was given.
pub(super) fn eps_changed(asked: f32, kept: f32) -> Failure {
    Failure::new(text::eps_changed(asked, kept)).with_mistake(Some("eps-changed"))
}

fn rejects_bad_config(run: &Run) -> Outcome {
    for (hidden, eps) in [(0, 1e-6), (4, -1e-6), (4, f32::NAN), (4, f32::INFINITY)] {
        tutor_grade::refused(&text::code(&format!("RMSNorm::new({hidden}, {eps:e})")), run.new_layer(hidden, eps))?;
    }
    Ok(())
}

fn sample() -> (ArrayD<f32>, ArrayD<f32>) {
    (tensor(&[2, 3], &[0.5, -1.0, 2.0, 1.5, 0.25, -0.75]), tensor(&[2, 3], &[1.0, -0.5, 0.25, 0.75, 2.0, -1.0]))
}

fn weight_gets_gradient(run: &Run) -> Outcome {
    let hidden = 3;
    let mut norm = run.build(hidden, 1e-12)?;
    let (x, _) = sample();
    call(&text::code("forward(x)"), norm.forward(&x))?;
    let grad_out = x.mapv(|_| 1.0f32);
    call(&text::code("backward(x, grad_out)"), norm.backward(&x, &grad_out))?;
    let weight = norm.weight();
    if !weight.requires_grad {
        return Err(frozen());
    }
    match &weight.grad {
        None => Err(Failure::new(text::no_weight_gradient())),
        Some(grad) if grad.shape() != [hidden] => {
            Err(Failure::new(text::wrong_shape(&text::code("weight.grad"), &[hidden], grad.shape())))
        }
        Some(_) => Ok(()),
    }
}

fn gradient_starts_empty(run: &Run) -> Outcome {
    let mut norm = run.build(3, 0.1)?;
    if let Some(grad) = norm.weight().grad {
        return Err(Failure::new(text::gradient_preset(&format!("{grad}"))).with_mistake(Some("gradient-preset")));
    }
    let (x, g) = sample();
    call(&text::code("backward(x, grad_out)"), norm.backward(&x, &g))?;
    let once = norm.weight().grad;
    call(&text::code("backward(x, grad_out)"), norm.backward(&x, &g))?;
    let twice = norm.weight().grad;
    match (once, twice) {
        (Some(once), Some(twice)) if adds_up(&once, &twice) => Ok(()),
        (Some(once), Some(twice)) => {
            // The second pass replaced the first: the gradient is assigned, not accumulated.
            let overwritten = (once == twice && once.iter().any(|&v| v != 0.0)).then_some("gradient-overwritten");
            Err(Failure::new(text::not_accumulated(&format!("{once}"), &format!("{twice}"))).with_mistake(overwritten))
        }
        (_, _) if !norm.weight().requires_grad => Err(frozen()),
        _ => Err(Failure::new(text::no_weight_gradient())),
    }
}

/// Whether `twice` is `once` added to itself. Not bit for bit: a backward that adds each row's
/// share to `weight.grad` in turn adds in another order the second time (an independent learner's
/// correct answer was rejected), so the sums may differ in the last bits; an overwritten or
/// doubled-once gradient is off by a factor of two.
fn adds_up(once: &ndarray::Array1<f32>, twice: &ndarray::Array1<f32>) -> bool {
    let scale = once.iter().fold(0f32, |m, v| m.max(v.abs()));
    once.len() == twice.len()
        && once.iter().zip(twice).all(|(&o, &t)| (2.0 * o - t).abs() <= 1e-5 * (2.0 * o).abs() + 1e-6 * scale)
}

/// The failure for a weight that gradients cannot reach.
pub(super) fn frozen() -> Failure {
    Failure::new(text::weight_frozen()).with_mistake(Some("frozen-weight"))
}
