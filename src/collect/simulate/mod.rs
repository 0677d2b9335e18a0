//! Monte Carlo of a collection: N users through a channel (or a frequency oracle) and the
//! estimators, T trials, with the empirical error beside its analytic value.
//!
//! Each trial draws counts, not users: the composition `N_x` (a multinomial over the prior,
//! or fixed by largest remainders), then each input's reports as a multinomial over its row,
//! by sequential binomials. A trial costs O(n m) whatever N. Errors are measured against the
//! [`Estimand`]: the trial's realized composition `f_x = N_x / N` (`sample`, the default), or
//! the distribution the users are drawn from (`population`: the prior, or the groups' mix),
//! whose analytic values add the composition's covariance (`sum_g N_g (diag p_g - p_g p_g^T)
//! / N^2` under iid sampling, 0 for a fixed composition).
//!
//! Analytic values, per user or for the N users:
//! - `inversion-mse`: `E ||pi_hat - f||^2 = tr(G^T (diag lambda - Q^T diag(pi) Q) G) / N` with
//!   `G = Q^+`: the value `solve` reports as `inversion-mse` (with `users = N`);
//! - `inversion-mean-var`: the same covariance applied to the values, `v^T Cov v`;
//! - `mmse-sum` and `mmse-histogram` (per user): the posterior-mean errors
//!   `E (S_hat - S)^2 / N`, when users are drawn from the domain prior;
//! - for an oracle, `oracle-mse`: `sum_v Var f_v`.
//!
//! An analytic value outside the empirical interval is flagged.

mod oracle;
mod population;

pub use oracle::simulate_oracle;
pub use population::inversion_covariance;
use population::{check, composition, composition_covariance, population};

use super::estimate::{dot, Estimand, EstimatorSpec, Inversion};
use super::stats::{covariance_shape, multinomial_into, squared_error_agrees, Interval};
use super::{CollectError, Model};
use nalgebra::DVector;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Most users a trial may have: the counts stay exact in `f64` (below 2^53) and far from the
/// `i64` range the binomial sampler works in.
pub const MAX_USERS: u64 = 1_000_000_000_000_000;

/// Most trials a simulation may run: each trial keeps one number per measured error (at most
/// 80 MB per error at this limit), and the standard error of the mean shrinks only as
/// `1/sqrt(trials)` (1e-3 of the spread here).
pub const MAX_TRIALS: usize = 1_000_000;

/// Room reserved for the per-trial samples before the first trial; they grow as trials run,
/// so a time limit that stops the run early never pays for the trials it did not run.
pub(crate) const INITIAL_SAMPLE_CAPACITY: usize = 4096;

/// How the users' inputs are drawn in each trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Sampling {
    /// Independently from the prior (the composition varies between trials).
    Iid,
    /// A fixed composition: `N p_x` users with input x, rounded by largest remainders.
    Fixed,
}

/// A group of users sharing a prior (per-user priors are given as groups).
#[derive(Debug, Clone, PartialEq)]
pub struct UserGroup {
    /// Number of users in the group.
    pub users: u64,
    /// Their prior over the inputs.
    pub prior: Vec<f64>,
}

/// Options of [`simulate`].
pub struct SimulateOptions<'a> {
    /// Users per trial.
    pub users: u64,
    /// Trials.
    pub trials: usize,
    /// Composition of each trial.
    pub sampling: Sampling,
    /// Estimators whose error is measured.
    pub estimators: Vec<EstimatorSpec>,
    /// Groups with their own priors (empty: every user has the domain prior).
    pub groups: Vec<UserGroup>,
    /// Fraction of users who ignore the channel and report a uniformly random output.
    pub noncompliance: f64,
    /// Confidence level of the empirical intervals.
    pub level: f64,
    /// What the errors are measured against: the users' realized frequencies, or the
    /// distribution they are drawn from.
    pub estimand: Estimand,
    /// Stop starting trials after this instant.
    pub deadline: Option<Instant>,
    /// Called after each trial with the number done.
    pub progress: Option<&'a dyn Fn(usize)>,
}

/// One measured error.
#[derive(Debug, Clone, Serialize)]
pub struct Metric {
    /// What is measured.
    pub name: String,
    /// The estimator.
    pub estimator: String,
    /// Mean over the trials, with the interval of that mean.
    pub empirical: Interval,
    /// The analytic value, where there is one.
    pub analytic: Option<f64>,
    /// Whether the analytic value lies in the empirical interval.
    pub agrees: Option<bool>,
}

