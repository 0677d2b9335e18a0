//! Moving along a Newton step: the quantities every ratio row and variable takes from it
//! (slacks, multipliers and their steps, see [`super::newton`]), and the move itself.

use super::newton::{slack, Point};
use super::structure::Block;
use super::structure::Structure;
use rayon::prelude::*;

/// The targets of a step for every product `s z` and `q w`: `centre`, less the second-order
/// term of an affine step when one is given (Mehrotra's corrector). The affine step itself has
/// `centre = 0` and no second-order term.
#[derive(Clone, Copy)]
pub(super) struct Target<'a> {
    pub centre: f64,
    pub affine: Option<&'a [f64]>,
}

impl<'a> Target<'a> {
    /// The affine-scaling (predictor) step.
    pub const AFFINE: Target<'static> = Target {
        centre: 0.0,
        affine: None,
    };

    /// Whether every target is zero (the affine step).
    pub(super) fn is_affine(&self) -> bool {
        self.affine.is_none() && self.centre == 0.0
    }

    /// The block's part of the affine step, when there is one.
    pub(super) fn part(&self, s: &Structure, block: &Block) -> Option<&'a [f64]> {
        self.affine.map(|a| s.part(block, a))
    }

    /// The target of a product `x y` whose affine step moved `x` by `dxa` (the affine `dy` is
    /// `-y - y dxa / x`).
    #[inline]
    pub(super) fn of(&self, affine: Option<f64>, x: f64, y: f64) -> f64 {
        match affine {
            Some(dxa) => self.centre - dxa * (-y - y * dxa / x),
            None => self.centre,
        }
    }
}

/// Which kind of complementarity pair a visit reports.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Pair {
    /// An encoded ratio row (slack `s`, dual `z`).
    Row,
    /// A variable (`q`, dual `w`).
    Var,
}

impl Structure {
    /// Call `f(kind, x, dx, y, dy)` for every complementarity pair of block `bi` under
    /// the step `dq` toward `target`: `(s, ds, z, dz)` for every encoded row, then
    /// `(q, dq, w, dw)` for every variable.
    pub(super) fn visit(
        &self,
        bi: usize,
        p: &Point,
        dq: &[f64],
        target: &Target,
        mut f: impl FnMut(Pair, f64, f64, f64, f64),
    ) {
        let block = &self.blocks[bi];
        let q = self.part(block, &p.q);
        let w = self.part(block, &p.w);
        let d = self.part(block, dq);
        let dqa = target.part(self, block);
        for ((r, a, b), &zk) in self.rows_of(block).zip(&p.z[bi]) {
            let s = slack(q, r, a, b);
            let ds = r.factor * d[b] - d[a];
            let t = target.of(dqa.map(|d| r.factor * d[b] - d[a]), s, zk);
            f(Pair::Row, s, ds, zk, t / s - zk - zk * ds / s);
        }
        for i in 0..block.size {
            let t = target.of(dqa.map(|d| d[i]), q[i], w[i]);
            f(
                Pair::Var,
                q[i],
                d[i],
                w[i],
                t / q[i] - w[i] - w[i] * d[i] / q[i],
            );
        }
    }

    /// Apply `f(slack, ds, z, dz)` to every ratio row and `g(q, dq, w, dw)` to every variable
    /// for the step `dq` toward `target`, and combine the results with `combine`. Each block is
    /// folded on its own thread, and the blocks' results are combined in block order, so sums
    /// come out the same bit for bit whatever the threads do (a parallel reduction's tree
    /// depends on work stealing, and it made runs differ by a few iterations).
    #[allow(clippy::too_many_arguments)]
    pub fn fold_pairs<T: Send + Sync + Copy>(
        &self,
        p: &Point,
        dq: &[f64],
        target: &Target,
        identity: T,
        rows: impl Fn(T, f64, f64, f64, f64) -> T + Sync,
        vars: impl Fn(T, f64, f64, f64, f64) -> T + Sync,
        combine: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        (0..self.blocks.len())
            .into_par_iter()
            .map(|bi| {
                let mut acc = identity;
                self.visit(bi, p, dq, target, |kind, x, dx, y, dy| {
                    acc = match kind {
                        Pair::Row => rows(acc, x, dx, y, dy),
                        Pair::Var => vars(acc, x, dx, y, dy),
                    }
                });
                acc
            })
            .collect::<Vec<T>>()
            .into_iter()
            .fold(identity, combine)
    }

    /// Move the point: `q += ap dq`, `w, z += ad (dw, dz)`, `mu += ad dmu`.
    pub fn advance(
        &self,
        p: &mut Point,
        dq: &[f64],
        dmu: &[f64],
        target: &Target,
        ap: f64,
        ad: f64,
    ) {
        let moved: Vec<(Vec<f64>, Vec<f64>)> = (0..self.blocks.len())
            .into_par_iter()
            .map(|bi| {
                let (mut z, mut w) = (Vec::new(), Vec::new());
                self.visit(bi, p, dq, target, |kind, _, _, y, dy| match kind {
                    Pair::Row => z.push(y + ad * dy),
                    Pair::Var => w.push(y + ad * dy),
                });
                (z, w)
            })
            .collect();
        let mut new_w = Vec::with_capacity(self.variables);
        p.z = moved
            .into_iter()
            .map(|(z, w)| {
                new_w.extend(w);
                z
            })
            .collect();
        p.w = new_w;
        for (qi, d) in p.q.iter_mut().zip(dq) {
            *qi += ap * d;
        }
        for (m, d) in p.mu.iter_mut().zip(dmu) {
            *m += ad * d;
        }
    }
}
