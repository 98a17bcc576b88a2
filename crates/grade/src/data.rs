//! Seeded test data: a failure shows the same numbers on every run and every machine.

use ndarray::{ArrayD, IxDyn};

use tutor_subject::Float;

/// SplitMix64: tiny, fast and good enough to make test inputs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.uniform().max(f64::MIN_POSITIVE);
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }

    /// A tensor of standard normal values, rounded to `T`.
    pub fn normal_array<T: Float>(&mut self, shape: &[usize]) -> ArrayD<T> {
        let n = shape.iter().product();
        let values = (0..n).map(|_| T::from_f64(self.normal())).collect();
        ArrayD::from_shape_vec(IxDyn(shape), values).expect("shape and length agree")
    }

    /// Weights that are clearly not ones: in ±[0.5, 2], mixed signs.
    pub fn weights(&mut self, len: usize) -> ndarray::Array1<f32> {
        (0..len)
            .map(|i| {
                let magnitude = 0.5 + 1.5 * self.uniform() as f32;
                if i % 3 == 2 {
                    -magnitude
                } else {
                    magnitude
                }
            })
            .collect()
    }
}

/// Builds a tensor from a shape and values given as f32, rounded to `T`.
pub fn tensor<T: Float>(shape: &[usize], values: &[f32]) -> ArrayD<T> {
    ArrayD::from_shape_vec(IxDyn(shape), values.iter().map(|&v| T::from_f32(v)).collect())
        .expect("shape and length agree")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_deterministic_and_roughly_standard() {
        let a: Vec<f64> = (0..1000)
            .map({
                let mut r = Rng::new(7);
                move |_| r.normal()
            })
            .collect();
        let b: Vec<f64> = (0..1000)
            .map({
                let mut r = Rng::new(7);
                move |_| r.normal()
            })
            .collect();
        assert_eq!(a, b);
        let mean = a.iter().sum::<f64>() / 1000.0;
        let var = a.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / 1000.0;
        assert!(mean.abs() < 0.1 && (var - 1.0).abs() < 0.15, "mean {mean} var {var}");
        assert!(Rng::new(1).weights(6).iter().all(|w| (0.5..=2.0).contains(&w.abs())));
    }
}
