//! Objectives that are sums over the channel's columns of a convex, positively homogeneous
//! function: the Bayesian MMSE of a (weighted) sum and of a histogram with the posterior-mean
//! estimator ([LIP-agg] eq. 14, 18, 28, 31), and mutual information.
//!
//! Each has the form `offset + scale * sum_y g(q_y)` with `g` convex and `g(c q) = c g(q)`;
//! maximizing `sum_y g(q_y)` is what makes the extreme-ray LP exact (docs/design-notes.md, "Extreme rays").

use super::registry::{ObjectiveEntry, ObjectiveProfile};
use super::{Goal, Objective};
use crate::channel::Channel;

/// `offset + scale * sum_y g(q_y)` for a convex, positively homogeneous column function `g`.
pub trait ColumnConvex: std::fmt::Debug + Send + Sync {
    /// `g(q)` for a column `q` over the inputs (any non-negative scale).
    fn column_value(&self, column: &[f64]) -> f64;
    /// The gradient of `g` at `q`.
    fn column_gradient(&self, column: &[f64]) -> Vec<f64>;
    /// The objective's constant part.
    fn offset(&self) -> f64;
    /// The objective's factor on `sum_y g(q_y)` (negative for an MSE that is minimized).
    fn scale(&self) -> f64;
    /// When `g(q) = (a . q)^2 / (p . q)`: the vectors `(a, p)`, for exact pricing.
    fn quadratic_ratio(&self) -> Option<(&[f64], &[f64])> {
        None
    }
    /// When `g(q) = sum_x (p_x q_x)^2 / (p . q)` (the histogram MMSE): the prior `p`, for
    /// exact pricing.
    fn histogram_prior(&self) -> Option<&[f64]> {
        None
    }
    /// When `g(q) = sum_x p_x q_x ln(q_x / (p . q))` (mutual information): the prior `p`, for
    /// exact pricing.
    fn information_prior(&self) -> Option<&[f64]> {
        None
    }
}

/// `offset + scale * sum_y g(q_y)` over the columns of `channel`.
pub(crate) fn evaluate_columns(f: &dyn ColumnConvex, channel: &Channel) -> f64 {
    let total: f64 = (0..channel.outputs())
        .map(|y| f.column_value(&channel.column(y)))
        .sum();
    f.offset() + f.scale() * total
}

