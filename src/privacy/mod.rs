//! Privacy notions: each is a constraint set on the channel with an exact, outward-rounded
//! leakage function and a compact LP encoding.
//!
//! One file per notion implements [`PrivacyNotion`]; [`PrivacySpec`] is the serde-tagged enum
//! that problem files and the CLI use to name them.

mod block;
mod context;
mod dprivacy;
mod high_low;
mod identifiability;
mod ldp;
mod lip;
mod max_leakage;
mod mutual_information;
mod spec;

pub use block::{block_leakage, BlockLdp};
pub use context::{matrix_leakage, ContextLdp};
pub use dprivacy::{DPrivacy, MetricSpec};
pub use high_low::{high_low_leakage, HighLowLdp};
pub use identifiability::{identifiability_leakage, Identifiability};
pub use ldp::{ldp_leakage, Ldp};
pub use lip::{lip_leakage, Lip};
pub use max_leakage::{max_leakage, MaxLeakage};
pub use mutual_information::{
    mutual_information_down, mutual_information_up, MutualInformationPrivacy,
};
pub use spec::{check_epsilon, PrivacySpec, Symbol, NOTION_NAMES};

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
    #[serde(serialize_with = "crate::report::serialize_number")]
    pub requested: f64,
    /// The smallest parameter for which the channel satisfies the constraint (outward rounded).
    #[serde(serialize_with = "crate::report::serialize_number")]
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

    /// The cone's extreme rays as a family known in closed form (LDP: staircase patterns;
    /// LIP with one full-support prior: box-hyperplane vertices), when it is one.
    fn ray_family(&self) -> Option<RayFamily> {
        None
    }
}

/// The cone of `q_a <= e^{log_factor} q_b` for every listed `(a, b, log_factor)`.
pub(crate) fn ratio_cone(
    n: usize,
    pairs: impl IntoIterator<Item = (usize, usize, f64)>,
) -> ColumnCone {
    let mut cone = ColumnCone::orthant(n);
    cone.rows.extend(
        pairs
            .into_iter()
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

/// Leakage of `channel` under every notion that applies to `domain` and its prior, keyed by
/// notion: `ldp`, `lip`, `max-leakage`, `mutual-information`, `identifiability`, and `d-privacy` (natural distance)
/// when the domain has positions. Values are outward rounded; `inf` when unbounded.
pub fn leakage_profile(channel: &Channel, domain: &Domain) -> BTreeMap<String, f64> {
    let prior = domain.prior();
    let mut out = BTreeMap::new();
    out.insert("ldp".to_string(), ldp_leakage(channel));
    out.insert(
        "lip".to_string(),
        lip_leakage(channel, std::slice::from_ref(&prior.to_vec())),
    );
    out.insert("max-leakage".to_string(), max_leakage(channel, prior));
    out.insert(
        "mutual-information".to_string(),
        mutual_information_up(channel, prior),
    );
    out.insert(
        "identifiability".to_string(),
        identifiability_leakage(channel, prior),
    );
    if domain.has_geometry() && channel.inputs() == domain.size() {
        out.insert(
            "d-privacy".to_string(),
            matrix_leakage(channel, &domain.natural_distances()),
        );
    }
    out
}

/// The inputs in the support of any of `priors`.
pub(crate) fn union_support(priors: &[Vec<f64>]) -> Vec<usize> {
    let n = priors.first().map_or(0, Vec::len);
    (0..n)
        .filter(|&x| priors.iter().any(|p| p[x] > 0.0))
        .collect()
}

/// Per-column envelope encoding shared by LDP-like notions (Kairouz et al.; DESIGN.md):
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
    let factor = epsilon.exp();
    for y in 0..lp.outputs() {
        let l = lp.aux(0.0);
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
/// outward rounded, floored at 0: the leakage of the envelope constraint above.
pub(crate) fn envelope_leakage(
    channel: &Channel,
    weights: &[f64],
    lower_set: &[usize],
    upper_set: &[usize],
) -> f64 {
    let mut worst: f64 = 0.0;
    for y in 0..channel.outputs() {
        let hi = upper_set
            .iter()
            .map(|&x| mul_up(weights[x], channel.get(x, y)))
            .fold(0.0, f64::max);
        let lo = lower_set
            .iter()
            .map(|&x| mul_down(weights[x], channel.get(x, y)))
            .fold(f64::INFINITY, f64::min);
        if hi > 0.0 && lo.is_finite() {
            worst = worst.max(crate::numeric::log_ratio_up(hi, lo));
        }
    }
    worst
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
