//! eps-local differential privacy: `Q[x][y] <= e^eps Q[x'][y]` for all `x, x', y`.

use super::composition::bounds::basic_composition;
use super::registry::{CompositionBound, CompositionRule, NotionEntry};
use super::{encode_envelope, envelope_leakage, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::rays::{ColumnCone, RayFamily};

/// eps-LDP.
#[derive(Debug, Clone, PartialEq)]
pub struct Ldp {
    /// The privacy parameter.
    pub epsilon: f64,
}

/// Smallest eps for which `channel` is eps-LDP: the largest log-ratio within a column.
pub fn ldp_leakage(channel: &Channel) -> f64 {
    let all: Vec<usize> = (0..channel.inputs()).collect();
    envelope_leakage(channel, &vec![1.0; channel.inputs()], &all, &all)
}

impl PrivacyNotion for Ldp {
    fn key(&self) -> &'static str {
        "ldp"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "ldp".into(),
            requested: self.epsilon,
            achieved: ldp_leakage(channel),
        }]
    }

    /// Envelope per column (exact): `l_y <= Q[x][y] <= e^eps l_y`.
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let n = lp.inputs();
        let all: Vec<usize> = (0..n).collect();
        encode_envelope(lp, self.epsilon, &vec![1.0; n], &all, &all);
        format!(
            "ldp: per-column envelope (exact), {} rows",
            2 * n * lp.outputs()
        )
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let all: Vec<usize> = (0..n).collect();
        Some(super::ratio_cone(n, super::all_pairs(&all, self.epsilon)))
    }

    /// Per column, the largest entry against the smallest (the pair that needs the most).
    fn mixing_weight(&self, channel: &Channel, target: &[f64]) -> Option<f64> {
        let factor = self.epsilon.exp();
        (0..channel.outputs()).try_fold(0.0f64, |worst, y| {
            let (lo, hi) = (0..channel.inputs())
                .map(|x| channel.get(x, y))
                .fold((f64::INFINITY, 0.0f64), |(lo, hi), q| {
                    (lo.min(q), hi.max(q))
                });
            super::pair_mixing_weight(hi, lo, factor, target[y]).map(|t| worst.max(t))
        })
    }

    /// 0-LDP: every row is the same.
    fn ties(&self, n: usize) -> Vec<(usize, usize)> {
        if self.epsilon == 0.0 {
            super::tie_all(&(0..n).collect::<Vec<_>>())
        } else {
            Vec::new()
        }
    }

    fn ray_family(&self) -> Option<RayFamily> {
        (self.epsilon <= crate::formulation::LOOSE_LOG_RATIO).then_some(RayFamily::Staircase {
            epsilon: self.epsilon,
        })
    }
}

/// The registry entry: profiled, compared with, composed by summing the epsilons.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(|channel, _| Some(ldp_leakage(channel))),
    compare: true,
    composition: Some(CompositionRule {
        rank: 0,
        prior_set: false,
        leakage: |channel, _| ldp_leakage(channel),
        bound: Some(CompositionBound {
            from_singles: |singles, _| basic_composition(singles),
            source: "basic composition: sum of eps_k",
        }),
    }),
    ..NotionEntry::new("ldp")
};
