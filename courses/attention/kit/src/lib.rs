//! The attention course's kit, which its exercise files know as `tutor_kit`: the types they build
//! on ([`Param`], [`Rng`], [`AttnError`], [`Float`]), the given pieces of the exercises
//! ([`reference`], one file per piece), and the declaration of the calls tutor makes into an
//! exercise file (served and called by the core crates, see `docs/protocol.md`). It never decides
//! a verdict. The learner-facing API is fixed in `docs/attention-api.md`.

mod error;
// Not in a graded program, which holds its exercise's given pieces only (`docs/protocol.md`).
#[cfg(feature = "reference")]
pub mod reference;

pub use error::AttnError;
pub use tutor_subject::{half, ndarray, Float, Rng};

/// The gradients (dq, dk, dv) of attention's backward, in f64.
pub type Gradients = (ndarray::ArrayD<f64>, ndarray::ArrayD<f64>, ndarray::ArrayD<f64>);

/// A learnable 2-D tensor (a projection's `[out, in]` weight): FP32 master value, accumulated grad.
pub type Param = tutor_subject::Param<ndarray::Ix2>;

tutor_subject::course_protocol! {
    crate;
    handles { Attention }
    calls {
        #[grades(1)] 1 => fn rope_frequencies(head_dim: usize, theta: f64, llama31: bool) -> Result<Vec<f64>, AttnError>;
        #[grades(1)] 2 => fn rope<T>(x: &ndarray::ArrayD<T>, start_pos: usize, freqs: &Vec<f64>) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(2)] 3 => fn softmax<T>(x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(2)] 4 => fn log_sum_exp<T>(x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(3)] 5 => fn attention<T>(q: &ndarray::ArrayD<T>, k: &ndarray::ArrayD<T>, v: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(4)] 6 => fn repeat_kv<T>(x: &ndarray::ArrayD<T>, n_rep: usize) -> Result<ndarray::ArrayD<T>, AttnError>;
        7 => Attention::new(dim: usize, n_heads: usize, n_kv_heads: usize, max_batch: usize, max_seq_len: usize, theta: f64, seed: u64) -> Result<Self, AttnError>;
        8 => Attention.set_wq(value: ndarray::Array2<f32>) = set wq.value;
        9 => Attention.set_wk(value: ndarray::Array2<f32>) = set wk.value;
        10 => Attention.set_wv(value: ndarray::Array2<f32>) = set wv.value;
        11 => Attention.set_wo(value: ndarray::Array2<f32>) = set wo.value;
        12 => Attention.cache_k -> ndarray::Array4<f32> = get cache_k;
        13 => Attention.cache_v -> ndarray::Array4<f32> = get cache_v;
        #[grades(4)] 14 => Attention.forward<T>(&self, x: &ndarray::ArrayD<T>) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(5)] 15 => Attention.forward_cached<T>(&mut self, x: &ndarray::ArrayD<T>, start_pos: usize) -> Result<ndarray::ArrayD<T>, AttnError>;
        #[grades(6)] 16 => fn softmax_backward(s: &ndarray::ArrayD<f64>, g: &ndarray::ArrayD<f64>) -> Result<ndarray::ArrayD<f64>, AttnError>;
        #[grades(6)] 17 => fn attention_backward(q: &ndarray::ArrayD<f64>, k: &ndarray::ArrayD<f64>, v: &ndarray::ArrayD<f64>, grad_out: &ndarray::ArrayD<f64>) -> Result<Gradients, AttnError>;
        18 => Attention.set_cache_k(value: ndarray::Array4<f32>) = set cache_k;
        19 => Attention.set_cache_v(value: ndarray::Array4<f32>) = set cache_v;
    }
}
