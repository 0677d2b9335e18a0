//! Estimates from output counts: the input frequencies, range queries (sums of frequencies
//! over an interval of symbols), and the mean and sum of the domain's values, each with a
//! standard error and an interval.
//!
//! Every estimator implements [`Estimator`]. Linear ones (inversion, posterior mean) answer any
//! linear query `w . pi` analytically; the others (projected inversion, EM) are bootstrapped:
//! output counts are redrawn from the multinomial with the observed report frequencies, the
//! estimator is rerun, and the standard deviation and percentile interval of the replicates
//! are reported.

mod bootstrap;
mod em;
mod inversion;
mod posterior;
mod projected;
mod query;

pub use bootstrap::{bootstrap, bootstrap_interval};
pub use em::{em, em_until, EmEstimator, EmResult, EM_MAX_ITERATIONS, EM_TOLERANCE};
pub use inversion::Inversion;
pub use posterior::{posterior_matrix, posterior_moments, PosteriorMean};
pub use projected::ProjectedInversion;
pub use query::{range_end, Query, INDEX_PREFIX};

use super::stats::Interval;
use super::{CollectError, Model};
use rand::RngCore;
use serde::{Deserialize, Serialize};

/// The posterior-mean warning fires when the goodness-of-fit test of the output counts
/// against the prior's output distribution has a p-value below this.
pub const PRIOR_FIT_ALPHA: f64 = 1e-3;

/// Frequencies below this count as negative in the inversion warning (rounding noise aside).
pub const NEGATIVE_FREQUENCY_TOLERANCE: f64 = 1e-12;

/// The labels (comma-separated, with their estimates) of the frequencies in `pi` below
/// `-NEGATIVE_FREQUENCY_TOLERANCE`, or `None` when there are none.
pub fn negative_frequencies(labels: &[String], pi: &[f64]) -> Option<String> {
    let negative: Vec<String> = pi
        .iter()
        .zip(labels)
        .filter(|(f, _)| **f < -NEGATIVE_FREQUENCY_TOLERANCE)
        .map(|(f, label)| format!("{label} ({f:.4})"))
        .collect();
    (!negative.is_empty()).then(|| negative.join(", "))
}

/// How an estimate's interval was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IntervalKind {
    /// Normal interval from the estimator's sampling variance under multinomial reports
    /// (the report frequencies plugged in).
    Analytic,
    /// Normal credible interval from the posterior variance under the domain prior: a
    /// Bayesian statement that holds only if the domain prior is right (no frequentist
    /// coverage otherwise).
    #[serde(rename = "credible (domain prior)")]
    Posterior,
    /// Percentile interval of a parametric bootstrap.
    Bootstrap,
}

/// A linear estimate with its standard error, as an estimator computes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearEstimate {
    /// The estimate of `w . pi`.
    pub value: f64,
    /// Its standard error.
    pub std_error: f64,
    /// How the standard error is meant.
    pub kind: IntervalKind,
}

/// One way of turning output counts into estimates.
pub trait Estimator {
    /// The estimator's name, as on the command line.
    fn name(&self) -> &'static str;
    /// The estimated input frequencies from the report frequencies `c` (summing to 1) of
    /// `users` reports.
    fn frequencies(&self, model: &Model, c: &[f64]) -> Result<Vec<f64>, CollectError>;
    /// The estimate of the linear query `w . pi` with an analytic standard error, for
    /// estimators that have one (`None`: bootstrap it).
    fn linear(
        &self,
        _model: &Model,
        _c: &[f64],
        _users: f64,
        _w: &[f64],
    ) -> Option<Result<LinearEstimate, CollectError>> {
        None
    }
}

/// The estimators, by name (for files and the command line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum EstimatorSpec {
    /// Unbiased inversion `(Q^T)^-1 c` (generalized inverse for non-square channels).
    Inversion,
    /// The inversion estimate projected onto the probability simplex.
    Projected,
    /// Maximum likelihood by EM (iterative Bayesian update).
    Em,
    /// The Bayesian posterior mean under the domain prior.
    PosteriorMean,
}

impl EstimatorSpec {
    /// Every estimator.
    pub const ALL: [EstimatorSpec; 4] = [
        EstimatorSpec::Inversion,
        EstimatorSpec::Projected,
        EstimatorSpec::Em,
        EstimatorSpec::PosteriorMean,
    ];

    /// The estimator.
    pub fn build(self) -> Box<dyn Estimator> {
        self.build_until(None)
    }

    /// The estimator, stopping iterative fits (EM) with a time-limit error once `deadline`
    /// has passed.
    pub fn build_until(self, deadline: Option<std::time::Instant>) -> Box<dyn Estimator> {
        match self {
            EstimatorSpec::Inversion => Box::new(Inversion::default()),
            EstimatorSpec::Projected => Box::new(ProjectedInversion::default()),
            EstimatorSpec::Em => Box::new(EmEstimator {
                deadline,
                ..EmEstimator::default()
            }),
            EstimatorSpec::PosteriorMean => Box::new(PosteriorMean),
        }
    }
}

