//! Privacy notions: each is a constraint set on the channel with an exact, outward-rounded
//! leakage function and a compact LP encoding.
//!
//! Every leakage function returns an upper bound on the exact leakage of the channel whose
//! entries are the emitted doubles and of the channel whose entries are the shortest decimals
//! that reports print (see [`crate::numeric`] for the precise statement): log-ratios carry
//! [`crate::numeric::EMITTED_LOG_SLACK`], the 2^-52 by which the logarithm of a ratio of two
//! printed numbers may exceed that of their doubles, beyond outward rounding.
//!
//! One file per notion implements [`PrivacyNotion`]; [`PrivacySpec`] is the serde-tagged enum
//! that problem files and the CLI use to name them; [`NOTIONS`] is the table from which every
//! list of notions derives (see [`mod@registry`]).

mod approximate;
mod approximate_delta;
mod block;
mod checks;
pub mod composition;
mod context;
mod dprivacy;
mod high_low;
mod identifiability;
mod lattice_pairs;
mod ldp;
mod lip;
mod max_leakage;
mod mutual_information;
pub mod registry;
mod resolve;
mod spec;
mod symbol;

pub use approximate::{ApproximateLdp, ApproximateLip, MAX_LIFTED_DIMENSION};
pub use approximate_delta::{approximate_profile, ldp_delta, lip_delta, smallest_epsilon};
pub use block::{block_leakage, BlockLdp};
pub use checks::{check_delta, check_epsilon, check_epsilon_finite, MAX_EPSILON, MAX_RELEASES};
pub(crate) use context::checked_pairs;
pub use context::{matrix_leakage, ContextLdp};
pub use dprivacy::{DPrivacy, MetricSpec, SpannerEncoding};
pub use high_low::{high_low_leakage, HighLowLdp};
pub use identifiability::{identifiability_leakage, Identifiability};
pub(crate) use lattice_pairs::checked_pairs_at;
pub use ldp::{ldp_leakage, Ldp};
pub use lip::{lip_leakage, Lip};
pub use max_leakage::{max_leakage, MaxLeakage};
pub use mutual_information::{
    mutual_information_down, mutual_information_up, MutualInformationPrivacy,
};
pub use registry::{NotionEntry, NOTIONS};
pub use spec::{ApproximateSpec, PrivacySpec, NOTION_NAMES};
pub use symbol::Symbol;

use crate::channel::Channel;
use crate::domain::Domain;
use crate::formulation::ChannelLp;
use crate::rays::{ColumnCone, RayFamily};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Debug;

/// One requested bound and what a channel achieves against it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// The constraint, e.g. `ldp` or `block (across blocks)`.
    pub constraint: String,
    /// The requested parameter.
    #[serde(serialize_with = "crate::float_serde::serialize_number")]
    pub requested: f64,
    /// The smallest parameter for which the channel satisfies the constraint (outward rounded).
    #[serde(serialize_with = "crate::float_serde::serialize_number")]
    pub achieved: f64,
}

impl Check {
    /// Whether the achieved leakage is within the request.
    pub fn holds(&self) -> bool {
        self.achieved <= self.requested
    }
}

/// A privacy notion, resolved against a domain: a constraint set on channels.
pub trait PrivacyNotion: Debug + Send + Sync {
    /// Short identifier, as in problem files (`ldp`, `lip`, ...).
    fn key(&self) -> &'static str;

    /// The requested bounds and the channel's achieved leakage against each.
    fn check(&self, channel: &Channel) -> Vec<Check>;

    /// Add this notion's constraints to `lp`; returns a one-line description of the encoding.
    fn encode(&self, lp: &mut ChannelLp) -> String;

    /// The polyhedral cone this notion confines every column to, with any auxiliary
    /// coordinates and coupling rows (see [`crate::rays`]); `None` when the notion is not
    /// polyhedral and column-wise (mutual information).
    fn column_cone(&self, n: usize) -> Option<ColumnCone>;

    /// What [`PrivacyNotion::column_cone`] keeps of the notion, when that is not all of it (an
    /// approximate encoding): methods that encode the cone themselves put it in their
    /// encoding line.
    fn cone_note(&self) -> Option<String> {
        None
    }

