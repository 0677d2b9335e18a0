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

use super::approximate_delta::{ldp_delta, lip_delta};
use super::{Check, PrivacyNotion};
use crate::channel::Channel;
use crate::error::show_number;
use crate::formulation::ChannelLp;
use crate::rays::ColumnCone;
use mechsynth_solvers::Sense;

/// Most lifted coordinates (inputs plus auxiliaries) of the column cone offered to the
/// extreme-ray methods: LDP lifts to `n^2`, LIP to `3n`; beyond this double description would
/// not finish, and the notion reports no cone (local methods with a relaxed bound run).
pub const MAX_LIFTED_DIMENSION: usize = 12;

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
            constraint: format!("ldp delta at eps = {}", show_number(self.epsilon)),
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
                show_number(self.epsilon)
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
            show_number(self.epsilon),
            show_number(self.delta),
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
            constraint: format!("lip delta at eps = {}", show_number(self.epsilon)),
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
                show_number(self.epsilon)
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
            show_number(self.epsilon),
            show_number(self.delta),
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
