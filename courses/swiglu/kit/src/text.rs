//! The SwiGLU subject's sentences: the `MlpError` messages, both languages side by side.

pub use tutor_subject::text::Bi;

pub(crate) fn zero_size(what: &str) -> Bi {
    Bi::new(format!("{what} 必须为正数，收到 0"), format!("{what} must be positive, got 0"))
}

pub(crate) fn bad_multiplier(m: f64) -> Bi {
    Bi::new(
        format!("ffn_dim_multiplier 必须是有限的正数，收到 {m:?}"),
        format!("ffn_dim_multiplier must be finite and positive, got {m:?}"),
    )
}

pub(crate) fn no_axis() -> Bi {
    Bi::new("输入至少需要一个特征维（收到零维数组）", "the input needs at least one (feature) axis; got a 0-d array")
}

pub(crate) fn feature_mismatch(expected: usize, found: usize) -> Bi {
    Bi::new(
        format!("输入最后一维的长度为 {found}，应等于 in_features = {expected}"),
        format!("the input's last axis has {found} elements, expected in_features = {expected}"),
    )
}

pub(crate) fn shape_mismatch(expected: &[usize], found: &[usize]) -> Bi {
    Bi::new(
        format!("形状不一致：期望 {expected:?}，收到 {found:?}"),
        format!("shape mismatch: expected {expected:?}, found {found:?}"),
    )
}
