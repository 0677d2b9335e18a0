//! Moving along a Newton step: the quantities every ratio row and variable takes from it
//! (slacks, multipliers and their steps, see [`super::newton`]), and the move itself.

use super::newton::{slack, Point, Target};
use super::structure::Structure;
use rayon::prelude::*;

impl Structure {
    /// Apply `f(slack, ds, z, dz)` to every ratio row and `g(q, dq, w, dw)` to every variable
    /// for the step `dq` toward `target`, and combine the results with `combine`.
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
        self.blocks
            .par_iter()
            .zip(&p.z)
            .map(|(block, z)| {
                let q = self.part(block, &p.q);
                let w = self.part(block, &p.w);
                let d = self.part(block, dq);
                let dqa = target.part(self, block);
                let mut acc = identity;
                for ((r, a, b), &zk) in self.rows_of(block).zip(z) {
                    let s = slack(q, r, a, b);
                    let ds = r.factor * d[b] - d[a];
                    let t = target.of(dqa.map(|d| r.factor * d[b] - d[a]), s, zk);
                    let dz = t / s - zk - zk * ds / s;
                    acc = rows(acc, s, ds, zk, dz);
                }
                for i in 0..block.size {
                    let t = target.of(dqa.map(|d| d[i]), q[i], w[i]);
                    let dw = t / q[i] - w[i] - w[i] * d[i] / q[i];
                    acc = vars(acc, q[i], d[i], w[i], dw);
                }
                acc
            })
            .reduce(|| identity, combine)
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
        let (q, w) = (&p.q, &p.w);
        let new_z: Vec<Vec<f64>> = self
            .blocks
            .par_iter()
            .zip(&p.z)
            .map(|(block, z)| {
                let qb = self.part(block, q);
                let d = self.part(block, dq);
                let dqa = target.part(self, block);
                self.rows_of(block)
                    .zip(z)
                    .map(|((r, a, b), &zk)| {
                        let s = slack(qb, r, a, b);
                        let ds = r.factor * d[b] - d[a];
                        let t = target.of(dqa.map(|d| r.factor * d[b] - d[a]), s, zk);
                        zk + ad * (t / s - zk - zk * ds / s)
                    })
                    .collect()
            })
            .collect();
        let new_w: Vec<f64> = (0..self.variables)
            .map(|i| {
                let t = target.of(target.affine.map(|a| a[i]), q[i], w[i]);
                w[i] + ad * (t / q[i] - w[i] - w[i] * dq[i] / q[i])
            })
            .collect();
        p.z = new_z;
        p.w = new_w;
        for (qi, d) in p.q.iter_mut().zip(dq) {
            *qi += ap * d;
        }
        for (m, d) in p.mu.iter_mut().zip(dmu) {
            *m += ad * d;
        }
    }
}
