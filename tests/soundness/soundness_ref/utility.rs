//! Objectives evaluated from their definitions (README objective table), column by column.

use super::privacy::mutual_information;
use super::Utility;

/// The objective's contribution of one column `q` (entries `Q[x][y]` for a fixed y). Every
/// column-convex objective is a sum of these over the outputs, each positively homogeneous:
/// MMSE terms are `sum_x p_x q_x (f_x - E[f | y])^2`, mutual information
/// `sum_x p_x q_x ln(q_x / lambda)`. `None` for linear and inversion objectives.
pub fn column_value(u: &Utility, prior: &[f64], q: &[f64]) -> Option<f64> {
    let lambda: f64 = q.iter().zip(prior).map(|(a, p)| a * p).sum();
    if lambda <= 0.0 {
        return matches!(
            u,
            Utility::MmseSum { .. } | Utility::MmseHistogram | Utility::MutualInformation
        )
        .then_some(0.0);
    }
    match u {
        Utility::MmseSum { f, weight } => {
            let mean: f64 = (0..q.len()).map(|x| prior[x] * q[x] * f[x]).sum::<f64>() / lambda;
            let s: f64 = (0..q.len())
                .map(|x| prior[x] * q[x] * (f[x] - mean).powi(2))
                .sum();
            Some(weight * weight * s)
        }
        Utility::MmseHistogram => {
            let mut s = 0.0;
            for k in 0..q.len() {
                let post = prior[k] * q[k] / lambda;
                for x in 0..q.len() {
                    let ind = f64::from(u8::from(x == k));
                    s += prior[x] * q[x] * (ind - post).powi(2);
                }
            }
            Some(s)
        }
        Utility::MutualInformation => Some(
            (0..q.len())
                .filter(|&x| prior[x] > 0.0 && q[x] > 0.0)
                .map(|x| prior[x] * q[x] * (q[x] / lambda).ln())
                .sum(),
        ),
        _ => None,
    }
}

/// The objective of the channel `q` (rows = inputs), or `None` for inversion-mse (not judged)
/// and for a linear objective on a channel of the wrong shape.
pub fn evaluate(u: &Utility, prior: &[f64], q: &[Vec<f64>]) -> Option<f64> {
    let m = q.first().map_or(0, Vec::len);
    match u {
        Utility::Linear { cost, .. } => (m == cost.len()).then(|| {
            cost.iter()
                .zip(q)
                .map(|(c, r)| c.iter().zip(r).map(|(a, b)| a * b).sum::<f64>())
                .sum()
        }),
        Utility::InversionMse => None,
        Utility::MutualInformation => Some(mutual_information(q, prior)),
        _ => {
            let column = |y: usize| q.iter().map(|r| r[y]).collect::<Vec<f64>>();
            (0..m).map(|y| column_value(u, prior, &column(y))).sum()
        }
    }
}
