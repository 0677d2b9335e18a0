//! Approximate notions: (eps, delta)-LDP and (eps, delta)-LIP over sets of outputs (and sets of
//! inputs), after B. Jiang, M. Seif, R. Tandon and M. Li, "Context-Aware Local Information
//! Privacy", IEEE Trans. Inf. Forensics Security 16, 2021, doi:10.1109/TIFS.2021.3087350 (context-aware-lip), Defs. 1 and 5.
//!
//! Def. 1 asks `Pr(Y in S | X in S_x) <= e^eps Pr(Y in S | X in S'_x) + delta` for all sets;
//! Def. 5 asks `e^-eps Pr(Y in S | X in S_x) - delta <= Pr(Y in S) <= e^eps Pr(Y in S | X in
//! S_x) + delta`. For a finite channel `Pr(Y in S | X in S_x)` is a convex combination (weights
//! `p_x / p(S_x)`) of the rows' masses `Q_x(S)`, and each condition is affine in it, so the worst
//! input sets are single inputs; the worst output set keeps exactly the outputs with a positive
//! term. Hence (`(t)^+ = max(0, t)`):
//!
//! - LDP: `delta(eps) = max_{x, x'} sum_y (Q[x][y] - e^eps Q[x'][y])^+`;
//! - LIP: `delta(eps) = max_x max(sum_y (e^-eps Q[x][y] - lambda_y)^+,
//!   sum_y (lambda_y - e^eps Q[x][y])^+)` with `lambda_y = sum_x p_x Q[x][y]`, over inputs with
//!   positive prior.
//!
//! Both are linear programs' worth of constraints: auxiliary `t >= (term)`, `t >= 0`,
//! `sum_y t <= delta` (see [`Ldp`](super::Ldp) and [`Lip`](super::Lip) for delta = 0).

use super::{output_probability_bounds, Check, PrivacyNotion};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::rays::ColumnCone;
use mechsynth_solvers::Sense;

/// Most lifted coordinates (inputs plus auxiliaries) of the column cone offered to the
/// extreme-ray methods: LDP lifts to `n^2`, LIP to `3n`; beyond this double description would
/// not finish, and the notion reports no cone (local methods with a relaxed bound run).
pub const MAX_LIFTED_DIMENSION: usize = 12;

/// Bisection steps when inverting `delta(eps)` for the smallest eps at a given delta.
const EPSILON_BISECTION_STEPS: usize = 100;

/// Lower bound on `e^eps` (libm's `exp` is within one unit in the last place; two steps down).
fn exp_down(eps: f64) -> f64 {
    eps.exp().next_down().next_down().max(0.0)
}

/// Upper bound on `e^eps`.
fn exp_up(eps: f64) -> f64 {
    eps.exp().next_up().next_up()
}

/// Upper bound on `(a - b)^+` where `a <= a_hi` and `b >= b_lo` are floating-point values.
fn positive_part_up(a_hi: f64, b_lo: f64) -> f64 {
    let d = a_hi - b_lo;
    if d <= 0.0 && a_hi <= b_lo {
        0.0
    } else {
        d.next_up().max(0.0)
    }
}

/// Upper bound on the exact sum of the non-negative `terms` (each already an upper bound).
fn sum_up(terms: &[f64]) -> f64 {
    let s: f64 = terms.iter().sum();
    if s == 0.0 {
        return 0.0;
    }
    (s * (1.0 + (terms.len() as f64 + 2.0) * f64::EPSILON)).next_up()
}

/// Upper bound on `(a * b)` for `a, b >= 0`.
fn mul_up(a: f64, b: f64) -> f64 {
    let p = a * b;
    if p == 0.0 {
        p
    } else {
        p.next_up()
    }
}

/// Lower bound on `(a * b)` for `a, b >= 0`.
fn mul_down(a: f64, b: f64) -> f64 {
    (a * b).next_down().max(0.0)
}

