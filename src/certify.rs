//! Post-solve certification: recompute every requested leakage from the emitted numbers and,
//! where a request is exceeded, repair by mixing with a constant-row channel.

use crate::channel::Channel;
use crate::privacy::{Check, PrivacyNotion};
use serde::Serialize;

/// Bisection steps when searching the smallest repairing mixture weight.
const REPAIR_BISECTION_STEPS: usize = 64;

/// A repair by mixing: `(1 - weight) Q + weight * 1 r^T` for a distribution `r` over outputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// The mixture weight of the constant-row channel.
    pub weight: f64,
    /// Objective value before the repair.
    pub objective_before: f64,
    /// Objective value after the repair.
    pub objective_after: f64,
}

/// The requested bounds, what the emitted channel achieves, and how it was obtained.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Certificate {
    /// One entry per requested bound.
    pub checks: Vec<Check>,
    /// Whether every check holds (always true for an emitted channel).
    pub all_hold: bool,
    /// Largest change made to any solver entry when clipping noise and renormalizing rows.
    pub cleanup_correction: f64,
    /// The repair, when the solver's channel exceeded a request.
    pub repair: Option<Repair>,
}

/// Every notion's checks for `channel`.
pub fn check_all(notions: &[Box<dyn PrivacyNotion>], channel: &Channel) -> Vec<Check> {
    notions.iter().flat_map(|n| n.check(channel)).collect()
}

fn all_hold(notions: &[Box<dyn PrivacyNotion>], channel: &Channel) -> bool {
    check_all(notions, channel).iter().all(Check::holds)
}

/// The smallest (to bisection accuracy) weight `t` such that mixing `channel` with the constant
/// channel whose rows are `target` satisfies every notion, with the mixed channel; `None` when
/// even the constant channel fails (then no mixture can succeed).
pub fn repair_by_mixing(
    notions: &[Box<dyn PrivacyNotion>],
    channel: &Channel,
    target: &[f64],
) -> Option<(f64, Channel)> {
    let full = channel.mix_with_constant(target, 1.0);
    if !all_hold(notions, &full) {
        return None;
    }
    let (mut lo, mut hi, mut best) = (0.0, 1.0, full);
    for _ in 0..REPAIR_BISECTION_STEPS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let mixed = channel.mix_with_constant(target, mid);
        if all_hold(notions, &mixed) {
            hi = mid;
            best = mixed;
        } else {
            lo = mid;
        }
    }
    Some((hi, best))
}
