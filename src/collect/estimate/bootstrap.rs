//! Parametric bootstrap for estimators without an analytic standard error: output counts are
//! redrawn from the multinomial with the observed report frequencies and the estimator rerun.

use super::{EstimateOptions, Estimator};
use crate::collect::stats::{mean_var, multinomial, quantile, Interval};
use crate::collect::Model;
use rand::RngCore;
use std::time::Instant;

/// Frequencies re-estimated on `options.bootstrap` parametric bootstrap samples of the
/// counts (fewer when `options.deadline` passes first; replicates where the estimator fails
/// are left out). Progress goes to `options.progress`.
pub fn bootstrap(
    est: &dyn Estimator,
    model: &Model,
    c: &[f64],
    users: u64,
    options: &EstimateOptions,
    rng: &mut dyn RngCore,
) -> Vec<Vec<f64>> {
    let mut out = Vec::with_capacity(options.bootstrap);
    for i in 0..options.bootstrap {
        if options.deadline.is_some_and(|d| Instant::now() > d) {
            break;
        }
        if let Some(p) = &options.progress {
            p(&format!(
                "{}: bootstrap replicate {} of {}",
                est.name(),
                i + 1,
                options.bootstrap
            ));
        }
        let counts = multinomial(users, c, rng);
        let cb: Vec<f64> = counts.iter().map(|&k| k as f64 / users as f64).collect();
        if let Ok(f) = est.frequencies(model, &cb) {
            out.push(f);
        }
    }
    out
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
