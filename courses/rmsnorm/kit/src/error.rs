//! Typed errors of the RMSNorm API.

use crate::text;

tutor_subject::wire_enum! {
    /// Why an `RMSNorm` could not be built or could not run on an input.
    #[derive(Debug, Clone, PartialEq)]
    pub enum NormError {
        /// `hidden_size` was 0.
        ZeroHiddenSize = 0,
        /// `eps` was negative, NaN or infinite.
        BadEps(f32) = 1,
        /// The input has no axis at all (a 0-d array), so there is no feature axis to normalise.
        NoAxis = 2,
        /// The input's last axis does not have `hidden_size` elements.
        HiddenSizeMismatch { expected: usize, found: usize } = 3,
        /// Two arrays that must have one shape (input and upstream gradient, a weight and its
        /// gradient) do not.
        ShapeMismatch { expected: Vec<usize>, found: Vec<usize> } = 4,
    }
}

impl From<tutor_subject::GradShapeMismatch> for NormError {
    fn from(e: tutor_subject::GradShapeMismatch) -> Self {
        NormError::ShapeMismatch { expected: e.expected, found: e.found }
    }
}

impl NormError {
    /// What went wrong, in each language (the grader shows only the languages the learner chose).
    pub fn text(&self) -> text::Bi {
        match self {
            NormError::ZeroHiddenSize => text::error_zero_hidden(),
            NormError::BadEps(eps) => text::error_bad_eps(*eps),
            NormError::NoAxis => text::error_no_axis(),
            NormError::HiddenSizeMismatch { expected, found } => text::error_hidden_mismatch(*expected, *found),
            NormError::ShapeMismatch { expected, found } => text::error_shape_mismatch(expected, found),
        }
    }
}

tutor_subject::course_error!(NormError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_numbers_in_both_languages() {
        let shown = NormError::HiddenSizeMismatch { expected: 4, found: 5 }.to_string();
        assert!(shown.contains('4') && shown.contains('5'), "{shown}");
        assert!(shown.contains("hidden_size") && shown.contains("最后一维"), "{shown}");
    }
}
