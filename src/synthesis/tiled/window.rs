//! Pricing one output of the large lattice over a window around it: a rigorous lower bound on
//! `min (c_y - nu) . q` over the columns `q` of the cone with `sum_x q_x = 1`.
//!
//! **Window.** `W` holds the inputs `x` with `f(y, x) <= e^WINDOW_DECAY` (the nearest
//! [`MAX_WINDOW`] of them). When every reduced
//! cost outside it is nonnegative, `w_x = c[x][y] - nu_x >= w_min >= 0` for `x` not in `W`, the
//! row `q_y <= f(y, x) q_x` gives `q_x >= q_y / f(y, x)`, so the outside costs at least
//! `sum_{x not in W} w_x q_x >= k q_y + w_min m` with `k = sum (w_x - w_min) / f(y, x)` and
//! `m = sum_{x not in W} q_x >= S q_y`, `S = sum 1 / f(y, x)`. The program over `W` and `m`
//! with those two terms, the ratio rows among `W`, and `sum_W q + m = 1`, is a relaxation:
//! every column of the cone maps into it at no greater cost. Leaving ratio rows out relaxes it
//! further, so the rows are added lazily (those the solution violates) and every
//! relaxation's rigorous dual bound (Neumaier and Shcherbina, Math. Programming 99, 2004)
//! bounds the minimum over the whole cone from below.

use super::lattice::Lattice;
use super::shapes::Factors;
use crate::synthesis::ROW_VIOLATION;
use mechsynth_solvers::{
    rigorous_lower_bound, BackendError, LinearProgram, LpBackend, Sense, SolveOptions,
};

/// The window holds the inputs within this many units of `ln f` of its output (`eps d <= 6`:
/// 12 cells at eps 0.5; the star `e^(-eps d)` keeps about 1.7% of its mass outside).
pub const WINDOW_DECAY: f64 = 6.0;
/// Inputs in a window, at most (a small epsilon would otherwise make every window the whole
/// lattice).
const MAX_WINDOW: usize = 800;
/// Ratio rows added per input and re-solve, at most (the most violated). On a 33 x 33 grid the
/// first round's pricing took 73 s with 8, 45 s with 32 and 30 s with 128: re-solves dominate.
const ADDED_ROWS_PER_INPUT: usize = 128;
/// Re-solves of one pricing program with more rows, at most.
const MAX_RESOLVES: usize = 12;
/// Unit roundoff of f64.
const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// The window of one output.
pub(crate) struct Window {
    /// The output.
    pub output: usize,
    /// The inputs in the window, the output first.
    pub members: Vec<usize>,
    /// `members`' factors, `m x m`, row-major: `factor[a * m + b] = f(members[a], members[b])`.
    factor: Vec<f64>,
    /// The ratio rows of the current relaxation, as `(a, b)` indices into `members`.
    pub active: Vec<(u32, u32)>,
}

/// A priced output: the rigorous lower bound and the window's column (`members` order).
pub(crate) struct WindowPrice {
    /// Lower bound on the minimum over unit-mass columns of the whole cone.
    pub lower: f64,
    /// The last relaxation's column on the window, when the backend returned one.
    pub column: Option<Vec<f64>>,
}

impl Window {
    /// The window of `output`, with each member's rows to its nearest lattice neighbours.
    pub fn new(output: usize, lattice: &Lattice, factors: &Factors) -> Window {
        let n = lattice.len();
        let limit = WINDOW_DECAY.exp();
        let mut members: Vec<usize> = (0..n)
            .filter(|&x| x != output && factors.get(output, x) <= limit)
            .collect();
        // The nearest first; any set holding the output gives a relaxation.
        members.sort_by(|&a, &b| factors.get(output, a).total_cmp(&factors.get(output, b)));
        members.truncate(MAX_WINDOW - 1);
        members.insert(0, output);
        let m = members.len();
        let mut factor = vec![0.0; m * m];
        for (a, &xa) in members.iter().enumerate() {
            for (b, &xb) in members.iter().enumerate() {
                // Rounded up: `exp` may err by an ulp, and a row tighter than the cone's is no relaxation.
                factor[a * m + b] = factors.get(xa, xb).next_up();
            }
        }
        let cells: Vec<(i64, i64)> = members
            .iter()
            .map(|&x| {
                let (i, j) = lattice.cell(x);
                (i as i64, j as i64)
            })
            .collect();
        let mut active = Vec::new();
        for a in 0..m {
            for b in 0..m {
                let (di, dj) = (cells[b].0 - cells[a].0, cells[b].1 - cells[a].1);
                // The displacements of at most 3 steps along each axis.
                if a != b && di.abs() <= 3 && dj.abs() <= 3 {
                    active.push((a as u32, b as u32));
                }
            }
        }
        Window {
            output,
            members,
            factor,
            active,
        }
    }

