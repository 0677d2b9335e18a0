//! One primal-dual Newton system of the reduced program, solved block by block.
//!
//! With slacks `s = G q >= 0` (duals `z`), `q >= 0` (duals `w`) and row sums `B q = 1` (duals
//! `mu`), a Newton step toward the targets `t_s` (for `s z`) and `t_q` (for `q w`) is
//!
//! ```text
//! H dq = g + B^T dmu,   B dq = 1 - B q,
//! H = G^T diag(z / s) G + diag(w / q),   g = G^T (t_s / s) + t_q / q + B^T mu - c,
//! dz = t_s / s - z - z (G dq) / s,   dw = t_q / q - w - w dq / q
//! ```
//!
//! (Wright, "Primal-Dual Interior-Point Methods", SIAM 1997, Ch. 1 and 10; the dual residual
//! `c - G^T z - w - B^T mu` cancels out of `g` because the iterate keeps `s = G q` exactly).
//! `G` and `H` are block diagonal over output columns, so `dmu` solves the Schur complement
//! `sum_b B_b H_b^-1 B_b^T dmu = 1 - B q - sum_b B_b H_b^-1 g_b`, and each block's step follows.

use super::step::Target;
use super::structure::{Block, Ratio, Structure};
use faer::linalg::solvers::{Llt, Solve};
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{Mat, Par, Side};
use rayon::prelude::*;

/// Diagonal regularization tried, relative to the largest diagonal entry, when a block's
/// Cholesky factorization meets a non-positive pivot (rounding at the end of the path).
const REGULARIZATION: [f64; 5] = [1e-14, 1e-12, 1e-10, 1e-8, 1e-6];
/// Rounds of iterative refinement of each Newton step, at most.
const REFINEMENTS: usize = 2;
/// A step is refined only while its residual exceeds this relative to its right-hand side
/// (on a 14 x 14 grid the median residual was 1e-12 and the largest 4e-6; skipping the
/// refinement below 1e-10 took a 20 x 20 grid from 37 s to 29 s at the same gap tolerance).
const REFINEMENT_RESIDUAL: f64 = 1e-10;

/// The primal-dual point.
#[derive(Clone)]
pub(super) struct Point {
    /// Stacked variables.
    pub q: Vec<f64>,
    /// Duals of `q >= 0`.
    pub w: Vec<f64>,
    /// Duals of the ratio rows, per block (indexed like [`Structure::ratios`]; zero on rows
    /// without two ends).
    pub z: Vec<Vec<f64>>,
    /// Duals of the row sums.
    pub mu: Vec<f64>,
}

impl Point {
    /// A placeholder without entries.
    pub fn empty() -> Self {
        Point {
            q: Vec::new(),
            w: Vec::new(),
            z: Vec::new(),
            mu: Vec::new(),
        }
    }
}

/// One block's factor `H_b = L L^T`, `Y_b = L^-1 B_b^T` and `Y_b^T Y_b = B_b H_b^-1 B_b^T`.
type FactoredBlock = (Llt<f64>, Mat<f64>, Mat<f64>);

/// The factored Newton system: per block `L` and `Y_b`, and the Schur complement's factor.
pub(super) struct Factored {
    blocks: Vec<(Llt<f64>, Mat<f64>)>,
    schur: Llt<f64>,
}

/// Slack of a row at a block's variables.
#[inline]
pub(super) fn slack(q: &[f64], r: &Ratio, a: usize, b: usize) -> f64 {
    r.factor * q[b] - q[a]
}

/// Factor a symmetric positive definite matrix (lower triangle), regularizing if needed.
fn cholesky(h: &Mat<f64>) -> Option<Llt<f64>> {
    if let Ok(l) = Llt::new(h.as_ref(), Side::Lower) {
        return Some(l);
    }
    let largest = (0..h.nrows()).fold(0.0f64, |m, i| m.max(h[(i, i)]));
    REGULARIZATION.iter().find_map(|&delta| {
        let mut g = h.clone();
        for i in 0..g.nrows() {
            g[(i, i)] += delta * largest;
        }
        Llt::new(g.as_ref(), Side::Lower).ok()
    })
}

