//! Priors on the real line: normal, uniform, Laplace, weighted mixtures, histograms (a mixture
//! of uniforms on the bins) and discrete priors (point masses, for the Laplace mechanism of
//! context-aware-lip Theorem 6, which is stated for a prior with a smallest probability).

use super::error::{finite, positive, ContinuousError};
use super::normal::{std_cdf, std_pdf, two_sided_quantile};

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
    /// `sum_k weight_k prior_k`; weights are normalized at construction.
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
    /// A validated normal prior.
    pub fn normal(mean: f64, sd: f64) -> Result<Self, ContinuousError> {
        Ok(Prior::Normal {
            mean: finite("prior.mean", mean)?,
            sd: positive("prior.sd", sd)?,
        })
    }

    /// A validated uniform prior.
    pub fn uniform(low: f64, high: f64) -> Result<Self, ContinuousError> {
        if !(low.is_finite() && high.is_finite() && low < high) {
            return Err(ContinuousError::invalid(
                "prior.high",
                high,
                format!("needs finite low < high (low = {low})"),
            ));
        }
        Ok(Prior::Uniform { low, high })
    }

    /// A validated Laplace prior.
    pub fn laplace(location: f64, scale: f64) -> Result<Self, ContinuousError> {
        Ok(Prior::Laplace {
            location: finite("prior.location", location)?,
            scale: positive("prior.scale", scale)?,
        })
    }

    /// A mixture; weights must be positive and are normalized. Components must be continuous.
    pub fn mixture(parts: Vec<(f64, Prior)>) -> Result<Self, ContinuousError> {
        if parts.is_empty() {
            return Err(ContinuousError::invalid(
                "prior.components",
                "[]",
                "a mixture needs at least one component",
            ));
        }
        let mut total = 0.0;
        for (i, (w, p)) in parts.iter().enumerate() {
            positive(&format!("prior.components[{i}].weight"), *w)?;
            if p.is_discrete() {
                return Err(ContinuousError::invalid(
                    &format!("prior.components[{i}].kind"),
                    "discrete",
                    "mixture components must be continuous",
                ));
            }
            total += w;
        }
        Ok(Prior::Mixture(
            parts.into_iter().map(|(w, p)| (w / total, p)).collect(),
        ))
    }

    /// A histogram: `counts[i]` samples in `[edges[i], edges[i+1])`, as a mixture of uniforms.
    pub fn histogram(edges: &[f64], counts: &[f64]) -> Result<Self, ContinuousError> {
        if edges.len() != counts.len() + 1 || counts.is_empty() {
            return Err(ContinuousError::invalid(
                "prior.edges",
                format!("{} edges", edges.len()),
                format!("needs one more edge than bins ({} bins)", counts.len()),
            ));
        }
        let mut parts = Vec::new();
        for (i, &c) in counts.iter().enumerate() {
            if !(c.is_finite() && c >= 0.0) {
                return Err(ContinuousError::invalid(
                    &format!("prior.counts[{i}]"),
                    c,
                    "must be >= 0",
                ));
            }
            let bin = Prior::uniform(edges[i], edges[i + 1]).map_err(|_| {
                ContinuousError::invalid(
                    &format!("prior.edges[{}]", i + 1),
                    edges[i + 1],
                    "edges must be finite and strictly increasing",
                )
            })?;
            if c > 0.0 {
                parts.push((c, bin));
            }
        }
        Prior::mixture(parts)
    }

    /// A discrete prior; probabilities must be >= 0 and sum to 1 within 1e-9.
    pub fn discrete(points: Vec<f64>, probs: Vec<f64>) -> Result<Self, ContinuousError> {
        if points.len() != probs.len() || points.is_empty() {
            return Err(ContinuousError::invalid(
                "prior.probs",
                format!("{} values", probs.len()),
                format!("needs one probability per point ({} points)", points.len()),
            ));
        }
        for (i, (&x, &p)) in points.iter().zip(&probs).enumerate() {
            finite(&format!("prior.points[{i}]"), x)?;
            if !(p.is_finite() && p > 0.0) {
                return Err(ContinuousError::invalid(
                    &format!("prior.probs[{i}]"),
                    p,
                    "must be > 0 (drop the point instead)",
                ));
            }
        }
        let total: f64 = probs.iter().sum();
        if (total - 1.0).abs() > 1e-9 {
            return Err(ContinuousError::invalid(
                "prior.probs",
                total,
                "probabilities must sum to 1",
            ));
        }
        Ok(Prior::Discrete { points, probs })
    }

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
