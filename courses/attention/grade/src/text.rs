//! The attention grader's own sentences (case titles live with their cases, the mistakes' in
//! `mistakes.rs`). Both languages side by side.

pub use tutor_grade::text::{code, Bi};

/// A comparison of `what`, computed in `dtype`, failed.
pub fn differs(what: &str, dtype: &str) -> Bi {
    Bi::new(format!("`{what}`（{dtype}）与参考结果不一致"), format!("`{what}` ({dtype}) differs from the reference"))
}

/// A call that failed changed the cache all the same.
pub fn cache_changed(what: &str) -> Bi {
    Bi::new(
        format!("`{what}` 返回了 Err，缓存却被改动了：先检查，再写入"),
        format!("`{what}` returned Err but changed the cache: check first, then write"),
    )
}
