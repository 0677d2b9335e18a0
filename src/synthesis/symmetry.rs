//! Symmetry reduction of a linear channel program (Boedi, Herr, Joswig, "Algorithms for highly
//! symmetric linear and integer programs", Math. Programming 137, 2013).
//!
//! A permutation `g` of the symbols is a symmetry when it preserves the prior-weighted costs
//! (`c[g x][g y] = c[x][y]`) and the privacy rows (`Q[a][y] <= f Q[b][y]` maps to a row
//! `Q[g a][g y] <= f Q[g b][g y]` with the same `f`), all bit for bit. For a group of them the
//! average of any feasible channel over the group is feasible with the same objective (the LP is
//! convex), so the program restricted to channels constant on the orbits of pairs `(x, y)` has
//! the same optimum: one variable per orbit, one row sum per orbit of inputs, one ratio row per
//! orbit of rows. Its rigorous dual bound is a bound on the full problem.
//!
//! Candidate symmetries come from the geometry: the eight maps of the points' bounding box
//! (reflections and, for a square box, transposes) that map the point set onto itself exactly.

use mechsynth_solvers::{LinearProgram, Sense};
use std::collections::HashMap;

/// The permutations among the bounding-box symmetries of `points` that map the set onto
/// itself exactly (the identity first).
pub fn point_symmetries(points: &[[f64; 2]]) -> Vec<Vec<usize>> {
    let n = points.len();
    let index: HashMap<(u64, u64), usize> = points
        .iter()
        .enumerate()
        .map(|(i, p)| ((p[0].to_bits(), p[1].to_bits()), i))
        .collect();
    if index.len() != n || n == 0 {
        return vec![(0..n).collect()];
    }
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in points {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let centre = [0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1])];
    let mut out = Vec::new();
    for swap in [false, true] {
        for sx in [1.0, -1.0] {
            for sy in [1.0, -1.0] {
                let image = |p: &[f64; 2]| -> [f64; 2] {
                    let d = [p[0] - centre[0], p[1] - centre[1]];
                    let d = if swap { [d[1], d[0]] } else { d };
                    [centre[0] + sx * d[0], centre[1] + sy * d[1]]
                };
                let perm: Option<Vec<usize>> = points
                    .iter()
                    .map(|p| {
                        let q = image(p);
                        index.get(&(q[0].to_bits(), q[1].to_bits())).copied()
                    })
                    .collect();
                if let Some(perm) = perm {
                    if !out.contains(&perm) {
                        out.push(perm);
                    }
                }
            }
        }
    }
    out
}

/// The candidates that preserve the costs and the ratio rows `(a, b, factor)` bit for bit
/// (always including the identity); they form a group.
pub(crate) fn preserving(
    candidates: &[Vec<usize>],
    costs: &[Vec<f64>],
    ratios: &[(usize, usize, f64)],
) -> Vec<Vec<usize>> {
    let n = costs.len();
    let square = costs.iter().all(|r| r.len() == n);
    let rows: HashMap<(usize, usize), u64> = ratios
        .iter()
        .map(|&(a, b, f)| ((a, b), f.to_bits()))
        .collect();
    let identity: Vec<usize> = (0..n).collect();
    let mut group = vec![identity.clone()];
    if !square {
        return group;
    }
    for g in candidates {
        if g.len() != n || *g == identity {
            continue;
        }
        let costs_kept =
            (0..n).all(|x| (0..n).all(|y| costs[g[x]][g[y]].to_bits() == costs[x][y].to_bits()));
        let rows_kept = costs_kept
            && ratios
                .iter()
                .all(|&(a, b, f)| rows.get(&(g[a], g[b])) == Some(&f.to_bits()));
        if rows_kept {
            group.push(g.clone());
        }
    }
    group
}

/// The orbits of the channel's entries under a group of symbol permutations.
pub(crate) struct Orbits {
    n: usize,
    m: usize,
    var_of: Vec<usize>,
    count: usize,
    /// One input per orbit of inputs.
    row_representatives: Vec<usize>,
    /// The group's order.
    pub order: usize,
}

impl Orbits {
    /// Orbits of the entries of an `n x m` channel under `group` (permutations of `0..n`,
    /// applied to inputs and outputs alike; with only the identity, every entry is its own).
    pub(crate) fn new(group: &[Vec<usize>], n: usize, m: usize) -> Self {
        let trivial = group.len() <= 1 || n != m;
        let mut var_of = vec![usize::MAX; n * m];
        let mut count = 0;
        for x in 0..n {
            for y in 0..m {
                if var_of[x * m + y] != usize::MAX {
                    continue;
                }
                if trivial {
                    var_of[x * m + y] = count;
                } else {
                    for g in group {
                        var_of[g[x] * m + g[y]] = count;
                    }
                }
                count += 1;
            }
        }
        let mut seen = vec![false; n];
        let mut row_representatives = Vec::new();
        for x in 0..n {
            if !seen[x] {
                row_representatives.push(x);
                if trivial {
                    seen[x] = true;
                } else {
                    group.iter().for_each(|g| seen[g[x]] = true);
                }
            }
        }
        Orbits {
            n,
            m,
            var_of,
            count,
            row_representatives,
            order: if trivial { 1 } else { group.len() },
        }
    }

