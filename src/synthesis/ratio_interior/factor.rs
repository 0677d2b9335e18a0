//! Factoring the Newton system block by block, and solving with the factors (the formulas
//! are in [`super::newton`]).

use super::newton::{slack, Point};
use super::structure::Structure;
use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::cholesky::llt::factor as llt;
use faer::linalg::matmul::matmul;
use faer::linalg::solvers::{Llt, Solve};
use faer::linalg::triangular_solve::{
    solve_lower_triangular_in_place, solve_upper_triangular_in_place,
};
use faer::{Accum, Mat, Par, Side};
use rayon::prelude::*;

/// Diagonal regularization tried, relative to the largest diagonal entry, when a block's
/// Cholesky factorization meets a non-positive pivot (rounding at the end of the path).
const REGULARIZATION: [f64; 5] = [1e-14, 1e-12, 1e-10, 1e-8, 1e-6];

/// One block's factor, kept from iteration to iteration so that its storage is reused (fresh
/// matrices of this size cost page faults and zeroing every time): `H_b = L L^T` with `L` in
/// the lower triangle of `l`, `y = Y_b = L^-1 B_b^T` and `s = Y_b^T Y_b = B_b H_b^-1 B_b^T`.
pub(super) struct BlockFactor {
    l: Mat<f64>,
    y: Mat<f64>,
    s: Mat<f64>,
}

/// The factored Newton system: per block `L` and `Y_b`, and the Schur complement's factor.
pub(super) struct Factored {
    blocks: Vec<BlockFactor>,
    schur: Llt<f64>,
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

/// Cholesky factorization of the lower triangle of `l` in place; whether it succeeded.
fn cholesky_in_place(l: &mut Mat<f64>) -> bool {
    let mut memory = MemBuffer::new(llt::cholesky_in_place_scratch::<f64>(
        l.nrows(),
        Par::Seq,
        Default::default(),
    ));
    let stack = MemStack::new(&mut memory);
    llt::cholesky_in_place(
        l.as_mut(),
        Default::default(),
        Par::Seq,
        stack,
        Default::default(),
    )
    .is_ok()
}

impl Structure {
    /// Write block `bi`'s `H_b` at `p` into the lower triangle of `l` (the rest is zeroed),
    /// with `shift` added to the diagonal.
    fn assemble(&self, bi: usize, p: &Point, l: &mut Mat<f64>, shift: f64) {
        let block = &self.blocks[bi];
        let q = self.part(block, &p.q);
        let w = self.part(block, &p.w);
        l.as_mut().fill(0.0);
        for ((r, a, b), &zk) in self.rows_of(block).zip(&p.z[bi]) {
            let d = zk / slack(q, r, a, b);
            l[(a, a)] += d;
            l[(b, b)] += d * r.factor * r.factor;
            l[(a.max(b), a.min(b))] -= d * r.factor;
        }
        for i in 0..block.size {
            l[(i, i)] += w[i] / q[i] + shift;
        }
    }

    /// Factor the Newton system at `p`, reusing the storage of `spare` (an earlier
    /// factorization of the same blocks) when given; `None` when a block or the Schur
    /// complement is not positive definite even after regularization.
    pub fn factor(&self, p: &Point, spare: Option<Factored>) -> Option<Factored> {
        let mut blocks = spare.map(|f| f.blocks).unwrap_or_default();
        if blocks.len() != self.blocks.len() {
            blocks = self
                .blocks
                .iter()
                .map(|b| BlockFactor {
                    l: Mat::zeros(b.size, b.size),
                    y: Mat::zeros(b.size, self.sums),
                    s: Mat::zeros(self.sums, self.sums),
                })
                .collect();
        }
        let factored = blocks
            .par_iter_mut()
            .enumerate()
            .map(|(bi, f)| {
                self.assemble(bi, p, &mut f.l, 0.0);
                if !cholesky_in_place(&mut f.l) {
                    self.assemble(bi, p, &mut f.l, 0.0);
                    let largest = (0..f.l.nrows()).fold(0.0f64, |m, i| m.max(f.l[(i, i)]));
                    let regularized = REGULARIZATION.iter().any(|&delta| {
                        self.assemble(bi, p, &mut f.l, delta * largest);
                        cholesky_in_place(&mut f.l)
                    });
                    if !regularized {
                        return false;
                    }
                }
                // Only the forward solve: half the flops of `H_b^-1 B_b^T`.
                f.y.copy_from(self.blocks[bi].coupling.transpose());
                solve_lower_triangular_in_place(f.l.as_ref(), f.y.as_mut(), Par::Seq);
                matmul(
                    f.s.as_mut(),
                    Accum::Replace,
                    f.y.transpose(),
                    f.y.as_ref(),
                    1.0,
                    Par::Seq,
                );
                true
            })
            .collect::<Vec<bool>>();
        if factored.contains(&false) {
            return None;
        }
        let mut schur = Mat::<f64>::zeros(self.sums, self.sums);
        for f in &blocks {
            schur += &f.s;
        }
        let schur = cholesky(&schur)?;
        Some(Factored { blocks, schur })
    }

    /// Solve `H dq = g + B^T dmu`, `B dq = rp` with the factors: with `u_b = L^-1 g_b`,
    /// `B_b H_b^-1 g_b = Y_b^T u_b`, so `S dmu = rp - sum_b Y_b^T u_b` and
    /// `dq_b = L^-T (u_b + Y_b dmu)`.
    pub(super) fn solve(&self, f: &Factored, g: &[Vec<f64>], rp: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let forward: Vec<Mat<f64>> = self
            .blocks
            .par_iter()
            .zip(g)
            .zip(&f.blocks)
            .map(|((block, gb), bf)| {
                let mut u = Mat::from_fn(block.size, 1, |i, _| gb[i]);
                solve_lower_triangular_in_place(bf.l.as_ref(), u.as_mut(), Par::Seq);
                u
            })
            .collect();
        let mut rhs = Mat::<f64>::from_fn(self.sums, 1, |r, _| rp[r]);
        for (u, bf) in forward.iter().zip(&f.blocks) {
            rhs -= bf.y.transpose() * u;
        }
        f.schur.solve_in_place(rhs.as_mut());
        let dmu: Vec<f64> = (0..self.sums).map(|r| rhs[(r, 0)]).collect();
        let steps: Vec<Mat<f64>> = forward
            .into_par_iter()
            .zip(&f.blocks)
            .map(|(u, bf)| {
                let mut w = u + &bf.y * &rhs;
                solve_upper_triangular_in_place(bf.l.transpose(), w.as_mut(), Par::Seq);
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
