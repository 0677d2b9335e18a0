//! Sampling from the rows of a channel, and the generators to draw with.
//!
//! [`ChannelSampler`] (one [`ExactTable`] per row) is what `privatize` releases with: each
//! output is drawn with probability exactly `Q[x][y] / sum_y Q[x][y]`, the rational numbers the
//! row's `f64` entries denote, however small (down to subnormals). [`AliasTable`] draws one
//! 64-bit word per sample but realizes each probability only to about `2^-64` in absolute
//! terms: it is for simulations and priors, where no privacy is promised.

mod alias;
mod exact;

pub use alias::AliasTable;
pub use exact::ExactTable;

use super::CollectError;
use crate::channel::Channel;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// The generator used for privatizing: ChaCha20.
pub type CollectRng = ChaCha20Rng;

/// A cryptographically secure generator seeded from operating-system entropy.
pub fn secure_rng() -> CollectRng {
    ChaCha20Rng::from_entropy()
}

/// The warning a seeded privatization gives, for the argument `name` that set the seed
/// (`--seed` on the command line): seeded output is not private.
pub fn seed_warning(name: &str) -> String {
    format!("{name} makes the randomization reproducible by anyone who knows the seed; seeded output is NOT private (use it for tests only)")
}

/// A reproducible generator (for tests and simulations; its output is not private, since
/// anyone with the seed can replay the randomness).
pub fn seeded_rng(seed: u64) -> CollectRng {
    ChaCha20Rng::seed_from_u64(seed)
}

/// The indices of the positive weights, after checking that every weight is finite and
/// non-negative and that there are at most `u32::MAX` of them (shared by both tables).
fn positive_outcomes(weights: &[f64]) -> Result<Vec<u32>, CollectError> {
    if weights.len() > u32::MAX as usize {
        return Err(CollectError::invalid(
            "weights",
            weights.len(),
            "too many outcomes",
        ));
    }
    if let Some(w) = weights.iter().find(|w| !(w.is_finite() && **w >= 0.0)) {
        return Err(CollectError::invalid(
            "weights",
            w,
            "weights must be finite and non-negative",
        ));
    }
    Ok((0..weights.len() as u32)
        .filter(|&i| weights[i as usize] > 0.0)
        .collect())
}

/// One exact table per row of a channel: row `x` is sampled with probability exactly
/// `Q[x][y] / sum_y Q[x][y]` (the row's numbers normalized in exact arithmetic).
#[derive(Debug, Clone)]
pub struct ChannelSampler {
    rows: Vec<ExactTable>,
}

impl ChannelSampler {
    /// Tables for every row of `channel`.
    pub fn new(channel: &Channel) -> Result<Self, CollectError> {
        let rows = channel
            .rows()
            .iter()
            .map(|r| ExactTable::new(r))
            .collect::<Result<_, _>>()?;
        Ok(ChannelSampler { rows })
    }

    /// Draw the report of an input `x` (panics if `x` is out of range).
    #[inline]
    pub fn sample<R: RngCore + ?Sized>(&self, x: usize, rng: &mut R) -> usize {
        self.rows[x].sample(rng)
    }

    /// The table of row `x`.
    pub fn row(&self, x: usize) -> &ExactTable {
        &self.rows[x]
    }

    /// Number of rows.
    pub fn inputs(&self) -> usize {
        self.rows.len()
    }
}
