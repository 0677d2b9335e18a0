//! The unbiased inversion estimator `pi = (Q^T)^-1 c` (range-and-frequency d-privacy slides):
//! `E[c] = lambda = Q^T pi` under multinomial reports, so inverting the channel's transpose
//! gives an unbiased estimate. For a channel that is not square but has rank n the generalized
//! (least-squares) inverse is used; for a singular channel only the linear queries `w . pi`
//! with `w` in the column space of `Q` are estimable (`w . pi = v . lambda` for `Q v = w`).

use super::{dot, Estimand, Estimator, IntervalKind, LinearEstimate};
use crate::collect::stats::{generalized_inverse, ESTIMABLE_TOLERANCE};
use crate::collect::{CollectError, Model};
use nalgebra::{DMatrix, DVector};
use std::cell::OnceCell;

/// The inversion estimator (caches the generalized inverse of the first channel it sees).
#[derive(Debug, Default)]
pub struct Inversion {
    cache: OnceCell<(DMatrix<f64>, usize)>,
}

impl Inversion {
    fn inverse(&self, model: &Model) -> &(DMatrix<f64>, usize) {
        self.cache
            .get_or_init(|| generalized_inverse(&model.channel))
    }

    /// `v` with `Q v = w` (minimum norm), or why there is none.
    pub fn solve(&self, model: &Model, w: &[f64]) -> Result<Vec<f64>, CollectError> {
        let (pinv, _) = self.inverse(model);
        let wv = DVector::from_column_slice(w);
        let v = pinv * &wv;
        let q = crate::collect::stats::matrix(&model.channel);
        let residual = (&q * &v - &wv).norm();
        if residual > ESTIMABLE_TOLERANCE * wv.norm().max(1.0) {
            return Err(CollectError::NotEstimable {
                what: "this quantity".into(),
                reason: format!(
                    "the channel has rank {} < {} inputs and the query is not in the span of its columns (residual {residual:.2e})",
                    self.inverse(model).1,
                    model.inputs()
                ),
            });
        }
        Ok(v.iter().copied().collect())
    }

    /// Whether the channel is square and invertible (else the estimate uses the generalized
    /// inverse, or is partial).
    pub fn rank(&self, model: &Model) -> usize {
        self.inverse(model).1
    }

    /// The covariance of the frequency estimate under multinomial reports with output
    /// distribution `lambda`: `G^T (diag lambda - lambda lambda^T) G / users` with `G = Q^+`.
    pub fn covariance(
        &self,
        model: &Model,
        lambda: &[f64],
        users: f64,
    ) -> Result<DMatrix<f64>, CollectError> {
        let n = model.inputs();
        if self.rank(model) < n {
            return Err(singular(model, self.rank(model)));
        }
        let (g, _) = self.inverse(model);
        let m = lambda.len();
        let sigma = DMatrix::from_fn(m, m, |i, j| {
            if i == j {
                lambda[i] - lambda[i] * lambda[j]
            } else {
                -lambda[i] * lambda[j]
            }
        });
        Ok(g.transpose() * sigma * g / users)
    }
}

fn singular(model: &Model, rank: usize) -> CollectError {
    CollectError::NotEstimable {
        what: "the frequencies".into(),
        reason: format!(
            "the channel has rank {rank} < {} inputs (singular)",
            model.inputs()
        ),
    }
}

impl Estimator for Inversion {
    fn name(&self) -> &'static str {
        "inversion"
    }

    fn frequencies(&self, model: &Model, c: &[f64]) -> Result<Vec<f64>, CollectError> {
        let (pinv, rank) = self.inverse(model);
        if *rank < model.inputs() {
            return Err(singular(model, *rank));
        }
        let pi = pinv.transpose() * DVector::from_column_slice(c);
        Ok(pi.iter().copied().collect())
    }

    fn linear(
        &self,
        model: &Model,
        c: &[f64],
        users: f64,
        w: &[f64],
        estimand: Estimand,
    ) -> Option<Result<LinearEstimate, CollectError>> {
        Some(self.solve(model, w).map(|v| {
            let value = dot(&v, c);
            let second: f64 = v.iter().zip(c).map(|(a, b)| a * a * b).sum();
            // Population: the multinomial variance of the reports, sum_y v_y^2 c_y - (v . c)^2.
            let population = second - value * value;
            let var = match estimand {
                Estimand::Population => population,
                // Sample: the users' values fixed, Var = sum_y v_y^2 lambda_y -
                // sum_x f_x w_x^2, whose second term is the estimable query w^2 (plug-in:
                // its inversion estimate). When w^2 is not estimable (a singular channel),
                // the population variance, an upper bound, is kept.
                Estimand::Sample => {
                    let squares: Vec<f64> = w.iter().map(|x| x * x).collect();
                    match self.solve(model, &squares) {
                        Ok(v2) => second - dot(&v2, c),
                        Err(_) => population,
                    }
                }
            };
            LinearEstimate {
                value,
                std_error: (var.max(0.0) / users).sqrt(),
                kind: IntervalKind::Analytic,
                estimand,
            }
        }))
    }
}