/// Options of [`estimate`].
#[derive(Clone)]
pub struct EstimateOptions {
    /// Estimators to run.
    pub estimators: Vec<EstimatorSpec>,
    /// Queries to answer.
    pub queries: Vec<Query>,
    /// Confidence level of the intervals.
    pub level: f64,
    /// Bootstrap replicates for estimators without an analytic standard error.
    pub bootstrap: usize,
    /// Bootstrapping stops at this instant (with a warning).
    pub deadline: Option<std::time::Instant>,
    /// Where progress messages go (none by default).
    pub progress: Option<crate::synthesis::ProgressSink>,
}

impl std::fmt::Debug for EstimateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EstimateOptions")
            .field("estimators", &self.estimators)
            .field("queries", &self.queries)
            .field("level", &self.level)
            .field("bootstrap", &self.bootstrap)
            .field("deadline", &self.deadline)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Default bootstrap replicates.
pub const DEFAULT_BOOTSTRAP: usize = 400;
/// Fewest bootstrap replicates that give a standard deviation and an interval.
pub const MIN_BOOTSTRAP: usize = 20;

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            estimators: vec![EstimatorSpec::Inversion],
            queries: vec![Query::Frequencies],
            level: 0.95,
            bootstrap: DEFAULT_BOOTSTRAP,
            deadline: None,
            progress: None,
        }
    }
}

/// One answered query.
#[derive(Debug, Clone, Serialize)]
pub struct QueryEstimate {
    /// The estimator.
    pub estimator: &'static str,
    /// The quantity (`frequency[a]`, `range[a..c]`, `mean`, `sum`).
    pub quantity: String,
    /// Estimate, standard error and interval; `None` when it cannot be estimated.
    pub estimate: Option<Interval>,
    /// How the interval was obtained.
    pub interval: Option<IntervalKind>,
}

/// Everything [`estimate`] found.
#[derive(Debug, Clone, Serialize)]
pub struct EstimateReport {
    /// Number of reports.
    pub users: u64,
    /// Reports per output (for a frequency oracle: reports supporting each symbol).
    pub counts: Vec<u64>,
    /// Output labels (for a frequency oracle: the symbols).
    pub output_labels: Vec<String>,
    /// Confidence level.
    pub level: f64,
    /// The answers.
    pub estimates: Vec<QueryEstimate>,
    /// Negative inversion frequencies, singular channels, impossible reports...
    pub warnings: Vec<String>,
}

