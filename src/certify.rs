//! Post-solve certification: make the rows that the constraints tie exactly equal, recompute
//! every requested leakage from the emitted numbers and, where a request is still exceeded,
//! repair by mixing with a constant-row channel (the last resort; the report says what it
//! cost).

use crate::channel::Channel;
use crate::privacy::{Check, PrivacyNotion};
use serde::Serialize;

/// Bisection steps when searching the smallest repairing mixture weight.
const REPAIR_BISECTION_STEPS: usize = 200;
/// The first mixture weight tried: below it a mixture changes no entry of order one.
const REPAIR_SMALLEST_WEIGHT: f64 = 1e-16;
/// Factor between successive weights of the upward search.
const REPAIR_GROWTH: f64 = 4.0;
/// The log-scale bisection stops when the bracket is this tight, relative.
const REPAIR_RELATIVE_PRECISION: f64 = 1e-3;

/// Relative nudges above a direct mixing weight tried in turn (all within
/// [`REPAIR_RELATIVE_PRECISION`]): the formulas are exact up to rounding, and the check rounds
/// outwards.
const DIRECT_WEIGHT_MARGINS: [f64; 5] = [0.0, 1e-12, 1e-9, 1e-6, 1e-4];

/// A repair by mixing: `(1 - weight) Q + weight * 1 r^T` for a distribution `r` over outputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Repair {
    /// The mixture weight of the constant-row channel (0 when tying rows that the solver
    /// returned equal up to its accuracy was enough).
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
    /// Groups of inputs whose rows were replaced by their prior-weighted average (each group
    /// listed once; empty when none): rows the constraints force to be equal, and, when the
    /// channel exceeded a request, rows the solver returned equal up to its accuracy whose
    /// tying certified at a lower cost than mixing alone (see `repair`).
    pub tied_rows: Vec<Vec<usize>>,
    /// The repair, when the channel still exceeded a request.
    pub repair: Option<Repair>,
}

/// Every notion's checks for `channel`.
pub fn check_all(notions: &[Box<dyn PrivacyNotion>], channel: &Channel) -> Vec<Check> {
    notions.iter().flat_map(|n| n.check(channel)).collect()
}

fn all_hold(notions: &[Box<dyn PrivacyNotion>], channel: &Channel) -> bool {
    check_all(notions, channel).iter().all(Check::holds)
}

/// The groups (of two or more inputs) that the notions' ties connect.
pub fn tie_groups<'a>(
    notions: impl IntoIterator<Item = &'a dyn PrivacyNotion>,
    n: usize,
) -> Vec<Vec<usize>> {
    connected_groups(
        n,
        notions
            .into_iter()
            .flat_map(|notion| notion.ties(n))
            .filter(|&(a, b)| a < n && b < n),
    )
}

/// The groups (two or more of `0..n`, each sorted, ordered by their least member) that `pairs`
/// connect (union-find with path halving).
pub(crate) fn connected_groups(
    n: usize,
    pairs: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (a, b) in pairs {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); n];
    for x in 0..n {
        let r = root(&mut parent, x);
        groups[r].push(x);
    }
    groups.into_iter().filter(|g| g.len() > 1).collect()
}

/// Replace the rows of each group by their average weighted by `prior` (plain average when the
/// group has no prior mass), so that tied rows are exactly equal. Weighting by the prior keeps
/// the output distribution.
pub fn average_groups(channel: &Channel, groups: &[Vec<usize>], prior: &[f64]) -> Channel {
    let mut rows = channel.rows().to_vec();
    let m = channel.outputs();
    for group in groups {
        let mass: f64 = group
            .iter()
            .map(|&x| prior.get(x).copied().unwrap_or(0.0))
            .sum();
        let weight = |x: usize| {
            if mass > 0.0 {
                prior.get(x).copied().unwrap_or(0.0) / mass
            } else {
                1.0 / group.len() as f64
            }
        };
        let mut avg = vec![0.0; m];
        for &x in group {
            let w = weight(x);
            for (a, q) in avg.iter_mut().zip(channel.rows()[x].iter()) {
                *a += w * q;
            }
        }
        let s: f64 = avg.iter().sum();
        avg.iter_mut().for_each(|a| *a /= s);
        for &x in group {
            rows[x] = avg.clone();
        }
    }
    Channel::from_rows_internal(rows).with_rows_at_most_one()
}

