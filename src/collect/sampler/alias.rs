//! O(1) sampling from a distribution with an alias table (Walker, Vose), drawing a single
//! 64-bit word per sample: for simulations and priors, where speed matters and no privacy is
//! promised. It is NOT what `privatize` releases with (see [`super::ExactTable`]).
//!
//! The word `u` picks the table slot `i = floor(u k / 2^64)` (k slots) and its remainder
//! `u k mod 2^64` is compared with the slot's threshold, computed in floating point: each
//! probability is realized only to about `k / 2^64` in absolute terms, so an entry far below
//! `2^-64` may be realized as 0 (or not), and small entries get large relative errors. Outputs
//! of probability zero get no slot at all, so they are never drawn.

use crate::collect::CollectError;
use rand::RngCore;

/// 2^64 as a float, the scale of the slot thresholds.
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

/// Walker's alias table over the outcomes of positive probability.
#[derive(Debug, Clone)]
pub struct AliasTable {
    threshold: Vec<u64>,
    alias: Vec<u32>,
    outcome: Vec<u32>,
}

impl AliasTable {
    /// Build from non-negative weights with a positive finite sum (they are normalized).
    pub fn new(weights: &[f64]) -> Result<Self, CollectError> {
        let outcome = super::positive_outcomes(weights)?;
        let total: f64 = outcome.iter().map(|&i| weights[i as usize]).sum();
        if outcome.is_empty() || !total.is_finite() {
            return Err(CollectError::invalid(
                "weights",
                format!("{weights:?}"),
                "weights need a positive finite sum",
            ));
        }
        let k = outcome.len();
        let mut scaled: Vec<f64> = outcome
            .iter()
            .map(|&i| weights[i as usize] / total * k as f64)
            .collect();
        let mut threshold = vec![u64::MAX; k];
        let mut alias: Vec<u32> = (0..k as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..k).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            threshold[s] = (scaled[s] * TWO_POW_64) as u64;
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // Whatever is left has a scaled weight of 1 up to rounding: it always keeps its slot
        // (its alias is itself, so the threshold does not matter).
        Ok(AliasTable {
            threshold,
            alias,
            outcome,
        })
    }

    /// Draw one outcome (an index into the weights) with a single 64-bit word.
    #[inline]
    pub fn sample<R: RngCore + ?Sized>(&self, rng: &mut R) -> usize {
        let k = self.threshold.len() as u128;
        let product = rng.next_u64() as u128 * k;
        let slot = (product >> 64) as usize;
        let remainder = product as u64;
        let chosen = if remainder < self.threshold[slot] {
            slot
        } else {
            self.alias[slot] as usize
        };
        self.outcome[chosen] as usize
    }

    /// The probability of each outcome that the table realizes (up to `k / 2^64`).
    pub fn probabilities(&self, outcomes: usize) -> Vec<f64> {
        let k = self.threshold.len() as f64;
        let mut p = vec![0.0; outcomes];
        for slot in 0..self.threshold.len() {
            let keep = if self.alias[slot] as usize == slot {
                1.0
            } else {
                self.threshold[slot] as f64 / TWO_POW_64
            };
            p[self.outcome[slot] as usize] += keep / k;
            p[self.outcome[self.alias[slot] as usize] as usize] += (1.0 - keep) / k;
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collect::sampler::seeded_rng;

    #[test]
    fn table_reproduces_the_weights() {
        let w = [0.1, 0.0, 0.3, 0.6];
        let t = AliasTable::new(&w).unwrap();
        let p = t.probabilities(4);
        for (a, b) in p.iter().zip(&w) {
            assert!((a - b).abs() < 1e-15, "{p:?}");
        }
    }

    #[test]
    fn zero_weights_are_never_drawn() {
        let t = AliasTable::new(&[0.0, 1.0, 0.0]).unwrap();
        let mut rng = seeded_rng(3);
        assert!((0..10_000).all(|_| t.sample(&mut rng) == 1));
    }

    #[test]
    fn bad_weights_are_rejected() {
        assert!(AliasTable::new(&[0.0, 0.0]).is_err());
        assert!(AliasTable::new(&[0.5, f64::NAN]).is_err());
        assert!(AliasTable::new(&[]).is_err());
    }
}