/// Estimate every query with every estimator from output counts.
pub fn estimate(
    model: &Model,
    counts: &[u64],
    options: &EstimateOptions,
    rng: &mut dyn RngCore,
) -> Result<EstimateReport, CollectError> {
    if counts.len() != model.outputs() {
        return Err(CollectError::invalid(
            "counts",
            counts.len(),
            format!("expected one count per output ({})", model.outputs()),
        ));
    }
    let users: u64 = counts.iter().sum();
    if users == 0 {
        return Err(CollectError::invalid("counts", 0, "there are no reports"));
    }
    if !(options.level > 0.0 && options.level < 1.0) {
        return Err(CollectError::invalid(
            "--level",
            options.level,
            "must be in (0, 1)",
        ));
    }
    let bootstrapped = options
        .estimators
        .iter()
        .any(|e| matches!(e, EstimatorSpec::Projected | EstimatorSpec::Em));
    if bootstrapped && options.bootstrap < MIN_BOOTSTRAP {
        return Err(CollectError::invalid(
            "--bootstrap",
            options.bootstrap,
            format!("the projected and EM intervals need at least {MIN_BOOTSTRAP} replicates"),
        ));
    }
    let mut warnings = Vec::new();
    let impossible: Vec<&str> = (0..model.outputs())
        .filter(|&y| counts[y] > 0 && model.channel.column(y).iter().all(|q| *q == 0.0))
        .map(|y| model.output_labels[y].as_str())
        .collect();
    if !impossible.is_empty() {
        return Err(CollectError::invalid(
            "counts",
            impossible.join(", "),
            "the channel never produces these outputs",
        ));
    }
    let n = users as f64;
    let c: Vec<f64> = counts.iter().map(|&k| k as f64 / n).collect();
    let mut queries = Vec::new();
    for q in &options.queries {
        queries.extend(q.expand(model)?);
    }
    if options.estimators.contains(&EstimatorSpec::PosteriorMean) {
        if let Some(p) = prior_fit_p_value(model, counts) {
            if p < PRIOR_FIT_ALPHA {
                warnings.push(format!(
                    "posterior-mean: the reports contradict the domain prior (chi-square goodness of fit of the output counts against the prior's output distribution, p = {p:.1e} < {PRIOR_FIT_ALPHA}); the posterior mean is dominated by a prior the data contradict and its credible intervals do not cover the truth; use `inversion` or `em`"
                ));
            }
        }
    }
    // Decides which queries the channel identifies, for the bootstrapped estimators.
    let identifiable = Inversion::default();
    let mut estimates = Vec::new();
    for spec in &options.estimators {
        let est = spec.build_until(options.deadline);
        if let Some(p) = &options.progress {
            p(&format!("{}: point estimate", est.name()));
        }
        let point = est.frequencies(model, &c);
        if let Err(e @ CollectError::TimeLimit { .. }) = point {
            return Err(e);
        }
        match (&point, spec) {
            (Ok(pi), EstimatorSpec::Inversion) => {
                if let Some(labels) = negative_frequencies(model.domain.labels(), pi) {
                    warnings.push(format!("the inversion estimate gives negative frequencies for {labels}; `projected` and `em` give a distribution"));
                }
            }
            (Err(e), _) => warnings.push(format!("{}: {e}", est.name())),
            _ => {}
        }
        let mut replicates: Option<Vec<Vec<f64>>> = None;
        let mut time_out: Option<String> = None;
        for (name, w, scaled) in &queries {
            let scale = if *scaled { n } else { 1.0 };
            let (estimate, kind) = match est.linear(model, &c, n, w) {
                Some(Ok(l)) => (
                    Some(Interval::normal(
                        l.value * scale,
                        l.std_error * scale,
                        options.level,
                    )),
                    Some(l.kind),
                ),
                Some(Err(e)) => {
                    warnings.push(format!("{} {name}: {e}", est.name()));
                    (None, None)
                }
                // Not identifiable: n/a, as the inversion reports it.
                None => match (&point, identifiable.solve(model, w)) {
                    (Ok(_), Err(e)) => {
                        warnings.push(format!("{} {name}: {e}", est.name()));
                        (None, None)
                    }
                    (Ok(pi), Ok(_)) => {
                        let reps = replicates.get_or_insert_with(|| {
                            let r = bootstrap(est.as_ref(), model, &c, users, options, rng);
                            let late = options.deadline.is_some_and(|d| std::time::Instant::now() > d);
                            if late && r.len() < MIN_BOOTSTRAP {
                                time_out = Some(format!(
                                    "{}: {} of {} bootstrap replicates by the deadline, fewer than the {MIN_BOOTSTRAP} an interval needs",
                                    est.name(),
                                    r.len(),
                                    options.bootstrap
                                ));
                            }
                            if r.len() < options.bootstrap {
                                warnings.push(format!(
                                    "{}: {} of {} bootstrap replicates (time limit, or the estimator failed on some)",
                                    est.name(),
                                    r.len(),
                                    options.bootstrap
                                ));
                            }
                            r
                        });
                        let value = dot(pi, w) * scale;
                        let samples: Vec<f64> = reps.iter().map(|r| dot(r, w) * scale).collect();
                        (
                            Some(bootstrap_interval(value, &samples, options.level)),
                            Some(IntervalKind::Bootstrap),
                        )
                    }
                    (Err(_), _) => (None, None),
                },
            };
            estimates.push(QueryEstimate {
                estimator: est.name(),
                quantity: name.clone(),
                estimate,
                interval: kind,
            });
        }
        if let Some(what) = time_out {
            return Err(CollectError::TimeLimit { what });
        }
    }
    Ok(EstimateReport {
        users,
        counts: counts.to_vec(),
        output_labels: model.output_labels.clone(),
        level: options.level,
        estimates,
        warnings,
    })
}

/// The p-value of Pearson's chi-square goodness-of-fit test of `counts` against the output
/// distribution `lambda = Q^T prior` implied by the domain prior (over outputs of positive
/// probability; `None` when fewer than two outputs are possible, or a count falls on an
/// output the prior rules out, which the posterior mean reports as an error itself).
pub fn prior_fit_p_value(model: &Model, counts: &[u64]) -> Option<f64> {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let lambda = model.channel.output_marginal(model.domain.prior());
    let n: u64 = counts.iter().sum();
    let mut stat = 0.0;
    let mut cells = 0usize;
    for (&k, &l) in counts.iter().zip(&lambda) {
        if l <= 0.0 {
            if k > 0 {
                return None;
            }
            continue;
        }
        let e = l * n as f64;
        stat += (k as f64 - e).powi(2) / e;
        cells += 1;
    }
    if cells < 2 {
        return None;
    }
    let chi = ChiSquared::new((cells - 1) as f64).ok()?;
    Some(chi.sf(stat))
}

/// `sum_i a_i b_i`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
