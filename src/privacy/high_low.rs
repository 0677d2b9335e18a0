//! High-low LDP ([CA-LDP], Definition 3): only the sensitive symbols S are
//! protected, `Q[s][y] <= e^eps Q[x][y]` for `s` in S and every `x` (privacy matrix
//! `E[s][x] = eps`, `E[x][x'] = +inf` for `x` not in S).

use super::registry::NotionEntry;
use super::{encode_envelope, envelope_leakage, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::rays::ColumnCone;

/// High-low LDP with a sensitive set.
#[derive(Debug, Clone, PartialEq)]
pub struct HighLowLdp {
    /// The privacy parameter for sensitive symbols.
    pub epsilon: f64,
    /// Indices of the sensitive symbols.
    pub sensitive: Vec<usize>,
}

/// Smallest eps for which `channel` is eps-high-low LDP for the sensitive set:
/// `max_y ln(max_{s in S} Q[s][y] / min_x Q[x][y])`.
pub fn high_low_leakage(channel: &Channel, sensitive: &[usize]) -> f64 {
    let all: Vec<usize> = (0..channel.inputs()).collect();
    envelope_leakage(channel, &vec![1.0; channel.inputs()], &all, sensitive)
}

impl PrivacyNotion for HighLowLdp {
    fn key(&self) -> &'static str {
        "high-low"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: "high-low".into(),
            requested: self.epsilon,
            achieved: high_low_leakage(channel, &self.sensitive),
        }]
    }

    /// Envelope per column (exact): `l_y <= Q[x][y]` for all x, `Q[s][y] <= e^eps l_y` for s in S.
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let n = lp.inputs();
        let all: Vec<usize> = (0..n).collect();
        encode_envelope(lp, self.epsilon, &vec![1.0; n], &all, &self.sensitive);
        format!(
            "high-low: per-column envelope (exact), {} rows",
            (n + self.sensitive.len()) * lp.outputs()
        )
    }

    /// `q_s <= e^eps q_x` for every sensitive s and every x.
    /// At eps = 0, `Q[s][y] <= Q[x][y]` for every y and x: each sensitive row equals every row.
    fn ties(&self, n: usize) -> Vec<(usize, usize)> {
        if self.epsilon == 0.0 && !self.sensitive.is_empty() {
            (0..n).map(|x| (self.sensitive[0], x)).collect()
        } else {
            Vec::new()
        }
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let pairs = self.sensitive.iter().flat_map(|&s| {
            (0..n)
                .filter(move |&x| x != s)
                .map(move |x| (s, x, self.epsilon))
        });
        Some(super::ratio_cone(n, pairs))
    }
}

/// The registry entry (no profile: the sensitive set is the problem's own).
pub(super) const ENTRY: NotionEntry = NotionEntry::new("high-low");