    /// Pairs of inputs `(a, b)` whose rows this notion forces to be equal, in every channel
    /// it allows (e.g. every pair under 0-LDP: `Q[a][y] <= Q[b][y]` for all y with both rows
    /// summing to 1 gives equality). Certification makes such rows exactly equal.
    fn ties(&self, _n: usize) -> Vec<(usize, usize)> {
        Vec::new()
    }

    /// The cone's extreme rays as a family known in closed form (LDP: staircase patterns;
    /// LIP with one full-support prior: box-hyperplane vertices), when it is one.
    fn ray_family(&self) -> Option<RayFamily> {
        None
    }

    /// Why no channel can meet the notion, when that is proved from its parameters alone
    /// (with outward rounding); `None` when it may be feasible.
    fn infeasibility(&self) -> Option<String> {
        None
    }

    /// The smallest weight `t` in `[0, 1]` for which the mixture `(1 - t) Q + t 1 target^T`
    /// meets this notion, computed directly in floating point (0 when `channel` already does);
    /// `None` when the notion has no direct formula or mixing cannot repair the channel.
    /// Certification starts from it and confirms the weight it keeps with outward rounding
    /// (see `repair_by_mixing` in the certify module).
    fn mixing_weight(&self, _channel: &Channel, _target: &[f64]) -> Option<f64> {
        None
    }

    /// For a notion made only of the rows `Q[a][y] <= e^(B[a][b]) Q[b][y]` in every column: the
    /// budgets `B` (`+inf` where a pair is not bounded), without the O(n^3) search for the
    /// essential pairs that [`PrivacyNotion::column_cone`] makes. `None` for other notions.
    fn pair_budgets(&self) -> Option<Vec<Vec<f64>>> {
        None
    }
}

/// The smallest `t` in `[0, 1]` with `(1 - t) a + t g <= f ((1 - t) b + t g)`: the mixing
/// weight that repairs one ratio `a <= f b` of a column whose constant replacement is `g`
/// (each side is linear in `t`). `None` when no weight does (`f <= 1` or `g = 0` while
/// `a > f b`) or the numbers are not finite.
pub(crate) fn pair_mixing_weight(a: f64, b: f64, factor: f64, g: f64) -> Option<f64> {
    let excess = a - factor * b;
    if excess.is_nan() {
        return None;
    }
    if excess <= 0.0 {
        return Some(0.0);
    }
    let relief = (factor - 1.0) * g;
    (relief > 0.0 && excess.is_finite() && relief.is_finite())
        .then(|| (excess / (excess + relief)).min(1.0))
}

/// The cone of `q_a <= e^{log_factor} q_b` for every listed `(a, b, log_factor)`.
pub(crate) fn ratio_cone(
    n: usize,
    pairs: impl IntoIterator<Item = (usize, usize, f64)>,
) -> ColumnCone {
    let mut cone = ColumnCone::orthant(n);
    // Budgets too loose to resolve are left out (a relaxation; certification checks them).
    cone.rows.extend(
        pairs
            .into_iter()
            .filter(|p| p.2 <= crate::formulation::LOOSE_LOG_RATIO)
            .map(|(a, b, f)| ColumnCone::ratio_row(a, b, f)),
    );
    cone
}

/// Every ordered pair of distinct members of `set`, each with `log_factor`.
pub(crate) fn all_pairs(set: &[usize], log_factor: f64) -> Vec<(usize, usize, f64)> {
    set.iter()
        .flat_map(|&a| {
            set.iter()
                .filter(move |&&b| b != a)
                .map(move |&b| (a, b, log_factor))
        })
        .collect()
}

/// Leakage of `channel` under every notion of [`NOTIONS`] with a profile that applies to
/// `domain` and its prior, keyed by notion: `ldp`, `lip`, `max-leakage`, `mutual-information`,
/// `identifiability`, and `d-privacy` (natural distance) when the domain has positions. Values
/// are outward rounded; `inf` when unbounded.
pub fn leakage_profile(channel: &Channel, domain: &Domain) -> BTreeMap<String, f64> {
    leakage_profile_within(channel, domain, true).0
}

