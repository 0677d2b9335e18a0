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

use super::factor::Factored;
use super::step::Target;
use super::structure::{Block, Ratio, Structure};
use rayon::prelude::*;

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

/// Slack of a row at a block's variables.
#[inline]
pub(super) fn slack(q: &[f64], r: &Ratio, a: usize, b: usize) -> f64 {
    r.factor * q[b] - q[a]
}

impl Structure {
    /// The block's variables in `v`.
    pub fn part<'a>(&self, block: &Block, v: &'a [f64]) -> &'a [f64] {
        &v[block.offset..block.offset + block.size]
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
            .map(|l| {
                let (r, count) = block.sum_of[l];
                count * mu[r as usize]
            })
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
        // The affine step only sets the centring and the corrector's second-order term, which
        // need no refinement.
        let refinements = if target.is_affine() { 0 } else { REFINEMENTS };
        for _ in 0..refinements {
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
            for (&(r, count), v) in b.sum_of.iter().zip(vb) {
                sums[r as usize] += count * v;
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
}
