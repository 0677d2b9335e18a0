//! Maximal leakage ([CA-LIP], Section III; Issa, Wagner, Kamath):
//! `ln sum_y max_{x: p_x > 0} Q[x][y] <= eps`.

use super::registry::{CompositionBound, CompositionRule, NotionEntry};
use super::{Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::{log_ratio_up, sum_bounds};
use crate::rays::ColumnCone;
use mechsynth_solvers::Sense;

/// Maximal leakage at most eps (nats).
#[derive(Debug, Clone, PartialEq)]
pub struct MaxLeakage {
    /// The bound, in nats.
    pub epsilon: f64,
    /// The prior (only its support matters).
    pub prior: Vec<f64>,
}

fn support(prior: &[f64]) -> Vec<usize> {
    (0..prior.len()).filter(|&x| prior[x] > 0.0).collect()
}

/// Maximal leakage of `channel` from the inputs in the support of `prior` (Issa, Wagner,
/// Kamath define it over the support), outward rounded, with each row normalized by its exact
/// sum (bracketed), with the slack of the emitted numbers (see [`crate::numeric`]): rows that
/// are all equal on the support leak exactly 0.
pub fn max_leakage(channel: &Channel, prior: &[f64]) -> f64 {
    let s = support(prior);
    let Some(&first) = s.first() else {
        return 0.0;
    };
    if s.iter()
        .all(|&x| channel.rows()[x] == channel.rows()[first])
    {
        return 0.0;
    }
    // Every column's largest entry on the support, the rows read in memory order.
    let mut maxima = vec![0.0f64; channel.outputs()];
    for &x in &s {
        for (top, &q) in maxima.iter_mut().zip(&channel.rows()[x]) {
            *top = top.max(q);
        }
    }
    let (_, hi) = sum_bounds(maxima);
    let smallest_row = s
        .iter()
        .map(|&x| sum_bounds(channel.rows()[x].iter().copied()).0)
        .fold(f64::INFINITY, f64::min);
    log_ratio_up(hi, smallest_row).max(0.0)
}

impl PrivacyNotion for MaxLeakage {
    fn key(&self) -> &'static str {
        "max-leakage"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "max-leakage".into(),
            requested: self.epsilon,
            achieved: max_leakage(channel, &self.prior),
        }]
    }

    /// One auxiliary `t_y >= Q[x][y]` per column and `sum_y t_y <= e^eps` (exact).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let s = support(&self.prior);
        // sum_y max_x Q[x][y] <= m always, so a budget of ln(m) or more is no constraint.
        let budget = lp
            .budget(self.epsilon)
            .filter(|b| *b < (lp.outputs() as f64).ln());
        let Some(budget) = budget else {
            return format!(
                "max-leakage: eps = {} allows every channel on {} outputs; nothing to encode",
                self.epsilon,
                lp.outputs()
            );
        };
        let mut total = Vec::new();
        for y in 0..lp.outputs() {
            let t = lp.aux(0.0, 1.0);
            for &x in &s {
                let q = lp.q(x, y);
                lp.at_most_times(q, 1.0, t);
            }
            total.push((t, 1.0));
        }
        lp.constrain(total, Sense::Le, budget.exp());
        "max-leakage: one auxiliary column maximum per output (exact)".into()
    }

    /// At eps = 0, `sum_y max_x Q[x][y] = 1` forces every row in the support to be equal.
    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        if self.epsilon == 0.0 {
            super::tie_all(&support(&self.prior))
        } else {
            Vec::new()
        }
    }

    /// Lifted by the column maximum `t >= q_x`, coupled by `sum_y t_y <= e^eps`.
    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let mut cone = ColumnCone::orthant(n);
        // sum_y max_x Q[x][y] <= sum_y sum_x Q[x][y] = n: a budget of ln(n) constrains nothing
        // (and e^eps far beyond it only hurts the master LP's conditioning).
        if self.epsilon >= (n as f64).ln() {
            return Some(cone);
        }
        cone.aux = 1;
        for x in support(&self.prior) {
            cone.rows.push(vec![(n, 1.0), (x, -1.0)]);
        }
        cone.coupling.push((vec![(n, 1.0)], self.epsilon.exp()));
        Some(cone)
    }
}

/// The registry entry: profiled under the domain's prior, compared with, composed by summing.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(|channel, domain| Some(max_leakage(channel, domain.prior()))),
    compare: true,
    composition: Some(CompositionRule {
        rank: 3,
        prior_set: false,
        leakage: |channel, priors| max_leakage(channel, &priors[0]),
        bound: Some(CompositionBound {
            from_singles: |singles, _| singles.iter().sum::<f64>(),
            source: "sum of single releases (max of a product <= product of maxima)",
        }),
    }),
    ..NotionEntry::new("max-leakage")
};
