//! The generators of an optimal design (extreme rays of the column cone, plus the k-RR-like
//! mixture and constant columns) and the first masters over them: which rays to start with, a
//! strictly feasible starting point, and whether the queries can be estimated at all.

use crate::objective::FrequencyMse;
use crate::rays::{dot, ColumnCone};
use crate::synthesis::design::barrier::DesignData;
use crate::synthesis::{design::bound::h_upper, Run};
use mechsynth_solvers::{LinearProgram, Sense};
use nalgebra::{DMatrix, DVector};

/// Up to this many rays the master starts with all of them.
pub(crate) const DESIGN_DIRECT_LIMIT: usize = 300;
/// A ray whose weight in the interior start is below this fraction of the cap cannot carry
/// weight in the current master.
const START_WEIGHT_FLOOR: f64 = 1e-7;
/// Two generators whose entries agree to this, relative, are the same ray.
const SAME_RAY: f64 = 1e-12;
/// Bisection steps for the k-RR-like mixture columns.
const MIXTURE_BISECTIONS: usize = 50;
/// The starting point keeps every coupling row this fraction below its right-hand side.
const START_COUPLING_MARGIN: f64 = 1e-3;

/// Generators: lifted and normalized to `1 . q = 1`, their input parts, coupling values.
pub(crate) struct Rays {
    /// How many generators at the end are not extreme rays (mixture and constant columns).
    pub extra: usize,
    /// Lifted generators.
    pub z: Vec<Vec<f64>>,
    /// Their input parts.
    pub q: Vec<Vec<f64>>,
    /// Coupling-row values, one row per coupling constraint.
    pub coupling: Vec<Vec<f64>>,
}

impl Rays {
    pub(crate) fn new(cone: &ColumnCone, lifted: Vec<Vec<f64>>) -> Self {
        let mut q = Vec::new();
        let mut lifted_all = Vec::new();
        let mut coupling: Vec<Vec<f64>> = vec![Vec::new(); cone.coupling.len()];
        for z in lifted {
            let s: f64 = z[..cone.n].iter().sum();
            if s <= 0.0 {
                continue;
            }
            let z: Vec<f64> = z.iter().map(|v| v / s).collect();
            for (i, (row, _)) in cone.coupling.iter().enumerate() {
                coupling[i].push(dot(row, &z));
            }
            q.push(z[..cone.n].to_vec());
            lifted_all.push(z);
        }
        Rays {
            extra: 0,
            z: lifted_all,
            q,
            coupling,
        }
    }

    /// Add one generator (normalized to `1 . q = 1`) unless it is already there (to
    /// `SAME_RAY`, relative); its index.
    pub(crate) fn push(&mut self, cone: &ColumnCone, q: &[f64]) -> usize {
        debug_assert_eq!(cone.aux, 0, "generators found by search are not lifted");
        let s: f64 = q.iter().sum();
        let z: Vec<f64> = q.iter().map(|v| v / s).collect();
        let same = |r: &Vec<f64>| {
            r.iter()
                .zip(&z)
                .all(|(a, b)| (a - b).abs() <= SAME_RAY * a.abs().max(b.abs()))
        };
        if let Some(at) = self.q.iter().position(same) {
            return at;
        }
        for (i, (row, _)) in cone.coupling.iter().enumerate() {
            self.coupling[i].push(dot(row, &z));
        }
        self.q.push(z.clone());
        self.z.push(z);
        self.q.len() - 1
    }

    pub(crate) fn data<'a>(
        &'a self,
        set: &[usize],
        cone: &ColumnCone,
        pi: &'a [f64],
        c: &'a DMatrix<f64>,
    ) -> DesignData<'a> {
        DesignData {
            rays: set.iter().map(|&j| self.q[j].as_slice()).collect(),
            coupling: self
                .coupling
                .iter()
                .map(|row| set.iter().map(|&j| row[j]).collect())
                .collect(),
            rhs: cone.coupling.iter().map(|(_, h)| *h).collect(),
            pi,
            c,
        }
    }
}

/// Whether the queries lie in the range of `sum_r r r^T / (pi . r)` over every ray (the largest
/// Fisher information's range): otherwise no channel estimates them.
pub(crate) fn estimable(rays: &Rays, design: &FrequencyMse) -> bool {
    let n = design.distribution().len();
    let mut j = DMatrix::zeros(n, n);
    for r in &rays.q {
        let r = DVector::from_column_slice(r);
        let lambda: f64 = r
            .iter()
            .zip(design.distribution())
            .map(|(a, b)| a * b)
            .sum();
        j.ger(1.0 / lambda, &r, &r, 1.0);
    }
    design.trace(&j).is_finite()
}