/// As [`leakage_profile`], leaving out unless `costly` the entries that cost more than
/// O(n^2) for this channel and domain ([`NotionEntry::profile_costly`]: `d-privacy` on points
/// that are not a line lattice); also returns the keys left out. Every other entry is one
/// pass over the channel.
pub fn leakage_profile_within(
    channel: &Channel,
    domain: &Domain,
    costly: bool,
) -> (BTreeMap<String, f64>, Vec<&'static str>) {
    let mut left_out = Vec::new();
    let mut out = BTreeMap::new();
    for n in NOTIONS {
        let Some(profile) = n.profile else {
            continue;
        };
        if !costly && n.profile_costly.is_some_and(|f| f(channel, domain)) {
            left_out.push(n.key);
            continue;
        }
        if let Some(v) = profile(channel, domain) {
            out.insert(n.key.to_string(), v);
        }
    }
    (out, left_out)
}

/// The inputs in the support of any of `priors`.
pub(crate) fn union_support(priors: &[Vec<f64>]) -> Vec<usize> {
    let n = priors.first().map_or(0, Vec::len);
    (0..n)
        .filter(|&x| priors.iter().any(|p| p[x] > 0.0))
        .collect()
}

/// Per-column envelope encoding shared by LDP-like notions (Kairouz et al.; docs/design-notes.md, "Compact encodings"):
/// for each output y an auxiliary `l_y` with `l_y <= w_x Q[x][y]` for `x` in `lower_set` and
/// `w_x Q[x][y] <= e^eps l_y` for `x` in `upper_set`. With `w = 1` and both sets all inputs this
/// is exactly `max_x Q[x][y] <= e^eps min_x Q[x][y]`, in O(nm) rows instead of O(n^2 m).
pub(crate) fn encode_envelope(
    lp: &mut ChannelLp,
    epsilon: f64,
    weights: &[f64],
    lower_set: &[usize],
    upper_set: &[usize],
) {
    use mechsynth_solvers::Sense;
    let Some(budget) = lp.budget(epsilon) else {
        return;
    };
    let factor = budget.exp();
    // l_y <= w_x Q[x][y] <= max_x w_x for any x in the (non-empty) lower set.
    let top = weights.iter().copied().fold(0.0, f64::max);
    for y in 0..lp.outputs() {
        let l = lp.aux(0.0, top);
        for &x in lower_set {
            let q = lp.q(x, y);
            lp.constrain(vec![(q, weights[x]), (l, -1.0)], Sense::Ge, 0.0);
        }
        for &x in upper_set {
            let q = lp.q(x, y);
            lp.constrain(vec![(q, weights[x]), (l, -factor)], Sense::Le, 0.0);
        }
    }
}

/// `max over columns of ln(max_{x in upper} w_x Q[x][y] / min_{x in lower} w_x Q[x][y])`,
/// outward rounded, floored at 0: the leakage of the envelope constraint above. A column whose
/// extremes are the same weighted entry (equal weight and equal value) contributes exactly 0.
/// One pass over the rows of the channel (in memory order) gathers every column's extremes.
pub(crate) fn envelope_leakage(
    channel: &Channel,
    weights: &[f64],
    lower_set: &[usize],
    upper_set: &[usize],
) -> f64 {
    let m = channel.outputs();
    let rows = channel.rows();
    let (Some(&first), false) = (upper_set.first(), lower_set.is_empty()) else {
        return 0.0;
    };
    // Per column: whether every weighted entry of either set is the first one's (same
    // weight, same value), the largest product rounded up over the upper set and the smallest
    // rounded down over the lower set.
    let mut same = vec![true; m];
    for &x in upper_set.iter().chain(lower_set) {
        if weights[x] != weights[first] {
            same.iter_mut().for_each(|s| *s = false);
            break;
        }
        for ((s, &q), &q0) in same.iter_mut().zip(&rows[x]).zip(&rows[first]) {
            *s &= q == q0;
        }
    }
    let mut hi = vec![0.0f64; m];
    for &x in upper_set {
        for (h, &q) in hi.iter_mut().zip(&rows[x]) {
            *h = h.max(mul_up(weights[x], q));
        }
    }
    let mut lo = vec![f64::INFINITY; m];
    for &x in lower_set {
        for (l, &q) in lo.iter_mut().zip(&rows[x]) {
            *l = l.min(mul_down(weights[x], q));
        }
    }
    // With unit weights the extremes are two entries of the channel, whose order the emitted
    // numbers keep; weighted products of different entries need the slack even when equal.
    let unit = upper_set
        .iter()
        .chain(lower_set)
        .all(|&x| weights[x] == 1.0);
    let mut worst: f64 = 0.0;
    for y in 0..m {
        // Every upper entry equals every lower one exactly: the ratio is 1.
        if same[y] {
            continue;
        }
        if hi[y] > 0.0 && lo[y].is_finite() {
            worst = worst.max(if unit {
                crate::numeric::entry_log_ratio_up(hi[y], lo[y])
            } else {
                crate::numeric::log_ratio_up(hi[y], lo[y])
            });
        }
    }
    worst
}

