//! Validated constructors of [`Prior`]: every parameter is checked and a bad one is an error
//! naming its key and value (mixture weights and discrete probabilities must sum to 1 within
//! [`PROBABILITY_SUM_TOLERANCE`]).

use super::error::{finite, positive, ContinuousError};
use super::prior::{Prior, PROBABILITY_SUM_TOLERANCE};

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

    /// A mixture; weights must be positive and sum to 1 (within
    /// [`PROBABILITY_SUM_TOLERANCE`]): a sum off by more is an error naming the weights, not a
    /// silent rescaling. Components must be continuous.
    pub fn mixture(parts: Vec<(f64, Prior)>) -> Result<Self, ContinuousError> {
        for (i, (w, _)) in parts.iter().enumerate() {
            positive(&format!("prior.components[{i}].weight"), *w)?;
        }
        let total: f64 = parts.iter().map(|(w, _)| w).sum();
        if !parts.is_empty() && (total - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
            let weights: Vec<String> = parts.iter().map(|(w, _)| w.to_string()).collect();
            return Err(ContinuousError::invalid(
                "prior.components[*].weight",
                format!("[{}]", weights.join(", ")),
                format!(
                    "mixture weights must sum to 1 (within {PROBABILITY_SUM_TOLERANCE:e}); \
                     they sum to {total}"
                ),
            ));
        }
        Self::mixture_rescaled(parts)
    }

    /// A mixture whose positive weights are divided by their sum (histogram counts).
    fn mixture_rescaled(parts: Vec<(f64, Prior)>) -> Result<Self, ContinuousError> {
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
        Prior::mixture_rescaled(parts)
    }

    /// A discrete prior; probabilities must be > 0 and sum to 1 within
    /// [`PROBABILITY_SUM_TOLERANCE`].
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
        if (total - 1.0).abs() > PROBABILITY_SUM_TOLERANCE {
            return Err(ContinuousError::invalid(
                "prior.probs",
                total,
                "probabilities must sum to 1",
            ));
        }
        Ok(Prior::Discrete { points, probs })
    }
}
