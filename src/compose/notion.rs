//! `releases = k` in an `ldp` or `lip` entry: a channel whose k independent releases together
//! meet the requested eps.
//!
//! - LDP: the k-fold product of a channel has LDP leakage exactly k times the channel's (the
//!   worst column repeated k times attains it; tested on the product), so the constraint is
//!   eps/k per release, exactly.
//! - LIP: the k-fold leakage is not linear in Q. The channel is designed per release at the
//!   largest eps1 with Thm 4's bound `ln(P_min + e^{k min{2 eps1, ln((e^eps1-1+P_min)/P_min)}}
//!   (1 - P_min)) <= eps` (context-aware-lip; it chains Prop. 1, exact LDP composition and
//!   eps-LDP => ln(P_min + e^eps (1 - P_min))-LIP, each checked by `verify --theorems`), a
//!   sufficient condition: optimality is over per-release eps1-LIP channels. The check
//!   recomputes the composed leakage exactly on the product channel.

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

/// eps-LIP for k releases together under one prior, designed per release at Thm 4's eps1.
#[derive(Debug, Clone, PartialEq)]
pub struct ComposedLip {
    /// The per-release notion (eps1).
    pub single: Lip,
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
                epsilon: per_release_epsilon(epsilon, releases, p_min),
                priors: vec![prior],
                name: "lip",
            },
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
            "{} releases: per release at eps1 = {} (Thm 4 inverted); {}",
            self.releases,
            self.single.epsilon,
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
