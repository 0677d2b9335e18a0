//! The master program: the best channel whose columns are nonnegative combinations of given
//! candidate columns, one set per orbit of outputs under the problem's symmetries.
//!
//! With a group `G` of symbol permutations that keeps every cost and every ratio row, a
//! candidate `s` for the representative output `y` (averaged over the stabilizer of `y`, so
//! that `s(g x) = s(x)` there) stands for the columns `Q[x][h y] = s(h^-1 x)`, one per output
//! of the orbit of `y`. The row sum of input `x` over that orbit is
//! `(1 / |Stab(y)|) sum_{g in G} s(g^-1 x)`, the same for every input of an orbit, and its cost
//! is `|orbit(y)| sum_x c[x][y] s(x)`. So the program keeps one row sum per orbit of inputs.
//! Every candidate lies in the column cone, which is convex and kept by `G`, so the channel is
//! private whatever weights the program picks.

use super::super::Run;
use mechsynth_solvers::{LinearProgram, LpStatus, Sense};
use rayon::prelude::*;

/// Row-sum coefficients below this fraction of their column's largest are left out of the
/// program.
const NEGLIGIBLE: f64 = 1e-13;

/// A group of symbol permutations, with inverses, orbits and stabilizers.
pub(crate) struct Group {
    elements: Vec<Vec<usize>>,
    inverses: Vec<Vec<usize>>,
    /// The representative (least symbol) of each symbol's orbit.
    representative: Vec<usize>,
}

impl Group {
    /// From `elements`, which must already form a group (identity first, as the problem's
    /// symmetries are found).
    pub fn new(elements: Vec<Vec<usize>>) -> Self {
        let n = elements.first().map_or(0, Vec::len);
        let inverses = elements
            .iter()
            .map(|g| {
                let mut inv = vec![0; n];
                g.iter().enumerate().for_each(|(x, &gx)| inv[gx] = x);
                inv
            })
            .collect();
        let representative = (0..n)
            .map(|x| elements.iter().map(|g| g[x]).min().unwrap_or(x))
            .collect();
        Group {
            elements,
            inverses,
            representative,
        }
    }

    /// One symbol per orbit (the least).
    pub fn representatives(&self) -> Vec<usize> {
        (0..self.representative.len())
            .filter(|&x| self.representative[x] == x)
            .collect()
    }

    /// The representative of the orbit of `x`.
    pub fn representative(&self, x: usize) -> usize {
        self.representative[x]
    }

    /// Size of the orbit of `y`.
    pub fn orbit_size(&self, y: usize) -> usize {
        self.elements.len() / self.stabilizer(y).count()
    }

    fn stabilizer(&self, y: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.elements.len()).filter(move |&k| self.elements[k][y] == y)
    }

    /// `s` averaged over the stabilizer of `y`: `s'(x) = mean over g of s(g x)`.
    pub fn symmetrize(&self, y: usize, s: &[f64]) -> Vec<f64> {
        let stab: Vec<usize> = self.stabilizer(y).collect();
        if stab.len() == 1 {
            return s.to_vec();
        }
        let k = stab.len() as f64;
        (0..s.len())
            .map(|x| stab.iter().map(|&g| s[self.elements[g][x]]).sum::<f64>() / k)
            .collect()
    }
}

/// One candidate column for a representative output.
pub(crate) struct Candidate {
    /// The representative output.
    pub output: usize,
    /// The column over every input (symmetrized).
    pub column: Vec<f64>,
}

/// The solved master: the channel its weights make.
pub(crate) struct Solved {
    /// The channel, `n x n`.
    pub rows: Vec<Vec<f64>>,
    /// The program's objective.
    pub objective: f64,
    /// Backend iterations.
    pub iterations: u64,
    /// The dual of each input orbit's row sum, in the order of [`Group::representatives`]:
    /// `|orbit|` times each of its inputs' row price.
    pub duals: Vec<f64>,
}

