//! The reduced program's layout: one block of variables per orbit of output columns, the ratio
//! rows shared by every block, and the row sums that couple the blocks.

use super::super::symmetry::Orbits;
use faer::Mat;
use rayon::prelude::*;

/// One ratio row `q_a <= factor q_b`, the same in every column (in [`Block::local_rows`],
/// `a` and `b` are the block's local variables).
#[derive(Debug, Clone, Copy)]
pub(super) struct Ratio {
    pub a: u32,
    pub b: u32,
    pub factor: f64,
}

/// The variables of one representative output column: the orbits of its entries.
pub(super) struct Block {
    /// The representative output column (the block stands for its orbit).
    pub output: usize,
    /// The local variable of each input's entry in the column.
    pub local: Vec<u32>,
    /// Number of local variables.
    pub size: usize,
    /// Index of the first local variable in the stacked variable vector.
    pub offset: usize,
    /// Each local variable's cost (the sum over its orbit's entries, scaled).
    pub cost: Vec<f64>,
    /// The block's part of the row sums, dense (row sums x local variables).
    pub coupling: Mat<f64>,
    /// The same, by local variable: the one row sum it lies in (the orbit of its input) and
    /// its count there.
    pub sum_of: Vec<(u32, f64)>,
    /// The ratio rows encoded in this block (indices into [`Structure::ratios`], each with two
    /// distinct ends).
    pub rows: Vec<u32>,
    /// The same rows with their local ends, stored in the block itself: every pass of the
    /// method over the rows streams through this instead of looking each row up.
    pub local_rows: Vec<Ratio>,
}

impl Block {
    /// Encode ratio row `k` (`r`, with two distinct ends here).
    fn push(&mut self, k: usize, r: &Ratio) {
        self.rows.push(k as u32);
        self.local_rows.push(Ratio {
            a: self.local[r.a as usize],
            b: self.local[r.b as usize],
            factor: r.factor,
        });
    }

    /// `(local a, local b, factor)` of ratio row `r` in this block, `None` when both ends are
    /// the same variable (then the row says only `(factor - 1) q >= 0`, implied by `q >= 0`).
    #[inline]
    pub fn ends(&self, r: &Ratio) -> Option<(usize, usize)> {
        let (a, b) = (self.local[r.a as usize], self.local[r.b as usize]);
        (a != b).then_some((a as usize, b as usize))
    }
}

/// The reduced program `min c.q` subject to `q_a <= f q_b` in every block, `q >= 0`, and one
/// row sum per orbit of inputs.
pub(super) struct Structure {
    pub ratios: Vec<Ratio>,
    pub blocks: Vec<Block>,
    /// Number of row sums.
    pub sums: usize,
    /// Total number of variables.
    pub variables: usize,
    /// Number of outputs of the channel.
    pub outputs: usize,
    /// Stacked index of each orbit variable of [`Orbits`].
    stacked_of_orbit: Vec<usize>,
}