impl Structure {
    /// The block's variables in `v`.
    pub fn part<'a>(&self, block: &Block, v: &'a [f64]) -> &'a [f64] {
        &v[block.offset..block.offset + block.size]
    }

    /// Factor the Newton system at `p`; `None` when a block or the Schur complement is not
    /// positive definite even after regularization.
    pub fn factor(&self, p: &Point) -> Option<Factored> {
        let parts: Option<Vec<FactoredBlock>> = self
            .blocks
            .par_iter()
            .zip(&p.z)
            .map(|(block, z)| {
                let q = self.part(block, &p.q);
                let w = self.part(block, &p.w);
                let size = block.size;
                let mut h = Mat::<f64>::zeros(size, size);
                for ((r, a, b), &zk) in self.rows_of(block).zip(z) {
                    let d = zk / slack(q, r, a, b);
                    h[(a, a)] += d;
                    h[(b, b)] += d * r.factor * r.factor;
                    h[(a, b)] -= d * r.factor;
                    h[(b, a)] -= d * r.factor;
                }
                for i in 0..size {
                    h[(i, i)] += w[i] / q[i];
                }
                let llt = cholesky(&h)?;
                drop(h);
                // Only the forward solve: half the flops of `H_b^-1 B_b^T`.
                let mut y = block.coupling.transpose().to_owned();
                solve_lower_triangular_in_place(llt.L(), y.as_mut(), Par::Seq);
                let s = y.transpose() * &y;
                Some((llt, y, s))
            })
            .collect();
        let parts = parts?;
        let mut schur = Mat::<f64>::zeros(self.sums, self.sums);
        for (_, _, s) in &parts {
            schur += s;
        }
        let schur = cholesky(&schur)?;
        Some(Factored {
            blocks: parts.into_iter().map(|(l, x, _)| (l, x)).collect(),
            schur,
        })
    }

    /// The right-hand side `g` of block `bi` (see the module's formulas).
    fn block_rhs(&self, bi: usize, p: &Point, target: &Target) -> Vec<f64> {
        let block = &self.blocks[bi];
        let mut g: Vec<f64> = self
            .transpose_sums(block, &p.mu)
            .iter()
            .zip(&block.cost)
            .map(|(bm, c)| bm - c)
            .collect();
        if !target.is_affine() {
            let q = self.part(block, &p.q);
            let w = self.part(block, &p.w);
            let dqa = target.part(self, block);
            for i in 0..block.size {
                g[i] += target.of(dqa.map(|d| d[i]), q[i], w[i]) / q[i];
            }
            for ((r, a, b), &zk) in self.rows_of(block).zip(&p.z[bi]) {
                let s = slack(q, r, a, b);
                let dsa = dqa.map(|d| r.factor * d[b] - d[a]);
                let t = target.of(dsa, s, zk) / s;
                g[b] += r.factor * t;
                g[a] -= t;
            }
        }
        g
    }

    /// `B_b^T mu` for block `b` (one entry per local variable).
    fn transpose_sums(&self, block: &Block, mu: &[f64]) -> Vec<f64> {
        (0..block.size)
            .map(|l| (0..self.sums).map(|r| block.coupling[(r, l)] * mu[r]).sum())
            .collect()
    }

    /// The step `dq` (stacked) and `dmu` toward `target`, with up to [`REFINEMENTS`] rounds of
    /// iterative refinement against `H` applied row by row (the factors lose accuracy at the
    /// end of the path, and every error in the step becomes dual infeasibility).
    pub fn direction(&self, p: &Point, f: &Factored, target: &Target) -> (Vec<f64>, Vec<f64>) {
        let g: Vec<Vec<f64>> = (0..self.blocks.len())
            .into_par_iter()
            .map(|bi| self.block_rhs(bi, p, target))
            .collect();
        let primal = self.row_sums(&p.q);
        let rp: Vec<f64> = primal.iter().map(|s| 1.0 - s).collect();
        let (mut dq, mut dmu) = self.solve(f, &g, &rp);
        for _ in 0..REFINEMENTS {
            let hdq = self.apply_h(p, &dq);
            let bdq = self.row_sums(&dq);
            let e: Vec<Vec<f64>> = self
                .blocks
                .iter()
                .zip(&g)
                .map(|(block, gb)| {
                    let bt = self.transpose_sums(block, &dmu);
                    (0..block.size)
                        .map(|l| gb[l] + bt[l] - hdq[block.offset + l])
                        .collect()
                })
                .collect();
            let ep: Vec<f64> = rp.iter().zip(&bdq).map(|(a, b)| a - b).collect();
            let scale = g
                .iter()
                .flatten()
                .chain(&rp)
                .fold(0.0f64, |m, v| m.max(v.abs()));
            let size = e
                .iter()
                .flatten()
                .chain(&ep)
                .fold(0.0f64, |m, v| m.max(v.abs()));
            if size <= REFINEMENT_RESIDUAL * scale {
                break;
            }
            let (cq, cmu) = self.solve(f, &e, &ep);
            dq.iter_mut().zip(&cq).for_each(|(a, b)| *a += b);
            dmu.iter_mut().zip(&cmu).for_each(|(a, b)| *a += b);
        }
        (dq, dmu)
    }

    /// `B v` (one entry per row sum).
    pub fn row_sums(&self, v: &[f64]) -> Vec<f64> {
        let mut sums = vec![0.0; self.sums];
        for b in &self.blocks {
            let vb = self.part(b, v);
            for (r, s) in sums.iter_mut().enumerate() {
                *s += (0..b.size).map(|l| b.coupling[(r, l)] * vb[l]).sum::<f64>();
            }
        }
        sums
    }

    /// `H v`, row by row (stacked).
    fn apply_h(&self, p: &Point, v: &[f64]) -> Vec<f64> {
        let parts: Vec<Vec<f64>> = self
            .blocks
            .par_iter()
            .zip(&p.z)
            .map(|(block, z)| {
                let q = self.part(block, &p.q);
                let w = self.part(block, &p.w);
                let vb = self.part(block, v);
                let mut out: Vec<f64> = (0..block.size).map(|i| w[i] / q[i] * vb[i]).collect();
                for ((r, a, b), &zk) in self.rows_of(block).zip(z) {
                    let d = zk / slack(q, r, a, b) * (r.factor * vb[b] - vb[a]);
                    out[b] += r.factor * d;
                    out[a] -= d;
                }
                out
            })
            .collect();
        parts.concat()
    }

    /// Solve `H dq = g + B^T dmu`, `B dq = rp` with the factors: with `u_b = L^-1 g_b`,
    /// `B_b H_b^-1 g_b = Y_b^T u_b`, so `S dmu = rp - sum_b Y_b^T u_b` and
    /// `dq_b = L^-T (u_b + Y_b dmu)`.
    fn solve(&self, f: &Factored, g: &[Vec<f64>], rp: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let forward: Vec<Mat<f64>> = self
            .blocks
            .par_iter()
            .zip(g)
            .zip(&f.blocks)
            .map(|((block, gb), (llt, _))| {
                let mut u = Mat::from_fn(block.size, 1, |i, _| gb[i]);
                solve_lower_triangular_in_place(llt.L(), u.as_mut(), Par::Seq);
                u
            })
            .collect();
        let mut rhs = Mat::<f64>::from_fn(self.sums, 1, |r, _| rp[r]);
        for (u, (_, y)) in forward.iter().zip(&f.blocks) {
            rhs -= y.transpose() * u;
        }
        f.schur.solve_in_place(rhs.as_mut());
        let dmu: Vec<f64> = (0..self.sums).map(|r| rhs[(r, 0)]).collect();
        let steps: Vec<Mat<f64>> = forward
            .into_par_iter()
            .zip(&f.blocks)
            .map(|(u, (llt, y))| {
                let mut w = u + y * &rhs;
                solve_upper_triangular_in_place(llt.L().transpose(), w.as_mut(), Par::Seq);
                w
            })
            .collect();
        let mut dq = vec![0.0; self.variables];
        for (block, w) in self.blocks.iter().zip(&steps) {
            for i in 0..block.size {
                dq[block.offset + i] = w[(i, 0)];
            }
        }
        (dq, dmu)
    }
}
