//! An interior iterate made a channel, exactly, for notions made of ratio rows
//! `Q[a][y] <= f Q[b][y]` (`f > 1`; d-privacy, context-aware LDP, LDP). A method stopped by its
//! time limit holds columns that keep only the rows encoded so far, and mixing such a point
//! with a constant channel until every pair holds can cost several times its objective. Two
//! steps instead, each proved below:
//!
//! **Envelope** ([`cone_envelope`]). The least column `v >= q` that keeps every row:
//! `v_b = max(q_b, max_a v_a / f_ab)` over the rows `(a, b, f)`, the fixed point reached by
//! processing entries in decreasing order (Dijkstra's order: a row only lowers what it passes
//! on, since `1 / f < 1`, so an entry is final when it is the largest not yet processed). At
//! the fixed point `v_a <= f v_b` for every row, and any column of the cone above `q` is above
//! `v` (by induction in the same order), so the entries raised are raised as little as any
//! private column allows. Each quotient is rounded up, so `f v_b >= v_a` also in floating point
//! up to the rounding of the product.
//!
//! **Normalization** ([`normalize_in_cone`]). Columns `q_y` in the cone whose rows sum to
//! `s_x > 0` (not 1). Let
//!
//! ```text
//! T = max( max_x s_x,  max over rows (a, b, f) of (f s_b - s_a) / (f - 1) ),
//! c_x = T - s_x,
//! Q[x][y] = (q_y[x] + [y = y*] c_x) / T.
//! ```
//!
//! Then `c >= 0` (`T >= s_x`), and `c` is in the cone: `c_a <= f c_b` reads
//! `T - s_a <= f T - f s_b`, i.e. `T (f - 1) >= f s_b - s_a`, which holds by the choice of `T`
//! since `f > 1`. The cone is convex, so column `y*` plus `c` is in it, and so is every column
//! divided by `T > 0`. Each row sums to `(s_x + c_x) / T = 1`. So `Q` is a channel and every
//! ratio row holds. `y*` is the output where `c` costs least. When the columns satisfy the rows
//! (`s_b <= f s_a` summing column by column), `(f s_b - s_a) / (f - 1) <= s_b + s_a`, so
//! `T <= 2 max s`: the objective at most doubles plus the cost of `c`; when the row sums vary
//! slowly against the factors (a near-optimal iterate whose few violated rows the envelope
//! raised), `T` is close to `max s` and the repair costs little.
//!
//! [`repair_ratio_iterate`] runs both steps with every factor lowered to `f^(1 - CONE_MARGIN)`,
//! so that the rounding of the divisions cannot push a ratio past `f`; the result is certified
//! like any method's point (recomputed with outward rounding).

use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// [`repair_ratio_iterate`] keeps every ratio within `f^(1 - CONE_MARGIN)` (the tiled method's
/// margin: far below any gap tolerance, far above the rounding of a division).
pub const CONE_MARGIN: f64 = 1e-10;

/// Ratio rows by their larger side: for each `a`, the rows `(b, f)` with `Q[a][y] <= f Q[b][y]`.
fn rows_from(ratios: &[(usize, usize, f64)], n: usize) -> Vec<Vec<(usize, f64)>> {
    let mut from = vec![Vec::new(); n];
    for &(a, b, f) in ratios {
        if a < n && b < n && a != b {
            from[a].push((b, f));
        }
    }
    from
}

/// An entry waiting in the heap: its value and its input.
#[derive(PartialEq)]
struct Entry(f64, usize);

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
    }
}

