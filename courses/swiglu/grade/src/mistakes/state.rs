//! `state-kept-between-calls` for the block: does `FeedForward::forward` answer depending on what
//! was asked before (a result kept for the shape, say)? Asked by the core diagnosis
//! ([`tutor_grade::state`]) on blocks of width 4 and hidden size 8 holding seeded weights.

use ndarray::{Array2, ArrayD};
use tutor_grade::state::{self, Method};
use tutor_grade::{Course, Rng, Run};
use tutor_kit::{reference, MlpError, Param};

use crate::cases::{learner, pytorch_init};
use crate::subject::FeedForward;

/// [`state::MISTAKE`] when the learner's `FeedForward::forward` keeps something between calls.
pub fn state_kept(run: &Run) -> Option<&'static str> {
    const DIM: usize = 4;
    const HIDDEN: usize = 8;
    let mut rng = run.rng(1400);
    let weights: [Array2<f32>; 3] =
        [(HIDDEN, DIM), (HIDDEN, DIM), (DIM, HIDDEN)].map(|(rows, cols)| pytorch_init(&mut rng, rows, cols));
    let [gate, up, down] = weights.clone().map(Param::trainable);
    let fresh = || {
        let mut block = FeedForward::new(&learner(run), DIM, HIDDEN, 0)?;
        let [gate, up, down] = weights.clone();
        block.set_gate_weight(gate);
        block.set_up_weight(up);
        block.set_down_weight(down);
        Ok::<_, MlpError>(block)
    };
    let right = |x: &ArrayD<f32>| {
        let y = reference::feed_forward(x, &gate, &up, &down);
        y.map(|y| y.mapv(f64::from)).unwrap_or_else(|_| x.mapv(|_| f64::NAN))
    };
    let method = Method {
        name: "FeedForward.forward",
        fresh: &fresh,
        call: &|block: &mut FeedForward, x: &ArrayD<f32>| Ok(block.forward(x)?.mapv(f64::from)),
        right: &right,
        input: &|rng: &mut Rng, rows| rng.normal_array(&[1, rows, DIM]),
        intact: &|_| true,
    };
    state::state_kept(&[&method], crate::COURSE.stateful(), &|salt| run.rng(salt))
}
