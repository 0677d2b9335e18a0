//! Local Information Privacy ([LIP-agg], Definition 1; [CA-LIP],
//! Definition 2): `e^-eps <= Q[x][y] / lambda_y <= e^eps` for every input with positive prior and
//! every output with `lambda_y = sum_x p_x Q[x][y] > 0`.
//!
//! Bounded-prior LIP ([CA-LIP], Section IV) asks the same for every prior in a set;
//! the condition is linear in the prior for fixed Q, so for the convex hull of a list of priors
//! it is enough to impose it at each listed prior, for every input that any prior in the hull
//! gives positive mass (docs/design-notes.md, "Compact encodings").

use super::composition::bounds::bp_theorem4_bound;
use super::registry::{smallest_entry, CompositionBound, CompositionRule, NotionEntry};
use super::{column_brackets, tie_all, union_support, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::log_ratio_up;
use crate::rays::{ColumnCone, RayFamily};
use mechsynth_solvers::Sense;

/// eps-LIP (one prior) or eps-BP-LIP (the convex hull of several).
#[derive(Debug, Clone, PartialEq)]
pub struct Lip {
    /// The privacy parameter.
    pub epsilon: f64,
    /// The prior, or the vertices of the prior set.
    pub priors: Vec<Vec<f64>>,
    /// `lip` or `bp-lip`.
    pub name: &'static str,
}

/// Smallest eps for which `channel` is eps-LIP for every prior in the convex hull of `priors`:
/// the worst `|ln(Q[x][y] / lambda_y)|` over the listed priors (the ratio's extremes over the
/// hull are at its vertices), for inputs in the union of their supports. Outward rounded:
/// `lambda_y` is bracketed by `sum_bounds`, and each log-ratio carries the slack of the emitted
/// numbers (see [`crate::numeric`]).
pub fn lip_leakage(channel: &Channel, priors: &[Vec<f64>]) -> f64 {
    let support = union_support(priors);
    let mut worst: f64 = 0.0;
    for prior in priors {
        // Every column's bracket first, then the rows in memory order.
        let brackets = column_brackets(channel, prior);
        for &x in &support {
            for (&q, &(lo, hi, min, max)) in channel.rows()[x].iter().zip(&brackets) {
                if q == 0.0 && hi == 0.0 {
                    continue;
                }
                // An entry at most the column's least on the support is at most lambda_y, also
                // in the emitted numbers (which keep the order); likewise at the top.
                if q > min {
                    worst = worst.max(log_ratio_up(q, lo));
                }
                if q < max {
                    worst = worst.max(log_ratio_up(hi, q));
                }
            }
        }
    }
    worst
}

impl PrivacyNotion for Lip {
    fn key(&self) -> &'static str {
        self.name
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: self.name.into(),
            requested: self.epsilon,
            achieved: lip_leakage(channel, &self.priors),
        }]
    }

    /// One auxiliary `lambda_y = sum_x p_x Q[x][y]` per prior and column, then
    /// `e^-eps lambda_y <= Q[x][y] <= e^eps lambda_y` (exact, linear).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let support = union_support(&self.priors);
        let Some(budget) = lp.budget(self.epsilon) else {
            return format!(
                "{}: eps = {} is too loose to encode; left to certification",
                self.name, self.epsilon
            );
        };
        let (up, down) = (budget.exp(), (-budget).exp());
        for prior in &self.priors {
            for y in 0..lp.outputs() {
                let lambda = lp.aux(0.0, 1.0);
                let mut terms: Vec<_> = (0..lp.inputs())
                    .filter(|&x| prior[x] > 0.0)
                    .map(|x| (lp.q(x, y), -prior[x]))
                    .collect();
                terms.push((lambda, 1.0));
                lp.constrain(terms, Sense::Eq, 0.0);
                for &x in &support {
                    let q = lp.q(x, y);
                    lp.at_most_times(q, up, lambda);
                    lp.at_least_times(q, down, lambda);
                }
            }
        }
        format!(
            "{}: auxiliary output probability per prior and column (exact), {} prior(s)",
            self.name,
            self.priors.len()
        )
    }

    /// `e^-eps (p . q) <= q_x <= e^eps (p . q)` for every listed prior and every input in the
    /// union of their supports.
    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        if self.epsilon > crate::formulation::LOOSE_LOG_RATIO {
            return Some(ColumnCone::orthant(n));
        }
        let support = union_support(&self.priors);
        let (up, down) = (self.epsilon.exp(), (-self.epsilon).exp());
        let mut cone = ColumnCone::orthant(n);
        for prior in &self.priors {
            for &x in &support {
                let mut upper: Vec<(usize, f64)> = (0..n).map(|k| (k, up * prior[k])).collect();
                upper[x].1 -= 1.0;
                let mut lower: Vec<(usize, f64)> = (0..n).map(|k| (k, -down * prior[k])).collect();
                lower[x].1 += 1.0;
                cone.rows.push(upper);
                cone.rows.push(lower);
            }
        }
        Some(cone)
    }

    /// At eps = 0 every row in the support equals the output distribution.
    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        if self.epsilon == 0.0 {
            tie_all(&union_support(&self.priors))
        } else {
            Vec::new()
        }
    }

    fn ray_family(&self) -> Option<RayFamily> {
        match self.priors.as_slice() {
            [prior]
                if prior.iter().all(|&p| p > 0.0)
                    && self.epsilon <= crate::formulation::LOOSE_LOG_RATIO =>
            {
                Some(RayFamily::LipBox {
                    prior: prior.clone(),
                    epsilon: self.epsilon,
                })
            }
            _ => None,
        }
    }
}

/// The registry entry of LIP: profiled and composed under the domain's (or compose's) prior.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(|channel, domain| {
        Some(lip_leakage(
            channel,
            std::slice::from_ref(&domain.prior().to_vec()),
        ))
    }),
    compare: true,
    composition: Some(CompositionRule {
        rank: 1,
        prior_set: false,
        leakage: lip_leakage,
        bound: Some(CompositionBound {
            from_singles: theorem4,
            source: "context-aware-lip Thm 4",
        }),
    }),
    ..NotionEntry::new("lip")
};

/// The registry entry of bounded-prior LIP: composed over the prior set given to compose.
pub(super) const BP_ENTRY: NotionEntry = NotionEntry {
    composition: Some(CompositionRule {
        rank: 2,
        prior_set: true,
        leakage: lip_leakage,
        bound: Some(CompositionBound {
            from_singles: corollary4,
            source: "context-aware-lip Cor. 4",
        }),
    }),
    ..NotionEntry::new("bp-lip")
};

/// Thm 4 of context-aware LIP: the bound under one prior, with its smallest entry.
fn theorem4(singles: &[f64], priors: &[Vec<f64>]) -> f64 {
    let p_min = priors.first().map_or(f64::INFINITY, |p| smallest_entry(p));
    bp_theorem4_bound(singles, p_min, p_min)
}

/// Cor. 4 of context-aware LIP: the bound over a prior set, with the smallest and largest of
/// its priors' smallest entries.
fn corollary4(singles: &[f64], priors: &[Vec<f64>]) -> f64 {
    let mins: Vec<f64> = priors.iter().map(|p| smallest_entry(p)).collect();
    let (min_bp, max_bp) = (
        mins.iter().copied().fold(f64::INFINITY, f64::min),
        mins.iter().copied().fold(0.0, f64::max),
    );
    bp_theorem4_bound(singles, min_bp, max_bp)
}