    fn f(&self, a: usize, b: usize) -> f64 {
        self.factor[a * self.members.len() + b]
    }

    /// Price reduced costs `c[x][output] - nu_x`; `cost(x)` is `c[x][output]`. Errors only
    /// when the backend cannot run; a window whose outside has a negative reduced cost gets
    /// the bound `-inf`.
    pub fn price(
        &mut self,
        cost: impl Fn(usize) -> f64,
        nu: &[f64],
        all: &Factors,
        backend: &dyn LpBackend,
        options: &SolveOptions,
    ) -> Result<WindowPrice, BackendError> {
        let n = nu.len();
        let m = self.members.len();
        let mut inside = vec![false; n];
        self.members.iter().for_each(|&x| inside[x] = true);
        let outside = || (0..n).filter(|&x| !inside[x]);
        let w_min = outside()
            .map(|x| (cost(x) - nu[x]).next_down())
            .fold(f64::INFINITY, f64::min);
        let unbounded = WindowPrice {
            lower: f64::NEG_INFINITY,
            column: None,
        };
        if w_min < 0.0 {
            return Ok(unbounded);
        }
        let w_min = if w_min.is_finite() { w_min } else { 0.0 };
        // Sums of nonnegative terms, each rounded, err by at most (n + 2) u of the total
        // (Higham, Sec. 3.1): shrink both so the relaxation stays one.
        let shrink = 1.0 - 4.0 * (n as f64 + 2.0) * UNIT_ROUNDOFF;
        let (mut k, mut s) = (0.0, 0.0);
        for x in outside() {
            let f = all.get(self.output, x).next_up();
            let w = ((cost(x) - nu[x]).next_down() - w_min).next_down().max(0.0);
            k += w / f;
            s += 1.0 / f;
        }
        let (k, s) = (k * shrink, s * shrink);
        let w: Vec<f64> = self.members.iter().map(|&x| cost(x) - nu[x]).collect();
        // The computed w_x err by at most u |w_x| from c - nu; over a unit mass that is at
        // most u max |w|, taken off twice over.
        let slack = 4.0 * UNIT_ROUNDOFF * w.iter().fold(w_min, |a, v| a.max(v.abs()));
        let mut best = f64::NEG_INFINITY;
        let mut column = None;
        for _ in 0..MAX_RESOLVES {
            let mut lp = LinearProgram::new();
            for (a, &wa) in w.iter().enumerate() {
                lp.add_var(if a == 0 { wa + k } else { wa }, 0.0, 1.0);
            }
            let far = lp.add_var(w_min, 0.0, 1.0);
            lp.add_constraint((0..=m).map(|v| (v, 1.0)).collect(), Sense::Eq, 1.0);
            lp.add_constraint(vec![(far, 1.0), (0, -s)], Sense::Ge, 0.0);
            for &(a, b) in &self.active {
                let (a, b) = (a as usize, b as usize);
                lp.add_constraint(vec![(b, self.f(a, b)), (a, -1.0)], Sense::Ge, 0.0);
            }
            let solution = backend.solve(&lp, options)?;
            if !solution.status.has_point() {
                break;
            }
            if let Some(b) = rigorous_lower_bound(&lp, &solution) {
                best = best.max((b - slack).next_down());
            }
            let q: Vec<f64> = solution.x[..m].iter().map(|v| v.clamp(0.0, 1.0)).collect();
            let added = self.add_violated(&q);
            column = Some(q);
            if added == 0 {
                break;
            }
        }
        Ok(WindowPrice {
            lower: best,
            column,
        })
    }

