//! Answers: TODO 2, TODO 3, TODO 4, TODO 5, TODO 6. dv is the attention weights times grad_out.
//!
//! TODO 6's pieces: the softmax's backward and causal attention's, by hand, in f64.

use ndarray::{Array2, ArrayD, Axis};

use super::shapes::{array, four, same};
use crate::{AttnError, Gradients};

/// `s ⊙ (g − Σ g·s)` along the last axis.
pub fn softmax_backward(s: &ArrayD<f64>, g: &ArrayD<f64>) -> Result<ArrayD<f64>, AttnError> {
    same(s.shape(), g.shape())?;
    let last = *s.shape().last().ok_or(AttnError::Rank { expected: 1, found: Vec::new() })?;
    let (sv, gv): (Vec<f64>, Vec<f64>) = (s.iter().copied().collect(), g.iter().copied().collect());
    let mut out = Vec::with_capacity(sv.len());
    for (sr, gr) in sv.chunks(last.max(1)).zip(gv.chunks(last.max(1))) {
        let dot: f64 = sr.iter().zip(gr).map(|(s, g)| s * g).sum();
        out.extend(sr.iter().zip(gr).map(|(s, g)| s * (g - dot)));
    }
    Ok(array(s.shape(), out))
}

/// (dq, dk, dv) of `sum(attention(q, k, v) ⊙ grad_out)`, causal as the forward.
pub fn attention_backward(
    q: &ArrayD<f64>,
    k: &ArrayD<f64>,
    v: &ArrayD<f64>,
    grad_out: &ArrayD<f64>,
) -> Result<Gradients, AttnError> {
    let [b, h, sq, d] = four(q)?;
    let sk = four(k)?[2];
    same(&[b, h, sk, d], k.shape())?;
    same(k.shape(), v.shape())?;
    same(q.shape(), grad_out.shape())?;
    if sk < sq {
        return Err(AttnError::FewerKeys { queries: sq, keys: sk });
    }
    let scale = 1.0 / (d as f64).sqrt();
    let heads = |a: &ArrayD<f64>, rows: usize| {
        a.to_shape((b * h, rows, d)).expect("four axes").outer_iter().map(|m| m.to_owned()).collect::<Vec<_>>()
    };
    let (qs, ks, vs, gs) = (heads(q, sq), heads(k, sk), heads(v, sk), heads(grad_out, sq));
    let (mut dq, mut dk, mut dv) = (Vec::new(), Vec::new(), Vec::new());
    for (((q, k), v), g) in qs.iter().zip(&ks).zip(&vs).zip(&gs) {
        let mut p = q.dot(&k.t()) * scale;
        p.indexed_iter_mut().filter(|((i, j), _)| *j > i + sk - sq).for_each(|(_, x)| *x = f64::NEG_INFINITY);
        for mut row in p.axis_iter_mut(Axis(0)) {
            let max = row.fold(f64::NEG_INFINITY, |m, &x| m.max(x));
            row.mapv_inplace(|x| (x - max).exp());
            row /= row.sum();
        }
        let dp = g.dot(&v.t());
        let ds: Array2<f64> = &p * &(&dp - &(&dp * &p).sum_axis(Axis(1)).insert_axis(Axis(1)));
        dq.extend(ds.dot(k).iter().map(|x| x * scale));
        dk.extend(ds.t().dot(q).iter().map(|x| x * scale));
        dv.extend(p.t().dot(g));
    }
    Ok((array(q.shape(), dq), array(k.shape(), dk), array(v.shape(), dv)))
}
