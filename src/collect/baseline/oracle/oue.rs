//! Optimized unary encoding: the user's own bit is 1 with probability `p = 1/2`, every other
//! bit with `q = 1 / (e^eps + 1)`; the likelihood ratio of any report between two values is at
//! most `(p / q) ((1 - q) / (1 - p)) = e^eps`.

use super::{unary_parse, unary_randomize, unary_supports, FrequencyOracle, OracleReport};
use crate::collect::CollectError;
use rand::RngCore;

/// OUE over `n` symbols.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Oue {
    n: usize,
    q: f64,
}

impl Oue {
    /// At `eps` over `n` symbols (checked by [`super::OracleSpec::build`]).
    pub(super) fn new(n: usize, eps: f64) -> Self {
        Oue {
            n,
            q: 1.0 / (eps.exp() + 1.0),
        }
    }
}

impl FrequencyOracle for Oue {
    fn name(&self) -> &'static str {
        "oue"
    }
    fn symbols(&self) -> usize {
        self.n
    }
    fn p(&self) -> f64 {
        0.5
    }
    fn q(&self) -> f64 {
        self.q
    }
    fn noise_support(&self) -> f64 {
        0.5
    }
    fn randomize(&self, x: usize, rng: &mut dyn RngCore) -> OracleReport {
        unary_randomize(self.n, 0.5, self.q, x, rng)
    }
    fn supports(&self, report: &OracleReport, v: usize) -> bool {
        unary_supports(report, v)
    }
    fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError> {
        unary_parse(self.n, text, line)
    }
}
