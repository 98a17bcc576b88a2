//! Which x gave the NaN: a failed comparison whose output is NaN or infinite where the reference
//! is a number ([`crate::report::NonFinite`]) shows the input there, so that a learner sees
//! `x[3] = 89.5` (`x·eˣ/(1+eˣ)` is NaN from about 88.7) instead of only a position. The case says
//! how its output relates to its input: element for element, or row for row (a function of the
//! last axis: a norm, a softmax, a Linear).

use ndarray::{ArrayD, Axis};

use crate::outcome::Failure;
use crate::report::InputAt;

/// A row shows this many of its first values (and its length and largest magnitude).
const ROW_VALUES: usize = 6;

/// How a compared output relates to the input of the call that gave it.
#[derive(Clone, Copy)]
pub enum Input<'a> {
    /// Each output element comes from the input element at the same index (SiLU).
    Elementwise(&'a str, &'a ArrayD<f64>),
    /// Each output row (last axis) comes from the input row at the same index (RMSNorm,
    /// softmax, a Linear).
    Rows(&'a str, &'a ArrayD<f64>),
}

impl Input<'_> {
    /// What the input holds where the output has index `at`, if the shapes say.
    fn at(&self, at: &[usize]) -> Option<InputAt> {
        match *self {
            Input::Elementwise(name, x) => {
                let value = *x.get(at)?;
                Some(InputAt { name: name.to_string(), at: at.to_vec(), values: vec![value], row: None })
            }
            Input::Rows(name, x) => {
                let (_, row_at) = at.split_last()?;
                if x.ndim() != at.len() {
                    return None;
                }
                let mut row = x.view();
                for &i in row_at {
                    if i >= row.len_of(Axis(0)) {
                        return None;
                    }
                    row = row.index_axis_move(Axis(0), i);
                }
                let largest = row.iter().fold(0.0f64, |m, v| if v.abs() > m || v.is_nan() { v.abs() } else { m });
                let values = row.iter().take(ROW_VALUES).copied().collect();
                Some(InputAt { name: name.to_string(), at: row_at.to_vec(), values, row: Some((row.len(), largest)) })
            }
        }
    }
}

impl Failure {
    /// This failure, its first NaN or infinity where the reference is a number traced to the
    /// input that gave it (nothing changes when there is none, or the shapes do not say).
    pub fn traced_to(mut self, input: Input) -> Self {
        if let Some(non_finite) = self.mismatch.as_mut().and_then(|m| m.non_finite.as_mut()) {
            non_finite.input = input.at(&non_finite.at);
        }
        self
    }
}

/// [`Failure::traced_to`] on a comparison's result: `assert_close(…).map_err(traced(Input::…))`.
pub fn traced(input: Input<'_>) -> impl FnOnce(Failure) -> Failure + '_ {
    move |failure| failure.traced_to(input)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::assert_close;
    use crate::text::code;
    use ndarray::array;

    #[test]
    fn the_first_nan_where_the_reference_is_a_number_is_traced_to_its_input() {
        let x = array![[1.0, 2.0], [89.5, 3.0]].into_dyn();
        let expected = array![[0.7, 1.8], [89.5, 2.9]].into_dyn();
        let actual = array![[0.7, 1.8], [f64::NAN, f64::NAN]].into_dyn();
        let failed = assert_close(&code("silu(x)"), "float32", &actual, &expected, 1e-5, 1e-5).unwrap_err();
        let elementwise = failed.clone().traced_to(Input::Elementwise("x", &x)).mismatch.unwrap().non_finite.unwrap();
        assert_eq!((elementwise.at.clone(), elementwise.expected), (vec![1, 0], 89.5));
        assert!(elementwise.actual.is_nan());
        let input = elementwise.input.unwrap();
        assert_eq!((input.name.as_str(), input.at, input.values, input.row), ("x", vec![1, 0], vec![89.5], None));

        let row = failed.traced_to(Input::Rows("x", &x)).mismatch.unwrap().non_finite.unwrap().input.unwrap();
        assert_eq!((row.at, row.values, row.row), (vec![1], vec![89.5, 3.0], Some((2, 89.5))));
    }

    #[test]
    fn nothing_is_traced_without_a_nan_or_with_shapes_that_do_not_say() {
        let x = array![1.0, 2.0].into_dyn();
        let failed = assert_close(&code("y"), "float32", &array![1.0, 5.0].into_dyn(), &x, 0.0, 0.0).unwrap_err();
        assert_eq!(failed.clone().traced_to(Input::Elementwise("x", &x)), failed, "no NaN, nothing traced");
        let nan = assert_close(&code("y"), "float32", &array![f64::NAN].into_dyn(), &array![1.0].into_dyn(), 0.0, 0.0)
            .unwrap_err();
        let other_rank = array![[1.0]].into_dyn();
        let traced = nan.traced_to(Input::Elementwise("x", &other_rank)).mismatch.unwrap().non_finite.unwrap();
        assert_eq!(traced.input, None);
        // A NaN the reference has too is no surprise.
        let both = array![f64::NAN, 3.0].into_dyn();
        let failed = assert_close(&code("y"), "float32", &both, &array![f64::NAN, 1.0].into_dyn(), 0.0, 0.0);
        assert_eq!(failed.unwrap_err().mismatch.unwrap().non_finite, None);
    }
}
