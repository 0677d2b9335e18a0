//! The reference for column-convex objectives (MMSE of a sum or histogram, mutual information)
//! under column-wise notions: the optimum over channels with any number of outputs is attained
//! with every column on an extreme ray of the column cone (a concave minimand or convex maximand
//! that is positively homogeneous), so it is the LP over ray weights
//! `sum_r w_r v_r = 1, w >= 0` (with maximal leakage, each column also carries `t_y` and the
//! weights share its budget). The rays are found here by brute-force vertex enumeration of the
//! cone's slice `sum q = 1`: every choice of n - 1 active constraints.

use super::lp::{repair, solve_with_point, Reference};
use super::utility::{column_value, evaluate};
use super::{Case, Constraint};
use mechsynth_solvers::{LinearProgram, Sense};

/// Largest number of (n-1)-subsets of constraints enumerated; larger cones get no reference.
pub const SUBSET_LIMIT: u64 = 400_000;
/// Smallest pivot (rows scaled to largest coefficient 1) of a non-singular active set.
const PIVOT_TOLERANCE: f64 = 1e-12;
/// Largest violation of a constraint by an enumerated vertex.
const FEASIBILITY_TOLERANCE: f64 = 1e-10;
/// Two vertices closer than this (max norm) are the same.
const DUPLICATE_TOLERANCE: f64 = 1e-9;

/// The budget `B` of maximal leakage, when `case` has it: columns carry one more coordinate
/// `t_y >= max_{x: p_x > 0} Q[x][y]`, and `sum_y t_y <= B` couples them (with `t_y <= 1`, a
/// budget above n is the same as n). The smallest budget when there are several.
pub fn leakage_budget(case: &Case) -> Option<f64> {
    case.constraints
        .iter()
        .filter_map(|c| match c {
            Constraint::MaxLeakage { epsilon, .. } => Some(epsilon.exp().min(case.n as f64)),
            _ => None,
        })
        .reduce(f64::min)
}

/// The rows `a` of the cone `{z : a.z <= 0}` (non-negativity included) over columns
/// `z = q` or, with maximal leakage, `z = (q, t)`; each scaled to largest coefficient 1, without
/// duplicates; `None` under mutual-information privacy (it couples the columns non-linearly).
pub fn cone_rows(case: &Case) -> Option<Vec<Vec<f64>>> {
    let n = case.n;
    let d = n + usize::from(leakage_budget(case).is_some());
    let mut rows: Vec<Vec<f64>> = Vec::new();
    let unit = |x: usize, v: f64| {
        let mut r = vec![0.0; d];
        r[x] = v;
        r
    };
    for x in 0..d {
        rows.push(unit(x, -1.0));
    }
    for c in &case.constraints {
        match c {
            Constraint::Ratios(pairs) => {
                for &(a, b, budget) in pairs {
                    let mut r = unit(a, 1.0);
                    r[b] -= budget.exp();
                    rows.push(r);
                }
            }
            Constraint::Lip { epsilon, priors } => {
                for p in priors {
                    for x in 0..n {
                        let mut up = unit(x, 1.0);
                        let mut down = unit(x, -1.0);
                        for k in 0..n {
                            up[k] -= epsilon.exp() * p[k];
                            down[k] += (-epsilon).exp() * p[k];
                        }
                        rows.push(up);
                        rows.push(down);
                    }
                }
            }
            Constraint::MaxLeakage { support, .. } => {
                for x in (0..n).filter(|&x| support[x]) {
                    let mut r = unit(x, 1.0);
                    r[n] = -1.0;
                    rows.push(r);
                }
            }
            Constraint::MutualInformation { .. } => return None,
        }
    }
    let mut out: Vec<Vec<f64>> = Vec::new();
    for r in rows {
        let top = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if top == 0.0 {
            continue;
        }
        let r: Vec<f64> = r.iter().map(|v| v / top).collect();
        if !out.contains(&r) {
            out.push(r);
        }
    }
    Some(out)
}

fn binomial(m: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| {
        acc.saturating_mul((m - i) as u64) / (i as u64 + 1)
    })
}

/// Solve the square system `a q = b` by Gaussian elimination with partial pivoting.
fn solve_square(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < PIVOT_TOLERANCE {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for i in col + 1..n {
            let f = a[i][col] / a[col][col];
            for k in col..n {
                a[i][k] -= f * a[col][k];
            }
            b[i] -= f * b[col];
        }
    }
    let mut q = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| a[i][k] * q[k]).sum();
        q[i] = (b[i] - s) / a[i][i];
    }
    Some(q)
}

