//! Randomized-response baselines: k-RR, Warner, Mangat and Hadamard response (constructors
//! shared with the verification registry).

use super::{wrap, Baseline, BaselineChannel};
use crate::collect::CollectError;
use crate::domain::Domain;
use crate::verify::{hadamard_block, krr, mangat_rows};

/// k-ary randomized response.
#[derive(Debug, Clone, Copy)]
pub struct KRr;

impl Baseline for KRr {
    fn name(&self) -> &'static str {
        "k-rr"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() >= 2
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(krr(domain.size(), eps), None)
    }
}

/// Warner's randomized response (binary).
#[derive(Debug, Clone, Copy)]
pub struct Warner;

impl Baseline for Warner {
    fn name(&self) -> &'static str {
        "warner"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() == 2
    }
    fn channel(&self, _domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(krr(2, eps), None)
    }
}

/// Mangat's improved response (binary).
#[derive(Debug, Clone, Copy)]
pub struct Mangat;

impl Baseline for Mangat {
    fn name(&self) -> &'static str {
        "mangat"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() == 2
    }
    fn channel(&self, _domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(mangat_rows(eps), None)
    }
}

/// Hadamard response.
#[derive(Debug, Clone, Copy)]
pub struct HadamardResponse;

impl Baseline for HadamardResponse {
    fn name(&self) -> &'static str {
        "hadamard"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() >= 2
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        let (big, rows) = hadamard_block(domain.size(), eps);
        wrap(rows, Some((0..big).map(|y| format!("h{y}")).collect()))
    }
}
