//! The attention API's typed error, with its sentences in both languages.

use tutor_subject::text::Bi;

tutor_subject::tensor_error! {
    /// Why a layer could not be built, or could not run on its inputs: these, and the shared
    /// tensor errors (`NoAxis`, `ZeroSize { what }`, `ShapeMismatch`).
    #[derive(Debug, Clone, PartialEq)]
    pub enum AttnError {
        /// An input without the axes required: `found` is its shape.
        Rank { expected: usize, found: Vec<usize> } = 1,
        /// RoPE rotates pairs: head_dim must be even.
        OddHeadDim(usize) = 2,
        /// Fewer keys than queries: the queries are the last positions of the keys.
        FewerKeys { queries: usize, keys: usize } = 4,
        /// `dim`, `n_heads` and `n_kv_heads` do not divide as they must.
        Heads { n_heads: usize, n_kv_heads: usize } = 5,
        /// The cache cannot hold what a call needs.
        CacheOverflow { needed: usize, capacity: usize } = 6,
        /// RoPE's base θ not finite or not above 1.
        BadTheta(f64) = 7,
    }
}

impl AttnError {
    /// What went wrong, in each language.
    pub fn text(&self) -> Bi {
        match self {
            AttnError::Rank { expected, found } => Bi::new(
                format!("输入应有 {expected} 个维度，收到形状 {found:?}"),
                format!("the input must have {expected} axes, got shape {found:?}"),
            ),
            AttnError::OddHeadDim(d) => Bi::new(
                format!("RoPE 成对旋转，head_dim 必须为偶数，收到 {d}"),
                format!("RoPE rotates pairs: head_dim must be even, got {d}"),
            ),
            AttnError::FewerKeys { queries, keys } => Bi::new(
                format!("键（{keys} 个）少于查询（{queries} 个）"),
                format!("fewer keys ({keys}) than queries ({queries})"),
            ),
            AttnError::Heads { n_heads, n_kv_heads } => Bi::new(
                format!("n_heads = {n_heads} 与 n_kv_heads = {n_kv_heads}：dim 须被 n_heads 整除，n_heads 须被 n_kv_heads 整除"),
                format!("n_heads = {n_heads}, n_kv_heads = {n_kv_heads}: dim must divide by n_heads and n_heads by n_kv_heads"),
            ),
            AttnError::CacheOverflow { needed, capacity } => Bi::new(
                format!("缓存容量为 {capacity}，本次调用需要 {needed}"),
                format!("the cache holds {capacity}, the call needs {needed}"),
            ),
            AttnError::BadTheta(theta) => Bi::new(
                format!("θ 必须是大于 1 的有限数，收到 {theta:?}"),
                format!("θ must be finite and above 1, got {theta:?}"),
            ),
            shared => shared.tensor_text(),
        }
    }
}
