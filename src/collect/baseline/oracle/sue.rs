//! Symmetric unary encoding (basic one-time RAPPOR): each bit of the one-hot encoding is kept
//! with probability `p = e^{eps/2} / (e^{eps/2} + 1)` and flipped otherwise, so `q = 1 - p`.
//! Changing the value changes two bits, each costing `eps / 2`: eps-LDP.

use super::{unary_parse, unary_randomize, unary_supports, FrequencyOracle, OracleReport};
use crate::collect::CollectError;
use rand::RngCore;

/// SUE over `n` symbols.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sue {
    n: usize,
    p: f64,
}

impl Sue {
    /// At `eps` over `n` symbols (checked by [`super::OracleSpec::build`]).
    pub(super) fn new(n: usize, eps: f64) -> Self {
        let h = (eps / 2.0).exp();
        Sue {
            n,
            p: h / (h + 1.0),
        }
    }
}

impl FrequencyOracle for Sue {
    fn name(&self) -> &'static str {
        "sue"
    }
    fn symbols(&self) -> usize {
        self.n
    }
    fn p(&self) -> f64 {
        self.p
    }
    fn q(&self) -> f64 {
        1.0 - self.p
    }
    fn noise_support(&self) -> f64 {
        0.5
    }
    fn randomize(&self, x: usize, rng: &mut dyn RngCore) -> OracleReport {
        unary_randomize(self.n, self.p, 1.0 - self.p, x, rng)
    }
    fn supports(&self, report: &OracleReport, v: usize) -> bool {
        unary_supports(report, v)
    }
    fn parse(&self, text: &str, line: u64) -> Result<OracleReport, CollectError> {
        unary_parse(self.n, text, line)
    }
}
