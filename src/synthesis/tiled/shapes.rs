//! Candidate output columns for the large lattice: the template's columns carried to each
//! output and extended to every input by the least values the ratio rows allow.
//!
//! A column `q` of a ratio cone (`q_a <= f(a, b) q_b`, with `f(a, c) <= f(a, b) f(b, c)` as for
//! any metric) known on a set `W` extends to every input by `q_x = max_{a in W} q_a / f(a, x)`:
//! each row from `W` to `x` holds by construction, a row from `x` to `b in W` holds because
//! `q_a <= f(a, b) q_b <= f(a, x) f(x, b) q_b`, and a row between two new inputs `x, x'`
//! because `q_a / f(a, x) <= f(x, x') q_a / f(a, x')`. This is the smallest column of the cone
//! that agrees with `q` on `W` (the cone is closed under entrywise maxima).

use super::lattice::{Lattice, Placement};
use rayon::prelude::*;

/// The factor `f(a, b) = e^(B[a][b])` of every pair of a lattice whose budgets `B` depend
/// only on the displacement between the points, by displacement, closed under the splits of a
/// displacement inside its bounding box (a budget above the sum of two shorter ones becomes
/// that sum: the rows of the shorter pairs imply it; rounded up).
pub(crate) struct Factors {
    rows: usize,
    cols: usize,
    cells: Vec<(usize, usize)>,
    /// By displacement `(di + rows - 1) * (2 cols - 1) + (dj + cols - 1)`.
    table: Vec<f64>,
}

impl Factors {
    /// From the budgets `B` (`n x n`); `None` when two pairs with the same displacement have
    /// budgets further apart than `tolerance` (relative).
    pub fn on_lattice(lattice: &Lattice, budgets: &[Vec<f64>], tolerance: f64) -> Option<Self> {
        let (r, c) = (lattice.rows, lattice.cols);
        let n = lattice.len();
        let cells: Vec<(usize, usize)> = (0..n).map(|s| lattice.cell(s)).collect();
        let mut f = Factors {
            rows: r,
            cols: c,
            cells,
            table: vec![f64::NAN; (2 * r - 1) * (2 * c - 1)],
        };
        for (a, row) in budgets.iter().enumerate() {
            for (b, &v) in row.iter().enumerate() {
                let v = if a == b { 0.0 } else { v };
                if v.is_nan() || v < 0.0 {
                    return None;
                }
                let k = f.key(a, b);
                let slot = &mut f.table[k];
                if slot.is_nan() {
                    *slot = v;
                } else if *slot != v && (*slot - v).abs() > tolerance * v.abs() {
                    return None;
                }
            }
        }
        let mut order: Vec<(i64, i64)> = (-(r as i64 - 1)..r as i64)
            .flat_map(|i| (-(c as i64 - 1)..c as i64).map(move |j| (i, j)))
            .collect();
        order.sort_by_key(|&(i, j)| i * i + j * j);
        for &(i, j) in &order {
            let k = f.index(i, j);
            let mut best = f.table[k];
            for ki in i.min(0)..=i.max(0) {
                for kj in j.min(0)..=j.max(0) {
                    if (ki, kj) == (0, 0) || (ki, kj) == (i, j) {
                        continue;
                    }
                    let split = f.table[f.index(ki, kj)] + f.table[f.index(i - ki, j - kj)];
                    if split < best {
                        best = split.next_up();
                    }
                }
            }
            f.table[k] = best;
        }
        f.table.iter_mut().for_each(|v| *v = v.exp());
        Some(f)
    }

    fn index(&self, di: i64, dj: i64) -> usize {
        (di + self.rows as i64 - 1) as usize * (2 * self.cols - 1)
            + (dj + self.cols as i64 - 1) as usize
    }

    fn key(&self, a: usize, b: usize) -> usize {
        let ((ai, aj), (bi, bj)) = (self.cells[a], self.cells[b]);
        self.index(bi as i64 - ai as i64, bj as i64 - aj as i64)
    }

    /// The factors `f^(1 - margin)`: those of eps scaled by `1 - margin`, still closed under
    /// splits (a collinear split multiplies, so a uniform factor would break it).
    pub fn shrunk(&self, margin: f64) -> Factors {
        Factors {
            rows: self.rows,
            cols: self.cols,
            cells: self.cells.clone(),
            table: self.table.iter().map(|f| f.powf(1.0 - margin)).collect(),
        }
    }

    /// `f(a, b)` (`+inf` when no chain of rows bounds the pair).
    #[inline]
    pub fn get(&self, a: usize, b: usize) -> f64 {
        self.table[self.key(a, b)]
    }
}

/// The template's column for output `y` of the large lattice, carried by the placement and
/// extended to every input (module docs). `template` is the template's channel (`t x t`,
/// symbols of `small`).
pub(crate) fn carried_column(
    y: usize,
    large: &Lattice,
    small: &Lattice,
    placement: &Placement,
    template: &[Vec<f64>],
    factors: &Factors,
) -> Vec<f64> {
    let (i, j) = large.cell(y);
    let ((ti, tj), (si, sj)) = placement.of(i, j);
    let ty = small.at(ti, tj);
    let mut known: Vec<(usize, f64)> = (0..small.len())
        .map(|tx| {
            let (a, b) = small.cell(tx);
            (large.at(a + si, b + sj), template[tx][ty].max(0.0))
        })
        .collect();
    // The largest column of the cone below the template's values on its window (the template
    // holds its rows only to its interior point's accuracy): `q_a = min_b f(a, b) q_b`.
    let values: Vec<f64> = known.iter().map(|k| k.1).collect();
    for (a, slot) in known.iter_mut().enumerate() {
        let x = slot.0;
        let low = known_min(x, &values, &small_to_large(small, large, si, sj), factors);
        slot.1 = low.min(values[a]);
    }
    extend(large.len(), &known, factors)
}

/// The large lattice's symbol of each template cell at shift `(si, sj)`.
fn small_to_large(small: &Lattice, large: &Lattice, si: usize, sj: usize) -> Vec<usize> {
    (0..small.len())
        .map(|t| {
            let (a, b) = small.cell(t);
            large.at(a + si, b + sj)
        })
        .collect()
}

/// `min_b f(x, b) v_b` over the window's symbols `at`.
fn known_min(x: usize, values: &[f64], at: &[usize], factors: &Factors) -> f64 {
    at.iter()
        .zip(values)
        .map(|(&b, &v)| factors.get(x, b) * v)
        .fold(f64::INFINITY, f64::min)
}

/// The least column of the cone that takes the `known` values (module docs).
pub(crate) fn extend(n: usize, known: &[(usize, f64)], factors: &Factors) -> Vec<f64> {
    let mut q = vec![f64::NAN; n];
    for &(x, v) in known {
        q[x] = v.max(0.0);
    }
    let filled: Vec<(usize, f64)> = known.iter().map(|&(x, v)| (x, v.max(0.0))).collect();
    q.par_iter_mut().enumerate().for_each(|(x, slot)| {
        if slot.is_nan() {
            *slot = filled
                .iter()
                .map(|&(a, v)| v / factors.get(a, x))
                .fold(0.0, f64::max);
        }
    });
    q
}

/// The column `1 / f(y, x)`: the least column with `q_y = 1`.
pub(crate) fn star(n: usize, y: usize, factors: &Factors) -> Vec<f64> {
    (0..n).map(|x| 1.0 / factors.get(y, x)).collect()
}
