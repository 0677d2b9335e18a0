//! Frequency oracles whose outputs are not a small matrix: symmetric unary encoding
//! (SUE, basic RAPPOR), optimized unary encoding (OUE) and optimized local hashing (OLH)
//! (Wang, Blocki, Li, Jha 2017). Each report *supports* some symbols: value `v` is supported
//! with probability `p` when it is the user's value and `q` otherwise, so
//! `f_v = (C_v / N - q) / (p - q)` is unbiased for the support count `C_v`, with variance
//! `q (1 - q) / (N (p - q)^2) + f_v (1 - p - q) / (N (p - q))` for a fixed population.
//! Supports of different symbols are independent (independent bits; a keyed hash whose buckets
//! of distinct symbols are independent), so the variance of `sum_v w_v f_v` is
//! `sum_v w_v^2 Var f_v`.
//!
//! Each oracle implements [`FrequencyOracle`] in a file of its own and has a variant of
//! [`OracleSpec`].

mod olh;
mod oue;
mod sue;

pub use olh::{legacy_hash_warning, HashFamily, Olh, KEYED_TAG};
pub use oue::Oue;
pub use sue::Sue;

use crate::collect::CollectError;
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

/// The oracles, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum OracleSpec {
    /// Symmetric unary encoding (basic one-time RAPPOR): `p = e^{eps/2} / (e^{eps/2} + 1)`,
    /// `q = 1 - p`.
    Sue,
    /// Optimized unary encoding: `p = 1/2`, `q = 1 / (e^eps + 1)`.
    Oue,
    /// Optimized local hashing: `g = round(e^eps) + 1` buckets, a fresh keyed hash per user
    /// (independent buckets across symbols), `p = e^eps / (e^eps + g - 1)`, `q = 1 / g`.
    Olh,
}

/// The smallest eps a frequency oracle accepts: there `p - q` (about `eps / 4` for unary
/// encoding) is still about 1e6 times the rounding error of `p` and `q` (1e-16), so the
/// estimator's divisor is accurate to about 1e-6 relative.
pub const MIN_ORACLE_EPSILON: f64 = 1e-9;

impl OracleSpec {
    /// Every oracle.
    pub const ALL: [OracleSpec; 3] = [OracleSpec::Sue, OracleSpec::Oue, OracleSpec::Olh];

    /// The oracle at `eps` (> 0) over `n >= 2` symbols.
    pub fn build(self, n: usize, eps: f64) -> Result<Box<dyn FrequencyOracle>, CollectError> {
        crate::collect::check_epsilon("--epsilon", eps)?;
        if n < 2 {
            return Err(CollectError::invalid(
                "--size",
                n,
                "a frequency oracle needs at least 2 symbols",
            ));
        }
        if eps == 0.0 {
            return Err(CollectError::invalid(
                "--epsilon",
                eps,
                "a frequency oracle needs eps > 0",
            ));
        }
        if eps < MIN_ORACLE_EPSILON {
            return Err(CollectError::invalid(
                "--epsilon",
                eps,
                format!("a frequency oracle needs eps >= {MIN_ORACLE_EPSILON:e}: below it the two report probabilities p and q differ by less than their rounding allows to resolve (p - q is about eps/4), and the unbiased estimator divides by p - q"),
            ));
        }
        Ok(match self {
            OracleSpec::Sue => Box::new(Sue::new(n, eps)),
            OracleSpec::Oue => Box::new(Oue::new(n, eps)),
            OracleSpec::Olh => Box::new(Olh::new(n, eps)),
        })
    }

    /// The epsilons at which the oracle's parameters jump, as the `m`-th of them for
    /// `m >= 1` (increasing in `m`): OLH's bucket count `g = round(e^eps) + 1` grows from
    /// `m + 1` to `m + 2` at `eps = ln(m + 1/2)`. `None` for the unary encodings, whose
    /// parameters are continuous in eps.
    pub fn parameter_jumps(self) -> Option<fn(u64) -> f64> {
        match self {
            OracleSpec::Olh => Some(|m| (m as f64 + 0.5).ln()),
            OracleSpec::Sue | OracleSpec::Oue => None,
        }
    }

    /// The oracle's name.
    pub fn name(self) -> &'static str {
        match self {
            OracleSpec::Sue => "sue",
            OracleSpec::Oue => "oue",
            OracleSpec::Olh => "olh",
        }
    }
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
        /// The hash family the seed selects.
        family: HashFamily,
    },
}