/// A strictly positive point of the master that meets its row sums, with every coupling row
/// strictly inside, over the rays of `set` that can carry weight at all: the LP that maximizes
/// `sum_j min(w_j, cap)` (an interior-point backend ends in the relative interior of its
/// optimal face, so every ray that can be positive is). Rays left at zero are dropped; they
/// return through pricing when other rays make room for them. `None` when the backend finds
/// no point.
pub(crate) fn interior_start(
    rays: &Rays,
    cone: &ColumnCone,
    set: &[usize],
    run: &Run,
) -> Option<(Vec<usize>, Vec<f64>)> {
    let n = cone.n;
    let cap = 1.0 / set.len() as f64;
    let mut lp = LinearProgram::new();
    let vars: Vec<usize> = set
        .iter()
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    for &v in &vars {
        let s = lp.add_var(-1.0, 0.0, cap);
        lp.add_constraint(vec![(v, 1.0), (s, -1.0)], Sense::Ge, 0.0);
    }
    for x in 0..n {
        let terms = vars
            .iter()
            .zip(set)
            .map(|(&v, &j)| (v, rays.q[j][x]))
            .filter(|t| t.1 != 0.0)
            .collect();
        lp.add_constraint(terms, Sense::Eq, 1.0);
    }
    for (row, (_, rhs)) in rays.coupling.iter().zip(&cone.coupling) {
        let terms = vars.iter().zip(set).map(|(&v, &j)| (v, row[j])).collect();
        lp.add_constraint(terms, Sense::Le, rhs * (1.0 - START_COUPLING_MARGIN));
    }
    let solution = run.backend.solve(&lp, &run.backend_options()).ok()?;
    if !solution.status.has_point() {
        return None;
    }
    let floor = START_WEIGHT_FLOOR * cap;
    let kept: Vec<(usize, f64)> = set
        .iter()
        .zip(&vars)
        .map(|(&j, &v)| (j, solution.x[v]))
        .filter(|e| e.1 > floor)
        .collect();
    (!kept.is_empty()).then(|| kept.into_iter().unzip())
}

/// The columns `(1 - t) / n + t e_x` of the k-RR-like mixture with the largest `t` (to
/// bisection accuracy) that keeps every one in the cone; none when only `t = 0` does.
pub(crate) fn mixture_columns(cone: &ColumnCone) -> Vec<Vec<f64>> {
    let n = cone.n;
    let columns = |t: f64| -> Vec<Vec<f64>> {
        (0..n)
            .map(|x| {
                let mut z = vec![(1.0 - t) / n as f64; n];
                z[x] += t;
                z
            })
            .collect()
    };
    let fits = |t: f64| columns(t).iter().all(|z| cone.contains(z, 0.0));
    let (mut lo, mut hi) = (0.0, 1.0);
    if fits(hi) {
        return columns(hi);
    }
    for _ in 0..MIXTURE_BISECTIONS {
        let mid = 0.5 * (lo + hi);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    if lo > 0.0 {
        columns(lo)
    } else {
        Vec::new()
    }
}

/// The rays to start column generation with: all of them when few, otherwise for each input the
/// ray that puts the most mass on it, and the rays best for `J = I`.
pub(crate) fn initial_set(rays: &Rays, design: &FrequencyMse) -> Vec<usize> {
    let count = rays.q.len();
    if count <= DESIGN_DIRECT_LIMIT {
        return (0..count).collect();
    }
    let n = design.distribution().len();
    // The last generators are the mixture columns and the constant (see `solve_by_design`).
    let mut set: Vec<usize> = (count - rays.extra..count).collect();
    set.extend(
        (0..n).filter_map(|x| (0..count).max_by(|&a, &b| rays.q[a][x].total_cmp(&rays.q[b][x]))),
    );
    let v = design.queries_t().clone();
    let mut scored: Vec<(f64, usize)> = (0..count)
        .map(|i| (h_upper(&v, &rays.q[i], design.distribution()), i))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    set.extend(scored.iter().take(4 * n).map(|s| s.1));
    set.sort_unstable();
    set.dedup();
    set
}
