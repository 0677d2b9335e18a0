//! The extreme-ray master LP: `max sum_i w_i g(r_i)` subject to `sum_i w_i q_i = 1` (row sums)
//! and the coupling rows, over generators `r_i = (q_i, aux_i)` of the column cone. Splitting a
//! column into generators never lowers a convex, positively homogeneous `g`, so over a
//! generating set this LP is the exact design problem (Kairouz, Oh, Viswanath; docs/design-notes.md, "Extreme rays").

use crate::rays::{dot, ColumnCone};
use mechsynth_solvers::{LinearProgram, LpBackend, LpSolution, Sense, SolveOptions};
use nalgebra::DMatrix;

/// Weights below this fraction of the largest weight are dropped from the channel.
const WEIGHT_FLOOR: f64 = 1e-12;

/// Generators of the column cone (lifted columns) with their objective values `g(q_i)`.
#[derive(Debug, Clone, Default)]
pub struct Columns {
    /// Lifted generators `(q, aux)`.
    pub z: Vec<Vec<f64>>,
    /// `g(q)` for each.
    pub value: Vec<f64>,
}

impl Columns {
    /// Add a generator.
    pub fn push(&mut self, z: Vec<f64>, value: f64) {
        self.z.push(z);
        self.value.push(value);
    }
}

/// A solved master: weights, the `g`-total `V`, and the duals `(mu, nu)`.
#[derive(Debug, Clone)]
pub struct MasterSolution {
    /// The backend's answer (status, iterations).
    pub lp: LpSolution,
    /// Weight of each generator (empty without a point).
    pub weights: Vec<f64>,
    /// `sum_i w_i g_i`.
    pub total: f64,
    /// Duals of the row-sum equalities, as prices `mu_x` with `mu . q_i >= g_i` at optimality.
    pub mu: Vec<f64>,
    /// Duals of the coupling rows, `nu >= 0`.
    pub nu: Vec<f64>,
}

/// Solve the master LP over `columns`.
pub fn solve_master(
    cone: &ColumnCone,
    columns: &Columns,
    backend: &dyn LpBackend,
    options: &SolveOptions,
) -> Result<MasterSolution, mechsynth_solvers::BackendError> {
    let n = cone.n;
    let mut lp = LinearProgram::new();
    let vars: Vec<usize> = columns
        .value
        .iter()
        .map(|g| lp.add_var(-g, 0.0, f64::INFINITY))
        .collect();
    for x in 0..n {
        let terms = vars
            .iter()
            .zip(&columns.z)
            .filter(|(_, z)| z[x] != 0.0)
            .map(|(&v, z)| (v, z[x]))
            .collect();
        lp.add_constraint(terms, Sense::Eq, 1.0);
    }
    for (row, rhs) in &cone.coupling {
        let terms = vars
            .iter()
            .zip(&columns.z)
            .map(|(&v, z)| (v, dot(row, z)))
            .filter(|t| t.1 != 0.0)
            .collect();
        lp.add_constraint(terms, Sense::Le, *rhs);
    }
    let solution = backend.solve(&lp, options)?;
    if !solution.status.has_point() {
        return Ok(MasterSolution {
            lp: solution,
            weights: Vec::new(),
            total: f64::NAN,
            mu: Vec::new(),
            nu: Vec::new(),
        });
    }
    let weights: Vec<f64> = solution.x.iter().map(|w| w.max(0.0)).collect();
    let total = weights.iter().zip(&columns.value).map(|(w, g)| w * g).sum();
    // The program minimizes -g.w: reduced costs -g_i - y.A_i >= 0, so mu = -y, nu = -y >= 0.
    let mu = solution.duals[..n].iter().map(|y| -y).collect();
    let nu = solution.duals[n..].iter().map(|y| (-y).max(0.0)).collect();
    Ok(MasterSolution {
        lp: solution,
        weights,
        total,
        mu,
        nu,
    })
}

/// An upper bound on the optimal `g`-total from any prices `(mu, nu >= 0)`: with `delta` an
/// upper bound on `max_r (g(r) - mu . q - nu . c(r)) / (eta . q)` over every generator,
/// `V* <= mu . 1 + nu . rhs + (eta . 1) max(0, delta)` (weak duality; the last term is the
/// pricing gap).
pub fn dual_bound(cone: &ColumnCone, mu: &[f64], nu: &[f64], eta_total: f64, delta: f64) -> f64 {
    let terms: Vec<f64> = mu
        .iter()
        .copied()
        .chain(nu.iter().zip(&cone.coupling).map(|(v, (_, rhs))| v * rhs))
        .chain(std::iter::once(eta_total * delta.max(0.0)))
        .collect();
    let total: f64 = terms.iter().sum();
    // Rounded upwards: a k-term sum errs by at most (k + 1) u times the sum of magnitudes.
    let magnitude: f64 = terms.iter().map(|t| t.abs()).sum();
    (total + (terms.len() as f64 + 2.0) * f64::EPSILON * magnitude).next_up()
}

/// `(g(r) - mu . q - nu . c(r)) / (eta . q)` for one generator.
pub fn reduced_value(
    cone: &ColumnCone,
    z: &[f64],
    value: f64,
    mu: &[f64],
    nu: &[f64],
    eta: &[f64],
) -> f64 {
    let q = &z[..cone.n];
    let price: f64 = mu.iter().zip(q).map(|(m, v)| m * v).sum::<f64>()
        + nu.iter()
            .zip(&cone.coupling)
            .map(|(v, (row, _))| v * dot(row, z))
            .sum::<f64>();
    (value - price) / eta.iter().zip(q).map(|(e, v)| e * v).sum::<f64>()
}