/// The smallest delta for which `channel` is (eps, delta)-LDP (Def. 1), outward rounded:
/// `max_{x, x'} sum_y (Q[x][y] - e^eps Q[x'][y])^+`.
pub fn ldp_delta(channel: &Channel, epsilon: f64) -> f64 {
    let factor = exp_down(epsilon);
    let n = channel.inputs();
    let mut worst: f64 = 0.0;
    let mut terms = Vec::with_capacity(channel.outputs());
    for x in 0..n {
        for x2 in (0..n).filter(|&x2| x2 != x) {
            terms.clear();
            terms.extend((0..channel.outputs()).map(|y| {
                positive_part_up(channel.get(x, y), mul_down(factor, channel.get(x2, y)))
            }));
            worst = worst.max(sum_up(&terms));
        }
    }
    worst.min(1.0)
}

/// The smallest delta for which `channel` is (eps, delta)-LIP (Def. 5) for every prior in the
/// convex hull of `priors` (the conditions are affine in the prior, Lemma 2), outward rounded.
pub fn lip_delta(channel: &Channel, priors: &[Vec<f64>], epsilon: f64) -> f64 {
    let (up, down) = (exp_down(epsilon), exp_up(-epsilon));
    let support = super::union_support(priors);
    let m = channel.outputs();
    let mut worst: f64 = 0.0;
    for prior in priors {
        let bounds: Vec<(f64, f64)> = (0..m)
            .map(|y| output_probability_bounds(channel, prior, y))
            .collect();
        for &x in &support {
            let below: Vec<f64> = (0..m)
                .map(|y| positive_part_up(mul_up(down, channel.get(x, y)), bounds[y].0))
                .collect();
            let above: Vec<f64> = (0..m)
                .map(|y| positive_part_up(bounds[y].1, mul_down(up, channel.get(x, y))))
                .collect();
            worst = worst.max(sum_up(&below)).max(sum_up(&above));
        }
    }
    worst.min(1.0)
}

