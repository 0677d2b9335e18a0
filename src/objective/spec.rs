//! The `[objective]` table of a problem file and its resolution against a domain.

use super::{
    ColumnObjective, FrequencyMse, InversionMse, LinearObjective, LossSpec, MmseHistogram, MmseSum,
    MutualInformation, Objective, QuerySpec, Sampling,
};
use crate::domain::{validate_prior, Domain};
use crate::error::{show_number, ProblemError};
use serde::{Deserialize, Serialize};

/// The `[objective]` table of a problem file. The tag `kind` selects the variant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ObjectiveSpec {
    /// Expected loss under the domain prior (minimized).
    ExpectedLoss {
        /// The loss function.
        loss: LossSpec,
    },
    /// Probability of reporting the true symbol, summed over symbols (maximized).
    CoLocation,
    /// Bayesian MMSE of `S = weight * f(X) + offset`, `f` = the domain's values (minimized).
    MmseSum {
        /// The weight `w` (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weight: Option<f64>,
        /// The offset (default 0; it does not change the MSE).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<f64>,
    },
    /// Bayesian MMSE of the histogram: the sum over k of the MMSE of `1{X = k}` (minimized).
    MmseHistogram,
    /// Mutual information `I(X;Y)` under the domain prior, in nats (maximized).
    MutualInformation,
    /// Frequency MSE of the unbiased inversion estimator (minimized; local optimum only).
    InversionMse {
        /// The true distribution (default: the domain prior).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        distribution: Option<Vec<f64>>,
        /// The number of users (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        users: Option<f64>,
    },
    /// Frequency MSE of the efficient unbiased estimator (minimized; certified optimal design
    /// over the extreme rays of the column cone).
    FrequencyMse {
        /// The linear queries estimated (default: every frequency).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        queries: Option<QuerySpec>,
        /// Fixed true counts (default) or i.i.d. sampling.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sampling: Option<Sampling>,
        /// The true distribution (default: the domain prior); every entry must be positive.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        distribution: Option<Vec<f64>>,
        /// The number of users (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        users: Option<f64>,
    },
}

/// Smallest accepted magnitude of an `mmse-sum` weight: the MSE is `weight^2` times a
/// variance, and `weight^2` must stay a normal double (1e-300 is; 1e-400 underflows to 0,
/// which would leave nothing to optimize and turn the minimization into a maximization).
pub const MIN_MMSE_WEIGHT: f64 = 1e-150;

/// Every accepted objective kind, in the order of [`super::OBJECTIVES`] (the variants' order).
pub const OBJECTIVE_NAMES: [&str; super::OBJECTIVES.len()] = super::registry::kinds();

impl ObjectiveSpec {
    /// Whether output `y` of a channel for this objective is an estimate of input symbol `y`:
    /// an expected loss `L[x][y]` between input and output symbols, or co-location (which
    /// rewards reporting the true symbol). For the MMSE objectives, mutual information and
    /// the frequency MSEs an output is only a column of the channel (any permutation of the
    /// outputs has the same value), so it is not named after an input.
    pub fn outputs_estimate_inputs(&self) -> bool {
        match self {
            ObjectiveSpec::ExpectedLoss { .. } | ObjectiveSpec::CoLocation => true,
            ObjectiveSpec::MmseSum { .. }
            | ObjectiveSpec::MmseHistogram
            | ObjectiveSpec::MutualInformation
            | ObjectiveSpec::InversionMse { .. }
            | ObjectiveSpec::FrequencyMse { .. } => false,
        }
    }

