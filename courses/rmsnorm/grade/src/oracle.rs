//! RMSNorm in f64, the yardstick the FP32 reference and the learner's gradients are held to.
//!
//! Written as plain loops over rows so that it shares no code with [`crate::reference`].

use ndarray::{ArrayD, Axis};

/// Forward pass in f64: returns `(y, inv_rms)` where `inv_rms` holds one value per row.
/// `x` must have at least one axis and a last axis as long as `weight`.
pub fn forward(x: &ArrayD<f64>, weight: &[f64], eps: f64) -> (ArrayD<f64>, Vec<f64>) {
    let last = Axis(x.ndim() - 1);
    let mut y = x.clone();
    let mut inv_rms_per_row = Vec::new();
    for mut row in y.lanes_mut(last) {
        let d = row.len() as f64;
        let mut sum_sq = 0.0;
        for v in row.iter() {
            sum_sq += v * v;
        }
        let inv_rms = 1.0 / (sum_sq / d + eps).sqrt();
        for (v, w) in row.iter_mut().zip(weight) {
            *v = *v * inv_rms * w;
        }
        inv_rms_per_row.push(inv_rms);
    }
    (y, inv_rms_per_row)
}

/// Gradients of `sum(forward(x) ⊙ grad_out)` in f64: `(dx, dweight)`.
pub fn backward(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> (ArrayD<f64>, Vec<f64>) {
    let last = Axis(x.ndim() - 1);
    let (_, inv_rms) = forward(x, weight, eps);
    let mut dx = ArrayD::zeros(x.raw_dim());
    let mut dweight = vec![0.0; weight.len()];
    let rows = x.lanes(last).into_iter().zip(grad_out.lanes(last)).zip(dx.lanes_mut(last));
    for (((x_row, g_row), mut dx_row), r) in rows.zip(inv_rms) {
        let d = x_row.len() as f64;
        // d/dx_i of sum_j g_j w_j x_j r  =  g_i w_i r  -  x_i r³ / d · sum_j g_j w_j x_j
        let mut dot = 0.0;
        for j in 0..x_row.len() {
            dot += g_row[j] * weight[j] * x_row[j];
            dweight[j] += g_row[j] * x_row[j] * r;
        }
        for i in 0..x_row.len() {
            dx_row[i] = g_row[i] * weight[i] * r - x_row[i] * r * r * r * dot / d;
        }
    }
    (dx, dweight)
}

/// The scale of each row's two dx terms, `max |r·h| + max |r·n| · mean |h ⊙ n|`: what the
/// rounding of a derived gradient is relative to, whatever the order of its sums. Not dx itself,
/// which the two terms can cancel to far below its rounding.
pub fn term_scales(x: &ArrayD<f64>, grad_out: &ArrayD<f64>, weight: &[f64], eps: f64) -> Vec<f64> {
    let last = Axis(x.ndim() - 1);
    let rows = x.lanes(last).into_iter().zip(grad_out.lanes(last)).zip(forward(x, weight, eps).1);
    let largest = |v: &mut dyn Iterator<Item = f64>| v.fold(f64::MIN_POSITIVE, |m, a| m.max(a.abs()));
    rows.map(|((x, g), r)| {
        let mean_hn =
            x.iter().zip(&g).zip(weight).map(|((x, g), w)| (g * w * x * r).abs()).sum::<f64>() / x.len() as f64;
        let h = largest(&mut g.iter().zip(weight).map(|(g, w)| g * w));
        (r * h + r * r * largest(&mut x.iter().copied()) * mean_hn).max(f64::MIN_POSITIVE)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::IxDyn;

    #[test]
    fn backward_matches_central_differences() {
        let x = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0.3, -1.2, 2.0, 1.0, 0.5, -0.25]).unwrap();
        let g = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0.7, 0.1, -0.4, 1.0, -2.0, 0.5]).unwrap();
        let w = [1.5, -0.5, 0.75];
        let loss = |x: &ArrayD<f64>, w: &[f64]| (forward(x, w, 1e-5).0 * &g).sum();
        let (dx, dw) = backward(&x, &g, &w, 1e-5);
        let h = 1e-6;
        for i in 0..x.len() {
            let mut plus = x.clone();
            let mut minus = x.clone();
            plus.as_slice_mut().unwrap()[i] += h;
            minus.as_slice_mut().unwrap()[i] -= h;
            let numeric = (loss(&plus, &w) - loss(&minus, &w)) / (2.0 * h);
            assert!((numeric - dx.as_slice().unwrap()[i]).abs() < 1e-6, "dx[{i}]");
        }
        for j in 0..w.len() {
            let mut plus = w;
            let mut minus = w;
            plus[j] += h;
            minus[j] -= h;
            let numeric = (loss(&x, &plus) - loss(&x, &minus)) / (2.0 * h);
            assert!((numeric - dw[j]).abs() < 1e-6, "dw[{j}]");
        }
    }

    #[test]
    fn the_kits_fp32_reference_matches_the_f64_oracle() {
        use tutor_kit::{reference, Param};
        let close = |a: &ArrayD<f64>, b: &ArrayD<f64>, tol: f64| {
            a.shape() == b.shape() && a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() <= tol * (1.0 + y.abs()))
        };
        let x = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0.5f32, -1.5, 2.0, 3.0, 0.25, -0.75]).unwrap();
        let g = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![1.0f32, -0.5, 0.25, 0.3, 0.2, -1.0]).unwrap();
        let w = ndarray::array![0.5f32, 2.0, -1.0];
        let mut weight = Param::trainable(w.clone());
        let y = reference::forward(&x, 1e-5, &weight).unwrap();
        let dx = reference::backward(&x, &g, 1e-5, &mut weight).unwrap();
        let x64 = x.mapv(f64::from);
        let w64: Vec<f64> = w.iter().map(|&v| f64::from(v)).collect();
        let (y_ref, _) = forward(&x64, &w64, 1e-5);
        let (dx_ref, dw_ref) = backward(&x64, &g.mapv(f64::from), &w64, 1e-5);
        assert!(close(&y.mapv(f64::from), &y_ref, 1e-6));
        assert!(close(&dx.mapv(f64::from), &dx_ref, 1e-5));
        let dw = weight.grad.expect("trainable weight gets a gradient").mapv(f64::from).into_dyn();
        assert!(close(&dw, &ArrayD::from_shape_vec(IxDyn(&[3]), dw_ref).unwrap(), 1e-5));
    }
}