/// Raise every column of `rows` (n x m, `rows[x][y]`) to the least column above it that keeps
/// every ratio row `(a, b, f)`: `Q[a][y] <= f Q[b][y]` (module docs). Entries must be finite
/// and non-negative; rows with `f <= 1` or out-of-range ends are ignored.
pub fn cone_envelope(ratios: &[(usize, usize, f64)], rows: &mut [Vec<f64>]) {
    let n = rows.len();
    let m = rows.first().map_or(0, Vec::len);
    let from = rows_from(ratios, n);
    let columns: Vec<Vec<f64>> = (0..m)
        .into_par_iter()
        .map(|y| {
            let mut v: Vec<f64> = rows.iter().map(|r| r[y]).collect();
            let mut done = vec![false; n];
            let mut heap: BinaryHeap<Entry> = (0..n).map(|x| Entry(v[x], x)).collect();
            while let Some(Entry(value, a)) = heap.pop() {
                if done[a] || value < v[a] {
                    continue;
                }
                done[a] = true;
                for &(b, f) in &from[a] {
                    if f <= 1.0 || done[b] {
                        continue;
                    }
                    let lower = (value / f).next_up();
                    if lower > v[b] {
                        v[b] = lower;
                        heap.push(Entry(lower, b));
                    }
                }
            }
            v
        })
        .collect();
    for (y, column) in columns.into_iter().enumerate() {
        for (row, value) in rows.iter_mut().zip(column) {
            row[y] = value;
        }
    }
}

/// A channel (rows summing to 1) from columns `rows` (n x m, `rows[x][y]`) that keep every
/// ratio row `(a, b, f)` but whose rows sum to positive numbers other than 1: every column is
/// divided by `T` and `T - s` (`s` the row sums) is added to the output `y*` of least
/// `sum_x costs[x][y*] (T - s_x)` (module docs prove the result keeps every row). `costs` is
/// n x m, or `None` to use output 0. `None` when a row sum is not positive and finite.
pub fn normalize_in_cone(
    ratios: &[(usize, usize, f64)],
    rows: &[Vec<f64>],
    costs: Option<&[Vec<f64>]>,
) -> Option<Vec<Vec<f64>>> {
    let n = rows.len();
    let m = rows.first().map_or(0, Vec::len);
    if n == 0 || m == 0 {
        return None;
    }
    let sums: Vec<f64> = rows.iter().map(|r| r.iter().sum()).collect();
    if sums.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return None;
    }
    let mut total = sums.iter().fold(0.0f64, |t, &s| t.max(s));
    for &(a, b, f) in ratios {
        if a < n && b < n && a != b && f > 1.0 && f.is_finite() {
            let needed = (f * sums[b] - sums[a]) / (f - 1.0);
            if needed > total {
                total = needed;
            }
        }
    }
    // Rounded up a little, so that the deficit column keeps every row with room for the
    // rounding of its own entries.
    let total = total * (1.0 + 4.0 * f64::EPSILON);
    let deficit: Vec<f64> = sums.iter().map(|s| (total - s).max(0.0)).collect();
    let cost_of = |y: usize| -> f64 {
        costs.map_or(0.0, |c| {
            deficit
                .iter()
                .zip(c)
                .map(|(d, row)| d * row.get(y).copied().unwrap_or(0.0))
                .sum()
        })
    };
    let target = (0..m)
        .min_by(|&i, &j| cost_of(i).total_cmp(&cost_of(j)))
        .unwrap_or(0);
    Some(
        rows.iter()
            .zip(&deficit)
            .map(|(row, d)| {
                row.iter()
                    .enumerate()
                    .map(|(y, v)| (v + if y == target { *d } else { 0.0 }) / total)
                    .collect()
            })
            .collect(),
    )
}

/// [`cone_envelope`] then [`normalize_in_cone`] in the cone of the factors lowered by
/// [`CONE_MARGIN`]: a channel that keeps every ratio row from an
/// iterate that keeps only some (its row sums may differ from 1). `costs` (n x m, minimized)
/// picks where the deficit goes. `None` when a row of the iterate is empty or not finite.
pub fn repair_ratio_iterate(
    ratios: &[(usize, usize, f64)],
    iterate: &[Vec<f64>],
    costs: Option<&[Vec<f64>]>,
) -> Option<Vec<Vec<f64>>> {
    if iterate.iter().flatten().any(|v| !(v.is_finite())) {
        return None;
    }
    let inner: Vec<(usize, usize, f64)> = ratios
        .iter()
        .map(|&(a, b, f)| {
            let lower = (f.ln() * (1.0 - CONE_MARGIN)).exp();
            (a, b, if lower > 1.0 { lower } else { f })
        })
        .collect();
    let mut rows: Vec<Vec<f64>> = iterate
        .iter()
        .map(|r| r.iter().map(|v| v.max(0.0)).collect())
        .collect();
    cone_envelope(&inner, &mut rows);
    normalize_in_cone(&inner, &rows, costs)
}
