//! The Bayesian posterior mean under the domain prior (lip-data-aggregation eqs. 16, 27, 30,
//! 41): each report `y` contributes `E[w(X) | Y = y] = sum_x w(x) p_x Q[x][y] / lambda_y`.
//! Summed over users this is the posterior mean of `sum_u w(X_u)`; its posterior variance is
//! `sum_y c_y Var(w(X) | Y = y)`, whose expectation per user is the MMSE that `solve` reports
//! (`mmse-sum` for `w` = the values; summed over the indicators, `mmse-histogram`).

use super::{Estimand, Estimator, IntervalKind, LinearEstimate};
use crate::collect::{CollectError, Model};

/// The posterior-mean estimator.
#[derive(Debug, Default, Clone, Copy)]
pub struct PosteriorMean;

/// `(E[w | y], Var(w | y))` for every output `y` under the domain prior (`NaN` for outputs of
/// zero probability).
pub fn posterior_moments(model: &Model, w: &[f64]) -> Vec<(f64, f64)> {
    let p = model.domain.prior();
    let lambda = model.channel.output_marginal(p);
    (0..model.outputs())
        .map(|y| {
            if lambda[y] <= 0.0 {
                return (f64::NAN, f64::NAN);
            }
            let post = |x: usize| p[x] * model.channel.get(x, y) / lambda[y];
            let mean: f64 = (0..w.len()).map(|x| post(x) * w[x]).sum();
            let var: f64 = (0..w.len()).map(|x| post(x) * (w[x] - mean).powi(2)).sum();
            (mean, var)
        })
        .collect()
}

/// The posterior probabilities `P(X = k | Y = y) = p_k Q[k][y] / lambda_y` under the domain
/// prior, as rows `k` (0 for outputs of zero probability).
pub fn posterior_matrix(model: &Model) -> Vec<Vec<f64>> {
    let p = model.domain.prior();
    let lambda = model.channel.output_marginal(p);
    model
        .channel
        .rows()
        .iter()
        .zip(p)
        .map(|(row, pk)| {
            row.iter()
                .zip(&lambda)
                .map(|(q, l)| if *l > 0.0 { pk * q / l } else { 0.0 })
                .collect()
        })
        .collect()
}

impl PosteriorMean {
    fn impossible(model: &Model, c: &[f64]) -> Option<CollectError> {
        let lambda = model.channel.output_marginal(model.domain.prior());
        (0..c.len())
            .find(|&y| c[y] > 0.0 && lambda[y] <= 0.0)
            .map(|y| {
                CollectError::invalid(
                "counts",
                &model.output_labels[y],
                "this output has probability 0 under the domain prior; the posterior is undefined",
            )
            })
    }
}

impl Estimator for PosteriorMean {
    fn name(&self) -> &'static str {
        "posterior-mean"
    }

    fn frequencies(&self, model: &Model, c: &[f64]) -> Result<Vec<f64>, CollectError> {
        if let Some(e) = Self::impossible(model, c) {
            return Err(e);
        }
        Ok(posterior_matrix(model)
            .iter()
            .map(|row| {
                row.iter()
                    .zip(c)
                    .filter(|(_, cy)| **cy > 0.0)
                    .map(|(p, cy)| p * cy)
                    .sum()
            })
            .collect())
    }

    fn linear(
        &self,
        model: &Model,
        c: &[f64],
        users: f64,
        w: &[f64],
        _estimand: Estimand,
    ) -> Option<Result<LinearEstimate, CollectError>> {
        if let Some(e) = Self::impossible(model, c) {
            return Some(Err(e));
        }
        let moments = posterior_moments(model, w);
        let (mut value, mut var) = (0.0, 0.0);
        for ((m, v), cy) in moments.iter().zip(c) {
            if *cy > 0.0 {
                value += cy * m;
                var += cy * v;
            }
        }
        Some(Ok(LinearEstimate {
            value,
            std_error: (var / users).sqrt(),
            kind: IntervalKind::Posterior,
            // The posterior of the users' own values: always the sample.
            estimand: Estimand::Sample,
        }))
    }
}
