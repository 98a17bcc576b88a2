//! The reference maths, in FP32 (the backward in f64), written for clarity: the "given" pieces.
//!
//! Each exercise stub calls these for the parts the learner is *not* writing in that exercise,
//! and tutor's grader uses them as the "explicit FP32 reference" (it tests them against an f64
//! oracle). One file per piece, its first line saying which TODOs it answers: the graded program
//! of an exercise is built with only the pieces its `given` list in `info.toml` names, and every
//! other piece's functions in their place say that they are not part of it (see
//! `docs/protocol.md`, "One exercise, one program"). This module, with every piece, is what the
//! grader, the tests and the editor project see.

mod backward;
mod checks;
mod forward;
mod rms_normalize;
mod scale_and_cast;
mod scale_parameter;

pub use backward::backward;
pub(crate) use checks::last_axis;
pub use checks::{check_config, check_input};
pub use forward::forward;
pub use rms_normalize::rms_normalize;
pub use scale_and_cast::scale_and_cast;
pub use scale_parameter::scale_parameter;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormError;
    use half::f16;
    use ndarray::{array, ArrayD, IxDyn};

    #[test]
    fn normalises_the_tutorial_case() {
        let x = array![[[3.0f32, 4.0], [0.0, 0.0]]].into_dyn();
        let y = rms_normalize(&x, 1e-6).unwrap();
        // rms([3, 4]) = sqrt(12.5) ≈ 3.5355
        assert!((y[[0, 0, 0]] - 0.848_528).abs() < 1e-5, "{y}");
        assert!((y[[0, 0, 1]] - 1.131_371).abs() < 1e-5, "{y}");
        assert_eq!(y[[0, 1, 0]], 0.0);
    }

    #[test]
    fn squares_in_fp32_survive_f16_inputs() {
        let x = array![300.0f32, -300.0, 300.0, -300.0].mapv(f16::from_f32).into_dyn();
        let y: ArrayD<f16> = forward(&x, 1e-6, &scale_parameter(4)).unwrap();
        assert_eq!(y.mapv(f16::to_f32), array![1.0f32, -1.0, 1.0, -1.0].into_dyn());
    }

    #[test]
    fn rejects_bad_configuration_and_inputs() {
        assert_eq!(check_config(0, 1e-6), Err(NormError::ZeroHiddenSize));
        assert!(check_config(4, -1.0).is_err());
        assert!(check_config(4, f32::NAN).is_err());
        assert!(check_config(4, 0.0).is_ok());
        let scalar = ArrayD::<f32>::zeros(IxDyn(&[]));
        assert_eq!(rms_normalize(&scalar, 1e-6), Err(NormError::NoAxis));
        let wrong = ArrayD::<f32>::zeros(IxDyn(&[2, 5]));
        assert_eq!(
            forward(&wrong, 1e-6, &scale_parameter(4)),
            Err(NormError::HiddenSizeMismatch { expected: 4, found: 5 })
        );
        let mut w = scale_parameter(5);
        let g = ArrayD::<f32>::zeros(IxDyn(&[3, 5]));
        assert!(matches!(backward(&wrong, &g, 1e-6, &mut w), Err(NormError::ShapeMismatch { .. })));
    }
}