/// The extreme rays of `{z in R^n : rows.z <= 0}`, normalized to `sum z = 1`; `None` past
/// [`SUBSET_LIMIT`].
pub fn extreme_rays(n: usize, rows: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let k = n - 1;
    if binomial(rows.len(), k) > SUBSET_LIMIT {
        return None;
    }
    let mut rays: Vec<Vec<f64>> = Vec::new();
    let mut pick: Vec<usize> = (0..k).collect();
    loop {
        let mut a: Vec<Vec<f64>> = pick.iter().map(|&i| rows[i].clone()).collect();
        a.push(vec![1.0; n]);
        let mut b = vec![0.0; k];
        b.push(1.0);
        if let Some(q) = solve_square(a, b) {
            let feasible = rows.iter().all(|r| {
                r.iter().zip(&q).map(|(a, v)| a * v).sum::<f64>() <= FEASIBILITY_TOLERANCE
            });
            if feasible {
                let q: Vec<f64> = q.iter().map(|v| v.max(0.0)).collect();
                let seen = rays.iter().any(|r| {
                    r.iter()
                        .zip(&q)
                        .all(|(a, b)| (a - b).abs() <= DUPLICATE_TOLERANCE)
                });
                if !seen {
                    rays.push(q);
                }
            }
        }
        // Next k-subset in lexicographic order.
        let Some(i) = (0..k).rev().find(|&i| pick[i] < rows.len() - k + i) else {
            break;
        };
        pick[i] += 1;
        for j in i + 1..k {
            pick[j] = pick[j - 1] + 1;
        }
    }
    Some(rays)
}

/// The ray-weight LP of `case` over `rays`: row sums 1 (and the leakage budget on the `t`
/// coordinates), each ray's weight times its column value as the cost. Replacing each column
/// of a channel by its decomposition into rays keeps these rows and does not worsen a convex
/// maximand or concave minimand that is positively homogeneous, so this LP is exact.
pub fn ray_program(case: &Case, rays: &[Vec<f64>]) -> LinearProgram {
    let n = case.n;
    let sign = if case.utility.maximize() { -1.0 } else { 1.0 };
    let mut lp = LinearProgram::new();
    let w: Vec<usize> = rays
        .iter()
        .map(|v| {
            let g = column_value(&case.utility, &case.prior, &v[..n]).unwrap_or(f64::NAN);
            // w q_x <= 1 (row sums) and w t <= n (t <= 1 per output, at most n outputs used).
            let top = v[..n].iter().fold(0.0f64, |m, a| m.max(*a));
            let t = v.get(n).map_or(0.0, |t| t / n as f64);
            lp.add_var(sign * g, 0.0, 1.0 / top.max(t))
        })
        .collect();
    for x in 0..n {
        let terms = w.iter().zip(rays).map(|(&j, v)| (j, v[x])).collect();
        lp.add_constraint(terms, Sense::Eq, 1.0);
    }
    if let Some(budget) = leakage_budget(case) {
        let terms = w.iter().zip(rays).map(|(&j, v)| (j, v[n])).collect();
        lp.add_constraint(terms, Sense::Le, budget);
    }
    lp
}

/// The reference optimum of a column-convex objective under column-wise notions, when the
/// cone is small enough to enumerate.
pub fn reference(case: &Case) -> Option<Reference> {
    column_value(&case.utility, &case.prior, &vec![1.0; case.n])?;
    let rows = cone_rows(case)?;
    let rays = extreme_rays(rows[0].len(), &rows)?;
    if rays.is_empty() {
        return Some(Reference::Infeasible);
    }
    let (reference, w) = solve_with_point(&ray_program(case, &rays), case.utility.maximize());
    let Reference::Solved { value, bound, .. } = reference else {
        return Some(reference);
    };
    // The channel of the ray weights: one output per ray of positive weight on the inputs.
    let used: Vec<usize> = (0..rays.len())
        .filter(|&r| w[r] > 0.0 && rays[r][..case.n].iter().any(|&v| v > 0.0))
        .collect();
    let q: Vec<Vec<f64>> = (0..case.n)
        .map(|x| used.iter().map(|&r| w[r] * rays[r][x]).collect())
        .collect();
    let achievable = repair(case, &q).and_then(|m| evaluate(&case.utility, &case.prior, &m));
    Some(Reference::Solved {
        value,
        bound,
        achievable,
    })
}
