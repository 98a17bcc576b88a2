//! Contract of 03-hidden-size: Meta's FFN width rule.

use tutor_grade::evidence::Sighting;
use tutor_grade::probe::{probe, Called};
use tutor_grade::report::Contract;
use tutor_grade::{Case, Failure, Observation, Outcome, Run};

use super::{err, learner, ok, zero_size};
use crate::mistakes::hidden_candidates;
use crate::oracle;
use crate::text;
use tutor_kit::MlpError;

/// Hidden size, 03-hidden-size.
pub const HIDDEN: Contract = Contract { id: "hidden-size", zh: "隐藏宽度契约", en: "Hidden size contract" };

/// (dim, multiple_of, ffn_dim_multiplier, hidden): LLaMA 1 7B and 13B, LLaMA 1 65B, LLaMA 2
/// 70B, LLaMA 3 8B, as their params.json give them.
pub const META: [(usize, usize, Option<f64>, usize); 5] = [
    (4096, 256, None, 11008),
    (5120, 256, None, 13824),
    (8192, 256, None, 22016),
    (8192, 4096, Some(1.3), 28672),
    (4096, 1024, Some(1.3), 14336),
];

pub fn cases() -> Vec<Case> {
    tutor_grade::cases![HIDDEN;
        "hidden-meta",
            "hidden_size 复现 Meta 的配置（4096 → 11008、5120 → 13824、8192 → 22016，以及 multiplier 1.3 的 28672 与 14336）",
            "hidden_size reproduces Meta's configurations (4096 → 11008, 5120 → 13824, 8192 → 22016, and 28672 and 14336 with multiplier 1.3)"
            => meta;
        "hidden-rule",
            "hidden_size 在边界（取整前为 0、f32 与 f64 的 multiplier、4·dim 不是 3 的倍数）和随机的 dim、multiple_of、multiplier 上遵循同一规则；尺寸为 0 或 multiplier 非法时返回 Err",
            "hidden_size follows the rule at its edges (0 before rounding, the multiplier in f32 vs f64, 4·dim not a multiple of 3) and on random dim, multiple_of and multiplier; Err for a zero size or a bad multiplier"
            => rule;
    ]
}

/// `(dim, multiple_of, ffn_dim_multiplier)`.
type Config = (usize, usize, Option<f64>);

/// Asks every configuration, recording for each what the known mistakes would answer (so that
/// one is named only if it gives every answer seen); fails on the first wrong answer.
fn check(run: &Run, configs: &[Config]) -> Outcome {
    let mut observations = Vec::new();
    let mut first_wrong = None;
    for &(dim, multiple_of, multiplier) in configs {
        let what = format!("hidden_size({dim}, {multiple_of}, {multiplier:?})");
        let expected = oracle::hidden_size(dim, multiple_of, multiplier);
        // An Err where the answer is 0: the width 0 taken for a zero size.
        let zero = (expected == 0).then_some("hidden-zero-width");
        let found =
            ok(&what, learner(run).hidden_size(dim, multiple_of, multiplier)).map_err(|f| f.with_mistake(zero))?;
        let sightings = hidden_candidates(dim, multiple_of, multiplier)
            .into_iter()
            .map(|(mistake, variant, value)| Sighting {
                mistake,
                variant,
                matches: value == found,
                wrong: value != expected,
            })
            .collect();
        observations.push(Observation { case: run.case(), learner_wrong: found != expected, sightings });
        if found != expected && first_wrong.is_none() {
            first_wrong = Some(text::wrong_number(&what, expected, found));
        }
    }
    run.observe(move || observations);
    first_wrong.map_or(Ok(()), |message| Err(Failure::new(message)))
}

fn meta(run: &Run) -> Outcome {
    check(run, &META.map(|(d, m, k, _)| (d, m, k)))
}

fn rule(run: &Run) -> Outcome {
    underflow(run)?;
    let mut rng = run.rng(31);
    let multiples = [1, 8, 32, 64, 100, 256, 1000, 4096];
    // 1.3 · 10922 = 14198.6: int() gives 14198, round() 14199. With multiple_of 1, each of the
    // others shows one slip alone: round() at 4002 (13874), the multiplier before the 2/3 at 4014
    // (13914), 2/3 rounded to nearest (13867) or taken of dim first (13863) at 4000.
    let mut configs: Vec<Config> = [4096, 4002, 4014, 4000].map(|dim| (dim, 1, Some(1.3))).to_vec();
    configs.extend(BOUNDARIES);
    configs.extend((0..40).map(|i| {
        let dim = 1 + (rng.uniform() * 6000.0) as usize;
        let multiple_of = multiples[(rng.uniform() * multiples.len() as f64) as usize % multiples.len()];
        let multiplier = (i % 2 == 1).then(|| (50.0 + rng.uniform() * 150.0).round() / 100.0);
        (dim, multiple_of, multiplier)
    }));
    check(run, &configs)?;
    let zero = |f: Failure| f.with_mistake(Some("hidden-zero-size-unchecked"));
    err("hidden_size(0, 256, None)", learner(run).hidden_size(0, 256, None), zero_size()).map_err(zero)?;
    err("hidden_size(4096, 0, None)", learner(run).hidden_size(4096, 0, None), zero_size()).map_err(zero)?;
    for bad in [0.0, -1.3, f64::NAN, f64::INFINITY] {
        err(
            &format!("hidden_size(4096, 256, Some({bad:?}))"),
            learner(run).hidden_size(4096, 256, Some(bad)),
            MlpError::BadMultiplier(bad),
        )
        .map_err(|f| f.with_mistake(Some("hidden-bad-multiplier-accepted")))?;
    }
    Ok(())
}

/// Widths at the rule's edges, the same on every seed: 0 before the last step (dim 1, multiplier
/// 0.3: int(0.3·2) = 0, and 0 is a multiple of everything); 1.3·90 = 117 exactly in f64 but
/// 116.99999 in f32 (dim 34); 4·dim not a multiple of 3 (dims 2, 5, 4001: 4·dim/3·2 loses one).
const BOUNDARIES: [Config; 7] = [
    (1, 1, Some(0.3)),
    (1, 8, Some(0.3)),
    (34, 1, Some(1.3)),
    (34, 2, Some(1.3)),
    (2, 1, None),
    (5, 1, None),
    (4001, 1, None),
];

/// A round-up that underflows where the width before it is 0 (`(h − 1)/m + 1`): the call panics
/// with Rust's "attempt to subtract with overflow". Asked before the other widths.
fn underflow(run: &Run) -> Outcome {
    let called = probe(|| learner(run).hidden_size(1, 8, Some(0.3)));
    match called {
        Called::Panic(message) if message.contains("subtract with overflow") => {
            Err(Failure::new(text::panicked("hidden_size(1, 8, Some(0.3))", &message))
                .with_mistake(Some("hidden-round-up-underflow")))
        }
        _ => Ok(()),
    }
}
