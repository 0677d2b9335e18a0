//! Optimized local hashing: each user draws a hash `h: symbols -> 0..g` from a universal
//! family (`((a (v + 1) + b) mod P) mod g`, P = 2^61 - 1, `a, b` from the user's seed), reports
//! `h(x)` with probability `e^eps / (e^eps + g - 1)` and each other bucket with
//! `1 / (e^eps + g - 1)`, and publishes the seed. A report supports `v` when `h(v)` is the
//! reported bucket: `p = e^eps / (e^eps + g - 1)`, `q = 1 / g`, with `g = round(e^eps) + 1`.

use super::{FrequencyOracle, OracleReport};
use crate::collect::CollectError;
use rand::{Rng, RngCore};

/// The modulus of the universal hash, the Mersenne prime 2^61 - 1.
const HASH_PRIME: u64 = (1 << 61) - 1;

/// OLH over `n` symbols.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Olh {
    n: usize,
    g: u64,
    p: f64,
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Olh {
    /// At `eps` over `n` symbols (checked by [`super::OracleSpec::build`]).
    pub(super) fn new(n: usize, eps: f64) -> Self {
        let e = eps.exp();
        let g = e.round() as u64 + 1;
        Olh {
            n,
            g,
            p: e / (e + g as f64 - 1.0),
        }
    }

    /// Number of buckets.
    pub fn buckets(&self) -> u64 {
        self.g
    }

    /// The hash of symbol `v` under `seed`.
    pub fn hash(&self, seed: u64, v: usize) -> u64 {
        let a = 1 + splitmix(seed) % (HASH_PRIME - 1);
        let b = splitmix(seed ^ 0x5555_5555_5555_5555) % HASH_PRIME;
        let h = (a as u128 * (v as u128 + 1) + b as u128) % HASH_PRIME as u128;
        (h % self.g as u128) as u64
    }
}

impl FrequencyOracle for Olh {
    fn name(&self) -> &'static str {
        "olh"
    }
    fn symbols(&self) -> usize {
        self.n
    }
    fn p(&self) -> f64 {
        self.p
    }
    fn q(&self) -> f64 {
        1.0 / self.g as f64
    }
    fn noise_support(&self) -> f64 {
        1.0 / self.g as f64
    }
    fn randomize(&self, x: usize, rng: &mut dyn RngCore) -> OracleReport {
        let seed = rng.next_u64();
        let own = self.hash(seed, x);
        let bucket = if rng.gen_bool(self.p) {
            own
        } else {
            let j = rng.gen_range(0..self.g - 1);
            if j >= own {
                j + 1
            } else {
                j
            }
        };
        OracleReport::Hashed { seed, bucket }
    }
    fn supports(&self, report: &OracleReport, v: usize) -> bool {
        matches!(report, OracleReport::Hashed { seed, bucket } if self.hash(*seed, v) == *bucket)
    }
    fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError> {
        let parsed = text
            .split_once(':')
            .and_then(|(s, b)| Some((u64::from_str_radix(s, 16).ok()?, b.parse::<u64>().ok()?)));
        match parsed {
            Some((seed, bucket)) if bucket < self.g => Ok(OracleReport::Hashed { seed, bucket }),
            _ => Err(CollectError::Record {
                line,
                what: "report",
                value: text.to_string(),
                reason: format!(
                    "expected `seed:bucket` with a hex seed and a bucket below {}",
                    self.g
                ),
            }),
        }
    }
}