    /// Build the objective for `domain`.
    pub fn resolve(&self, domain: &Domain) -> Result<Box<dyn Objective>, ProblemError> {
        Ok(match self {
            ObjectiveSpec::ExpectedLoss { loss } => {
                let matrix = loss.matrix("objective.loss", domain)?;
                Box::new(LinearObjective::expected_loss(
                    format!("expected {} loss", loss.name()),
                    domain.prior(),
                    &matrix,
                ))
            }
            ObjectiveSpec::CoLocation => Box::new(LinearObjective::co_location(domain.size())),
            ObjectiveSpec::MmseSum { weight, offset } => {
                if !domain.has_distances() {
                    return Err(ProblemError::invalid(
                        "objective.kind",
                        "\"mmse-sum\"",
                        "mmse-sum estimates a numeric f(X), and the symbols of a `labels` domain are names without values; give the values (`values = [...]`, `line`, `size`, `grid` or `points`), or use an objective that needs none (\"mmse-histogram\", \"frequency-mse\", \"mutual-information\", \"expected-loss\" with \"hamming\")",
                    ));
                }
                let w = finite("objective.weight", weight.unwrap_or(1.0))?;
                let o = finite("objective.offset", offset.unwrap_or(0.0))?;
                if w == 0.0 {
                    return Err(ProblemError::invalid(
                        "objective.weight",
                        "0",
                        "the MSE of 0 * f(X) is 0 for every channel, so there is nothing to optimize; give a non-zero weight",
                    ));
                }
                if w.abs() < MIN_MMSE_WEIGHT {
                    return Err(ProblemError::invalid(
                        "objective.weight",
                        show_number(w),
                        format!(
                            "the MSE scales with weight^2, which underflows for a weight below {} in magnitude (the objective would be 0, or flip sign, for every channel); rescale the units",
                            show_number(MIN_MMSE_WEIGHT)
                        ),
                    ));
                }
                let spread = domain
                    .numeric_values()
                    .iter()
                    .fold(0.0f64, |m, v| m.max(v.abs()));
                if (w * spread).abs() > crate::numeric::MAX_MAGNITUDE {
                    return Err(ProblemError::invalid(
                        "objective.weight",
                        show_number(w),
                        format!(
                            "weight times the largest value ({spread}) exceeds {:e}; rescale the units",
                            crate::numeric::MAX_MAGNITUDE
                        ),
                    ));
                }
                Box::new(ColumnObjective::new(
                    format!(
                        "Bayesian MMSE of {} * f(X) + {} (posterior-mean estimator)",
                        show_number(w),
                        show_number(o)
                    ),
                    Box::new(MmseSum::new(&domain.numeric_values(), domain.prior(), w)),
                ))
            }
            ObjectiveSpec::MmseHistogram => Box::new(ColumnObjective::new(
                "Bayesian MMSE of the histogram (posterior-mean estimator)".into(),
                Box::new(MmseHistogram::new(domain.prior())),
            )),
            ObjectiveSpec::MutualInformation => Box::new(ColumnObjective::new(
                "mutual information I(X;Y) in nats".into(),
                Box::new(MutualInformation::new(domain.prior())),
            )),
            ObjectiveSpec::InversionMse {
                distribution,
                users,
            } => {
                let users = users_of(*users)?;
                let pi = distribution_of(distribution.as_deref(), domain)?;
                Box::new(InversionMse::new(&pi, users))
            }
            ObjectiveSpec::FrequencyMse {
                queries,
                sampling,
                distribution,
                users,
            } => {
                let users = users_of(*users)?;
                let pi = distribution_of(distribution.as_deref(), domain)?;
                let key = if distribution.is_some() {
                    "objective.distribution"
                } else {
                    "domain.prior"
                };
                if let Some(x) = pi.iter().position(|&v| v <= 0.0) {
                    return Err(ProblemError::invalid(
                        format!("{key}[{x}]"),
                        pi[x],
                        "frequency-mse needs every true frequency to be positive (a zero frequency makes the Fisher information singular); use a small positive value",
                    ));
                }
                let queries = queries.clone().unwrap_or_default();
                let matrix = queries.matrix(domain.size());
                validate_queries(&matrix, domain.size())?;
                Box::new(FrequencyMse::new(
                    &matrix,
                    &pi,
                    sampling.unwrap_or_default(),
                    users,
                ))
            }
        })
    }
}

fn users_of(users: Option<f64>) -> Result<f64, ProblemError> {
    let users = users.unwrap_or(1.0);
    if users.is_finite() && users >= 1.0 {
        Ok(users)
    } else {
        Err(ProblemError::invalid(
            "objective.users",
            users,
            "the number of users must be a finite number >= 1",
        ))
    }
}

fn distribution_of(given: Option<&[f64]>, domain: &Domain) -> Result<Vec<f64>, ProblemError> {
    Ok(match given {
        Some(d) => {
            validate_prior("objective.distribution", d, domain.size())?;
            crate::domain::normalize_prior("objective.distribution", d).0
        }
        None => domain.prior().to_vec(),
    })
}

fn validate_queries(matrix: &[Vec<f64>], n: usize) -> Result<(), ProblemError> {
    if matrix.is_empty() {
        return Err(ProblemError::invalid(
            "objective.queries.matrix",
            "[]",
            "give at least one query (one row of coefficients per query)",
        ));
    }
    for (j, row) in matrix.iter().enumerate() {
        if row.len() != n {
            return Err(ProblemError::invalid(
                format!("objective.queries.matrix[{j}]"),
                format!("{} entries", row.len()),
                format!("each query needs one coefficient per symbol ({n})"),
            ));
        }
        for (x, &v) in row.iter().enumerate() {
            finite(&format!("objective.queries.matrix[{j}][{x}]"), v)?;
        }
    }
    if matrix.iter().all(|r| r.iter().all(|&v| v == 0.0)) {
        return Err(ProblemError::invalid(
            "objective.queries.matrix",
            "all zeros",
            "every query is zero: there is nothing to estimate",
        ));
    }
    Ok(())
}

fn finite(key: &str, v: f64) -> Result<f64, ProblemError> {
    if v.is_finite() && v.abs() <= crate::numeric::MAX_MAGNITUDE {
        Ok(v)
    } else {
        Err(ProblemError::invalid(
            key,
            show_number(v),
            format!(
                "must be a finite number of magnitude at most {:e} (rescale the units)",
                crate::numeric::MAX_MAGNITUDE
            ),
        ))
    }
}
