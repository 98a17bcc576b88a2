//! The SwiGLU subject's sentences: the `MlpError` messages, both languages side by side.

pub use tutor_subject::text::Bi;

pub(crate) fn bad_multiplier(m: f64) -> Bi {
    Bi::new(
        format!("ffn_dim_multiplier 必须是有限的正数，收到 {m:?}"),
        format!("ffn_dim_multiplier must be finite and positive, got {m:?}"),
    )
}
