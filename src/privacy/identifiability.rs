//! eps-differential identifiability with prior p: `p_x Q[x][y] <= e^eps p_x' Q[x'][y]` for all
//! `x, x'` in the support of p and all y ([CA-LIP], Section III).

use super::registry::{CompositionRule, NotionEntry};
use super::{encode_envelope, envelope_leakage, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::rays::ColumnCone;

/// eps-identifiability under a prior.
#[derive(Debug, Clone, PartialEq)]
pub struct Identifiability {
    /// The privacy parameter.
    pub epsilon: f64,
    /// The prior (support must be the whole domain when solving).
    pub prior: Vec<f64>,
}

fn support(prior: &[f64]) -> Vec<usize> {
    (0..prior.len()).filter(|&x| prior[x] > 0.0).collect()
}

/// Smallest eps for which `channel` is eps-identifiable under `prior`:
/// `max_y ln(max_x p_x Q[x][y] / min_x p_x Q[x][y])` over the support of the prior.
/// Feasible only if `max p / min p <= e^eps` (sum the constraint over y).
pub fn identifiability_leakage(channel: &Channel, prior: &[f64]) -> f64 {
    let s = support(prior);
    envelope_leakage(channel, prior, &s, &s)
}

impl PrivacyNotion for Identifiability {
    fn key(&self) -> &'static str {
        "identifiability"
    }

    /// Summing `p_x Q[x][y] <= e^eps p_x' Q[x'][y]` over y gives `p_x <= e^eps p_x'`: a prior
    /// with `max p / min p > e^eps` (the quotient rounded down, `e^eps` rounded up) admits no
    /// channel.
    fn infeasibility(&self) -> Option<String> {
        let s = support(&self.prior);
        let high = s.iter().map(|&x| self.prior[x]).fold(0.0, f64::max);
        let low = s
            .iter()
            .map(|&x| self.prior[x])
            .fold(f64::INFINITY, f64::min);
        let ratio = crate::numeric::div_down(high, low);
        let limit = self.epsilon.exp() * (1.0 + 4.0 * f64::EPSILON);
        (low > 0.0 && ratio > limit).then(|| {
            format!(
                "identifiability at epsilon {} admits no channel for this prior: summing its constraint over the outputs needs max p / min p <= e^epsilon = {}, but the ratio is {ratio}",
                crate::error::show_number(self.epsilon),
                self.epsilon.exp()
            )
        })
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "identifiability".into(),
            requested: self.epsilon,
            achieved: identifiability_leakage(channel, &self.prior),
        }]
    }

    /// Envelope per column on the weighted entries `p_x Q[x][y]` (exact).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let s = support(&self.prior);
        encode_envelope(lp, self.epsilon, &self.prior, &s, &s);
        format!(
            "identifiability: per-column envelope of p_x Q[x][y] (exact), {} rows",
            2 * s.len() * lp.outputs()
        )
    }

    /// `p_a q_a <= e^eps p_b q_b` for a, b in the support.
    /// At eps = 0, `p_a Q[a][y] <= p_b Q[b][y]` both ways: rows of equal prior are equal.
    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        if self.epsilon != 0.0 {
            return Vec::new();
        }
        let s = support(&self.prior);
        super::tie_all(&s)
            .into_iter()
            .filter(|&(a, b)| self.prior[a] == self.prior[b])
            .collect()
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let s = support(&self.prior);
        let mut cone = ColumnCone::orthant(n);
        if self.epsilon > crate::formulation::LOOSE_LOG_RATIO {
            return Some(cone);
        }
        let factor = self.epsilon.exp();
        for &a in &s {
            for &b in s.iter().filter(|&&b| b != a) {
                cone.rows
                    .push(vec![(b, factor * self.prior[b]), (a, -self.prior[a])]);
            }
        }
        Some(cone)
    }
}

/// The registry entry: profiled under the domain's prior, compared with, composed without a
/// stated bound.
pub(super) const ENTRY: NotionEntry = NotionEntry {
    profile: Some(|channel, domain| Some(identifiability_leakage(channel, domain.prior()))),
    compare: true,
    composition: Some(CompositionRule {
        rank: 5,
        prior_set: false,
        leakage: |channel, priors| identifiability_leakage(channel, &priors[0]),
        bound: None,
    }),
    ..NotionEntry::new("identifiability")
};
