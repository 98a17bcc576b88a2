//! Written by tutor so that editors understand the exercises; tutor grades them through its
//! own harness, not through this file.

#[path = "../../../exercises/attention/01-rope.rs"]
pub mod exercise_01_rope;

#[path = "../../../exercises/attention/02-softmax.rs"]
pub mod exercise_02_softmax;

#[path = "../../../exercises/attention/03-causal-attention.rs"]
pub mod exercise_03_causal_attention;

#[path = "../../../exercises/attention/04-gqa.rs"]
pub mod exercise_04_gqa;

#[path = "../../../exercises/attention/05-kv-cache.rs"]
pub mod exercise_05_kv_cache;

#[path = "../../../exercises/attention/06-backward.rs"]
pub mod exercise_06_backward;