/// The smallest eps (rounded up, to bisection accuracy) at which `delta_at(eps) <= delta`, given
/// that `delta_at` is non-increasing and `delta_at(pure) == 0` at the pure leakage `pure`.
/// `inf` when the pure leakage is infinite and no finite eps up to the largest accepted one
/// reaches `delta`.
pub fn smallest_epsilon(delta_at: impl Fn(f64) -> f64, pure: f64, delta: f64) -> f64 {
    if delta_at(0.0) <= delta {
        return 0.0;
    }
    let mut hi = if pure.is_finite() {
        pure
    } else {
        super::MAX_EPSILON
    };
    if delta_at(hi) > delta {
        return if pure.is_finite() {
            pure
        } else {
            f64::INFINITY
        };
    }
    let mut lo = 0.0;
    for _ in 0..EPSILON_BISECTION_STEPS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if delta_at(mid) <= delta {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// (eps, delta)-LDP with delta > 0 (Def. 1). With delta = 0 problem files resolve to
/// [`Ldp`](super::Ldp).
#[derive(Debug, Clone, PartialEq)]
pub struct ApproximateLdp {
    /// The privacy parameter eps.
    pub epsilon: f64,
    /// The failure probability delta, in (0, 1].
    pub delta: f64,
}

/// (eps, delta)-LIP with delta > 0 (Def. 5) under one prior. With delta = 0 problem files
/// resolve to [`Lip`](super::Lip).
#[derive(Debug, Clone, PartialEq)]
pub struct ApproximateLip {
    /// The privacy parameter eps.
    pub epsilon: f64,
    /// The failure probability delta, in (0, 1].
    pub delta: f64,
    /// The prior (full support).
    pub prior: Vec<f64>,
}

/// `t_y >= sum(terms_y)`, `t_y >= 0` for every output and `sum_y t_y <= delta`.
fn encode_budget(
    lp: &mut ChannelLp,
    delta: f64,
    mut terms: impl FnMut(&ChannelLp, usize) -> Vec<(mechsynth_solvers::VarId, f64)>,
) {
    let mut total = Vec::with_capacity(lp.outputs());
    for y in 0..lp.outputs() {
        let t = lp.aux(0.0, 1.0);
        let mut row = terms(lp, y);
        row.push((t, -1.0));
        lp.constrain(row, Sense::Le, 0.0);
        total.push((t, 1.0));
    }
    lp.constrain(total, Sense::Le, delta);
}

impl PrivacyNotion for ApproximateLdp {
    fn key(&self) -> &'static str {
        "ldp"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: format!("ldp delta at eps = {}", self.epsilon),
            requested: self.delta,
            achieved: ldp_delta(channel, self.epsilon),
        }]
    }

    /// For every ordered pair `(x, x')`: `t_y >= Q[x][y] - e^eps Q[x'][y]`, `t_y >= 0`,
    /// `sum_y t_y <= delta` (exact).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let Some(budget) = lp.budget(self.epsilon) else {
            return format!(
                "ldp: eps = {} is too loose to encode; left to certification",
                self.epsilon
            );
        };
        let factor = budget.exp();
        let n = lp.inputs();
        for x in 0..n {
            for x2 in (0..n).filter(|&x2| x2 != x) {
                encode_budget(lp, self.delta, |lp, y| {
                    vec![(lp.q(x, y), 1.0), (lp.q(x2, y), -factor)]
                });
            }
        }
        format!(
            "ldp (eps, delta) = ({}, {}): positive parts per pair and output, summed per pair (exact), {} auxiliaries",
            self.epsilon,
            self.delta,
            n * n.saturating_sub(1) * lp.outputs()
        )
    }

    /// Lifted by one auxiliary `t_(x,x')` per ordered pair: `t >= q_x - e^eps q_x'`, `t >= 0`,
    /// and the coupling `sum_y t_(x,x'),y <= delta`. Above [`MAX_LIFTED_DIMENSION`] lifted
    /// coordinates, `None` (ray enumeration would not finish; local methods run).
    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let mut cone = ColumnCone::orthant(n);
        if self.epsilon > crate::formulation::LOOSE_LOG_RATIO {
            return Some(cone);
        }
        if n * n > MAX_LIFTED_DIMENSION {
            return None;
        }
        let factor = self.epsilon.exp();
        for x in 0..n {
            for x2 in (0..n).filter(|&x2| x2 != x) {
                let t = n + cone.aux;
                cone.aux += 1;
                cone.rows.push(vec![(t, 1.0), (x, -1.0), (x2, factor)]);
                cone.coupling.push((vec![(t, 1.0)], self.delta));
            }
        }
        Some(cone)
    }
}

