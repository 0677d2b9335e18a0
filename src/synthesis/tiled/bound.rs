//! A rigorous lower bound for the large problem from the template's duals, carried like its
//! columns.
//!
//! For any duals `z >= 0` of ratio rows `Q[a][y] - f(a, b) Q[b][y] <= 0` (any rows, in any
//! columns), every channel of the large problem has
//! `sum c[x][y] Q[x][y] >= sum c[x][y] Q[x][y] + sum z (Q[a][y] - f Q[b][y])
//!  = sum_x sum_y r[x][y] Q[x][y] >= sum_x min_y r[x][y]`,
//! with `r[x][y] = c[x][y] + sum of the row terms at (x, y)`, since each row of `Q` is a
//! distribution (Lagrangian relaxation of the ratio rows; weak duality as in Neumaier and
//! Shcherbina, Math. Programming 99, 2004). The template's duals, carried to each output
//! with the template's column, make `r` close to the large problem's optimal reduced costs.
//! Each `r` is computed with its rounding error bounded (Higham, "Accuracy and Stability of
//! Numerical Algorithms", 2nd ed., Sec. 3.1), so the bound holds for the exact problem.

use super::lattice::{Lattice, Placement};
use super::shapes::Factors;
use crate::synthesis::ratio_interior::ColumnDuals;
use rayon::prelude::*;

use crate::numeric::gamma;

/// The bound `sum_x min_y r[x][y]` (module docs) at the template's duals carried to every
/// output of the large lattice.
pub(crate) fn carried_bound(
    costs: &[Vec<f64>],
    large: &Lattice,
    small: &Lattice,
    placement: &Placement,
    duals: &ColumnDuals,
    factors: &Factors,
) -> f64 {
    let n = large.len();
    let least = (0..n)
        .into_par_iter()
        .fold(
            || vec![f64::INFINITY; n],
            |mut least, y| {
                let (i, j) = large.cell(y);
                let ((ti, tj), (si, sj)) = placement.of(i, j);
                let ty = small.at(ti, tj);
                let carry = |t: u32| {
                    let (a, b) = small.cell(t as usize);
                    large.at(a + si, b + sj)
                };
                let mut r: Vec<f64> = (0..n).map(|x| costs[x][y]).collect();
                let mut magnitude: Vec<f64> = r.iter().map(|c| c.abs()).collect();
                let mut terms = vec![1usize; n];
                for &(ta, tb, z) in &duals.columns[ty] {
                    let (a, b) = (carry(ta), carry(tb));
                    let t = factors.get(a, b) * z;
                    r[a] += z;
                    magnitude[a] += z;
                    terms[a] += 1;
                    r[b] -= t;
                    magnitude[b] += t;
                    terms[b] += 1;
                }
                for x in 0..n {
                    // Each product f z and each of the `terms` sums rounds once.
                    let low = (r[x] - gamma(terms[x] + 1) * magnitude[x]).next_down();
                    least[x] = least[x].min(low);
                }
                least
            },
        )
        .reduce(
            || vec![f64::INFINITY; n],
            |mut a, b| {
                a.iter_mut().zip(b).for_each(|(x, y)| *x = x.min(y));
                a
            },
        );
    let total: f64 = least.iter().sum();
    let magnitude: f64 = least.iter().map(|v| v.abs()).sum();
    if !total.is_finite() {
        return f64::NEG_INFINITY;
    }
    (total - gamma(n + 1) * magnitude).next_down()
}
