//! A rigorous lower bound on the optimum of a [`LinearProgram`] from any dual vector.
//!
//! For `min c.x` subject to rows `a_k x (sense) b_k`, bounds `l <= x <= u` and exponential
//! cones, take multipliers `y` with the sign each row allows (`y_k >= 0` for `>=`, `y_k <= 0` for
//! `<=`, free for `=`) and cone multipliers `z_c` in the dual exponential cone. Every feasible
//! `x` satisfies `y_k a_k x >= y_k b_k` and `z_c . x_c >= 0`, so with reduced costs
//! `r = c - A^T y - sum_c z_c`,
//!
//! ```text
//! c.x = y.(A x) + sum_c z_c . x_c + r.x  >=  y.b + sum_j min(r_j l_j, r_j u_j)
//! ```
//!
//! (weak duality with the box absorbing the reduced costs). This holds for *any* such `y` and
//! `z`, so a solver's inexact duals still give a valid bound once they are clipped to their
//! signs and the cone multipliers are pushed into the dual cone. The arithmetic is done in
//! floating point with an explicit error bound (`gamma_k = k u / (1 - k u)` per dot product,
//! Higham, *Accuracy and Stability of Numerical Algorithms*, Sec. 3.1), and the result is
//! lowered by it, so the returned number is below the exact bound of the exact program.

use crate::{LinearProgram, LpSolution, Sense};

/// Unit roundoff of f64.
const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// `gamma_k`: the relative error bound of a k-term floating-point dot product.
fn gamma(k: usize) -> f64 {
    let ku = k as f64 * UNIT_ROUNDOFF;
    (ku / (1.0 - ku)).next_up()
}

/// Push `(u, v, w)` into the dual exponential cone
/// `{u < 0, -u e^(v/u) <= e w} U {u = 0, v >= 0, w >= 0}` by raising `w` (or clipping `u`).
fn into_dual_exp_cone(mut z: [f64; 3]) -> [f64; 3] {
    let [u, v, w] = z;
    if u < 0.0 {
        // -u e^(v/u - 1), computed with a relative margin for the rounding of exp and the
        // products (each within a few ulps).
        let needed = (-u * (v / u - 1.0).exp()) * (1.0 + 16.0 * f64::EPSILON);
        if !(needed.is_finite()) {
            return [0.0, v.max(0.0), f64::INFINITY];
        }
        z[2] = w.max(needed.next_up());
    } else {
        z = [0.0, v.max(0.0), w.max(0.0)];
    }
    z
}

/// The equality rows `sum x_j = 1` over variables with lower bound 0 and with no variable in two
/// of them.
fn simplex_rows(lp: &LinearProgram) -> Vec<usize> {
    let mut used = vec![false; lp.num_vars()];
    let mut out = Vec::new();
    for (k, row) in lp.constraints().iter().enumerate() {
        let simplex = row.sense == Sense::Eq
            && row.rhs == 1.0
            && !row.terms.is_empty()
            && row
                .terms
                .iter()
                .all(|&(j, a)| a == 1.0 && lp.lower()[j] == 0.0 && !used[j]);
        let distinct = {
            let mut seen: Vec<usize> = row.terms.iter().map(|t| t.0).collect();
            seen.sort_unstable();
            seen.windows(2).all(|w| w[0] != w[1])
        };
        if simplex && distinct {
            row.terms.iter().for_each(|&(j, _)| used[j] = true);
            out.push(k);
        }
    }
    out
}