/// The repair from every notion's direct weight (see
/// [`crate::privacy::PrivacyNotion::mixing_weight`]), when each notion has one: their largest
/// is the smallest weight that repairs `channel` towards the constant rows `target` in exact
/// arithmetic (up to the rounding of the formulas), so a weight just above it usually
/// certifies at once. Tried at that weight nudged up by each of `DIRECT_WEIGHT_MARGINS` (each
/// within `REPAIR_RELATIVE_PRECISION`); `None` when none certifies. A few leakage scans, where
/// [`repair_by_mixing`]'s search may take dozens.
pub fn repair_directly(
    notions: &[Box<dyn PrivacyNotion>],
    channel: &Channel,
    target: &[f64],
) -> Option<(f64, Channel)> {
    repair_with_margins(notions, channel, target, &DIRECT_WEIGHT_MARGINS)
}

/// As [`repair_directly`], with the direct weight nudged up by each of `margins` in turn (a
/// margin of 1 doubles it). Larger margins give up the weight's precision: for a repair of
/// weight 1e-13, whose certified leakage is at the rounding level of the mixed entries, a
/// weight ten times larger still costs nothing measurable.
pub fn repair_with_margins(
    notions: &[Box<dyn PrivacyNotion>],
    channel: &Channel,
    target: &[f64],
    margins: &[f64],
) -> Option<(f64, Channel)> {
    let estimate = direct_weight(notions, channel, target)?;
    margins.iter().find_map(|margin| {
        // Near 1 the weight left on the channel, 1 - t, is what is nudged.
        let t = if estimate <= 0.5 {
            estimate * (1.0 + margin)
        } else {
            1.0 - (1.0 - estimate) * (1.0 - margin)
        };
        let mixed = channel.mix_with_constant(target, t).with_rows_at_most_one();
        all_hold(notions, &mixed).then_some((t, mixed))
    })
}

/// The largest of the notions' direct weights, when every notion has one and it is in (0, 1).
fn direct_weight(
    notions: &[Box<dyn PrivacyNotion>],
    channel: &Channel,
    target: &[f64],
) -> Option<f64> {
    notions
        .iter()
        .map(|notion| notion.mixing_weight(channel, target))
        .try_fold(0.0f64, |worst, t| t.map(|t| worst.max(t)))
        .filter(|t| *t > 0.0 && *t < 1.0)
}