    /// The variable of entry `(x, y)`.
    pub(crate) fn var(&self, x: usize, y: usize) -> usize {
        self.var_of[x * self.m + y]
    }

    /// One input per orbit of inputs (the row sums the reduced program keeps).
    pub(crate) fn row_representatives(&self) -> &[usize] {
        &self.row_representatives
    }

    /// Number of variables.
    pub(crate) fn variables(&self) -> usize {
        self.count
    }

    /// The reduced program: `min sum costs[x][y] Q[x][y]` over orbit variables in [0, 1], the
    /// row sums of one input per orbit, and `Q[a][y] <= f Q[b][y]` for each given row (rows
    /// that land on the same pair of variables are encoded once).
    pub(crate) fn program(
        &self,
        costs: &[Vec<f64>],
        rows: impl Iterator<Item = (usize, usize, usize, f64)>,
    ) -> LinearProgram {
        let mut lp = LinearProgram::new();
        let mut cost = vec![0.0; self.count];
        for (x, row) in costs.iter().enumerate() {
            for (y, &c) in row.iter().enumerate() {
                cost[self.var(x, y)] += c;
            }
        }
        for c in cost {
            lp.add_var(c, 0.0, 1.0);
        }
        for &x in &self.row_representatives {
            let mut terms: HashMap<usize, f64> = HashMap::new();
            for y in 0..self.m {
                *terms.entry(self.var(x, y)).or_insert(0.0) += 1.0;
            }
            let mut terms: Vec<(usize, f64)> = terms.into_iter().collect();
            terms.sort_unstable_by_key(|t| t.0);
            lp.add_constraint(terms, Sense::Eq, 1.0);
        }
        let mut encoded: HashMap<(usize, usize), ()> = HashMap::new();
        for (a, b, y, factor) in rows {
            let (va, vb) = (self.var(a, y), self.var(b, y));
            // A row between an entry and itself holds for any factor >= 1.
            if va == vb && factor >= 1.0 {
                continue;
            }
            if encoded.insert((va, vb), ()).is_none() {
                lp.add_constraint(vec![(va, 1.0), (vb, -factor)], Sense::Le, 0.0);
            }
        }
        lp
    }

    /// The channel rows of a point of the reduced program.
    pub(crate) fn expand(&self, point: &[f64]) -> Vec<Vec<f64>> {
        (0..self.n)
            .map(|x| (0..self.m).map(|y| point[self.var(x, y)]).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_grid_has_eight_symmetries_and_a_rectangle_four() {
        let grid = |r: usize, c: usize| -> Vec<[f64; 2]> {
            (0..r * c)
                .map(|i| [(i / c) as f64, (i % c) as f64])
                .collect()
        };
        assert_eq!(point_symmetries(&grid(4, 4)).len(), 8);
        assert_eq!(point_symmetries(&grid(3, 5)).len(), 4);
        let scattered = vec![[0.0, 0.0], [1.0, 0.3], [2.5, 1.0]];
        assert_eq!(point_symmetries(&scattered).len(), 1);
    }

    #[test]
    fn a_cost_that_breaks_the_symmetry_removes_it() {
        let points: Vec<[f64; 2]> = (0..9).map(|i| [(i / 3) as f64, (i % 3) as f64]).collect();
        let d = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
        let mut costs: Vec<Vec<f64>> = points
            .iter()
            .map(|&a| points.iter().map(|&b| d(a, b) / 9.0).collect())
            .collect();
        let candidates = point_symmetries(&points);
        assert_eq!(preserving(&candidates, &costs, &[]).len(), 8);
        costs[0][1] *= 1.0 + 1e-15;
        assert_eq!(preserving(&candidates, &costs, &[]).len(), 1);
    }

    #[test]
    fn orbits_partition_the_entries() {
        let points: Vec<[f64; 2]> = (0..16).map(|i| [(i / 4) as f64, (i % 4) as f64]).collect();
        let group = point_symmetries(&points);
        let orbits = Orbits::new(&group, 16, 16);
        // Burnside: (1/8) sum_g fix(g) over pairs; brute force the orbit count instead.
        let mut reps = std::collections::BTreeSet::new();
        for x in 0..16 {
            for y in 0..16 {
                let rep = group.iter().map(|g| (g[x], g[y])).min().unwrap();
                reps.insert(rep);
            }
        }
        assert_eq!(orbits.variables(), reps.len());
        for x in 0..16 {
            for y in 0..16 {
                for g in &group {
                    assert_eq!(orbits.var(x, y), orbits.var(g[x], g[y]));
                }
            }
        }
    }
}