    /// Add the ratio rows `q` violates (the worst few per input); how many.
    fn add_violated(&mut self, q: &[f64]) -> usize {
        let m = q.len();
        let mut present = vec![false; m * m];
        for &(a, b) in &self.active {
            present[a as usize * m + b as usize] = true;
        }
        let top = q.iter().fold(0.0f64, |a, v| a.max(*v));
        let mut added = 0;
        for a in 0..m {
            let mut worst: Vec<(f64, usize)> = (0..m)
                .filter(|&b| b != a && !present[a * m + b])
                .map(|b| (q[a] - self.f(a, b) * q[b], b))
                .filter(|&(excess, _)| excess > ROW_VIOLATION * top)
                .collect();
            worst.sort_by(|x, y| y.0.total_cmp(&x.0));
            for (_, b) in worst.into_iter().take(ADDED_ROWS_PER_INPUT) {
                self.active.push((a as u32, b as u32));
                added += 1;
            }
        }
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mechsynth_solvers::{backend, BackendKind};

    /// Epsilon per unit of distance: windows of radius 4 cells, so that an 8 x 8 lattice has
    /// inputs outside every window.
    const EPS: f64 = 1.5;
    /// The naive program is solved to the backend's accuracy.
    const SOLVER_ACCURACY: f64 = 1e-7;
    /// How far below the naive minimum the window's bound may fall (measured: at most 0.025 on
    /// these prices, whose costs reach 9.9; without the outside's two terms 0.023 to 0.034).
    const LOOSENESS: f64 = 0.028;

    /// `min (d_y - nu) . q` over unit-mass columns with every pair's row, on the whole lattice
    /// (the definition, without windows or lazy rows).
    fn naive(points: &[[f64; 2]], y: usize, nu: &[f64]) -> f64 {
        let n = points.len();
        let d =
            |a: usize, b: usize| (points[a][0] - points[b][0]).hypot(points[a][1] - points[b][1]);
        let mut lp = LinearProgram::new();
        for (x, p) in nu.iter().enumerate() {
            lp.add_var(d(x, y) - p, 0.0, 1.0);
        }
        lp.add_constraint((0..n).map(|v| (v, 1.0)).collect(), Sense::Eq, 1.0);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    let f = (EPS * d(a, b)).exp();
                    lp.add_constraint(vec![(b, f), (a, -1.0)], Sense::Ge, 0.0);
                }
            }
        }
        let b = backend(BackendKind::Clarabel).unwrap();
        b.solve(&lp, &SolveOptions::default()).unwrap().objective
    }

    #[test]
    fn the_window_bounds_the_minimum_over_the_whole_cone_from_below_and_closely() {
        use rand::{Rng, SeedableRng};
        let side = 8;
        let points: Vec<[f64; 2]> = (0..side * side)
            .map(|s| [(s / side) as f64, (s % side) as f64])
            .collect();
        let n = points.len();
        let lattice = Lattice::detect(&points).unwrap();
        let budgets: Vec<Vec<f64>> = points
            .iter()
            .map(|a| {
                points
                    .iter()
                    .map(|b| EPS * (a[0] - b[0]).hypot(a[1] - b[1]))
                    .collect()
            })
            .collect();
        let factors = Factors::on_lattice(&lattice, &budgets, 1e-12).unwrap();
        let lp = backend(BackendKind::Clarabel).unwrap();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for (trial, y) in [0, 3, 27, 36, 63].into_iter().enumerate() {
            let nu: Vec<f64> = (0..n).map(|_| rng.gen_range(0.0..2.5)).collect();
            let mut window = Window::new(y, &lattice, &factors);
            assert!(window.members.len() < n, "inputs outside the window");
            let cost = |x: usize| (points[x][0] - points[y][0]).hypot(points[x][1] - points[y][1]);
            let priced = window
                .price(cost, &nu, &factors, lp.as_ref(), &SolveOptions::default())
                .unwrap();
            let exact = naive(&points, y, &nu);
            assert!(
                priced.lower <= exact + SOLVER_ACCURACY,
                "trial {trial}: {} above {exact}",
                priced.lower
            );
            assert!(
                priced.lower >= exact - LOOSENESS,
                "trial {trial}: {} far below {exact}",
                priced.lower
            );
        }
    }
}
