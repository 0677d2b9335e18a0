//! Utility objectives. Linear objectives (expected loss, co-location) give LPs; the Bayesian
//! MMSE objectives and mutual information are sums of convex column functions
//! ([`ColumnConvex`]); the inversion-estimator MSE is neither.

mod column;
mod frequency;
mod inversion;
mod loss;

pub use column::{ColumnConvex, ColumnObjective, MmseHistogram, MmseSum, MutualInformation};
pub use frequency::{FrequencyMse, QuerySpec, Sampling, FISHER_RANK_TOLERANCE};
pub use inversion::InversionMse;
pub use loss::{LossSpec, LOSS_NAMES};

use crate::channel::Channel;
use crate::domain::{validate_prior, Domain};
use crate::error::{show_number, ProblemError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether an objective is minimized or maximized.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Goal {
    /// Smaller is better (losses).
    Minimize,
    /// Larger is better (utilities).
    Maximize,
}

/// A utility objective over channels, resolved against a domain.
pub trait Objective: std::fmt::Debug + Send + Sync {
    /// A short description, e.g. `expected hamming loss`.
    fn describe(&self) -> String;
    /// Minimize or maximize.
    fn goal(&self) -> Goal;
    /// The value for `channel`.
    fn evaluate(&self, channel: &Channel) -> f64;
    /// `Some(c)` when the objective is `sum c[x][y] Q[x][y]` (an LP objective).
    fn linear_coefficients(&self) -> Option<&[Vec<f64>]>;
    /// `Some` when the objective is `offset + scale * sum_y g(q_y)` with `g` convex and
    /// positively homogeneous (see [`ColumnConvex`]).
    fn column_convex(&self) -> Option<&dyn ColumnConvex> {
        None
    }
    /// `Some` for the frequency MSE of the efficient estimator, whose optimum is an optimal
    /// design over the extreme rays of the column cone.
    fn frequency_design(&self) -> Option<&FrequencyMse> {
        None
    }
    /// The gradient with respect to every entry `Q[x][y]`, when defined at `channel`.
    fn gradient(&self, channel: &Channel) -> Option<Vec<Vec<f64>>> {
        self.linear_coefficients()
            .map(<[Vec<f64>]>::to_vec)
            .filter(|c| c.len() == channel.inputs())
    }
}

/// `sum_x sum_y c[x][y] Q[x][y]`, minimized or maximized.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearObjective {
    description: String,
    goal: Goal,
    coefficients: Vec<Vec<f64>>,
}

impl LinearObjective {
    /// Expected loss `sum_x p_x sum_y Q[x][y] L[x][y]` (minimized).
    pub fn expected_loss(description: String, prior: &[f64], loss: &[Vec<f64>]) -> Self {
        let coefficients = prior
            .iter()
            .zip(loss)
            .map(|(p, row)| row.iter().map(|l| p * l).collect())
            .collect();
        LinearObjective {
            description,
            goal: Goal::Minimize,
            coefficients,
        }
    }

    /// Co-location `sum_x Q[x][x]` (maximized): the objective of the tight-constraints mechanism
    /// in range-and-frequency-d-privacy-slides.txt.
    pub fn co_location(n: usize) -> Self {
        let coefficients = (0..n)
            .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
            .collect();
        LinearObjective {
            description: "co-location sum_x Q[x][x]".into(),
            goal: Goal::Maximize,
            coefficients,
        }
    }
}

impl Objective for LinearObjective {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn goal(&self) -> Goal {
        self.goal
    }

    /// `NaN` when the channel's shape is not the coefficients' (outputs must be the inputs).
    fn evaluate(&self, channel: &Channel) -> f64 {
        if self.coefficients.len() != channel.inputs()
            || self.coefficients.first().map(Vec::len) != Some(channel.outputs())
        {
            return f64::NAN;
        }
        self.coefficients
            .iter()
            .zip(channel.rows())
            .map(|(c, q)| c.iter().zip(q).map(|(a, b)| a * b).sum::<f64>())
            .sum()
    }

    fn linear_coefficients(&self) -> Option<&[Vec<f64>]> {
        Some(&self.coefficients)
    }
}

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

/// Every accepted objective kind.
pub const OBJECTIVE_NAMES: [&str; 7] = [
    "expected-loss",
    "co-location",
    "mmse-sum",
    "mmse-histogram",
    "mutual-information",
    "inversion-mse",
    "frequency-mse",
];

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

