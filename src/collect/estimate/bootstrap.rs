//! Parametric bootstrap for estimators without an analytic standard error: output counts are
//! redrawn from the multinomial with the observed report frequencies and the estimator rerun.

use super::Estimator;
use crate::collect::stats::{mean_var, multinomial, quantile, Interval};
use crate::collect::Model;
use rand::RngCore;

/// Frequencies re-estimated on `replicates` parametric bootstrap samples of the counts.
pub fn bootstrap(
    est: &dyn Estimator,
    model: &Model,
    c: &[f64],
    users: u64,
    replicates: usize,
    rng: &mut dyn RngCore,
) -> Vec<Vec<f64>> {
    (0..replicates)
        .filter_map(|_| {
            let counts = multinomial(users, c, rng);
            let cb: Vec<f64> = counts.iter().map(|&k| k as f64 / users as f64).collect();
            est.frequencies(model, &cb).ok()
        })
        .collect()
}

/// The point estimate with the bootstrap standard deviation and percentile interval.
pub fn bootstrap_interval(value: f64, samples: &[f64], level: f64) -> Interval {
    if samples.len() < 2 {
        return Interval {
            value,
            std_error: f64::NAN,
            low: f64::NAN,
            high: f64::NAN,
        };
    }
    let (_, var) = mean_var(samples);
    Interval {
        value,
        std_error: var.sqrt(),
        low: quantile(samples, (1.0 - level) / 2.0),
        high: quantile(samples, (1.0 + level) / 2.0),
    }
}
