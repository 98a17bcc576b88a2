//! The given pieces of the exercises, one file per piece: each exercise file calls them for the
//! parts the learner is not writing in that exercise. Inside a graded program, a piece that
//! answers the TODO under test refuses to run (`refuse_if_answer`), and so does one that could
//! compute that answer while it is graded. The dtype path is `docs/attention-api.md`'s: RoPE from
//! f64 angles rounded once; scores in `T`, the softmax in FP32 rounded to `T`, then `@ v`;
//! projections with FP32 sums rounded once; the backward in f64.

mod attention;
mod backward;
mod cache;
mod heads;
mod module;
mod repeat_kv;
mod rope;
mod shapes;
mod softmax;

pub use attention::attention;
pub use backward::{attention_backward, softmax_backward};
pub use cache::attention_forward_cached;
pub use heads::{merge_heads, split_heads};
pub use module::{attention_forward, build, linear, Built};
pub use repeat_kv::repeat_kv;
pub use rope::{rope, rope_frequencies};
pub use softmax::{log_sum_exp, softmax};