/// A randomizer whose reports support symbols, with its unbiased estimator and variance.
pub trait FrequencyOracle {
    /// The oracle's name, as on the command line.
    fn name(&self) -> &'static str;
    /// Number of symbols.
    fn symbols(&self) -> usize;
    /// Probability that the user's own value is supported.
    fn p(&self) -> f64;
    /// Probability that any other value is supported.
    fn q(&self) -> f64;
    /// Probability that a report drawn without looking at the value (a non-compliant user)
    /// supports a given symbol.
    fn noise_support(&self) -> f64;
    /// Randomize the value `x`.
    fn randomize(&self, x: usize, rng: &mut dyn RngCore) -> OracleReport;
    /// Whether `report` supports symbol `v`.
    fn supports(&self, report: &OracleReport, v: usize) -> bool;
    /// Parse the wire form (line number for errors).
    fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError>;

    /// The wire form: a bit string, or `k:SEED:BUCKET` (hex seed; the old linear hash's
    /// reports keep their untagged `SEED:BUCKET`).
    fn format(&self, report: &OracleReport) -> String {
        match report {
            OracleReport::Bits(b) => b.iter().map(|&x| if x { '1' } else { '0' }).collect(),
            OracleReport::Hashed {
                seed,
                bucket,
                family: HashFamily::Keyed,
            } => format!("{KEYED_TAG}:{seed:016x}:{bucket}"),
            OracleReport::Hashed {
                seed,
                bucket,
                family: HashFamily::Linear,
            } => format!("{seed:016x}:{bucket}"),
        }
    }

    /// Add the symbols `report` supports to `counts`.
    fn add_support(&self, report: &OracleReport, counts: &mut [u64]) {
        for (v, c) in counts.iter_mut().enumerate() {
            if self.supports(report, v) {
                *c += 1;
            }
        }
    }

    /// The unbiased frequency estimates from support counts of `users` reports.
    fn estimate(&self, support: &[u64], users: u64) -> Vec<f64> {
        let (p, q, n) = (self.p(), self.q(), users as f64);
        support
            .iter()
            .map(|&c| (c as f64 / n - q) / (p - q))
            .collect()
    }

    /// The variance of the estimate of a symbol of true frequency `f`, for `users` reports.
    fn variance(&self, f: f64, users: f64) -> f64 {
        let (p, q) = (self.p(), self.q());
        q * (1.0 - q) / (users * (p - q).powi(2)) + f * (1.0 - p - q) / (users * (p - q))
    }
}

/// Unary encoding with probabilities `p` (own bit) and `q` (other bits): SUE and OUE.
pub(crate) fn unary_randomize(
    n: usize,
    p: f64,
    q: f64,
    x: usize,
    rng: &mut dyn RngCore,
) -> OracleReport {
    OracleReport::Bits(
        (0..n)
            .map(|v| rng.gen_bool(if v == x { p } else { q }))
            .collect(),
    )
}

/// Parse a bit string of length `n`.
pub(crate) fn unary_parse(n: usize, text: &str, line: u64) -> Result<OracleReport, CollectError> {
    if text.len() != n || !text.bytes().all(|b| b == b'0' || b == b'1') {
        return Err(CollectError::Record {
            line,
            what: "report",
            value: text.to_string(),
            reason: format!("expected {n} bits of 0 and 1"),
        });
    }
    Ok(OracleReport::Bits(
        text.bytes().map(|b| b == b'1').collect(),
    ))
}

/// Whether a unary report supports `v` (hashed reports never do).
pub(crate) fn unary_supports(report: &OracleReport, v: usize) -> bool {
    matches!(report, OracleReport::Bits(b) if b[v])
}

/// The warnings about the unbiased estimate of `users` oracle reports with support counts
/// `support` over `domain`: the negative frequencies, as `estimate` gives for a channel's
/// inversion (they come from sampling noise, or from reports made at another epsilon).
pub fn oracle_warnings(
    oracle: &dyn FrequencyOracle,
    domain: &crate::domain::Domain,
    support: &[u64],
    users: u64,
) -> Vec<String> {
    if users == 0 {
        return Vec::new();
    }
    let f = oracle.estimate(support, users);
    crate::collect::estimate::negative_frequencies(domain.labels(), &f)
        .map(|labels| {
            format!(
                "the {} estimate gives negative frequencies for {labels}; it is unbiased, not a distribution (check that --epsilon is the one the reports were made with)",
                oracle.name()
            )
        })
        .into_iter()
        .collect()
}