impl PrivacyNotion for ApproximateLip {
    fn key(&self) -> &'static str {
        "lip"
    }

    fn check(&self, channel: &Channel) -> Vec<Check> {
        vec![Check {
            constraint: format!("lip delta at eps = {}", self.epsilon),
            requested: self.delta,
            achieved: lip_delta(channel, std::slice::from_ref(&self.prior), self.epsilon),
        }]
    }

    /// `lambda_y = sum_x p_x Q[x][y]`, then per input both directions of Def. 5:
    /// `u_y >= e^-eps Q[x][y] - lambda_y`, `v_y >= lambda_y - e^eps Q[x][y]`, all `>= 0`,
    /// `sum_y u_y <= delta`, `sum_y v_y <= delta` (exact).
    fn encode(&self, lp: &mut ChannelLp) -> String {
        let Some(budget) = lp.budget(self.epsilon) else {
            return format!(
                "lip: eps = {} is too loose to encode; left to certification",
                self.epsilon
            );
        };
        let (up, down) = (budget.exp(), (-budget).exp());
        let n = lp.inputs();
        let mut lambdas = Vec::with_capacity(lp.outputs());
        for y in 0..lp.outputs() {
            let lambda = lp.aux(0.0, 1.0);
            let mut terms: Vec<_> = (0..n).map(|x| (lp.q(x, y), -self.prior[x])).collect();
            terms.push((lambda, 1.0));
            lp.constrain(terms, Sense::Eq, 0.0);
            lambdas.push(lambda);
        }
        for x in 0..n {
            encode_budget(lp, self.delta, |lp, y| {
                vec![(lp.q(x, y), down), (lambdas[y], -1.0)]
            });
            encode_budget(lp, self.delta, |lp, y| {
                vec![(lambdas[y], 1.0), (lp.q(x, y), -up)]
            });
        }
        format!(
            "lip (eps, delta) = ({}, {}): output probabilities and positive parts per input and output, both directions (exact), {} auxiliaries",
            self.epsilon,
            self.delta,
            lp.outputs() * (1 + 2 * n)
        )
    }

    /// Lifted by two auxiliaries per input: `u_x >= e^-eps q_x - p . q`, `v_x >= p . q - e^eps
    /// q_x`, both `>= 0`, with the couplings `sum_y u_x,y <= delta`, `sum_y v_x,y <= delta`.
    /// Above [`MAX_LIFTED_DIMENSION`] lifted coordinates, `None`.
    fn column_cone(&self, n: usize) -> Option<ColumnCone> {
        let mut cone = ColumnCone::orthant(n);
        if self.epsilon > crate::formulation::LOOSE_LOG_RATIO {
            return Some(cone);
        }
        if 3 * n > MAX_LIFTED_DIMENSION {
            return None;
        }
        let (up, down) = (self.epsilon.exp(), (-self.epsilon).exp());
        for x in 0..n {
            let (u, v) = (n + cone.aux, n + cone.aux + 1);
            cone.aux += 2;
            // u - e^-eps q_x + p . q >= 0
            let mut row: Vec<(usize, f64)> = (0..n).map(|k| (k, self.prior[k])).collect();
            row[x].1 -= down;
            row.push((u, 1.0));
            cone.rows.push(row);
            // v - p . q + e^eps q_x >= 0
            let mut row: Vec<(usize, f64)> = (0..n).map(|k| (k, -self.prior[k])).collect();
            row[x].1 += up;
            row.push((v, 1.0));
            cone.rows.push(row);
            cone.coupling.push((vec![(u, 1.0)], self.delta));
            cone.coupling.push((vec![(v, 1.0)], self.delta));
        }
        Some(cone)
    }
}

/// The (eps, delta) trade-off of `channel` under LDP and under LIP with `prior`: for each
/// `epsilon` the smallest delta (`ldp delta at eps = E`, `lip delta at eps = E`), and for each
/// `delta` the smallest eps (`ldp eps at delta = D`, `lip eps at delta = D`), outward rounded.
pub fn approximate_profile(
    channel: &Channel,
    prior: &[f64],
    epsilons: &[f64],
    deltas: &[f64],
) -> std::collections::BTreeMap<String, f64> {
    let priors = [prior.to_vec()];
    let mut out = std::collections::BTreeMap::new();
    for &e in epsilons {
        out.insert(format!("ldp delta at eps = {e}"), ldp_delta(channel, e));
        out.insert(
            format!("lip delta at eps = {e}"),
            lip_delta(channel, &priors, e),
        );
    }
    for &d in deltas {
        let ldp = smallest_epsilon(|e| ldp_delta(channel, e), super::ldp_leakage(channel), d);
        let lip = smallest_epsilon(
            |e| lip_delta(channel, &priors, e),
            super::lip_leakage(channel, &priors),
            d,
        );
        out.insert(format!("ldp eps at delta = {d}"), ldp);
        out.insert(format!("lip eps at delta = {d}"), lip);
    }
    out
}
