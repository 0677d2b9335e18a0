//! Hadamard response for structured LDP ([CA-LDP] Secs. 5.1 and 6.1, formulas
//! reconstructed; constructors shared with the verification registry): over the sensitive
//! symbols of high-low LDP, and within each block of block-structured LDP.

use super::{wrap, Baseline, BaselineChannel, Structure};
use crate::collect::CollectError;
use crate::domain::Domain;
use crate::verify::{hadamard_blocks_rows, hadamard_high_low_rows};

/// Hadamard response over the sensitive set; other symbols report themselves with probability
/// `(e^eps - 1) / (e^eps + 1)`. eps-LDP for the sensitive symbols (high-low LDP).
#[derive(Debug, Clone)]
pub struct HadamardHighLow {
    /// The sensitive symbols.
    pub sensitive: Vec<usize>,
}

impl Baseline for HadamardHighLow {
    fn name(&self) -> &'static str {
        "hadamard-high-low"
    }
    fn applies(&self, domain: &Domain) -> bool {
        !self.sensitive.is_empty() && self.sensitive.iter().all(|&x| x < domain.size())
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(
            hadamard_high_low_rows(domain.size(), &self.sensitive, eps),
            None,
        )
    }
}

/// Hadamard response within each block; the block is released (block-structured LDP with no
/// constraint across blocks).
#[derive(Debug, Clone)]
pub struct HadamardBlocks {
    /// The partition of the domain.
    pub blocks: Vec<Vec<usize>>,
}

impl Baseline for HadamardBlocks {
    fn name(&self) -> &'static str {
        "hadamard-block"
    }
    fn applies(&self, domain: &Domain) -> bool {
        let mut seen = vec![false; domain.size()];
        for &x in self.blocks.iter().flatten() {
            if x >= seen.len() || seen[x] {
                return false;
            }
            seen[x] = true;
        }
        !self.blocks.is_empty() && seen.iter().all(|&s| s)
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(hadamard_blocks_rows(domain.size(), &self.blocks, eps), None)
    }
}

impl Structure {
    /// Whether a structured baseline has what it needs.
    pub fn is_empty(&self) -> bool {
        self.sensitive.is_empty() && self.blocks.is_empty()
    }
}
