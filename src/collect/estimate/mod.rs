//! Estimates from output counts: the input frequencies, range queries (sums of frequencies
//! over an interval of symbols), and the mean and sum of the domain's values, each with a
//! standard error and an interval for a stated [`Estimand`].
//!
//! Every estimator implements [`Estimator`]. Linear ones (inversion, posterior mean) answer any
//! linear query `w . pi` analytically. The others (projected inversion, EM) report the
//! inversion's confidence interval for the same quantity, cut to the range the quantity takes
//! over distributions and widened to hold their point estimate
//! ([`IntervalKind::InversionClipped`]): it covers at the inversion's level, which percentile
//! bootstrap intervals did not at larger domains. [`bootstrap`] remains for callers who want
//! replicates of an estimator.

mod bootstrap;
mod driver;
mod em;
mod inversion;
mod posterior;
mod projected;
mod query;

pub use bootstrap::{bootstrap, bootstrap_interval};
pub use driver::{estimate, prior_fit_p_value};
pub use em::{em, em_until, EmEstimator, EmResult, EM_MAX_ITERATIONS, EM_TOLERANCE};
pub use inversion::Inversion;
pub use posterior::{posterior_matrix, posterior_moments, PosteriorMean};
pub use projected::ProjectedInversion;
pub use query::{range_end, symbol_index, Query, INDEX_PREFIX};

use super::stats::Interval;
use super::{CollectError, Model};
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

/// What an interval is an interval for.
///
/// `Sample` is the frequencies (or range, mean, sum) among the `N` users who reported: their
/// true values are fixed and only the randomizer is random, so the variance is the textbook
/// LDP variance (conditional on the users' values). `Population` is the distribution the users
/// were drawn from independently: the multinomial variance of drawing them is added
/// (`f (1 - f) / N` for a frequency, with covariance `-f_i f_j / N` between two).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Estimand {
    /// The frequencies among the users who reported (randomizer variance only).
    #[default]
    Sample,
    /// The distribution the users were drawn from (adds the multinomial sampling variance).
    Population,
}

impl Estimand {
    /// The name, as on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Estimand::Sample => "sample",
            Estimand::Population => "population",
        }
    }

    /// The variance of `w . f` for users drawn from `f`, per user: `sum_x f_x w_x^2 -
    /// (w . f)^2` (0 for [`Estimand::Sample`], whose users' values are fixed; clamped at 0
    /// for plug-in frequencies that are not a distribution).
    pub fn sampling_variance(self, w: &[f64], f: &[f64]) -> f64 {
        match self {
            Estimand::Sample => 0.0,
            Estimand::Population => {
                let second: f64 = w.iter().zip(f).map(|(a, b)| a * a * b).sum();
                (second - dot(w, f).powi(2)).max(0.0)
            }
        }
    }
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
    /// For an estimator without an analytic variance (projected, EM): the inversion's normal
    /// confidence interval for the same quantity, cut to the range the quantity can take over
    /// distributions and widened to hold the point estimate. Cutting to a range that holds
    /// the truth and widening never lose coverage, so it covers at the inversion's level.
    #[serde(rename = "inversion (range-clipped)")]
    InversionClipped,
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
    /// What it is the standard error for.
    pub estimand: Estimand,
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
    /// The standard error is for `estimand`.
    fn linear(
        &self,
        _model: &Model,
        _c: &[f64],
        _users: f64,
        _w: &[f64],
        _estimand: Estimand,
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
    /// What the intervals are for.
    pub estimand: Estimand,
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
            .field("estimand", &self.estimand)
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
/// Most bootstrap replicates: the replicates are kept (8 bytes per symbol each, 4 GB at the
/// largest domain), and past this the Monte Carlo error of a 95% percentile interval's
/// endpoints (about `sqrt(0.025 * 0.975 / B)` in probability, 5e-4 here) is far below the
/// interval's own sampling error.
pub const MAX_BOOTSTRAP: usize = 100_000;

impl Default for EstimateOptions {
    fn default() -> Self {
        EstimateOptions {
            estimators: vec![EstimatorSpec::Inversion],
            queries: vec![Query::Frequencies],
            level: 0.95,
            estimand: Estimand::Sample,
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
    /// What the interval is for (`None` with no estimate).
    pub estimand: Option<Estimand>,
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
    /// The estimand asked for (each answer names its own: a posterior-mean credible interval
    /// is always for the sample).
    pub estimand: Estimand,
    /// The answers.
    pub estimates: Vec<QueryEstimate>,
    /// Negative inversion frequencies, singular channels, impossible reports...
    pub warnings: Vec<String>,
}

/// `sum_i a_i b_i`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