/// The gradient of `offset + scale * sum_y g(q_y)` with respect to every entry.
pub(crate) fn gradient_columns(f: &dyn ColumnConvex, channel: &Channel) -> Vec<Vec<f64>> {
    let columns: Vec<Vec<f64>> = (0..channel.outputs())
        .map(|y| f.column_gradient(&channel.column(y)))
        .collect();
    (0..channel.inputs())
        .map(|x| columns.iter().map(|c| f.scale() * c[x]).collect())
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Per-user Bayesian MMSE of `S = weight * f(X) + offset` with the posterior-mean estimator:
/// `Var S - Var E[S|Y] = w^2 (Var f - sum_y (a . q_y)^2 / lambda_y + (E f)^2)` with
/// `a_x = f(x) p_x` ([LIP-agg] eq. 14, 28). Values are centred first, which
/// changes nothing exactly and avoids cancellation.
#[derive(Debug, Clone, PartialEq)]
pub struct MmseSum {
    a: Vec<f64>,
    prior: Vec<f64>,
    weight: f64,
    variance: f64,
}

impl MmseSum {
    /// For values `f(x)`, a prior and the weight `w` (the offset does not change the MSE).
    pub fn new(values: &[f64], prior: &[f64], weight: f64) -> Self {
        let mean = dot(values, prior);
        let centred: Vec<f64> = values.iter().map(|v| v - mean).collect();
        let variance = centred.iter().zip(prior).map(|(c, p)| p * c * c).sum();
        MmseSum {
            a: centred.iter().zip(prior).map(|(c, p)| c * p).collect(),
            prior: prior.to_vec(),
            weight,
            variance,
        }
    }
}

impl ColumnConvex for MmseSum {
    fn column_value(&self, q: &[f64]) -> f64 {
        let lambda = dot(&self.prior, q);
        if lambda <= 0.0 {
            return 0.0;
        }
        dot(&self.a, q).powi(2) / lambda
    }
    fn column_gradient(&self, q: &[f64]) -> Vec<f64> {
        let lambda = dot(&self.prior, q);
        if lambda <= 0.0 {
            return vec![0.0; q.len()];
        }
        let t = dot(&self.a, q) / lambda;
        self.a
            .iter()
            .zip(&self.prior)
            .map(|(a, p)| 2.0 * t * a - t * t * p)
            .collect()
    }
    fn offset(&self) -> f64 {
        self.weight * self.weight * self.variance
    }
    fn scale(&self) -> f64 {
        -self.weight * self.weight
    }
    fn quadratic_ratio(&self) -> Option<(&[f64], &[f64])> {
        Some((&self.a, &self.prior))
    }
}

/// Per-user histogram MMSE: `sum_k (Var 1{X=k} - Var P(X=k|Y)) =
/// 1 - sum_y sum_k (p_k Q[k][y])^2 / lambda_y` ([LIP-agg] eq. 31).
#[derive(Debug, Clone, PartialEq)]
pub struct MmseHistogram {
    prior: Vec<f64>,
}

impl MmseHistogram {
    /// For a prior.
    pub fn new(prior: &[f64]) -> Self {
        MmseHistogram {
            prior: prior.to_vec(),
        }
    }
}

impl ColumnConvex for MmseHistogram {
    fn column_value(&self, q: &[f64]) -> f64 {
        let lambda = dot(&self.prior, q);
        if lambda <= 0.0 {
            return 0.0;
        }
        self.prior
            .iter()
            .zip(q)
            .map(|(p, v)| (p * v).powi(2))
            .sum::<f64>()
            / lambda
    }
    fn column_gradient(&self, q: &[f64]) -> Vec<f64> {
        let lambda = dot(&self.prior, q);
        if lambda <= 0.0 {
            return vec![0.0; q.len()];
        }
        let value = self.column_value(q);
        self.prior
            .iter()
            .zip(q)
            .map(|(p, v)| 2.0 * p * p * v / lambda - value * p / lambda)
            .collect()
    }
    fn offset(&self) -> f64 {
        self.prior.iter().map(|p| p * (1.0 - p)).sum::<f64>()
            + self.prior.iter().map(|p| p * p).sum::<f64>()
    }
    fn scale(&self) -> f64 {
        -1.0
    }
    fn histogram_prior(&self) -> Option<&[f64]> {
        Some(&self.prior)
    }
}

/// Mutual information `I(X;Y) = sum_y sum_x p_x Q[x][y] ln(Q[x][y] / lambda_y)` in nats.
#[derive(Debug, Clone, PartialEq)]
pub struct MutualInformation {
    prior: Vec<f64>,
}

impl MutualInformation {
    /// For a prior.
    pub fn new(prior: &[f64]) -> Self {
        MutualInformation {
            prior: prior.to_vec(),
        }
    }
}

impl ColumnConvex for MutualInformation {
    fn column_value(&self, q: &[f64]) -> f64 {
        let lambda = dot(&self.prior, q);
        if lambda <= 0.0 {
            return 0.0;
        }
        self.prior
            .iter()
            .zip(q)
            .filter(|(p, v)| **p > 0.0 && **v > 0.0)
            .map(|(p, v)| p * v * (v / lambda).ln())
            .sum()
    }
    fn column_gradient(&self, q: &[f64]) -> Vec<f64> {
        let lambda = dot(&self.prior, q);
        self.prior
            .iter()
            .zip(q)
            .map(|(p, v)| {
                if *p == 0.0 || lambda <= 0.0 {
                    0.0
                } else {
                    // ln(0) is -inf: a large finite slope keeps linear oracles well posed.
                    p * (v.max(f64::MIN_POSITIVE) / lambda)
                        .ln()
                        .max(-MI_GRADIENT_FLOOR)
                }
            })
            .collect()
    }
    fn offset(&self) -> f64 {
        0.0
    }
    fn scale(&self) -> f64 {
        1.0
    }
    fn information_prior(&self) -> Option<&[f64]> {
        Some(&self.prior)
    }
}

/// Floor on `ln(Q / lambda)` in the mutual-information gradient at zero entries.
const MI_GRADIENT_FLOOR: f64 = 50.0;

/// A [`ColumnConvex`] objective with its description and goal.
#[derive(Debug)]
pub struct ColumnObjective {
    description: String,
    goal: Goal,
    inner: Box<dyn ColumnConvex>,
}

impl ColumnObjective {
    /// Wrap `inner`: minimized when its scale is negative (an MSE), maximized otherwise.
    pub fn new(description: String, inner: Box<dyn ColumnConvex>) -> Self {
        let goal = if inner.scale() < 0.0 {
            Goal::Minimize
        } else {
            Goal::Maximize
        };
        ColumnObjective {
            description,
            goal,
            inner,
        }
    }
}

impl Objective for ColumnObjective {
    fn describe(&self) -> String {
        self.description.clone()
    }
    fn goal(&self) -> Goal {
        self.goal
    }
    fn evaluate(&self, channel: &Channel) -> f64 {
        evaluate_columns(self.inner.as_ref(), channel)
    }
    fn linear_coefficients(&self) -> Option<&[Vec<f64>]> {
        None
    }
    fn column_convex(&self) -> Option<&dyn ColumnConvex> {
        Some(self.inner.as_ref())
    }
    fn gradient(&self, channel: &Channel) -> Option<Vec<Vec<f64>>> {
        Some(gradient_columns(self.inner.as_ref(), channel))
    }
}

/// `ColumnObjective` of `inner`, evaluated at `channel` (the profile's column objectives).
fn column_value(channel: &Channel, inner: Box<dyn ColumnConvex>) -> f64 {
    ColumnObjective::new(String::new(), inner).evaluate(channel)
}

/// The registry entry of `mmse-sum`: profiled with weight 1 over the domain's values (not for
/// a `labels` domain, whose symbols have no values).
pub(super) const MMSE_SUM_ENTRY: ObjectiveEntry = ObjectiveEntry {
    profile: Some(ObjectiveProfile {
        value: |channel, domain| {
            domain.has_distances().then(|| {
                column_value(
                    channel,
                    Box::new(MmseSum::new(&domain.numeric_values(), domain.prior(), 1.0)),
                )
            })
        },
        cubic: false,
    }),
    ..ObjectiveEntry::new("mmse-sum")
};

/// The registry entry of `mmse-histogram` (no keys; profiled).
pub(super) const MMSE_HISTOGRAM_ENTRY: ObjectiveEntry = ObjectiveEntry {
    takes_keys: false,
    profile: Some(ObjectiveProfile {
        value: |channel, domain| {
            Some(column_value(
                channel,
                Box::new(MmseHistogram::new(domain.prior())),
            ))
        },
        cubic: false,
    }),
    ..ObjectiveEntry::new("mmse-histogram")
};

/// The registry entry of `mutual-information` (no keys; profiled, in nats).
pub(super) const MUTUAL_INFORMATION_ENTRY: ObjectiveEntry = ObjectiveEntry {
    takes_keys: false,
    profile: Some(ObjectiveProfile {
        value: |channel, domain| {
            Some(column_value(
                channel,
                Box::new(MutualInformation::new(domain.prior())),
            ))
        },
        cubic: false,
    }),
    ..ObjectiveEntry::new("mutual-information")
};

#[cfg(test)]
mod tests {
    use super::*;

    /// MSE of the binary LDP optimum ([LIP-agg] eq. 24) for one user,
    /// recomputed from its own formula.
    #[test]
    fn binary_mmse_matches_eq_24_for_warner() {
        for (p1, eps) in [(0.3f64, 1.0f64), (0.1, 2.0), (0.5, 0.5)] {
            let e = eps.exp();
            let q = 1.0 / (e + 1.0);
            let ch = Channel::new(vec![vec![1.0 - q, q], vec![q, 1.0 - q]]).unwrap();
            let prior = [1.0 - p1, p1];
            let f =
                ColumnObjective::new("".into(), Box::new(MmseSum::new(&[0.0, 1.0], &prior, 1.0)));
            let eq24 = p1 * (1.0 - p1)
                - (p1 * (1.0 - p1) * (1.0 - e)).powi(2) / ((1.0 - p1 + p1 * e) * (e - p1 * e + p1));
            assert!(
                (f.evaluate(&ch) - eq24).abs() < 1e-12,
                "{} vs {eq24}",
                f.evaluate(&ch)
            );
        }
    }

    #[test]
    fn histogram_of_identity_is_zero_and_of_constant_is_sum_of_variances() {
        let prior = [0.2, 0.3, 0.5];
        let h = ColumnObjective::new("".into(), Box::new(MmseHistogram::new(&prior)));
        let id = Channel::new(vec![
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
        ])
        .unwrap();
        assert!(h.evaluate(&id).abs() < 1e-15);
        let constant = Channel::new(vec![vec![1.0 / 3.0; 3]; 3]).unwrap();
        let total: f64 = prior.iter().map(|p| p * (1.0 - p)).sum();
        assert!((h.evaluate(&constant) - total).abs() < 1e-15);
    }

    #[test]
    fn gradients_match_finite_differences() {
        let prior = [0.2, 0.3, 0.5];
        let q = [0.3, 0.1, 0.6];
        let fs: Vec<Box<dyn ColumnConvex>> = vec![
            Box::new(MmseSum::new(&[0.0, 1.0, 3.0], &prior, 2.0)),
            Box::new(MmseHistogram::new(&prior)),
            Box::new(MutualInformation::new(&prior)),
        ];
        for f in &fs {
            let g = f.column_gradient(&q);
            for x in 0..3 {
                let h = 1e-6;
                let mut up = q;
                up[x] += h;
                let mut down = q;
                down[x] -= h;
                let fd = (f.column_value(&up) - f.column_value(&down)) / (2.0 * h);
                assert!((fd - g[x]).abs() < 1e-6, "{f:?} x={x}: {fd} vs {}", g[x]);
            }
        }
    }
}
