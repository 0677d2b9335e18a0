//! Frequency oracles whose outputs are not a small matrix: symmetric unary encoding
//! (SUE, basic RAPPOR), optimized unary encoding (OUE) and optimized local hashing (OLH)
//! (Wang, Blocki, Li, Jha 2017). Each report *supports* some symbols: value `v` is supported
//! with probability `p` when it is the user's value and `q` otherwise, so
//! `f_v = (C_v / N - q) / (p - q)` is unbiased for the support count `C_v`, with variance
//! `q (1 - q) / (N (p - q)^2) + f_v (1 - p - q) / (N (p - q))` for a fixed population.
//! Supports of different symbols are uncorrelated (independent bits; a pairwise-independent
//! hash), so the variance of `sum_v w_v f_v` is `sum_v w_v^2 Var f_v`.

use crate::collect::CollectError;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

/// The modulus of OLH's universal hash, the Mersenne prime 2^61 - 1.
const HASH_PRIME: u64 = (1 << 61) - 1;

/// The oracles, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum OracleSpec {
    /// Symmetric unary encoding (basic one-time RAPPOR): `p = e^{eps/2} / (e^{eps/2} + 1)`,
    /// `q = 1 - p`.
    Sue,
    /// Optimized unary encoding: `p = 1/2`, `q = 1 / (e^eps + 1)`.
    Oue,
    /// Optimized local hashing: `g = round(e^eps) + 1` buckets, a fresh universal hash per
    /// user, `p = e^eps / (e^eps + g - 1)`, `q = 1 / g`.
    Olh,
}

/// One user's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OracleReport {
    /// Unary encoding: one bit per symbol.
    Bits(Vec<bool>),
    /// Local hashing: the user's hash seed and the reported bucket.
    Hashed {
        /// Seed of the user's hash function.
        seed: u64,
        /// Reported bucket in `0..g`.
        bucket: u64,
    },
}

