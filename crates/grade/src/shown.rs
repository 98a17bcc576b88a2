//! A call as a learner reads it when their code panicked in it: its name and each argument's
//! shape and element type, or its value (`RMSNorm::backward(x: f32 [2, 3, 8], grad_out: f32
//! [2, 3, 8])`). Written on tutor's side from the arguments it sent, so nothing travels on the
//! wire for it, and only when a call panicked.

use ndarray::{Array, Dimension};
use tutor_subject::wire::WireElement;
use tutor_subject::Param;

/// An argument as a call's description shows it: an array by its element type and shape, a
/// scalar by its value.
pub trait Shown {
    /// The argument, short.
    fn shown(&self) -> String;
}

/// A few values of a list are shown; a longer one by its first values and its length.
const LISTED: usize = 4;

/// The name of a wire element type, as Rust writes it.
pub fn dtype_name<T: WireElement>() -> &'static str {
    match T::TAG {
        0 => "f32",
        1 => "f64",
        2 => "f16",
        3 => "bf16",
        _ => "?",
    }
}

impl<T: WireElement, D: Dimension> Shown for Array<T, D> {
    fn shown(&self) -> String {
        format!("{} {:?}", dtype_name::<T>(), self.shape())
    }
}

impl<D: Dimension> Shown for Param<D> {
    fn shown(&self) -> String {
        format!("Param f32 {:?}", self.value.shape())
    }
}

impl<X: Shown + ?Sized> Shown for &X {
    fn shown(&self) -> String {
        (**self).shown()
    }
}

impl<X: Shown> Shown for Option<X> {
    fn shown(&self) -> String {
        match self {
            Some(x) => format!("Some({})", x.shown()),
            None => "None".into(),
        }
    }
}

impl<X: Shown> Shown for Vec<X> {
    fn shown(&self) -> String {
        let first: Vec<String> = self.iter().take(LISTED).map(Shown::shown).collect();
        if self.len() <= LISTED {
            format!("[{}]", first.join(", "))
        } else {
            format!("[{}, … {} values]", first.join(", "), self.len())
        }
    }
}

/// Scalars by their `Debug` form: a float keeps its point (`0.0`, not `0`), a string its quotes.
macro_rules! shown_by_debug {
    ($($t:ty),*) => {
        $(impl Shown for $t {
            fn shown(&self) -> String {
                format!("{self:?}")
            }
        })*
    };
}

shown_by_debug!(usize, u8, u16, u32, u64, i8, i16, i32, i64, isize, bool, f32, f64, String, str);

/// `name(a: shown, b: shown)`.
pub fn describe(name: &str, arguments: &[(&str, &dyn Shown)]) -> String {
    let arguments: Vec<String> = arguments.iter().map(|(a, value)| format!("{a}: {}", value.shown())).collect();
    format!("{name}({})", arguments.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};
    use tutor_subject::half::bf16;

    #[test]
    fn a_call_shows_its_arrays_by_shape_and_its_scalars_by_value() {
        let x = ArrayD::<f32>::zeros(IxDyn(&[2, 3, 8]));
        let g = ArrayD::<bf16>::zeros(IxDyn(&[2, 8]));
        let shown = describe("RMSNorm::backward", &[("x", &&x), ("grad_out", &&g)]);
        assert_eq!(shown, "RMSNorm::backward(x: f32 [2, 3, 8], grad_out: bf16 [2, 8])");
        let shown =
            describe("hidden_size", &[("dim", &4096usize), ("multiplier", &Some(0.0f64)), ("none", &None::<f64>)]);
        assert_eq!(shown, "hidden_size(dim: 4096, multiplier: Some(0.0), none: None)");
        let freqs: Vec<f64> = (0..32).map(f64::from).collect();
        assert_eq!(describe("rope", &[("freqs", &&freqs)]), "rope(freqs: [0.0, 1.0, 2.0, 3.0, … 32 values])");
        assert_eq!(describe("f", &[("eps", &1e-6f32)]), "f(eps: 1e-6)");
        assert_eq!(describe("clear", &[]), "clear()");
    }
}
