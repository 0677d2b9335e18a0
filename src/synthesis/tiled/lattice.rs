//! Points on a full rectangular lattice, and the placement of a smaller template lattice at
//! each output of a large one.

/// A full `rows x cols` lattice: every symbol is one cell, every cell one symbol.
pub(crate) struct Lattice {
    /// Number of distinct first coordinates.
    pub rows: usize,
    /// Number of distinct second coordinates.
    pub cols: usize,
    /// The symbol at cell `(i, j)`, at `i * cols + j`.
    symbol: Vec<usize>,
    /// The cell of each symbol.
    cell: Vec<(usize, usize)>,
}

/// Coordinates closer than this (relative to the lattice's extent) are the same row or column.
const SAME_COORDINATE: f64 = 1e-9;

impl Lattice {
    /// The lattice the points fill, if they fill one: equally spaced distinct values along each
    /// axis, and every combination present exactly once.
    pub fn detect(points: &[[f64; 2]]) -> Option<Lattice> {
        let axis = |k: usize| -> Option<Vec<f64>> {
            let mut v: Vec<f64> = points.iter().map(|p| p[k]).collect();
            if v.iter().any(|x| !x.is_finite()) {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let extent = (v[v.len() - 1] - v[0]).abs().max(1.0);
            v.dedup_by(|a, b| (*a - *b).abs() <= SAME_COORDINATE * extent);
            if v.len() >= 2 {
                let step = (v[v.len() - 1] - v[0]) / (v.len() - 1) as f64;
                let even = v
                    .iter()
                    .enumerate()
                    .all(|(i, x)| (x - (v[0] + i as f64 * step)).abs() <= SAME_COORDINATE * extent);
                if !even {
                    return None;
                }
            }
            Some(v)
        };
        if points.is_empty() {
            return None;
        }
        let (xs, ys) = (axis(0)?, axis(1)?);
        let (rows, cols) = (xs.len(), ys.len());
        if rows * cols != points.len() {
            return None;
        }
        let nearest = |values: &[f64], x: f64| -> usize {
            let step = if values.len() > 1 {
                (values[values.len() - 1] - values[0]) / (values.len() - 1) as f64
            } else {
                1.0
            };
            (((x - values[0]) / step).round().max(0.0) as usize).min(values.len() - 1)
        };
        let mut symbol = vec![usize::MAX; rows * cols];
        let mut cell = Vec::with_capacity(points.len());
        for (s, p) in points.iter().enumerate() {
            let (i, j) = (nearest(&xs, p[0]), nearest(&ys, p[1]));
            if symbol[i * cols + j] != usize::MAX {
                return None;
            }
            symbol[i * cols + j] = s;
            cell.push((i, j));
        }
        Some(Lattice {
            rows,
            cols,
            symbol,
            cell,
        })
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.cell.len()
    }

    /// The symbol at cell `(i, j)`.
    pub fn at(&self, i: usize, j: usize) -> usize {
        self.symbol[i * self.cols + j]
    }

    /// The cell of symbol `s`.
    pub fn cell(&self, s: usize) -> (usize, usize) {
        self.cell[s]
    }
}

/// Where the template lattice (`t_rows x t_cols`, placed at the large lattice's corner) stands
/// in for each output of the large lattice: along an axis of `n` cells with a template of `t`,
/// cells less than `t / 2` from the start are the template's own, cells as close to the end
/// are the template's last cells, and every cell between is the template's middle cell. So an
/// output sees, within its template's reach, the same edges as the template output it copies.
pub(crate) struct Placement {
    rows: Axis,
    cols: Axis,
}

#[derive(Clone, Copy)]
struct Axis {
    n: usize,
    t: usize,
}

impl Axis {
    /// `(template cell, shift)` for cell `i`: `i = template cell + shift`.
    fn place(self, i: usize) -> (usize, usize) {
        let half = self.t / 2;
        let tail = self.n - (self.t - half);
        let t = if i < half {
            i
        } else if i >= tail {
            i - (self.n - self.t)
        } else {
            half
        };
        (t, i - t)
    }
}

impl Placement {
    /// The placement of a `t_rows x t_cols` template in an `n_rows x n_cols` lattice
    /// (`1 <= t <= n` on each axis).
    pub fn new(n_rows: usize, n_cols: usize, t_rows: usize, t_cols: usize) -> Self {
        Placement {
            rows: Axis {
                n: n_rows,
                t: t_rows,
            },
            cols: Axis {
                n: n_cols,
                t: t_cols,
            },
        }
    }

    /// For the large lattice's cell `(i, j)`: the template cell it copies and the shift that
    /// carries template cells onto large ones.
    pub fn of(&self, i: usize, j: usize) -> ((usize, usize), (usize, usize)) {
        let (ti, si) = self.rows.place(i);
        let (tj, sj) = self.cols.place(j);
        ((ti, tj), (si, sj))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shuffled_grid_is_a_lattice_and_a_gap_is_not() {
        let mut points: Vec<[f64; 2]> = (0..12)
            .map(|s| [0.5 * (s / 4) as f64, 3.0 + 0.25 * (s % 4) as f64])
            .collect();
        points.swap(0, 7);
        let lattice = Lattice::detect(&points).expect("a 3 x 4 grid");
        assert_eq!((lattice.rows, lattice.cols), (3, 4));
        for (s, p) in points.iter().enumerate() {
            let (i, j) = lattice.cell(s);
            assert_eq!(lattice.at(i, j), s);
            assert_eq!([0.5 * i as f64, 3.0 + 0.25 * j as f64], *p);
        }
        points.pop();
        assert!(Lattice::detect(&points).is_none());
        let uneven = vec![[0.0, 0.0], [1.0, 0.0], [3.0, 0.0]];
        assert!(Lattice::detect(&uneven).is_none());
    }

    #[test]
    fn every_placement_stays_inside_and_keeps_the_distance_to_the_near_edge() {
        for (n, t) in [(50, 20), (30, 7), (9, 9), (10, 4)] {
            let axis = Axis { n, t };
            for i in 0..n {
                let (c, shift) = axis.place(i);
                assert!(c < t && c + shift == i && shift + t <= n, "{n} {t} {i}");
                if i < t / 2 {
                    assert_eq!(c, i);
                }
                if n - 1 - i < t - t / 2 - 1 {
                    assert_eq!(t - 1 - c, n - 1 - i);
                }
            }
        }
    }
}