/// Largest change of any row sum or coupling row (relative to its size, at least 1) that
/// purification may cause; a step that would change them more (a numerically singular set of
/// generators) is not taken.
const PURIFY_RESIDUAL: f64 = 1e-11;

/// A null vector of the `rows x (rows + 1)` matrix `a`: fix the last coordinate to 1 and solve
/// the square system of the others by LU with partial pivoting (backward stable); the first
/// column order that gives a finite solution wins.
pub(crate) fn null_vector(a: &DMatrix<f64>) -> Option<Vec<f64>> {
    let (rows, cols) = a.shape();
    for free in (0..cols).rev() {
        let keep: Vec<usize> = (0..cols).filter(|&c| c != free).collect();
        let square = DMatrix::from_fn(rows, rows, |r, c| a[(r, keep[c])]);
        let rhs = nalgebra::DVector::from_fn(rows, |r, _| -a[(r, free)]);
        if let Some(z) = square.lu().solve(&rhs) {
            if z.iter().all(|v| v.is_finite()) {
                let mut d = vec![0.0; cols];
                for (c, &k) in keep.iter().enumerate() {
                    d[k] = z[c];
                }
                d[free] = 1.0;
                return Some(d);
            }
        }
    }
    // Rank-deficient: pad to a square matrix with a zero row; the right singular vector of its
    // smallest singular value spans (part of) the null space.
    let padded = DMatrix::from_fn(cols, cols, |r, c| if r < rows { a[(r, c)] } else { 0.0 });
    let svd = padded.svd(false, true);
    let v_t = svd.v_t?;
    let (k, _) = svd
        .singular_values
        .iter()
        .enumerate()
        .min_by(|x, y| x.1.total_cmp(y.1))?;
    Some(v_t.row(k).iter().copied().collect())
}

/// Reduce the support of `weights` to at most `rows` generators without lowering
/// `sum_i w_i g_i` and keeping every equality and coupling row (Caratheodory): repeatedly take
/// `rows + 1` supported generators, find a null direction of their constraint columns, and move
/// along it (uphill in g) until a weight reaches zero. A step that would move the row sums or
/// coupling rows by more than rounding is not taken.
pub fn purify(cone: &ColumnCone, columns: &Columns, weights: &mut [f64]) {
    let rows = cone.n + cone.coupling.len();
    let column_of = |i: usize| -> Vec<f64> {
        let z = &columns.z[i];
        z[..cone.n]
            .iter()
            .copied()
            .chain(cone.coupling.iter().map(|(row, _)| dot(row, z)))
            .collect()
    };
    let totals = |w: &[f64]| -> Vec<f64> {
        let mut t = vec![0.0; rows];
        for (i, &wi) in w.iter().enumerate() {
            if wi > 0.0 {
                for (tr, c) in t.iter_mut().zip(column_of(i)) {
                    *tr += wi * c;
                }
            }
        }
        t
    };
    let largest = weights.iter().cloned().fold(0.0, f64::max);
    for w in weights.iter_mut() {
        if *w <= WEIGHT_FLOOR * largest {
            *w = 0.0;
        }
    }
    let reference = totals(weights);
    loop {
        let support: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0.0).collect();
        if support.len() <= rows {
            return;
        }
        let pick = &support[..rows + 1];
        let a = DMatrix::from_fn(rows, rows + 1, |r, c| column_of(pick[c])[r]);
        let Some(mut d) = null_vector(&a) else {
            return;
        };
        let uphill: f64 = d.iter().zip(pick).map(|(v, &i)| v * columns.value[i]).sum();
        if uphill < 0.0 {
            d.iter_mut().for_each(|v| *v = -*v);
        }
        let step = pick
            .iter()
            .zip(&d)
            .filter(|(_, v)| **v < 0.0)
            .map(|(&i, v)| weights[i] / -v)
            .fold(f64::INFINITY, f64::min);
        if !step.is_finite() {
            return;
        }
        let mut trial = weights.to_vec();
        let mut zeroed = false;
        for (&i, v) in pick.iter().zip(&d) {
            trial[i] += step * v;
            if trial[i] <= WEIGHT_FLOOR * largest {
                trial[i] = 0.0;
                zeroed = true;
            }
        }
        let drift = totals(&trial)
            .iter()
            .zip(&reference)
            .map(|(a, b)| (a - b).abs() / b.abs().max(1.0))
            .fold(0.0, f64::max);
        if !zeroed || drift > PURIFY_RESIDUAL {
            return;
        }
        weights.copy_from_slice(&trial);
    }
}

/// The channel rows `Q[x][j] = w_j q_j[x]` over the generators with positive weight.
pub fn channel_rows(cone: &ColumnCone, columns: &Columns, weights: &[f64]) -> Vec<Vec<f64>> {
    let used: Vec<usize> = (0..weights.len()).filter(|&i| weights[i] > 0.0).collect();
    (0..cone.n)
        .map(|x| used.iter().map(|&i| weights[i] * columns.z[i][x]).collect())
        .collect()
}
