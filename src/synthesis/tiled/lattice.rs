//! The placement of a smaller template lattice at each output of a large one.

pub(crate) use crate::geo::lattice::Lattice;

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
