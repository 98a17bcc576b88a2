//! The PyTorch fixtures (`courses/swiglu/fixtures`, made by `make_fixtures.py`), read by
//! `tutor_grade::fixtures`.

use ndarray::{Array2, ArrayD};
use tutor_grade::fixtures::Fixtures;
pub use tutor_grade::fixtures::Stored;

static FIXTURES: Fixtures =
    Fixtures::new(include_str!("../../fixtures/manifest.txt"), include_bytes!("../../fixtures/fixtures.bin"));

/// The array `name`, of element type `T` (see `Fixtures::array`).
pub fn array<T: Stored>(name: &str) -> ArrayD<T> {
    FIXTURES.array(name)
}

/// A 2-D f32 fixture (a weight or a weight's gradient).
pub fn matrix(name: &str) -> Array2<f32> {
    FIXTURES.matrix(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tutor_kit::half::{bf16, f16};

    #[test]
    fn every_fixture_reads_in_its_dtype_and_size() {
        assert_eq!(array::<f32>("silu.f32.x").len(), 256);
        assert_eq!(array::<bf16>("block.bf16.dx").shape(), &[2, 3, 16]);
        assert_eq!(matrix("linear.w").dim(), (40, 24));
        assert!(array::<f16>("silu.f16.x")[[0]].to_f32().is_infinite());
    }
}
