//! Optimized local hashing: each user draws a hash `h: symbols -> 0..g` from the user's seed,
//! reports `h(x)` with probability `e^eps / (e^eps + g - 1)` and each other bucket with
//! `1 / (e^eps + g - 1)`, and publishes the seed. A report supports `v` when `h(v)` is the
//! reported bucket: `p = e^eps / (e^eps + g - 1)`, `q = 1 / g`, with `g = round(e^eps) + 1`.
//!
//! The hash is keyed ([`HashFamily::Keyed`]): the bucket of symbol `v` is the `(v + 1)`-th
//! output of a SplitMix64 stream started at the mixed seed, mapped to `0..g` by a
//! multiply-high, so the buckets of distinct symbols are independent uniform draws. Then the
//! supports of the symbols other than a user's own are independent of each other and of the
//! own symbol's, which is what the textbook variance `sum_v w_v^2 Var f_v` assumes. The
//! linear family of earlier versions (`((a (v + 1) + b) mod P) mod g`, [`HashFamily::Linear`])
//! is only pairwise independent: three symbols share a bucket more often than `1 / g^2`, the
//! supports of different symbols are correlated and standard errors of ranges, sums and means
//! come out too small. Its reports are still decoded with it (their wire form has no family
//! tag), and [`legacy_hash_warning`] says so.

use super::{FrequencyOracle, OracleReport};
use crate::collect::CollectError;
use rand::{Rng, RngCore};

/// The modulus of the legacy linear hash, the Mersenne prime 2^61 - 1.
const HASH_PRIME: u64 = (1 << 61) - 1;

/// SplitMix64's increment (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The wire tag of a keyed-hash report: `k:SEED:BUCKET`.
pub const KEYED_TAG: &str = "k";

/// The hash family a report's seed selects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashFamily {
    /// The keyed hash (every report made now): buckets of distinct symbols are independent.
    Keyed,
    /// The pairwise-independent linear hash of earlier versions, read from old report files
    /// (wire form `SEED:BUCKET`); never used to make reports.
    Linear,
}

/// OLH over `n` symbols.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Olh {
    n: usize,
    g: u64,
    p: f64,
}

/// The SplitMix64 output function (without the increment).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step from state `z`.
fn splitmix(z: u64) -> u64 {
    mix(z.wrapping_add(GAMMA))
}

/// The start of the keyed hash's stream for `seed`.
fn keyed_state(seed: u64) -> u64 {
    splitmix(seed)
}

/// The keyed bucket of symbol `v` in `0..g` from the stream start `state`.
fn keyed_bucket(state: u64, v: usize, g: u64) -> u64 {
    let z = mix(state.wrapping_add((v as u64).wrapping_add(1).wrapping_mul(GAMMA)));
    ((u128::from(z) * u128::from(g)) >> 64) as u64
}

/// The legacy linear bucket of symbol `v` in `0..g`.
fn linear_bucket(seed: u64, v: usize, g: u64) -> u64 {
    let a = 1 + splitmix(seed) % (HASH_PRIME - 1);
    let b = splitmix(seed ^ 0x5555_5555_5555_5555) % HASH_PRIME;
    let h = (u128::from(a) * (v as u128 + 1) + u128::from(b)) % u128::from(HASH_PRIME);
    (h % u128::from(g)) as u64
}

/// The warning for `legacy` reports (of `users`) read in the linear hash's wire form: their
/// support counts are right, but their standard errors of ranges, sums and means are too small.
pub fn legacy_hash_warning(legacy: u64, users: u64) -> Option<String> {
    (legacy > 0).then(|| {
        format!(
            "{legacy} of {users} OLH reports are in the old `SEED:BUCKET` form, made with the pairwise-independent linear hash: they are decoded with it (the estimates stay unbiased), but the standard errors of ranges, sums and means assume independent buckets and are too small for them (reports made now are `{KEYED_TAG}:SEED:BUCKET`)"
        )
    })
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

    /// The bucket of symbol `v` under `seed` in the hash family `family`.
    pub fn hash(&self, family: HashFamily, seed: u64, v: usize) -> u64 {
        match family {
            HashFamily::Keyed => keyed_bucket(keyed_state(seed), v, self.g),
            HashFamily::Linear => linear_bucket(seed, v, self.g),
        }
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
        let own = self.hash(HashFamily::Keyed, seed, x);
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
        OracleReport::Hashed {
            seed,
            bucket,
            family: HashFamily::Keyed,
        }
    }
    fn supports(&self, report: &OracleReport, v: usize) -> bool {
        matches!(report, OracleReport::Hashed { seed, bucket, family } if self.hash(*family, *seed, v) == *bucket)
    }
    fn add_support(&self, report: &OracleReport, counts: &mut [u64]) {
        match report {
            OracleReport::Hashed {
                seed,
                bucket,
                family: HashFamily::Keyed,
            } => {
                let state = keyed_state(*seed);
                for (v, c) in counts.iter_mut().enumerate() {
                    *c += u64::from(keyed_bucket(state, v, self.g) == *bucket);
                }
            }
            _ => {
                for (v, c) in counts.iter_mut().enumerate() {
                    *c += u64::from(self.supports(report, v));
                }
            }
        }
    }
    fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError> {
        let (family, rest) = match text
            .strip_prefix(KEYED_TAG)
            .and_then(|r| r.strip_prefix(':'))
        {
            Some(rest) => (HashFamily::Keyed, rest),
            None => (HashFamily::Linear, text),
        };
        let parsed = rest
            .split_once(':')
            .and_then(|(s, b)| Some((u64::from_str_radix(s, 16).ok()?, b.parse::<u64>().ok()?)));
        match parsed {
            Some((seed, bucket)) if bucket < self.g => Ok(OracleReport::Hashed {
                seed,
                bucket,
                family,
            }),
            _ => Err(CollectError::Record {
                line,
                what: "report",
                value: text.to_string(),
                reason: format!(
                    "expected `{KEYED_TAG}:SEED:BUCKET` (or the old `SEED:BUCKET`) with a hex seed and a bucket below {}",
                    self.g
                ),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reports of every family survive their wire form, and the untagged form is read as
    /// the linear hash it was made with.
    #[test]
    fn wire_forms_round_trip_and_name_their_family() {
        let olh = Olh::new(8, 1.0);
        for family in [HashFamily::Keyed, HashFamily::Linear] {
            let r = OracleReport::Hashed {
                seed: 0xfeed_beef,
                bucket: 2,
                family,
            };
            assert_eq!(olh.parse(&olh.format(&r), 1).unwrap(), r);
        }
        let old = olh.parse("00000000feedbeef:2", 1).unwrap();
        assert!(matches!(
            old,
            OracleReport::Hashed {
                family: HashFamily::Linear,
                ..
            }
        ));
        assert!(olh.parse("k:feedbeef:9", 1).is_err());
        assert!(olh.parse("x:feedbeef:1", 1).is_err());
    }

    /// The fast support count of keyed reports agrees with `supports` symbol by symbol.
    #[test]
    fn add_support_agrees_with_supports() {
        let olh = Olh::new(40, 2.0);
        for seed in 0..200u64 {
            for family in [HashFamily::Keyed, HashFamily::Linear] {
                let r = OracleReport::Hashed {
                    seed: seed.wrapping_mul(0x1234_5678_9abc_def1),
                    bucket: seed % olh.buckets(),
                    family,
                };
                let mut counts = vec![0u64; 40];
                olh.add_support(&r, &mut counts);
                let direct: Vec<u64> = (0..40).map(|v| u64::from(olh.supports(&r, v))).collect();
                assert_eq!(counts, direct);
            }
        }
    }
}
