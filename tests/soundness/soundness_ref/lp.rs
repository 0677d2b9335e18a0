//! The reference for linear objectives: a naive dense program written from the definitions
//! (every ordered pair and every output; LIP with one `lambda_y` per prior; maximal leakage with
//! `t_y`; mutual-information privacy with exponential cones), solved by Clarabel through the
//! workspace solvers crate, and a Lagrangian bound computed here from its duals.

use super::{Case, Constraint, Utility};
use mechsynth_solvers::{backend, BackendKind, LinearProgram, LpStatus, Sense, SolveOptions};

/// Tolerance asked of the reference solver.
pub const REFERENCE_SOLVER_TOLERANCE: f64 = 1e-12;
/// Relative float margin taken off the Lagrangian bound (its terms are summed in f64).
const BOUND_FLOAT_MARGIN: f64 = 1e-13;
/// Range of the cone variables `s_xy <= -Q ln(Q / lambda)` (the lower end is far below any
/// value an optimum uses: `-p_x s_xy` sums to at most eps <= 30 over the rows).
const CONE_VARIABLE_RANGE: (f64, f64) = (-1e4, 1.0);

/// Extra weights of the constant channel tried, in order, to make a conic reference point
/// exactly feasible.
const MIXING_STEPS: [f64; 15] = [
    0.0, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.5, 1.0,
];

/// What the reference found.
#[derive(Debug, Clone, PartialEq)]
pub enum Reference {
    /// Solved: the solver's objective (in the problem's sense) and, when the program has no
    /// cones, a Lagrangian bound on the optimum from its duals (lower when minimizing, upper
    /// when maximizing) that holds whatever the solver's accuracy.
    Solved {
        /// The best estimate of the optimum: the solver's objective (for conic programs, the
        /// achievable value, as there is no bound to vouch for the solver's).
        value: f64,
        /// The Lagrangian bound, in the problem's sense.
        bound: Option<f64>,
        /// The objective of the solver's point made feasible to rounding (see [`repair`]).
        achievable: Option<f64>,
    },
    /// The solver proved infeasibility.
    Infeasible,
    /// Any other ending (no usable answer).
    Failed(String),
}

/// Solve `lp` (a minimization) with Clarabel; `maximize` says whether the problem's value is
/// the negated LP objective.
pub fn solve(lp: &LinearProgram, maximize: bool) -> Reference {
    solve_with_point(lp, maximize).0
}

/// As [`solve`], with the solver's primal point (empty without one).
pub fn solve_with_point(lp: &LinearProgram, maximize: bool) -> (Reference, Vec<f64>) {
    let options = SolveOptions {
        time_limit_seconds: 60.0,
        tolerance: REFERENCE_SOLVER_TOLERANCE,
    };
    let solution = match backend(BackendKind::Clarabel).and_then(|b| b.solve(lp, &options)) {
        Ok(s) => s,
        Err(e) => return (Reference::Failed(e.to_string()), Vec::new()),
    };
    let sign = if maximize { -1.0 } else { 1.0 };
    let reference = match solution.status {
        LpStatus::Optimal | LpStatus::OptimalReducedAccuracy => Reference::Solved {
            value: sign * solution.objective,
            bound: (lp.exp_cones().is_empty())
                .then(|| sign * lagrangian_bound(lp, &solution.duals)),
            achievable: None,
        },
        LpStatus::Infeasible => Reference::Infeasible,
        other => Reference::Failed(other.to_string()),
    };
    (reference, solution.x)
}

/// `min c.x >= sum_k d_k rhs_k + sum_j min(r_j l_j, r_j u_j)` with `r = c - sum_k d_k a_k`,
/// after clipping each multiplier to its row's sign (`<=` rows: d <= 0; `>=` rows: d >= 0).
/// Valid for any multipliers; lowered by a float margin.
pub fn lagrangian_bound(lp: &LinearProgram, duals: &[f64]) -> f64 {
    let mut r = lp.cost().to_vec();
    let (mut total, mut scale) = (0.0, 0.0);
    for (c, &d) in lp.constraints().iter().zip(duals) {
        let d = match c.sense {
            Sense::Le => d.min(0.0),
            Sense::Ge => d.max(0.0),
            Sense::Eq => d,
        };
        for &(j, a) in &c.terms {
            r[j] -= d * a;
            scale += (d * a).abs();
        }
        total += d * c.rhs;
        scale += (d * c.rhs).abs();
    }
    for (j, &rj) in r.iter().enumerate() {
        let v = (rj * lp.lower()[j]).min(rj * lp.upper()[j]);
        total += v;
        scale += v.abs();
    }
    total - BOUND_FLOAT_MARGIN * scale
}

/// `q_a - e^budget q_b <= 0` with its largest coefficient scaled to 1.
fn ratio_row(qa: usize, qb: usize, budget: f64) -> Vec<(usize, f64)> {
    if budget >= 0.0 {
        vec![(qa, (-budget).exp()), (qb, -1.0)]
    } else {
        vec![(qa, 1.0), (qb, -budget.exp())]
    }
}