/// A rigorous lower bound on the optimal value of `lp` (a minimization) from the duals in
/// `solution`; `None` when the solution carries no duals, when they are not finite, or when a
/// reduced cost has the wrong sign on a variable without the matching finite bound (the bound
/// would be `-inf`).
pub fn rigorous_lower_bound(lp: &LinearProgram, solution: &LpSolution) -> Option<f64> {
    let rows = lp.constraints();
    if solution.duals.len() != rows.len() || solution.cone_duals.len() != lp.exp_cones().len() {
        return None;
    }
    // Multipliers with the signs their rows allow.
    let y: Vec<f64> = rows
        .iter()
        .zip(&solution.duals)
        .map(|(row, &d)| match row.sense {
            Sense::Eq => d,
            Sense::Ge => d.max(0.0),
            Sense::Le => d.min(0.0),
        })
        .collect();
    if y.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let n = lp.num_vars();
    // r_j = c_j - sum_k y_k a_kj - cone terms, with |error| <= gamma(terms) * magnitude.
    let mut r: Vec<f64> = lp.cost().to_vec();
    let mut magnitude: Vec<f64> = r.iter().map(|c| c.abs()).collect();
    let mut terms = vec![1usize; n];
    for (row, &yk) in rows.iter().zip(&y) {
        if yk == 0.0 {
            continue;
        }
        for &(j, a) in &row.terms {
            let p = yk * a;
            r[j] -= p;
            magnitude[j] += p.abs();
            terms[j] += 1;
        }
    }
    for (cone, z) in lp.exp_cones().iter().zip(&solution.cone_duals) {
        let z = into_dual_exp_cone(*z);
        for (&j, &zj) in cone.iter().zip(&z) {
            if !zj.is_finite() {
                return None;
            }
            r[j] -= zj;
            magnitude[j] += zj.abs();
            terms[j] += 1;
        }
    }
    // y . b, then the box minimum of each reduced cost over its interval of uncertainty.
    let mut total = 0.0;
    let mut total_magnitude = 0.0;
    let mut count = 0usize;
    for (row, &yk) in rows.iter().zip(&y) {
        let p = yk * row.rhs;
        total += p;
        total_magnitude += p.abs();
        count += 1;
    }
    // Simplex rows (sum of non-negative variables = 1, each variable in one such row): over the
    // simplex, sum_j r_j x_j >= min_j r_j, which is tighter than the box when the reduced costs
    // are all near zero with scattered signs.
    let mut in_simplex = vec![false; n];
    for k in simplex_rows(lp) {
        let mut least = f64::INFINITY;
        for &(j, _) in &rows[k].terms {
            let err = gamma(terms[j] + 1) * magnitude[j];
            least = least.min(r[j] - err);
            in_simplex[j] = true;
        }
        if !least.is_finite() {
            return None;
        }
        total += least;
        total_magnitude += least.abs();
        count += 1;
    }
    for j in 0..n {
        if in_simplex[j] {
            continue;
        }
        let err = gamma(terms[j] + 1) * magnitude[j];
        let (lo, hi) = (r[j] - err, r[j] + err);
        let (l, u) = (lp.lower()[j], lp.upper()[j]);
        let mut worst = f64::INFINITY;
        for rr in [lo, hi] {
            for bound in [l, u] {
                let v = if rr == 0.0 { 0.0 } else { rr * bound };
                if v.is_nan() {
                    return None;
                }
                worst = worst.min(v);
            }
        }
        if worst == f64::NEG_INFINITY {
            return None;
        }
        // The products above carry one rounding each.
        let w = worst - worst.abs() * UNIT_ROUNDOFF;
        total += w;
        total_magnitude += w.abs();
        count += 1;
    }
    let bound = (total - gamma(count + 1) * total_magnitude).next_down();
    bound.is_finite().then_some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LpStatus;

    fn solution(duals: Vec<f64>) -> LpSolution {
        LpSolution {
            status: LpStatus::Optimal,
            x: vec![],
            objective: 0.0,
            duals,
            cone_duals: vec![],
            iterations: 0,
        }
    }

    /// min x + 2y, x + y = 1, x, y in [0, 1]: optimum 1 with dual 1.
    fn small() -> LinearProgram {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        let y = lp.add_var(2.0, 0.0, 1.0);
        lp.add_constraint(vec![(x, 1.0), (y, 1.0)], Sense::Eq, 1.0);
        lp
    }

    #[test]
    fn exact_duals_give_the_optimum_from_below() {
        let b = rigorous_lower_bound(&small(), &solution(vec![1.0])).unwrap();
        assert!(b <= 1.0 && b > 1.0 - 1e-14, "{b}");
    }

    #[test]
    fn any_dual_gives_a_valid_bound() {
        for d in [-3.0, 0.0, 0.5, 1.5, 2.0, 7.0] {
            let b = rigorous_lower_bound(&small(), &solution(vec![d])).unwrap();
            assert!(b <= 1.0, "dual {d}: bound {b}");
        }
    }

    #[test]
    fn simplex_rows_tighten_scattered_reduced_costs() {
        // min 0 over the simplex x + y + z = 1: an inexact dual 1e-9 leaves reduced costs
        // -1e-9 on all three; the simplex bound loses 1e-9 once, the box would lose 3e-9.
        let mut lp = LinearProgram::new();
        let v: Vec<_> = (0..3).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        lp.add_constraint(v.iter().map(|&j| (j, 1.0)).collect(), Sense::Eq, 1.0);
        let b = rigorous_lower_bound(&lp, &solution(vec![1e-9])).unwrap();
        assert!(b <= 0.0 && b > -1e-15, "{b}");
    }

    #[test]
    fn wrong_signed_duals_are_clipped() {
        // min x, x >= 0.5 (row), x in [0, 1]: a negative dual of a >= row is clipped to 0.
        let mut lp = LinearProgram::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        lp.add_constraint(vec![(x, 1.0)], Sense::Ge, 0.5);
        let b = rigorous_lower_bound(&lp, &solution(vec![-1.0])).unwrap();
        assert!(b <= 0.5 && b >= -1e-15, "{b}");
        let b = rigorous_lower_bound(&lp, &solution(vec![1.0])).unwrap();
        assert!(b <= 0.5 && b > 0.5 - 1e-14, "{b}");
    }

    #[test]
    fn unbounded_variable_with_wrong_reduced_cost_gives_none() {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(-1.0, 0.0, f64::INFINITY);
        lp.add_constraint(vec![(x, 1.0)], Sense::Le, 1.0);
        assert!(rigorous_lower_bound(&lp, &solution(vec![0.0])).is_none());
        // A reduced cost of exactly 0 cannot be told from a slightly negative one, so an
        // infinite bound needs a reduced cost of the right sign beyond rounding.
        assert!(rigorous_lower_bound(&lp, &solution(vec![-1.0])).is_none());
        let b = rigorous_lower_bound(&lp, &solution(vec![-2.0])).unwrap();
        assert!(b <= -1.0 && b > -2.0 - 1e-14, "{b}");
    }

    #[test]
    fn dual_cone_projection_lands_in_the_cone() {
        for z in [[-1.0, 0.3, 0.0], [-2.0, -5.0, 1.0], [0.5, -1.0, -2.0]] {
            let [u, v, w] = into_dual_exp_cone(z);
            if u < 0.0 {
                assert!(-u * (v / u).exp() <= std::f64::consts::E * w, "{z:?}");
            } else {
                assert!(u == 0.0 && v >= 0.0 && w >= 0.0);
            }
        }
    }
}
