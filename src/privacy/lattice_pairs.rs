//! [`super::checked_pairs`] in O(n^2) for points on a full lattice whose unit matrix depends
//! only on the displacement between points (Euclidean or Manhattan distances on a grid).
//!
//! The generic test scans every third point `k` for each pair, O(n^3): 47 s at 2,500 points.
//! Here each displacement `D` is tested once, with `k` ranging over the lattice points of the
//! rectangle spanned by `0` and `D`: a pair `(a, a + D)` is left out only when such a `k`
//! implies it by the same exact test, and every point of that rectangle lies in the lattice
//! whenever `a` and `a + D` do. So a left-out pair is implied (the certificate stays sound);
//! a pair kept here that a point outside the rectangle would imply is only checked needlessly.

use super::context::exact_sum_at_most;
use crate::geo::lattice_cells;

/// The pairs to check for `unit` over `points`: by displacement on a full lattice where
/// `unit` depends only on the displacement, otherwise by the generic test.
pub(crate) fn checked_pairs_at(
    unit: &[Vec<f64>],
    points: Option<&[[f64; 2]]>,
) -> Vec<(usize, usize)> {
    points
        .filter(|p| p.len() == unit.len() && unit.len() > LATTICE_PAIRS_MIN)
        .and_then(|p| lattice_checked_pairs(unit, p))
        .unwrap_or_else(|| super::checked_pairs(unit, unit.len()))
}

/// From this many points a lattice's pairs are found by displacement (the generic O(n^3) test
/// takes seconds from a few hundred points on).
const LATTICE_PAIRS_MIN: usize = 64;

/// The pairs to check, or `None` when the points are not a full lattice or `unit` changes
/// with position.
pub(crate) fn lattice_checked_pairs(
    unit: &[Vec<f64>],
    points: &[[f64; 2]],
) -> Option<Vec<(usize, usize)>> {
    let (rows, cols, cell) = lattice_cells(points)?;
    let width = 2 * cols - 1;
    let key = |di: i64, dj: i64| {
        (di + rows as i64 - 1) as usize * width + (dj + cols as i64 - 1) as usize
    };
    let displacement = |a: usize, b: usize| {
        let ((ai, aj), (bi, bj)) = (cell[a], cell[b]);
        (bi as i64 - ai as i64, bj as i64 - aj as i64)
    };
    let mut table = vec![f64::NAN; (2 * rows - 1) * width];
    for (a, row) in unit.iter().enumerate() {
        for (b, &u) in row.iter().enumerate() {
            let (di, dj) = displacement(a, b);
            let slot = &mut table[key(di, dj)];
            if slot.is_nan() {
                *slot = u;
            } else if slot.to_bits() != u.to_bits() {
                return None;
            }
        }
    }
    let finite_positive = |v: f64| v.is_finite() && v > 0.0;
    let mut implied = vec![false; table.len()];
    for di in -(rows as i64 - 1)..rows as i64 {
        for dj in -(cols as i64 - 1)..cols as i64 {
            let u = table[key(di, dj)];
            if (di, dj) == (0, 0) || !finite_positive(u) {
                continue;
            }
            let (i0, i1) = (di.min(0), di.max(0));
            let (j0, j1) = (dj.min(0), dj.max(0));
            implied[key(di, dj)] = (i0..=i1).any(|ki| {
                (j0..=j1).any(|kj| {
                    if (ki, kj) == (0, 0) || (ki, kj) == (di, dj) {
                        return false;
                    }
                    let (x, y) = (table[key(ki, kj)], table[key(di - ki, dj - kj)]);
                    finite_positive(x) && finite_positive(y) && exact_sum_at_most(x, y, u)
                })
            });
        }
    }
    let mut pairs = Vec::new();
    for (a, row) in unit.iter().enumerate() {
        for (b, &u) in row.iter().enumerate() {
            let (di, dj) = displacement(a, b);
            if a != b && !u.is_infinite() && !implied[key(di, dj)] {
                pairs.push((a, b));
            }
        }
    }
    Some(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::privacy::checked_pairs;

    type Metric = fn([f64; 2], [f64; 2]) -> f64;

    fn grid(rows: usize, cols: usize, step: f64) -> Vec<[f64; 2]> {
        (0..rows * cols)
            .map(|s| [step * (s / cols) as f64, step * (s % cols) as f64])
            .collect()
    }

    /// Against the generic O(n^3) test: the same pairs on grids under the Euclidean and the
    /// Manhattan metric, so certification checks exactly what it checked before.
    #[test]
    fn the_pairs_match_the_generic_test_on_grids() {
        for (rows, cols, step) in [(5, 5, 1.0), (4, 7, 1.0), (6, 6, 0.5), (3, 9, 2.0)] {
            let points = grid(rows, cols, step);
            let metrics: [Metric; 2] = [
                |a, b| (a[0] - b[0]).hypot(a[1] - b[1]),
                |a, b| (a[0] - b[0]).abs() + (a[1] - b[1]).abs(),
            ];
            for d in metrics {
                let unit: Vec<Vec<f64>> = points
                    .iter()
                    .map(|&a| points.iter().map(|&b| d(a, b)).collect())
                    .collect();
                let fast = lattice_checked_pairs(&unit, &points).expect("a lattice");
                let slow = checked_pairs(&unit, unit.len());
                assert_eq!(fast, slow, "{rows} x {cols}, step {step}");
            }
        }
    }

    #[test]
    fn a_position_dependent_matrix_is_left_to_the_generic_test() {
        let points = grid(3, 3, 1.0);
        let mut unit: Vec<Vec<f64>> = points
            .iter()
            .map(|&a| {
                points
                    .iter()
                    .map(|&b| (a[0] - b[0]).hypot(a[1] - b[1]))
                    .collect()
            })
            .collect();
        unit[0][1] *= 1.5;
        assert!(lattice_checked_pairs(&unit, &points).is_none());
        let scattered = vec![[0.0, 0.0], [1.0, 0.2], [3.0, 1.0]];
        let unit = vec![vec![0.0; 3]; 3];
        assert!(lattice_checked_pairs(&unit, &scattered).is_none());
    }
}
