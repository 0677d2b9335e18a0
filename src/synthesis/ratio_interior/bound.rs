//! The rigorous lower bound at the method's duals (see the module docs of the parent).

use super::newton::Point;
use super::structure::Structure;
use rayon::prelude::*;

use crate::numeric::gamma;

impl Structure {
    /// The rigorous lower bound at the point's duals (module docs), scaled units.
    pub fn bound(&self, p: &Point) -> f64 {
        // Per row sum r: the least reduced cost per unit of the row, min_v (r_v - err_v) / B_rv
        // over the row's variables (every variable lies in exactly one row sum).
        let least: Vec<Vec<f64>> = self
            .blocks
            .par_iter()
            .zip(&p.z)
            .map(|(block, z)| {
                let size = block.size;
                let mut r = block.cost.clone();
                let mut magnitude: Vec<f64> = r.iter().map(|c| c.abs()).collect();
                let mut terms = vec![1 + self.sums; size];
                for (l, &(row, count)) in block.sum_of.iter().enumerate() {
                    let t = count * p.mu[row as usize];
                    r[l] -= t;
                    magnitude[l] += t.abs();
                }
                for ((ratio, a, b), &zk) in self.rows_of(block).zip(z) {
                    let zk = zk.max(0.0);
                    let t = ratio.factor * zk;
                    r[b] -= t;
                    magnitude[b] += t;
                    terms[b] += 1;
                    r[a] += zk;
                    magnitude[a] += zk;
                    terms[a] += 1;
                }
                let mut least = vec![f64::INFINITY; self.sums];
                for (l, &(row, count)) in block.sum_of.iter().enumerate() {
                    let low = (r[l] - gamma(terms[l] + 1) * magnitude[l]).next_down();
                    let slot = &mut least[row as usize];
                    *slot = slot.min(crate::numeric::div_down(low, count));
                }
                least
            })
            .collect();
        let mut total = 0.0;
        let mut magnitude = 0.0;
        for (row, m) in p.mu.iter().enumerate() {
            let low = least.iter().fold(f64::INFINITY, |a, l| a.min(l[row]));
            total += m + low;
            magnitude += m.abs() + low.abs();
        }
        if !total.is_finite() {
            return f64::NEG_INFINITY;
        }
        (total - gamma(2 * self.sums + 2) * magnitude).next_down()
    }
}
