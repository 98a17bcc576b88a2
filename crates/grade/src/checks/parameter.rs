//! Parameter contract: the per-feature scale γ (TODO 1).

use ndarray::{ArrayD, IxDyn};

use super::{call, Case, Failure, Outcome, Run};
use crate::report::Contract;
use crate::text;

pub fn cases() -> Vec<Case> {
    let case = |id, run| Case { contract: Contract::Parameter, id, run };
    vec![
        case("weight-is-ones", weight_is_ones),
        case("eps-is-kept", eps_is_kept),
        case("rejects-bad-config", rejects_bad_config),
        case("weight-gets-gradient", weight_gets_gradient),
    ]
}

fn weight_is_ones(run: &Run) -> Outcome {
    let hidden = 4;
    let norm = run.build(hidden, 1e-6)?;
    let weight = norm.weight();
    if weight.value.shape() != [hidden] {
        let scalar = (weight.len() == 1).then_some("scalar-weight");
        return Err(Failure::new(text::weight_shape(weight.value.shape(), hidden)).with_mistake(scalar));
    }
    if weight.value.iter().any(|&v| v != 1.0) {
        let mistake = if weight.value.iter().all(|&v| v == 0.0) { "zero-weight" } else { "random-weight" };
        return Err(Failure::new(text::weight_not_ones(&format!("{}", weight.value))).with_mistake(Some(mistake)));
    }
    if !weight.requires_grad {
        return Err(frozen());
    }
    Ok(())
}

fn eps_is_kept(run: &Run) -> Outcome {
    let eps = 1e-5;
    let norm = run.build(4, eps)?;
    if norm.eps() != eps {
        return Err(Failure::new(text::eps_changed(eps, norm.eps())));
    }
    Ok(())
}

fn rejects_bad_config(run: &Run) -> Outcome {
    for (hidden, eps) in [(0, 1e-6), (4, -1e-6), (4, f32::NAN), (4, f32::INFINITY)] {
        if run.subject.build(hidden, eps).is_ok() {
            return Err(Failure::new(text::expected_error(&format!("RMSNorm::new({hidden}, {eps:e})"))));
        }
    }
    Ok(())
}

fn weight_gets_gradient(run: &Run) -> Outcome {
    let hidden = 3;
    let mut norm = run.build(hidden, 1e-6)?;
    let x = ArrayD::from_shape_vec(IxDyn(&[2, hidden]), vec![0.5f32, -1.0, 2.0, 1.5, 0.25, -0.75])
        .expect("shape and length agree");
    let y = call("forward(x)", norm.forward(&x))?;
    let grad_out = y.mapv(|_| 1.0f32);
    call("backward(x, grad_out)", norm.backward(&x, &grad_out))?;
    let weight = norm.weight();
    if !weight.requires_grad {
        return Err(frozen());
    }
    match &weight.grad {
        None => Err(Failure::new(text::no_weight_gradient())),
        Some(grad) if grad.shape() != [hidden] => {
            Err(Failure::new(text::wrong_shape("weight.grad", &[hidden], grad.shape())))
        }
        Some(_) => Ok(()),
    }
}

/// The failure for a weight that gradients cannot reach.
pub(super) fn frozen() -> Failure {
    Failure::new(text::weight_frozen()).with_mistake(Some("frozen-weight"))
}
