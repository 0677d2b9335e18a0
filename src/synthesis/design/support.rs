//! The channel of an optimal design's weights, with as few outputs as the design allows.
//!
//! The frequency MSE depends on the weights only through the Fisher information
//! `J(w) = sum_j w_j r_j r_j^T / (pi . r_j)` and the row sums `sum_j w_j r_j = 1`. Both are
//! linear in `w`, with `n + n (n + 1) / 2` rows, so moving the weights along a null direction of
//! those rows changes neither (Caratheodory): a support larger than that count can be reduced
//! without changing the objective (Pukelsheim, *Optimal Design of Experiments*, 1993, Sec. 8.2).

use crate::synthesis::master::null_vector;
use nalgebra::{DMatrix, DVector};

/// Weights below this fraction of the largest are dropped.
pub(crate) const DESIGN_WEIGHT_FLOOR: f64 = 1e-9;
/// A reduction step is refused if it moves a row sum or an entry of `J` by more than this,
/// relative to its size (at least 1).
const SUPPORT_DRIFT: f64 = 1e-11;

/// The invariant rows of one generator: its entries, then `vech(r r^T) / (pi . r)`.
fn invariants(r: &[f64], pi: &[f64]) -> Vec<f64> {
    let lambda: f64 = r.iter().zip(pi).map(|(a, b)| a * b).sum();
    let mut out = r.to_vec();
    for i in 0..r.len() {
        for j in i..r.len() {
            out.push(r[i] * r[j] / lambda);
        }
    }
    out
}

fn totals(columns: &[Vec<f64>], w: &[f64]) -> Vec<f64> {
    let mut t = vec![0.0; columns[0].len()];
    for (c, &wi) in columns.iter().zip(w) {
        if wi > 0.0 {
            for (tr, v) in t.iter_mut().zip(c) {
                *tr += wi * v;
            }
        }
    }
    t
}

/// Reduce the support of `w` over `rays` keeping the row sums and `J` (to rounding).
fn reduce(rays: &[&[f64]], pi: &[f64], w: &mut [f64]) {
    let columns: Vec<Vec<f64>> = rays.iter().map(|r| invariants(r, pi)).collect();
    let rows = columns[0].len();
    let reference = totals(&columns, w);
    loop {
        let support: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
        if support.len() <= rows {
            return;
        }
        let pick = &support[..rows + 1];
        let a = DMatrix::from_fn(rows, rows + 1, |r, c| columns[pick[c]][r]);
        let Some(mut d) = null_vector(&a) else {
            return;
        };
        if d.iter().all(|v| *v >= 0.0) {
            d.iter_mut().for_each(|v| *v = -*v);
        }
        let step = pick
            .iter()
            .zip(&d)
            .filter(|(_, v)| **v < 0.0)
            .map(|(&i, v)| w[i] / -v)
            .fold(f64::INFINITY, f64::min);
        if !step.is_finite() {
            return;
        }
        let largest = w.iter().cloned().fold(0.0, f64::max);
        let mut trial = w.to_vec();
        let mut zeroed = false;
        for (&i, v) in pick.iter().zip(&d) {
            trial[i] += step * v;
            if trial[i] <= DESIGN_WEIGHT_FLOOR * largest {
                trial[i] = 0.0;
                zeroed = true;
            }
        }
        let drift = totals(&columns, &trial)
            .iter()
            .zip(&reference)
            .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
            .fold(0.0, f64::max);
        if !zeroed || drift > SUPPORT_DRIFT {
            return;
        }
        w.copy_from_slice(&trial);
    }
}

/// The channel `Q[x][c] = w_c r_c[x]` of the weights: negligible weights dropped, the support
/// reduced, and the row sums restored by the least-norm correction on what remains.
pub(crate) fn emitted_rows(rays: &[&[f64]], pi: &[f64], weights: &[f64]) -> Vec<Vec<f64>> {
    let n = pi.len();
    let largest = weights.iter().cloned().fold(0.0, f64::max);
    let keep: Vec<usize> = (0..weights.len())
        .filter(|&j| weights[j] > DESIGN_WEIGHT_FLOOR * largest)
        .collect();
    let kept: Vec<&[f64]> = keep.iter().map(|&j| rays[j]).collect();
    let mut w: Vec<f64> = keep.iter().map(|&j| weights[j]).collect();
    reduce(&kept, pi, &mut w);
    let used: Vec<usize> = (0..w.len()).filter(|&c| w[c] > 0.0).collect();
    let a = DMatrix::from_fn(n, used.len(), |x, c| kept[used[c]][x]);
    let mut wv = DVector::from_fn(used.len(), |c, _| w[used[c]]);
    let residual = DVector::from_element(n, 1.0) - &a * &wv;
    if let Some(y) = (&a * a.transpose()).lu().solve(&residual) {
        let corrected = &wv + a.transpose() * y;
        if corrected.iter().all(|&v| v > 0.0) {
            wv = corrected;
        }
    }
    (0..n)
        .map(|x| (0..used.len()).map(|c| wv[c] * a[(x, c)]).collect())
        .collect()
}