/// Solve the master over `candidates` with costs `costs` (`n x n`, kept by the group); an
/// error naming the backend's status when it does not return an optimal point. The channel
/// is built only when `channel` is set (`rows` is empty otherwise).
pub(crate) fn solve_master(
    group: &Group,
    candidates: &[Candidate],
    costs: &[Vec<f64>],
    channel: bool,
    dual_box: Option<&[(f64, f64)]>,
    run: &Run,
) -> Result<Solved, String> {
    let n = costs.len();
    let inputs = group.representatives();
    let columns: Vec<(f64, Vec<f64>)> = candidates
        .par_iter()
        .map(|c| {
            let stab = group.stabilizer(c.output).count() as f64;
            let mut sums = vec![0.0; inputs.len()];
            for inv in &group.inverses {
                for (k, &x) in inputs.iter().enumerate() {
                    sums[k] += c.column[inv[x]];
                }
            }
            sums.iter_mut().for_each(|v| *v /= stab);
            let cost: f64 = (0..n)
                .map(|x| costs[x][c.output] * c.column[x])
                .sum::<f64>()
                * group.orbit_size(c.output) as f64;
            (cost, sums)
        })
        .collect();
    let mut lp = LinearProgram::new();
    let vars: Vec<_> = columns
        .iter()
        .map(|(cost, _)| lp.add_var(*cost, 0.0, f64::INFINITY))
        .collect();
    // Coefficients below NEGLIGIBLE of a column's largest only slow the solver down (far tails
    // reach e^-40); the channel is built from the full columns, and certification normalizes
    // its rows.
    let floor: Vec<f64> = columns
        .iter()
        .map(|(_, sums)| NEGLIGIBLE * sums.iter().fold(0.0f64, |m, v| m.max(*v)))
        .collect();
    for k in 0..inputs.len() {
        let terms: Vec<_> = columns
            .iter()
            .zip(&vars)
            .zip(&floor)
            .filter(|(((_, sums), _), &low)| sums[k] > low)
            .map(|(((_, sums), &v), _)| (v, sums[k]))
            .collect();
        lp.add_constraint(terms, Sense::Eq, 1.0);
    }
    // A box `[l, u]` on the dual of row k: a column `+e_k` of cost `u` and one `-e_k` of cost
    // `-l` (du Merle, Villeneuve, Desrosiers and Hansen, Discrete Math. 194, 1999). They stay
    // out of the channel, which is built only without a box.
    if let Some(bounds) = dual_box {
        let mut lp_boxed = LinearProgram::new();
        for (cost, _) in &columns {
            lp_boxed.add_var(*cost, 0.0, f64::INFINITY);
        }
        let extra: Vec<(usize, usize)> = bounds
            .iter()
            .map(|&(l, u)| {
                (
                    lp_boxed.add_var(u, 0.0, f64::INFINITY),
                    lp_boxed.add_var(-l, 0.0, f64::INFINITY),
                )
            })
            .collect();
        for (k, row) in lp.constraints().iter().enumerate() {
            let mut terms = row.terms.clone();
            if let Some(&(up, down)) = extra.get(k) {
                terms.push((up, 1.0));
                terms.push((down, -1.0));
            }
            lp_boxed.add_constraint(terms, Sense::Eq, 1.0);
        }
        lp = lp_boxed;
    }
    let solution = run
        .backend
        .solve(&lp, &run.backend_options())
        .map_err(|e| e.to_string())?;
    if solution.status != LpStatus::Optimal {
        return Err(format!("the master program ended {}", solution.status));
    }
    if !channel || dual_box.is_some() {
        return Ok(Solved {
            rows: Vec::new(),
            objective: solution.objective,
            iterations: solution.iterations,
            duals: solution.duals,
        });
    }
    let weights: Vec<f64> = solution.x.iter().map(|w| w.max(0.0)).collect();
    // Q[x][h y] = sum_k w_k s_k(h^-1 x), for every output h y of each representative's orbit.
    let mut by_output: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, c) in candidates.iter().enumerate() {
        if weights[k] > 0.0 {
            by_output[c.output].push(k);
        }
    }
    let mut columns_out: Vec<Option<Vec<f64>>> = vec![None; n];
    for y in group.representatives() {
        let mut base = vec![0.0; n];
        for &k in &by_output[y] {
            for (b, s) in base.iter_mut().zip(&candidates[k].column) {
                *b += weights[k] * s;
            }
        }
        for (g, inv) in group.elements.iter().zip(&group.inverses) {
            let target = g[y];
            if columns_out[target].is_none() {
                columns_out[target] = Some((0..n).map(|x| base[inv[x]]).collect());
            }
        }
    }
    let mut rows = vec![vec![0.0; n]; n];
    for (y, col) in columns_out.into_iter().enumerate() {
        let col = col.expect("every output lies in the orbit of a representative");
        for (x, v) in col.into_iter().enumerate() {
            rows[x][y] = v;
        }
    }
    Ok(Solved {
        rows,
        objective: solution.objective,
        iterations: solution.iterations,
        duals: solution.duals.clone(),
    })
}