impl Structure {
    /// The layout for `costs` (n x m, already signed and scaled) and the ratio rows, reduced
    /// by `orbits`.
    pub fn new(costs: &[Vec<f64>], ratios: &[(usize, usize, f64)], orbits: &Orbits) -> Self {
        let n = costs.len();
        let m = costs.first().map_or(0, Vec::len);
        let unset = usize::MAX;
        // Orbit variable -> (block, local).
        let mut place = vec![(unset, 0u32); orbits.variables()];
        let mut blocks: Vec<Block> = Vec::new();
        let mut offset = 0;
        for y in 0..m {
            if n == 0 || place[orbits.var(0, y)].0 != unset {
                continue;
            }
            let b = blocks.len();
            let mut local = Vec::with_capacity(n);
            let mut size = 0u32;
            for x in 0..n {
                let v = orbits.var(x, y);
                if place[v].0 == unset {
                    place[v] = (b, size);
                    size += 1;
                }
                local.push(place[v].1);
            }
            blocks.push(Block {
                output: y,
                local,
                size: size as usize,
                offset,
                cost: vec![0.0; size as usize],
                coupling: Mat::zeros(0, 0),
                sum_of: Vec::new(),
                rows: Vec::new(),
                local_rows: Vec::new(),
            });
            offset += size as usize;
        }
        for (x, row) in costs.iter().enumerate() {
            for (y, &c) in row.iter().enumerate() {
                let (b, l) = place[orbits.var(x, y)];
                blocks[b].cost[l as usize] += c;
            }
        }
        let reps = orbits.row_representatives();
        for block in &mut blocks {
            block.coupling = Mat::zeros(reps.len(), block.size);
        }
        for (r, &x) in reps.iter().enumerate() {
            for y in 0..m {
                let (b, l) = place[orbits.var(x, y)];
                blocks[b].coupling[(r, l as usize)] += 1.0;
            }
        }
        for block in &mut blocks {
            block.sum_of = (0..block.size)
                .map(|l| {
                    let r = (0..reps.len())
                        .find(|&r| block.coupling[(r, l)] != 0.0)
                        .expect("every entry's row is in the orbit of one representative");
                    (r as u32, block.coupling[(r, l)])
                })
                .collect();
        }
        let stacked_of_orbit = place
            .iter()
            .map(|&(b, l)| blocks[b].offset + l as usize)
            .collect();
        Structure {
            ratios: ratios
                .iter()
                .map(|&(a, b, factor)| Ratio {
                    a: a as u32,
                    b: b as u32,
                    factor,
                })
                .collect(),
            blocks,
            sums: reps.len(),
            variables: offset,
            outputs: m,
            stacked_of_orbit,
        }
    }

    /// Ratio rows encoded, over all blocks (the complementarity pairs they bring).
    pub fn active_rows(&self) -> usize {
        self.blocks.iter().map(|b| b.rows.len()).sum()
    }

    /// The encoded rows of `block`, with their local ends (also in the returned row).
    pub fn rows_of<'a>(
        &'a self,
        block: &'a Block,
    ) -> impl Iterator<Item = (&'a Ratio, usize, usize)> + 'a {
        block
            .local_rows
            .iter()
            .map(|r| (r, r.a as usize, r.b as usize))
    }

    /// Encode in every block the rows with two distinct ends among `chosen` (indices into
    /// the ratios), once each.
    pub fn encode(&mut self, chosen: &[usize]) {
        let ratios = &self.ratios;
        self.blocks.par_iter_mut().for_each(|block| {
            let mut present = vec![false; ratios.len()];
            block.rows.iter().for_each(|&k| present[k as usize] = true);
            for &k in chosen {
                if !present[k] && block.ends(&ratios[k]).is_some() {
                    present[k] = true;
                    block.push(k, &ratios[k]);
                }
            }
        });
    }

    /// Encode in each block the rows at which `q` (stacked) has `q_a - f q_b` above `tolerance`
    /// times the larger side (violated by more than that; a negative `tolerance` also takes
    /// rows that hold but are close to binding), at most `per_input` of the worst per input;
    /// how many were added.
    pub fn add_violated(&mut self, q: &[f64], tolerance: f64, per_input: usize) -> usize {
        let ratios = &self.ratios;
        self.blocks
            .par_iter_mut()
            .map(|block| {
                let qb = &q[block.offset..block.offset + block.size];
                let mut present = vec![false; ratios.len()];
                block.rows.iter().for_each(|&k| present[k as usize] = true);
                let mut worst: Vec<Vec<(f64, u32)>> = vec![Vec::new(); block.local.len()];
                for (k, r) in ratios.iter().enumerate() {
                    if present[k] {
                        continue;
                    }
                    if let Some((a, b)) = block.ends(r) {
                        let excess = qb[a] - r.factor * qb[b];
                        if excess > tolerance * qb[a].max(r.factor * qb[b]) {
                            worst[r.a as usize].push((excess, k as u32));
                        }
                    }
                }
                let mut added = 0;
                for mut list in worst {
                    list.sort_by(|x, y| y.0.total_cmp(&x.0));
                    list.truncate(per_input);
                    added += list.len();
                    for (_, k) in list {
                        block.push(k as usize, &ratios[k as usize]);
                    }
                }
                added
            })
            .sum()
    }

    /// The channel (n x m) of a stacked point.
    pub fn expand(&self, orbits: &Orbits, q: &[f64]) -> Vec<Vec<f64>> {
        let point: Vec<f64> = self.stacked_of_orbit.iter().map(|&i| q[i]).collect();
        orbits.expand(&point)
    }
}
