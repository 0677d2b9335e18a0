//! Block-structured LDP ([CA-LDP], Definition 4): the domain is partitioned into
//! blocks; symbols in one block are eps-indistinguishable, symbols in different blocks are not
//! protected (`+inf`) or protected at a second level `epsilon_across`.

use super::context::{encode_pairs, pairs_cone};
use super::registry::NotionEntry;
use super::{encode_envelope, envelope_leakage, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::numeric::entry_log_ratio_up;
use crate::rays::ColumnCone;

/// Block-structured LDP.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockLdp {
    /// Within-block privacy parameter.
    pub epsilon: f64,
    /// A partition of the inputs.
    pub blocks: Vec<Vec<usize>>,
    /// Across-block parameter; `None` means unconstrained.
    pub epsilon_across: Option<f64>,
}

/// `(within, across)`: the smallest within-block and across-block epsilons the channel meets.
pub fn block_leakage(channel: &Channel, blocks: &[Vec<usize>]) -> (f64, f64) {
    let ones = vec![1.0; channel.inputs()];
    let within = blocks
        .iter()
        .map(|b| envelope_leakage(channel, &ones, b, b))
        .fold(0.0, f64::max);
    let mut across: f64 = 0.0;
    for y in 0..channel.outputs() {
        let ext: Vec<(f64, f64)> = blocks
            .iter()
            .map(|b| {
                let vals = b.iter().map(|&x| channel.get(x, y));
                (
                    vals.clone().fold(0.0, f64::max),
                    vals.fold(f64::INFINITY, f64::min),
                )
            })
            .collect();
        for (i, &(hi, _)) in ext.iter().enumerate() {
            for (j, &(_, lo)) in ext.iter().enumerate() {
                if i != j {
                    across = across.max(entry_log_ratio_up(hi, lo));
                }
            }
        }
    }
    (within, across)
}

impl BlockLdp {
    fn unit_matrix(&self, n: usize) -> Vec<Vec<f64>> {
        let mut block_of = vec![0; n];
        for (b, members) in self.blocks.iter().enumerate() {
            for &x in members {
                block_of[x] = b;
            }
        }
        let across = self.epsilon_across.unwrap_or(f64::INFINITY);
        (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        if block_of[a] == block_of[b] {
                            self.epsilon
                        } else {
                            across
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

impl PrivacyNotion for BlockLdp {
    fn key(&self) -> &'static str {
        "block"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        let (within, across) = block_leakage(channel, &self.blocks);
        let mut checks = vec![Check {
            constraint: "block".into(),
            requested: self.epsilon,
            achieved: within,
        }];
        if let Some(ea) = self.epsilon_across {
            checks.push(Check {
                constraint: "block (across blocks)".into(),
                requested: ea,
                achieved: across,
            });
        }
        checks
    }

    /// One envelope per block and column (exact); across blocks a global envelope at
    /// `epsilon_across` when it is at least `epsilon` (then it implies nothing new within
    /// blocks), otherwise explicit pairs.
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let n = lp.inputs();
        let ones = vec![1.0; n];
        for b in &self.blocks {
            encode_envelope(lp, self.epsilon, &ones, b, b);
        }
        match self.epsilon_across {
            None => format!(
                "block: per-block envelopes (exact), {} blocks",
                self.blocks.len()
            ),
            Some(ea) if ea >= self.epsilon => {
                let all: Vec<usize> = (0..n).collect();
                encode_envelope(lp, ea, &ones, &all, &all);
                "block: per-block envelopes plus a global envelope at epsilon_across (exact)".into()
            }
            Some(_) => {
                let note = encode_pairs(lp, &self.unit_matrix(n));
                format!("block: per-block envelopes plus {note}")
            }
        }
    }

    /// The pairs of the block privacy matrix (eps within, `epsilon_across` or nothing across).
    /// Within a block at eps = 0 (and across blocks at `epsilon_across = 0`) rows are equal.
    fn ties(&self, n: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if self.epsilon == 0.0 {
            for b in &self.blocks {
                out.extend(super::tie_all(b));
            }
        }
        if self.epsilon_across == Some(0.0) && self.blocks.len() > 1 {
            out.extend((1..n).map(|x| (0, x)));
        }
        out
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        Some(pairs_cone(n, &self.unit_matrix(n)))
    }
}

/// The registry entry (no profile: the blocks are the problem's own).
pub(super) const ENTRY: NotionEntry = NotionEntry::new("block");
