//! `releases = k` in an `ldp` or `lip` entry: a channel whose k independent releases together
//! meet the requested eps.
//!
//! - LDP: the k-fold product of a channel has LDP leakage exactly k times the channel's (the
//!   worst column repeated k times attains it; tested on the product), so the constraint is
//!   eps/k per release, exactly.
//! - LIP: the k-fold leakage is not linear (nor convex) in Q. The program is the relaxation to
//!   single-release eps-LIP (one release is a function of the k releases, so by post-processing,
//!   context-aware-lip Lemma 1, it leaks no more): its optimum is a valid bound. The check
//!   computes the k-fold leakage exactly on the product channel, and certification mixes the
//!   relaxation's channel with a constant one until it holds, so the status is `optimal` only
//!   when that gap closes. [`per_release_epsilon`] gives the restriction instead: the largest
//!   eps1 with Thm 4's bound `<= eps`, a sufficient condition (reported, not used: on Hamming
//!   loss it is worse than the repaired relaxation in most cases tried).

use super::bounds::theorem4_bound;
use super::product::{power, product_size};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::privacy::{ldp_leakage, lip_leakage, Check, Ldp, Lip, PrivacyNotion};
use crate::rays::{ColumnCone, RayFamily};

/// Bisection steps for inverting Thm 4.
const INVERSION_STEPS: usize = 200;
/// Relative widening of Thm 4's bound (a few floating-point `exp` and `ln`) when it stands in
/// for the exact composed leakage in a certificate.
const BOUND_ROUNDING_MARGIN: f64 = 1e-12;

/// eps-LDP for k releases together: eps/k per release.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedLdp {
    /// The per-release notion (eps / k).
    pub single: Ldp,
    /// The eps of the k releases together.
    pub epsilon: f64,
    /// k.
    pub releases: usize,
}

impl ComposedLdp {
    /// eps for `releases` releases together.
    pub fn new(epsilon: f64, releases: usize) -> Self {
        ComposedLdp {
            single: Ldp {
                epsilon: epsilon / releases as f64,
            },
            epsilon,
            releases,
        }
    }
}

/// `k * leakage`, rounded up.
fn times_up(k: usize, leakage: f64) -> f64 {
    let v = k as f64 * leakage;
    if v == 0.0 || v.is_infinite() {
        v
    } else {
        v.next_up()
    }
}

impl PrivacyNotion for ComposedLdp {
    fn key(&self) -> &'static str {
        "ldp"
    }

    /// The exact LDP leakage of the k-fold release: k times the channel's.
    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: format!("ldp ({} releases)", self.releases),
            requested: self.epsilon,
            achieved: times_up(self.releases, ldp_leakage(channel)),
        }]
    }

    fn encode(&self, lp: &mut ChannelLp) -> String {
        format!("{} releases: {}", self.releases, self.single.encode(lp))
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        self.single.column_cone(n)
    }

    fn ties(&self, n: usize) -> Vec<(usize, usize)> {
        self.single.ties(n)
    }

    fn ray_family(&self) -> Option<RayFamily> {
        self.single.ray_family()
    }
}

/// eps-LIP for k releases together under one prior: the single-release eps-LIP relaxation,
/// checked on the exact k-fold leakage.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedLip {
    /// The relaxation: eps-LIP for one release.
    pub single: Lip,
    /// Thm 4's per-release eps1 (a sufficient condition), for information.
    pub theorem4_epsilon: f64,
    /// The eps of the k releases together.
    pub epsilon: f64,
    /// k.
    pub releases: usize,
}

/// The largest eps1 (to bisection accuracy, rounded down) with `theorem4_bound([eps1; k], p_min)
/// <= eps`.
pub fn per_release_epsilon(epsilon: f64, releases: usize, p_min: f64) -> f64 {
    let ok = |e1: f64| theorem4_bound(&vec![e1; releases], p_min) <= epsilon;
    let (mut lo, mut hi) = (0.0, epsilon);
    if ok(hi) {
        return hi;
    }
    for _ in 0..INVERSION_STEPS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if ok(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

impl ComposedLip {
    /// eps-LIP for `releases` releases together under `prior` (full support).
    pub fn new(epsilon: f64, releases: usize, prior: Vec<f64>) -> Self {
        let p_min = prior.iter().copied().fold(f64::INFINITY, f64::min);
        ComposedLip {
            single: Lip {
                epsilon,
                priors: vec![prior],
                name: "lip",
            },
            theorem4_epsilon: per_release_epsilon(epsilon, releases, p_min),
            epsilon,
            releases,
        }
    }
}

impl PrivacyNotion for ComposedLip {
    fn key(&self) -> &'static str {
        "lip"
    }

    /// The exact LIP leakage of the k-fold product; above the product size limit, Thm 4's
    /// bound on the channel's exact single-release leakage (an upper bound).
    fn check(&self, channel: &Channel) -> Vec<Check> {
        let priors = &self.single.priors;
        let (_, entries) = product_size(&vec![channel; self.releases]);
        let (how, achieved) = match power(channel, self.releases) {
            Ok(joint) if entries <= super::MAX_PRODUCT_ENTRIES => {
                ("exact", lip_leakage(&joint, priors))
            }
            _ => {
                let p_min = priors[0].iter().copied().fold(f64::INFINITY, f64::min);
                let single = lip_leakage(channel, priors);
                let bound = theorem4_bound(&vec![single; self.releases], p_min);
                ("Thm 4 bound", bound * (1.0 + BOUND_ROUNDING_MARGIN))
            }
        };
        vec![Check {
            constraint: format!("lip ({} releases, {how})", self.releases),
            requested: self.epsilon,
            achieved,
        }]
    }

    fn encode(&self, lp: &mut ChannelLp) -> String {
        format!(
            "{} releases: relaxation to one release (post-processing); {}",
            self.releases,
            self.single.encode(lp)
        )
    }

    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        self.single.column_cone(n)
    }

    fn ties(&self, n: usize) -> Vec<(usize, usize)> {
        self.single.ties(n)
    }

    fn ray_family(&self) -> Option<RayFamily> {
        self.single.ray_family()
    }
}