/// The smallest (to bisection accuracy) weight `t` such that mixing `channel` with the constant
/// channel whose rows are `target` satisfies every notion, with the mixed channel; `None` when
/// even the constant channel fails (then no mixture can succeed).
pub fn repair_by_mixing(
    notions: &[Box<dyn PrivacyNotion>],
    channel: &Channel,
    target: &[f64],
) -> Option<(f64, Channel)> {
    if let Some(direct) = repair_directly(notions, channel, target) {
        return Some(direct);
    }
    let mix = |t: f64| channel.mix_with_constant(target, t).with_rows_at_most_one();
    let full = mix(1.0);
    if !all_hold(notions, &full) {
        return None;
    }
    // Repairs are typically of order 1e-12 to 1e-8: search upwards geometrically from the
    // smallest weight that changes anything (or from the direct weight), then bisect on a log
    // scale. The weight found is within a factor 1 + REPAIR_RELATIVE_PRECISION of the smallest
    // that certifies, and so is the weight left on the channel.
    let direct = direct_weight(notions, channel, target);
    let (mut lo, mut hi, mut best) = (0.0, 1.0, full);
    let mut t = direct.map_or(REPAIR_SMALLEST_WEIGHT, |t| t.max(REPAIR_SMALLEST_WEIGHT));
    while t < 1.0 {
        let mixed = mix(t);
        if all_hold(notions, &mixed) {
            hi = t;
            best = mixed;
            break;
        }
        lo = t;
        t *= REPAIR_GROWTH;
    }
    for _ in 0..REPAIR_BISECTION_STEPS {
        // Near 1 what matters is the weight 1 - t left on the channel: bisect it on a log scale
        // there, and t itself below 1/2.
        if lo <= 0.0 || hi - lo <= REPAIR_RELATIVE_PRECISION * lo.min(1.0 - hi) {
            break;
        }
        let mid = if hi <= 0.5 {
            (lo * hi).sqrt()
        } else if hi < 1.0 {
            1.0 - ((1.0 - lo) * (1.0 - hi)).sqrt()
        } else {
            0.5 * (lo + hi)
        };
        if mid <= lo || mid >= hi {
            break;
        }
        let mixed = mix(mid);
        if all_hold(notions, &mixed) {
            hi = mid;
            best = mixed;
        } else {
            lo = mid;
        }
    }
    Some((hi, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::Ldp;

    fn krr(n: usize, eps: f64) -> Channel {
        let e = eps.exp();
        let t = e + n as f64 - 1.0;
        Channel::new(
            (0..n)
                .map(|x| {
                    (0..n)
                        .map(|y| if x == y { e / t } else { 1.0 / t })
                        .collect()
                })
                .collect(),
        )
        .unwrap()
    }

    /// The smallest weight that makes `(1 - t) Q + t / n` eps-LDP for k-RR `Q` at `eps0`:
    /// `((1 - t) p + t / n) = e^eps ((1 - t) q + t / n)`, solved for t.
    fn exact_weight(n: usize, eps0: f64, eps: f64) -> f64 {
        let t0 = eps0.exp() + n as f64 - 1.0;
        let (p, q) = (eps0.exp() / t0, 1.0 / t0);
        let e = eps.exp();
        let u = 1.0 / n as f64;
        // (1-t)(p - e q) = t u (e - 1)
        (p - e * q) / (p - e * q + u * (e - 1.0))
    }

    #[test]
    fn repair_weights_are_the_smallest_to_a_tenth_of_a_percent_at_both_ends() {
        let n = 4;
        let notions: Vec<Box<dyn PrivacyNotion>> = vec![Box::new(Ldp { epsilon: 1.0 })];
        let uniform = vec![0.25; n];
        // A tiny repair: k-RR just above eps.
        let (t, mixed) = repair_by_mixing(&notions, &krr(n, 1.0 + 1e-7), &uniform).unwrap();
        let exact = exact_weight(n, 1.0 + 1e-7, 1.0);
        assert!(
            t >= exact * (1.0 - 1e-9) && t <= exact * 1.002,
            "{t} vs {exact}"
        );
        assert!(all_hold(&notions, &mixed));
        // A repair near 1: the identity under eps = 1e-4, where the weight left on the channel
        // (about 2.5e-5) is what matters.
        let notions: Vec<Box<dyn PrivacyNotion>> = vec![Box::new(Ldp { epsilon: 1e-4 })];
        let identity = Channel::new(
            (0..n)
                .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
                .collect(),
        )
        .unwrap();
        let (t, _) = repair_by_mixing(&notions, &identity, &uniform).unwrap();
        let e: f64 = 1e-4f64.exp();
        let left = (e - 1.0) / (n as f64 + e - 1.0);
        assert!(
            1.0 - t <= left * (1.0 + 1e-9) && 1.0 - t >= left * 0.998,
            "{} vs {left}",
            1.0 - t
        );
    }
}