/// The dense program of `case` over square channels, with the linear objective `cost`.
pub fn program(case: &Case, cost: &[Vec<f64>], maximize: bool) -> LinearProgram {
    let n = case.n;
    let sign = if maximize { -1.0 } else { 1.0 };
    let mut lp = LinearProgram::new();
    let q: Vec<Vec<usize>> = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| lp.add_var(sign * cost[x][y], 0.0, 1.0))
                .collect()
        })
        .collect();
    for row in &q {
        lp.add_constraint(row.iter().map(|&v| (v, 1.0)).collect(), Sense::Eq, 1.0);
    }
    for c in &case.constraints {
        match c {
            Constraint::Ratios(pairs) => {
                for &(a, b, budget) in pairs {
                    for y in 0..n {
                        lp.add_constraint(ratio_row(q[a][y], q[b][y], budget), Sense::Le, 0.0);
                    }
                }
            }
            Constraint::Lip { epsilon, priors } => {
                for p in priors {
                    for y in 0..n {
                        let lambda = lp.add_var(0.0, 0.0, 1.0);
                        let mut terms: Vec<(usize, f64)> =
                            (0..n).map(|x| (q[x][y], p[x])).collect();
                        terms.push((lambda, -1.0));
                        lp.add_constraint(terms, Sense::Eq, 0.0);
                        for row in &q {
                            lp.add_constraint(ratio_row(row[y], lambda, *epsilon), Sense::Le, 0.0);
                            lp.add_constraint(ratio_row(lambda, row[y], *epsilon), Sense::Le, 0.0);
                        }
                    }
                }
            }
            Constraint::MaxLeakage { epsilon, support } => {
                let t: Vec<usize> = (0..n).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
                for y in 0..n {
                    for x in (0..n).filter(|&x| support[x]) {
                        lp.add_constraint(vec![(q[x][y], 1.0), (t[y], -1.0)], Sense::Le, 0.0);
                    }
                }
                // Each t_y <= 1, so a budget above n is the same as n (and keeps e^30 out).
                let terms = t.iter().map(|&v| (v, 1.0)).collect();
                lp.add_constraint(terms, Sense::Le, epsilon.exp().min(n as f64));
            }
            Constraint::MutualInformation { epsilon } => {
                let p = &case.prior;
                let mut total = Vec::new();
                for y in 0..n {
                    let lambda = lp.add_var(0.0, 0.0, 1.0);
                    let mut terms: Vec<(usize, f64)> = (0..n).map(|x| (q[x][y], p[x])).collect();
                    terms.push((lambda, -1.0));
                    lp.add_constraint(terms, Sense::Eq, 0.0);
                    for x in (0..n).filter(|&x| p[x] > 0.0) {
                        let (lo, hi) = CONE_VARIABLE_RANGE;
                        let s = lp.add_var(0.0, lo, hi);
                        lp.add_exp_cone(s, q[x][y], lambda);
                        total.push((s, -p[x]));
                    }
                }
                lp.add_constraint(total, Sense::Le, *epsilon);
            }
        }
    }
    lp
}

/// `q` made feasible to rounding for every constraint of `case`: mixed with the constant
/// channel of its output distribution, at the smallest weight tried that works (mutual
/// information is convex in the channel and 0 at a constant one, so the weight starts at
/// `1 - eps / I`; every notion holds for the constant channel whenever the problem is feasible,
/// and mixing keeps each ratio constraint with a non-negative budget). Returns the mixture.
pub fn repair(case: &Case, q: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = case.n;
    let q: Vec<Vec<f64>> = q
        .iter()
        .map(|r| {
            let r: Vec<f64> = r.iter().map(|v| v.clamp(0.0, 1.0)).collect();
            let s: f64 = r.iter().sum();
            r.iter().map(|v| v / s).collect()
        })
        .collect();
    let m = q.first().map_or(0, Vec::len);
    let lambda: Vec<f64> = (0..m)
        .map(|y| (0..n).map(|r| case.prior[r] * q[r][y]).sum())
        .collect();
    let limit = case
        .constraints
        .iter()
        .filter_map(|c| match c {
            Constraint::MutualInformation { epsilon } => Some(*epsilon),
            _ => None,
        })
        .fold(f64::INFINITY, f64::min);
    let info = super::privacy::mutual_information(&q, &case.prior);
    let first = if info > limit {
        1.0 - limit / info
    } else {
        0.0
    };
    MIXING_STEPS
        .iter()
        .map(|&step| (first + step).min(1.0))
        .find_map(|t| {
            let mixed: Vec<Vec<f64>> = q
                .iter()
                .map(|r| {
                    r.iter()
                        .zip(&lambda)
                        .map(|(a, l)| (1.0 - t) * a + t * l)
                        .collect()
                })
                .collect();
            let tol = super::privacy::STRICT_RATIO_TOLERANCE;
            let ok = case
                .constraints
                .iter()
                .all(|c| super::privacy::violation_within(c, &mixed, &case.prior, tol).is_none());
            ok.then_some(mixed)
        })
}

/// The reference optimum of a linear objective, with the achievable value of its point made
/// feasible by [`repair`]. With mutual-information privacy (exponential cones, no Lagrangian
/// bound here) the achievable value is also the estimate of the optimum.
pub fn reference(case: &Case) -> Option<Reference> {
    let Utility::Linear { cost, maximize } = &case.utility else {
        return None;
    };
    let lp = program(case, cost, *maximize);
    let (reference, x) = solve_with_point(&lp, *maximize);
    let Reference::Solved { value, bound, .. } = reference else {
        return Some(reference);
    };
    let n = case.n;
    let q: Vec<Vec<f64>> = (0..n).map(|r| x[r * n..(r + 1) * n].to_vec()).collect();
    let achievable =
        repair(case, &q).and_then(|m| super::utility::evaluate(&case.utility, &case.prior, &m));
    if !lp.exp_cones().is_empty() {
        return Some(match achievable {
            Some(a) => Reference::Solved {
                value: a,
                bound: None,
                achievable,
            },
            None => Reference::Failed("conic reference point infeasible after mixing".into()),
        });
    }
    Some(Reference::Solved {
        value,
        bound,
        achievable,
    })
}