/// Answer `queries` from the support counts of `users` oracle reports over `domain`: the
/// unbiased estimates with their analytic standard errors for `estimand` (the estimated
/// frequencies, clipped to [0, 1], plugged into the variance). For the sample, `sum_v w_v^2
/// Var f_v`; for the population, plus the multinomial variance `sum_v w_v^2 f_v - (w . f)^2`
/// over N.
pub fn oracle_estimates(
    oracle: &dyn FrequencyOracle,
    domain: &crate::domain::Domain,
    support: &[u64],
    users: u64,
    queries: &[crate::collect::estimate::Query],
    level: f64,
    estimand: crate::collect::estimate::Estimand,
) -> Result<Vec<crate::collect::estimate::QueryEstimate>, CollectError> {
    use crate::collect::estimate::{IntervalKind, QueryEstimate};
    use crate::collect::stats::Interval;
    if users == 0 {
        return Err(CollectError::invalid("reports", 0, "there are no reports"));
    }
    let n = users as f64;
    let f = oracle.estimate(support, users);
    let clipped: Vec<f64> = f.iter().map(|v| v.clamp(0.0, 1.0)).collect();
    let var: Vec<f64> = clipped.iter().map(|v| oracle.variance(*v, n)).collect();
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
            let v: f64 = w.iter().zip(&var).map(|(a, b)| a * a * b).sum::<f64>()
                + estimand.sampling_variance(&w, &clipped) / n;
            out.push(QueryEstimate {
                estimator: oracle.name(),
                quantity: name,
                estimate: Some(Interval::normal(value * scale, v.sqrt() * scale, level)),
                interval: Some(IntervalKind::Analytic),
                estimand: Some(estimand),
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_follow_the_definitions() {
        let e = 1f64.exp();
        let oue = OracleSpec::Oue.build(4, 1.0).unwrap();
        assert!((oue.p() - 0.5).abs() < 1e-15 && (oue.q() - 1.0 / (e + 1.0)).abs() < 1e-15);
        let olh = OracleSpec::Olh.build(4, 1.0).unwrap();
        assert!((olh.q() - 0.25).abs() < 1e-15);
        assert!((olh.p() - e / (e + 3.0)).abs() < 1e-15);
        let sue = OracleSpec::Sue.build(4, 2.0).unwrap();
        assert!((sue.p() + sue.q() - 1.0).abs() < 1e-15 && (sue.p() / sue.q() - e).abs() < 1e-12);
    }

    #[test]
    fn malformed_reports_name_the_line() {
        let oue = OracleSpec::Oue.build(4, 1.0).unwrap();
        let e = oue.parse("0102", 7).unwrap_err().to_string();
        assert!(e.contains("line 7") && e.contains("0102"), "{e}");
        let olh = OracleSpec::Olh.build(4, 1.0).unwrap();
        assert!(olh.parse("ff:9", 1).is_err());
        assert!(olh.parse("ff:2", 1).is_ok());
    }

    /// At eps = 1e-17 the unary-encoding probabilities round to p = q = 1/2 and every estimate
    /// was NaN (or a variance of 0 and "1 user needed"); such eps are refused, naming the key.
    /// At the smallest accepted eps, p - q keeps its value eps/4 to 1e-6 relative.
    #[test]
    fn an_epsilon_too_small_to_resolve_p_from_q_is_refused() {
        for spec in OracleSpec::ALL {
            for eps in [1e-17, 1e-12, 0.5 * MIN_ORACLE_EPSILON] {
                let e = spec.build(4, eps).err().expect("refused").to_string();
                assert!(e.contains("--epsilon"), "{e}");
            }
        }
        let sue = OracleSpec::Sue.build(4, MIN_ORACLE_EPSILON).unwrap();
        // p - q = (e^(eps/2) - 1) / (e^(eps/2) + 1) = tanh(eps / 4).
        let exact = (MIN_ORACLE_EPSILON / 4.0).tanh();
        assert!(((sue.p() - sue.q()) / exact - 1.0).abs() < 1e-6);
    }
}
