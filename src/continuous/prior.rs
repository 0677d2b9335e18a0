//! Priors on the real line: normal, uniform, Laplace, weighted mixtures, histograms (a mixture
//! of uniforms on the bins) and discrete priors (point masses, for the Laplace mechanism of
//! context-aware-lip Theorem 6, which is stated for a prior with a smallest probability).
//! The validated constructors are in `prior_build.rs`.

use super::normal::{std_cdf, std_pdf, two_sided_quantile};

/// Largest distance of a sum of mixture weights or of discrete probabilities from 1 (relative
/// to 1) that is accepted as rounding in the input; a larger one is an error.
pub const PROBABILITY_SUM_TOLERANCE: f64 = 1e-9;

/// A prior distribution of the data X.
#[derive(Debug, Clone, PartialEq)]
pub enum Prior {
    /// N(mean, sd^2).
    Normal {
        /// Mean.
        mean: f64,
        /// Standard deviation.
        sd: f64,
    },
    /// Uniform on [low, high].
    Uniform {
        /// Lower end.
        low: f64,
        /// Upper end.
        high: f64,
    },
    /// Laplace with density `exp(-|x - location| / scale) / (2 scale)`.
    Laplace {
        /// Location.
        location: f64,
        /// Scale.
        scale: f64,
    },
    /// `sum_k weight_k prior_k`; the weights sum to 1 (rescaled exactly at construction).
    Mixture(Vec<(f64, Prior)>),
    /// Point masses `probs[i]` at `points[i]`.
    Discrete {
        /// Support points.
        points: Vec<f64>,
        /// Their probabilities (sum 1).
        probs: Vec<f64>,
    },
}

impl Prior {
    /// Whether the prior is made of point masses.
    pub fn is_discrete(&self) -> bool {
        matches!(self, Prior::Discrete { .. })
    }

    /// Density at `x` (0 for a discrete prior, which has none).
    pub fn pdf(&self, x: f64) -> f64 {
        match self {
            Prior::Normal { mean, sd } => std_pdf((x - mean) / sd) / sd,
            Prior::Uniform { low, high } => {
                if (*low..=*high).contains(&x) {
                    1.0 / (high - low)
                } else {
                    0.0
                }
            }
            Prior::Laplace { location, scale } => {
                (-(x - location).abs() / scale).exp() / (2.0 * scale)
            }
            Prior::Mixture(parts) => parts.iter().map(|(w, p)| w * p.pdf(x)).sum(),
            Prior::Discrete { .. } => 0.0,
        }
    }

    /// Distribution function `P(X <= x)`.
    pub fn cdf(&self, x: f64) -> f64 {
        match self {
            Prior::Normal { mean, sd } => std_cdf((x - mean) / sd),
            Prior::Uniform { low, high } => ((x - low) / (high - low)).clamp(0.0, 1.0),
            Prior::Laplace { location, scale } => {
                let t = (x - location) / scale;
                if t < 0.0 {
                    0.5 * t.exp()
                } else {
                    1.0 - 0.5 * (-t).exp()
                }
            }
            Prior::Mixture(parts) => parts.iter().map(|(w, p)| w * p.cdf(x)).sum(),
            Prior::Discrete { points, probs } => points
                .iter()
                .zip(probs)
                .filter(|(&t, _)| t <= x)
                .map(|(_, p)| p)
                .sum(),
        }
    }

    /// `E[X]`.
    pub fn mean(&self) -> f64 {
        match self {
            Prior::Normal { mean, .. } => *mean,
            Prior::Uniform { low, high } => 0.5 * (low + high),
            Prior::Laplace { location, .. } => *location,
            Prior::Mixture(parts) => parts.iter().map(|(w, p)| w * p.mean()).sum(),
            Prior::Discrete { points, probs } => points.iter().zip(probs).map(|(x, p)| x * p).sum(),
        }
    }

    /// `E[X^2]`.
    pub fn second_moment(&self) -> f64 {
        match self {
            Prior::Normal { mean, sd } => mean * mean + sd * sd,
            Prior::Uniform { low, high } => (low * low + low * high + high * high) / 3.0,
            Prior::Laplace { location, scale } => location * location + 2.0 * scale * scale,
            Prior::Mixture(parts) => parts.iter().map(|(w, p)| w * p.second_moment()).sum(),
            Prior::Discrete { points, probs } => {
                points.iter().zip(probs).map(|(x, p)| x * x * p).sum()
            }
        }
    }

    /// `Var X`.
    pub fn variance(&self) -> f64 {
        let m = self.mean();
        (self.second_moment() - m * m).max(0.0)
    }

    /// An interval holding all but at most `tail` of the mass (`0 < tail < 1`).
    pub fn central_interval(&self, tail: f64) -> (f64, f64) {
        match self {
            Prior::Normal { mean, sd } => {
                let z = two_sided_quantile(tail);
                (mean - z * sd, mean + z * sd)
            }
            Prior::Uniform { low, high } => (*low, *high),
            Prior::Laplace { location, scale } => {
                let w = scale * (1.0 / tail).ln();
                (location - w, location + w)
            }
            Prior::Mixture(parts) => parts.iter().fold((f64::MAX, f64::MIN), |acc, (_, p)| {
                let (a, b) = p.central_interval(tail);
                (acc.0.min(a), acc.1.max(b))
            }),
            Prior::Discrete { points, .. } => points
                .iter()
                .fold((f64::MAX, f64::MIN), |acc, &x| (acc.0.min(x), acc.1.max(x))),
        }
    }

    /// Points where the density is not smooth (uniform ends, Laplace location, atoms).
    pub fn kinks(&self) -> Vec<f64> {
        match self {
            Prior::Normal { .. } => vec![],
            Prior::Uniform { low, high } => vec![*low, *high],
            Prior::Laplace { location, .. } => vec![*location],
            Prior::Mixture(parts) => parts.iter().flat_map(|(_, p)| p.kinks()).collect(),
            Prior::Discrete { points, .. } => points.clone(),
        }
    }

    /// The smallest probability of a discrete prior (`P_min` of Theorem 6), else `None`.
    pub fn min_probability(&self) -> Option<f64> {
        match self {
            Prior::Discrete { probs, .. } => probs.iter().copied().reduce(f64::min),
            _ => None,
        }
    }

    /// The probability of the atom at `x` of a discrete prior (0 elsewhere or if continuous).
    pub fn mass_at(&self, x: f64) -> f64 {
        match self {
            Prior::Discrete { points, probs } => points
                .iter()
                .zip(probs)
                .filter(|(&t, _)| t == x)
                .map(|(_, p)| p)
                .sum(),
            _ => 0.0,
        }
    }
}
