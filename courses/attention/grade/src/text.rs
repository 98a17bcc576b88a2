//! The attention grader's own sentences (case titles live with their cases, the mistakes' in
//! `mistakes.rs`). Both languages side by side.

pub use tutor_grade::text::{code, Bi};

/// A fresh module given a filled cache did not decode on from it.
pub fn cache_not_read() -> Bi {
    Bi::new(
        "新模块的缓存是另一个模块填好的：下一步的输出必须从 self.cache_k 与 self.cache_v 读出前面的位置，而不是靠模块自己记下的输入",
        "the fresh module's cache was filled by another one: the next step must read the earlier positions from self.cache_k and self.cache_v, not from inputs the module kept a record of",
    )
}

/// A call that failed changed the cache all the same.
pub fn cache_changed(what: &str) -> Bi {
    Bi::new(
        format!("`{what}` 返回了 Err，缓存却被改动了：先检查，再写入"),
        format!("`{what}` returned Err but changed the cache: check first, then write"),
    )
}