/// [`output_probability_bounds`] and [`support_range`] of every column, in one pass over the
/// rows of the channel (in memory order): `(lo, hi, min, max)` per column, the same numbers
/// as column by column (each column's sum is taken in the same order).
pub(crate) fn column_brackets(channel: &Channel, prior: &[f64]) -> Vec<(f64, f64, f64, f64)> {
    let m = channel.outputs();
    let mut min = vec![f64::INFINITY; m];
    let mut max = vec![0.0f64; m];
    let mut mass = vec![0.0f64; m];
    let mut count = 0usize;
    for (x, &p) in prior.iter().enumerate().filter(|(_, p)| **p > 0.0) {
        count += 1;
        for (y, &q) in channel.rows()[x].iter().enumerate() {
            min[y] = min[y].min(q);
            max[y] = max[y].max(q);
            mass[y] += p * q;
        }
    }
    let (total_lo, total_hi) =
        crate::numeric::sum_bounds(prior.iter().copied().filter(|p| *p > 0.0));
    (0..m)
        .map(|y| {
            let (min, max) = (min[y], max[y]);
            if min >= max {
                return (min.min(max), max, min, max);
            }
            let (mass_lo, mass_hi) = crate::numeric::sum_bounds_of(mass[y], count);
            let lo = crate::numeric::div_down(mass_lo, total_hi).max(min);
            let hi = crate::numeric::div_up(mass_hi, total_lo).min(max);
            (lo, hi, min, max)
        })
        .collect()
}

/// A bracket `[lo, hi]` of the output probability `lambda_y = sum_x p_x Q[x][y] / sum_x p_x`
/// (the prior normalized exactly), intersected with the range of the column over the prior's
/// support, of which `lambda_y` is a convex combination: a column that is constant on the
/// support gives its value exactly.
pub(crate) fn output_probability_bounds(channel: &Channel, prior: &[f64], y: usize) -> (f64, f64) {
    let support = prior.iter().enumerate().filter(|(_, p)| **p > 0.0);
    let (min, max) = support_range(channel, prior, y);
    if min >= max {
        return (min.min(max), max);
    }
    let (mass_lo, mass_hi) =
        crate::numeric::sum_bounds(support.clone().map(|(x, p)| p * channel.get(x, y)));
    let (total_lo, total_hi) = crate::numeric::sum_bounds(support.map(|(_, p)| *p));
    let lo = crate::numeric::div_down(mass_lo, total_hi).max(min);
    let hi = crate::numeric::div_up(mass_hi, total_lo).min(max);
    (lo, hi)
}

/// The smallest and largest entry of column `y` over the support of `prior` (`(inf, 0)` for an
/// empty support). The output probability of the emitted numbers lies between the emitted
/// numbers of these two entries (a convex combination of a column, whose order they keep).
pub(crate) fn support_range(channel: &Channel, prior: &[f64], y: usize) -> (f64, f64) {
    prior
        .iter()
        .enumerate()
        .filter(|(_, p)| **p > 0.0)
        .map(|(x, _)| channel.get(x, y))
        .fold((f64::INFINITY, 0.0f64), |(a, b), q| (a.min(q), b.max(q)))
}

/// Every ordered pair of distinct members of `set` (as ties).
pub(crate) fn tie_all(set: &[usize]) -> Vec<(usize, usize)> {
    set.iter()
        .flat_map(|&a| set.iter().filter(move |&&b| b > a).map(move |&b| (a, b)))
        .collect()
}

/// Upper bound on `w * q` for `w, q >= 0` (exact when `w == 1`).
fn mul_up(w: f64, q: f64) -> f64 {
    if w == 1.0 || q == 0.0 {
        w * q
    } else {
        (w * q).next_up()
    }
}

/// Lower bound on `w * q` for `w, q >= 0` (exact when `w == 1`).
fn mul_down(w: f64, q: f64) -> f64 {
    if w == 1.0 || q == 0.0 {
        w * q
    } else {
        (w * q).next_down().max(0.0)
    }
}