/// What [`simulate`] found.
#[derive(Debug, Clone, Serialize)]
pub struct SimulationReport {
    /// Users per trial.
    pub users: u64,
    /// What the errors are measured against.
    pub estimand: Estimand,
    /// Trials run (fewer than asked when the time limit stopped it).
    pub trials: usize,
    /// The measured errors.
    pub metrics: Vec<Metric>,
    /// Notes: stopped early, disagreements, non-compliance.
    pub warnings: Vec<String>,
}

/// Run the simulation for a channel.
pub fn simulate(
    model: &Model,
    options: &SimulateOptions,
    rng: &mut dyn RngCore,
) -> Result<SimulationReport, CollectError> {
    let (n, m) = (model.inputs(), model.outputs());
    check(options, n)?;
    let (groups, pi) = population(model.domain.prior(), options);
    let users: u64 = groups.iter().map(|g| g.users).sum();
    let nu = users as f64;
    let r = options.noncompliance;
    let rows: Vec<Vec<f64>> = model
        .channel
        .rows()
        .iter()
        .map(|row| row.iter().map(|q| (1.0 - r) * q + r / m as f64).collect())
        .collect();
    let values = model.values();
    let estimators: Vec<_> = options.estimators.iter().map(|e| e.build()).collect();
    let posterior = |w: &[f64]| super::estimate::posterior_moments(model, w);
    let post_values: Vec<f64> = posterior(&values).iter().map(|(mean, _)| *mean).collect();
    let post_indicator = super::estimate::posterior_matrix(model);
    // samples[metric] over trials
    let mut names: Vec<(String, String)> = Vec::new();
    for e in &estimators {
        names.push((e.name().into(), "frequency-mse".into()));
        names.push((e.name().into(), "mean-squared-error".into()));
    }
    names.push(("posterior-mean".into(), "mmse-sum".into()));
    names.push(("posterior-mean".into(), "mmse-histogram".into()));
    let capacity = options.trials.min(INITIAL_SAMPLE_CAPACITY);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(capacity); names.len()];
    let mut warnings = Vec::new();
    let mut c = vec![0u64; m];
    let mut trials = 0;
    for t in 0..options.trials {
        if options.deadline.is_some_and(|d| Instant::now() > d) {
            warnings.push(format!(
                "time limit reached: {t} of {} trials run",
                options.trials
            ));
            break;
        }
        let nx = composition(&groups, options.sampling, rng);
        c.fill(0);
        for x in 0..n {
            multinomial_into(nx[x], &rows[x], rng, &mut c);
        }
        let f: Vec<f64> = match options.estimand {
            Estimand::Sample => nx.iter().map(|&k| k as f64 / nu).collect(),
            Estimand::Population => pi.clone(),
        };
        let ch: Vec<f64> = c.iter().map(|&k| k as f64 / nu).collect();
        let mut i = 0;
        for e in &estimators {
            let (a, b) = match e.frequencies(model, &ch) {
                Ok(p) => (
                    p.iter().zip(&f).map(|(a, b)| (a - b).powi(2)).sum(),
                    (dot(&p, &values) - dot(&f, &values)).powi(2),
                ),
                Err(_) => (f64::NAN, f64::NAN),
            };
            samples[i].push(a);
            samples[i + 1].push(b);
            i += 2;
        }
        let s_hat: f64 = c
            .iter()
            .zip(&post_values)
            .filter(|(k, _)| **k > 0)
            .map(|(k, v)| *k as f64 * v)
            .sum();
        let s: f64 = nx.iter().zip(&values).map(|(k, v)| *k as f64 * v).sum();
        samples[i].push((s_hat - s).powi(2) / nu);
        let hist: f64 = (0..n)
            .map(|k| {
                let est: f64 = c
                    .iter()
                    .zip(&post_indicator[k])
                    .filter(|(k, _)| **k > 0)
                    .map(|(cy, p)| *cy as f64 * p)
                    .sum();
                (est - nx[k] as f64).powi(2)
            })
            .sum();
        samples[i + 1].push(hist / nu);
        trials = t + 1;
        if let Some(p) = options.progress {
            p(trials);
        }
    }
    // Analytic values.
    let cov = inversion_covariance(model, &pi, nu).map(|c| match options.estimand {
        Estimand::Sample => c,
        Estimand::Population => c + composition_covariance(&groups, options.sampling, n),
    });
    let bayes_applies = options.groups.is_empty() && options.sampling == Sampling::Iid;
    // The posterior mean's errors against the realized values (the mmse rows always are).
    let bayes_estimator = bayes_applies && options.estimand == Estimand::Sample;
    let objectives = crate::objective::objective_profile(&model.channel, &model.domain);
    // The MMSE of the sum over the values the trials use (the labels' indices on a domain of
    // labels, where the profile has no mmse-sum).
    let mmse_sum = {
        use crate::objective::{ColumnObjective, MmseSum, Objective};
        let sum = MmseSum::new(&values, model.domain.prior(), 1.0);
        ColumnObjective::new(String::new(), Box::new(sum)).evaluate(&model.channel)
    };
    let analytic = |estimator: &str, metric: &str| -> Option<f64> {
        match (estimator, metric) {
            ("inversion", "frequency-mse") => cov.as_ref().map(|c| c.trace()),
            ("inversion", "mean-squared-error") => cov.as_ref().map(|c| {
                let v = DVector::from_column_slice(&values);
                (v.transpose() * c * v)[(0, 0)]
            }),
            ("posterior-mean", "mmse-sum") if bayes_applies => Some(mmse_sum),
            ("posterior-mean", "mmse-histogram") if bayes_applies => {
                objectives.get("mmse-histogram").copied()
            }
            // The same errors over N users, as frequencies: divided by N.
            ("posterior-mean", "mean-squared-error") if bayes_estimator => Some(mmse_sum / nu),
            ("posterior-mean", "frequency-mse") if bayes_estimator => {
                objectives.get("mmse-histogram").map(|v| v / nu)
            }
            _ => None,
        }
    };
    let rank = Inversion::default().rank(model);
    for ((est, metric), s) in names.iter().zip(&samples) {
        if s.iter().all(|v| !v.is_finite()) && est != "posterior-mean" && rank < model.inputs() {
            warnings.push(format!(
                "{est} {metric}: not computable in any trial: the channel has rank {rank} < {} inputs (singular), so no unbiased estimate exists; --estimator posterior-mean applies",
                model.inputs()
            ));
        } else if !s.iter().all(|v| v.is_finite()) {
            warnings.push(format!(
                "{est} {metric}: not computable in some trials (a singular channel, EM without convergence, or reports impossible under the prior); left out"
            ));
        }
    }
    // Only the requested estimators' rows (the posterior-mean mmse rows are always computed).
    let requested = |est: &str| options.estimators.iter().any(|e| e.build().name() == est);
    let kept: Vec<_> = names
        .iter()
        .zip(&samples)
        .filter(|((est, _), s)| requested(est) && s.iter().all(|v| v.is_finite()))
        .collect();
    // "agrees" uses a Bonferroni-adjusted interval over the rows with an analytic value, so a
    // correct simulation flags any of them with probability at most 1 - level in all.
    // The shape of each row's squared error (see `squared_error_agrees`): the covariance's
    // for the inversion's frequencies, one squared error for a mean or sum, and 1 (the
    // widest) where the covariance is not at hand.
    let shape = |estimator: &str, metric: &str| -> f64 {
        match (estimator, metric, &cov) {
            ("inversion", "frequency-mse", Some(c)) => covariance_shape(c),
            _ => 1.0,
        }
    };
    let checked = kept
        .iter()
        .filter(|((est, metric), _)| analytic(est, metric).is_some())
        .count()
        .max(1);
    let check_level = 1.0 - (1.0 - options.level) / checked as f64;
    let metrics = kept
        .into_iter()
        .map(|((est, metric), s)| {
            let empirical = Interval::of_mean(s, options.level);
            let a = analytic(est, metric);
            Metric {
                name: metric.clone(),
                estimator: est.clone(),
                empirical,
                analytic: a,
                agrees: a.map(|v| squared_error_agrees(s, v, shape(est, metric), check_level)),
            }
        })
        .collect::<Vec<_>>();
    finish(users, trials, metrics, warnings, options)
}

/// The report, with a warning for every disagreement and for non-compliance.
pub(crate) fn finish(
    users: u64,
    trials: usize,
    metrics: Vec<Metric>,
    mut warnings: Vec<String>,
    options: &SimulateOptions,
) -> Result<SimulationReport, CollectError> {
    for m in &metrics {
        if m.agrees == Some(false) {
            warnings.push(format!(
                "{} {}: analytic {:.6e} is outside the empirical {:.0}% interval [{:.6e}, {:.6e}]",
                m.estimator,
                m.name,
                m.analytic.unwrap_or(f64::NAN),
                100.0 * options.level,
                m.empirical.low,
                m.empirical.high
            ));
        }
    }
    if options.noncompliance > 0.0 {
        warnings.push(format!("{}% of users report a uniformly random output; the estimators and analytic values assume none do", 100.0 * options.noncompliance));
    }
    Ok(SimulationReport {
        users,
        estimand: options.estimand,
        trials,
        metrics,
        warnings,
    })
}
