//! Typed errors of the RMSNorm API.

use crate::text;

tutor_subject::tensor_error! {
    /// Why an `RMSNorm` could not be built or could not run on an input: these, and the shared
    /// tensor errors (`NoAxis`, `ZeroSize`, `ShapeMismatch`).
    #[derive(Debug, Clone, PartialEq)]
    pub enum NormError {
        /// `hidden_size` was 0.
        ZeroHiddenSize = 0,
        /// `eps` was negative, NaN or infinite.
        BadEps(f32) = 1,
        /// The input's last axis does not have `hidden_size` elements.
        HiddenSizeMismatch { expected: usize, found: usize } = 3,
    }
}

impl NormError {
    /// What went wrong, in each language (the grader shows only the languages the learner chose).
    pub fn text(&self) -> text::Bi {
        match self {
            NormError::ZeroHiddenSize => text::error_zero_hidden(),
            NormError::BadEps(eps) => text::error_bad_eps(*eps),
            NormError::HiddenSizeMismatch { expected, found } => {
                tutor_subject::last_axis_mismatch("hidden_size", *expected, *found)
            }
            shared => shared.tensor_text(),
        }
    }
}

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