/// A frequency oracle over `n` symbols at a given epsilon.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrequencyOracle {
    /// Which oracle.
    pub spec: OracleSpec,
    /// Number of symbols.
    pub n: usize,
    /// Probability that the user's own value is supported.
    pub p: f64,
    /// Probability that any other value is supported.
    pub q: f64,
    /// OLH's number of buckets (0 for unary encodings).
    pub g: u64,
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl FrequencyOracle {
    /// The oracle at `eps` (> 0) over `n >= 2` symbols.
    pub fn new(spec: OracleSpec, n: usize, eps: f64) -> Result<Self, CollectError> {
        crate::collect::check_epsilon("--epsilon", eps)?;
        if eps == 0.0 || n < 2 {
            return Err(CollectError::invalid(
                "--epsilon",
                eps,
                "a frequency oracle needs eps > 0 and at least 2 symbols",
            ));
        }
        let e = eps.exp();
        let (p, q, g) = match spec {
            OracleSpec::Sue => {
                let h = (eps / 2.0).exp();
                (h / (h + 1.0), 1.0 / (h + 1.0), 0)
            }
            OracleSpec::Oue => (0.5, 1.0 / (e + 1.0), 0),
            OracleSpec::Olh => {
                let g = e.round() as u64 + 1;
                (e / (e + g as f64 - 1.0), 1.0 / g as f64, g)
            }
        };
        Ok(FrequencyOracle { spec, n, p, q, g })
    }

    /// OLH's hash of symbol `v` under `seed`: `((a (v + 1) + b) mod P) mod g`.
    pub fn hash(&self, seed: u64, v: usize) -> u64 {
        let a = 1 + splitmix(seed) % (HASH_PRIME - 1);
        let b = splitmix(seed ^ 0x5555_5555_5555_5555) % HASH_PRIME;
        let h = (a as u128 * (v as u128 + 1) + b as u128) % HASH_PRIME as u128;
        (h % self.g as u128) as u64
    }

    /// Randomize the value `x`.
    pub fn randomize(&self, x: usize, rng: &mut dyn RngCore) -> OracleReport {
        match self.spec {
            OracleSpec::Sue | OracleSpec::Oue => OracleReport::Bits(
                (0..self.n)
                    .map(|v| rng.gen_bool(if v == x { self.p } else { self.q }))
                    .collect(),
            ),
            OracleSpec::Olh => {
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
        }
    }

    /// Whether `report` supports symbol `v`.
    pub fn supports(&self, report: &OracleReport, v: usize) -> bool {
        match report {
            OracleReport::Bits(b) => b[v],
            OracleReport::Hashed { seed, bucket } => self.hash(*seed, v) == *bucket,
        }
    }

    /// Add the symbols `report` supports to `counts`.
    pub fn add_support(&self, report: &OracleReport, counts: &mut [u64]) {
        for (v, c) in counts.iter_mut().enumerate() {
            if self.supports(report, v) {
                *c += 1;
            }
        }
    }

    /// The wire form: a bit string, or `seed-in-hex:bucket`.
    pub fn format(&self, report: &OracleReport) -> String {
        match report {
            OracleReport::Bits(b) => b.iter().map(|&x| if x { '1' } else { '0' }).collect(),
            OracleReport::Hashed { seed, bucket } => format!("{seed:016x}:{bucket}"),
        }
    }

    /// Parse the wire form (line number for errors).
    pub fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError> {
        let bad = |reason: String| CollectError::Record {
            line,
            what: "report",
            value: text.to_string(),
            reason,
        };
        match self.spec {
            OracleSpec::Sue | OracleSpec::Oue => {
                if text.len() != self.n || !text.bytes().all(|b| b == b'0' || b == b'1') {
                    return Err(bad(format!("expected {} bits of 0 and 1", self.n)));
                }
                Ok(OracleReport::Bits(
                    text.bytes().map(|b| b == b'1').collect(),
                ))
            }
            OracleSpec::Olh => {
                let parsed = text.split_once(':').and_then(|(s, b)| {
                    Some((u64::from_str_radix(s, 16).ok()?, b.parse::<u64>().ok()?))
                });
                match parsed {
                    Some((seed, bucket)) if bucket < self.g => {
                        Ok(OracleReport::Hashed { seed, bucket })
                    }
                    _ => Err(bad(format!(
                        "expected `seed:bucket` with a hex seed and a bucket below {}",
                        self.g
                    ))),
                }
            }
        }
    }

    /// The unbiased frequency estimates from support counts of `users` reports.
    pub fn estimate(&self, support: &[u64], users: u64) -> Vec<f64> {
        let n = users as f64;
        support
            .iter()
            .map(|&c| (c as f64 / n - self.q) / (self.p - self.q))
            .collect()
    }

    /// The variance of the estimate of a symbol of true frequency `f`, for `users` reports.
    pub fn variance(&self, f: f64, users: f64) -> f64 {
        let (p, q) = (self.p, self.q);
        q * (1.0 - q) / (users * (p - q).powi(2)) + f * (1.0 - p - q) / (users * (p - q))
    }
}

/// Answer `queries` from the support counts of `users` oracle reports over `domain`: the
/// unbiased estimates with their analytic standard errors (the estimated frequencies,
/// clipped to [0, 1], plugged into the variance).
pub fn oracle_estimates(
    oracle: &FrequencyOracle,
    domain: &crate::domain::Domain,
    support: &[u64],
    users: u64,
    queries: &[crate::collect::estimate::Query],
    level: f64,
) -> Result<Vec<crate::collect::estimate::QueryEstimate>, CollectError> {
    use crate::collect::estimate::{IntervalKind, QueryEstimate};
    use crate::collect::stats::Interval;
    if users == 0 {
        return Err(CollectError::invalid("reports", 0, "there are no reports"));
    }
    let n = users as f64;
    let f = oracle.estimate(support, users);
    let var: Vec<f64> = f
        .iter()
        .map(|v| oracle.variance(v.clamp(0.0, 1.0), n))
        .collect();
    let model = crate::collect::Model::new(
        crate::channel::Channel::new(vec![vec![1.0]; domain.size()])?,
        domain.clone(),
        String::new(),
    )?;
    let mut out = Vec::new();
    for q in queries {
        for (name, w, scaled) in q.expand(&model)? {
            let scale = if scaled { n } else { 1.0 };
            let value: f64 = w.iter().zip(&f).map(|(a, b)| a * b).sum();
            let v: f64 = w.iter().zip(&var).map(|(a, b)| a * a * b).sum();
            out.push(QueryEstimate {
                estimator: oracle.name(),
                quantity: name,
                estimate: Some(Interval::normal(value * scale, v.sqrt() * scale, level)),
                interval: Some(IntervalKind::Analytic),
            });
        }
    }
    Ok(out)
}

impl FrequencyOracle {
    /// The oracle's name.
    pub fn name(&self) -> &'static str {
        match self.spec {
            OracleSpec::Sue => "sue",
            OracleSpec::Oue => "oue",
            OracleSpec::Olh => "olh",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_follow_the_definitions() {
        let e = 1f64.exp();
        let oue = FrequencyOracle::new(OracleSpec::Oue, 4, 1.0).unwrap();
        assert!((oue.p - 0.5).abs() < 1e-15 && (oue.q - 1.0 / (e + 1.0)).abs() < 1e-15);
        let olh = FrequencyOracle::new(OracleSpec::Olh, 4, 1.0).unwrap();
        assert_eq!(olh.g, 4);
        assert!((olh.p - e / (e + 3.0)).abs() < 1e-15);
        let sue = FrequencyOracle::new(OracleSpec::Sue, 4, 2.0).unwrap();
        assert!((sue.p + sue.q - 1.0).abs() < 1e-15 && (sue.p / sue.q - e).abs() < 1e-12);
    }

    #[test]
    fn malformed_reports_name_the_line() {
        let oue = FrequencyOracle::new(OracleSpec::Oue, 4, 1.0).unwrap();
        let e = oue.parse("0102", 7).unwrap_err().to_string();
        assert!(e.contains("line 7") && e.contains("0102"), "{e}");
        let olh = FrequencyOracle::new(OracleSpec::Olh, 4, 1.0).unwrap();
        assert!(olh.parse("ff:9", 1).is_err());
        assert!(olh.parse("ff:2", 1).is_ok());
    }
}