/// As [`objective_profile`], with the parameters of `spec` where it is one of the profiled
/// objectives (the `weight` of `mmse-sum`; the `users` and `distribution` of `inversion-mse`
/// and `frequency-mse`, which also apply to the other of the two), so that the profile agrees
/// with the problem's own objective.
pub fn objective_profile_for(
    channel: &Channel,
    domain: &Domain,
    spec: &ObjectiveSpec,
) -> BTreeMap<String, f64> {
    let mut out = objective_profile(channel, domain);
    if channel.inputs() != domain.size() {
        return out;
    }
    match spec {
        ObjectiveSpec::MmseSum { .. }
        | ObjectiveSpec::InversionMse { .. }
        | ObjectiveSpec::FrequencyMse { .. } => {
            if let Ok(objective) = spec.resolve(domain) {
                let key = match spec {
                    ObjectiveSpec::MmseSum { .. } => "mmse-sum",
                    ObjectiveSpec::FrequencyMse { .. } => "frequency-mse",
                    _ => "inversion-mse",
                };
                let v = objective.evaluate(channel);
                if v.is_finite() {
                    out.insert(key.into(), v);
                } else {
                    out.remove(key);
                }
            }
        }
        _ => {}
    }
    // The two frequency MSEs are profiled with the same users and distribution, so that on a
    // square channel they agree (the efficient estimator is then the inversion).
    let twin = match spec {
        ObjectiveSpec::InversionMse {
            distribution,
            users,
        } => Some((
            "frequency-mse",
            ObjectiveSpec::FrequencyMse {
                queries: None,
                sampling: None,
                distribution: distribution.clone(),
                users: *users,
            },
        )),
        ObjectiveSpec::FrequencyMse {
            distribution,
            users,
            ..
        } => Some((
            "inversion-mse",
            ObjectiveSpec::InversionMse {
                distribution: distribution.clone(),
                users: *users,
            },
        )),
        _ => None,
    };
    if let Some((key, twin)) = twin {
        match twin.resolve(domain).map(|o| o.evaluate(channel)) {
            Ok(v) if v.is_finite() => {
                out.insert(key.into(), v);
            }
            _ => {
                out.remove(key);
            }
        }
    }
    out
}

/// Channels with more inputs than this leave out the profile's O(n^3) entries (inversion and
/// frequency MSE; about two minutes at 3,000 symbols) unless the problem's objective is one.
pub const PROFILE_CUBIC_LIMIT: usize = 1000;

/// Every objective that applies to any channel over `domain`, evaluated: `mmse-sum` (of the
/// domain's values, weight 1; not for a `labels` domain, whose symbols have no values),
/// `mmse-histogram`, `mutual-information` (nats), and
/// `inversion-mse` (one user, true distribution = the prior) when the channel is square and
/// invertible, and `frequency-mse` (every frequency, fixed counts, one user) when it is finite
/// (these two only up to [`PROFILE_CUBIC_LIMIT`] inputs).
pub fn objective_profile(channel: &Channel, domain: &Domain) -> BTreeMap<String, f64> {
    let prior = domain.prior();
    let mut out = BTreeMap::new();
    if channel.inputs() != domain.size() {
        return out;
    }
    let column = |name: &str, f: Box<dyn ColumnConvex>| {
        (
            name.to_string(),
            ColumnObjective::new(String::new(), f).evaluate(channel),
        )
    };
    if domain.has_distances() {
        let (name, value) = column(
            "mmse-sum",
            Box::new(MmseSum::new(&domain.numeric_values(), prior, 1.0)),
        );
        out.insert(name, value);
    }
    out.extend([
        column("mmse-histogram", Box::new(MmseHistogram::new(prior))),
        column(
            "mutual-information",
            Box::new(MutualInformation::new(prior)),
        ),
    ]);
    if channel.inputs() > PROFILE_CUBIC_LIMIT {
        return out;
    }
    let inversion = InversionMse::new(prior, 1.0).value(channel);
    if inversion.is_finite() {
        out.insert("inversion-mse".into(), inversion);
    }
    if prior.iter().all(|&p| p > 0.0) {
        let identity = QuerySpec::Identity.matrix(prior.len());
        let frequency =
            FrequencyMse::new(&identity, prior, Sampling::FixedCounts, 1.0).value(channel);
        if frequency.is_finite() {
            out.insert("frequency-mse".into(), frequency);
        }
    }
    out
}
