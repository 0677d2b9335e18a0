//! The duals of the encoded ratio rows, spread back from the reduced program's blocks to every
//! output column of the full program.
//!
//! A block stands for the orbit of its representative column `y0` under the symmetry group
//! `G`, and its row `k` (`Q[a][y0] <= f Q[b][y0]`) for the rows `(g a, g b)` in the columns
//! `g y0`. Giving each of those `z_k / |G|` once per `g` reproduces the reduced Lagrangian on
//! every symmetric channel (the sum over `G` of `z_k / |G| (Q[ga][gy0] - f Q[gb][gy0])` is
//! `z_k (v_a - f v_b)` there), so the weak-duality bound of the full program at these duals
//! (for each input, the least `c[x][y] + sum z (row terms)` over its columns) is the reduced
//! program's bound.

use super::structure::Structure;

/// For each output column `y` of the full program, the rows `(a, b, z)` with their duals:
/// the Lagrangian term is `z (Q[a][y] - f(a, b) Q[b][y])`, in the objective's units (of a
/// minimization).
pub(crate) struct ColumnDuals {
    /// Per output column.
    pub columns: Vec<Vec<(u32, u32, f64)>>,
}

impl Structure {
    /// The duals `z` (per block, scaled units) in every column; `group` is the symmetry group
    /// the program was reduced by (only the identity when it was not), `unit` the cost scale.
    pub(super) fn column_duals(
        &self,
        group: &[Vec<usize>],
        z: &[Vec<f64>],
        unit: f64,
    ) -> ColumnDuals {
        let mut columns: Vec<Vec<(u32, u32, f64)>> = vec![Vec::new(); self.outputs];
        let share = unit / group.len() as f64;
        for (block, zb) in self.blocks.iter().zip(z) {
            for (&k, &zk) in block.rows.iter().zip(zb) {
                if zk <= 0.0 {
                    continue;
                }
                let r = &self.ratios[k as usize];
                let (a, b) = (r.a as usize, r.b as usize);
                for g in group {
                    columns[g[block.output]].push((g[a] as u32, g[b] as u32, zk * share));
                }
            }
        }
        ColumnDuals { columns }
    }
}
