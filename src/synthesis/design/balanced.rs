//! Balanced cyclic block designs: weights on k-subsets ("base blocks") of `Z_n` whose cyclic
//! shifts cover every pair of symbols with the same total weight.
//!
//! The shifts `B + i` (i in `Z_n`) of a block cover every symbol `k` times, and the pair
//! `{x, x + d}` exactly `N_B(d)` times, where `N_B(d)` counts the ordered pairs of `B` with
//! difference `d` (mod n). Weights `w_B >= 0` with `sum_B w_B = 1` and
//! `sum_B w_B N_B(d) = k (k - 1) / (n - 1)` for `d = 1 .. n/2` therefore give the same pair
//! counts, and so the same Fisher information, as the uniform design over all `C(n, k)` subsets
//! (a fractional cyclic 2-design; Beth, Jungnickel, Lenz, *Design Theory*, 1999, Ch. VII). The
//! weights come from an LP over a pool of blocks that contain 0 (every block containing 0 when
//! there are few; a seeded random sample otherwise, where the uniform average lies inside the
//! sample's hull with high probability), reduced to at most `n/2 + 1` blocks by Caratheodory
//! steps.

use crate::synthesis::master::null_vector;
use crate::synthesis::Run;
use mechsynth_solvers::{LinearProgram, Sense};
use nalgebra::{DMatrix, DVector};
use rand::{seq::index::sample, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The largest channel (inputs times outputs) a balanced design is emitted as.
pub(crate) const BALANCED_MAX_ENTRIES: usize = 1 << 24;
/// Up to this many blocks containing 0 the pool is all of them.
const FULL_POOL_LIMIT: usize = 4096;
/// A random pool has this many blocks per balance row, doubled on each further attempt.
const POOL_PER_ROW: usize = 8;
/// Attempts with a larger random pool before giving up.
const POOL_ATTEMPTS: usize = 4;
/// A design is accepted when every balance row is within this of its target (relative).
const BALANCE_TOLERANCE: f64 = 1e-12;
/// Weights below this fraction of the largest are dropped during the reduction.
const WEIGHT_FLOOR: f64 = 1e-14;

/// Base blocks and their weights (summing to 1).
pub(crate) struct BalancedBlocks {
    /// The base blocks, each a sorted k-subset of `0 .. n`.
    pub blocks: Vec<Vec<usize>>,
    /// Their weights.
    pub weights: Vec<f64>,
    /// Caratheodory steps taken.
    pub reduction_steps: usize,
}

/// `N_B(d)` for `d = 1 .. n/2`: ordered pairs of `block` with difference `d` mod n.
fn differences(block: &[usize], n: usize) -> Vec<f64> {
    let mut counts = vec![0.0; n / 2];
    for &a in block {
        for &b in block {
            let d = (b + n - a) % n;
            if d != 0 && d <= n / 2 {
                counts[d - 1] += 1.0;
            }
        }
    }
    counts
}

fn binomial(n: usize, k: usize) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// Every k-subset of `0 .. n` that contains 0.
fn all_blocks(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut rest: Vec<usize> = (1..k).collect();
    loop {
        let mut block = vec![0];
        block.extend(&rest);
        out.push(block);
        // Next (k-1)-combination of 1 .. n-1 in lexicographic order.
        let mut i = rest.len();
        while i > 0 && rest[i - 1] == n - k + i {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        rest[i - 1] += 1;
        for j in i..rest.len() {
            rest[j] = rest[j - 1] + 1;
        }
    }
}

fn random_blocks(n: usize, k: usize, count: usize, seed: u64) -> Vec<Vec<usize>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out: Vec<Vec<usize>> = (0..count)
        .map(|_| {
            let mut block: Vec<usize> = sample(&mut rng, n - 1, k - 1)
                .iter()
                .map(|i| i + 1)
                .collect();
            block.push(0);
            block.sort_unstable();
            block
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The balance rows of `pool` (row 0: weights sum to 1; then one per difference) and targets.
fn balance_system(pool: &[Vec<usize>], n: usize, k: usize) -> (DMatrix<f64>, DVector<f64>) {
    let rows = n / 2 + 1;
    let target = (k * (k - 1)) as f64 / (n - 1) as f64;
    let columns: Vec<Vec<f64>> = pool.iter().map(|b| differences(b, n)).collect();
    let a = DMatrix::from_fn(rows, pool.len(), |r, c| {
        if r == 0 {
            1.0
        } else {
            columns[c][r - 1]
        }
    });
    let b = DVector::from_fn(rows, |r, _| if r == 0 { 1.0 } else { target });
    (a, b)
}

/// Reduce the support of `w` (keeping `a w`) to at most `a.nrows()` entries.
fn reduce(a: &DMatrix<f64>, w: &mut [f64]) -> usize {
    let rows = a.nrows();
    let mut steps = 0;
    loop {
        let support: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
        if support.len() <= rows {
            return steps;
        }
        let pick = &support[..rows + 1];
        let sub = DMatrix::from_fn(rows, rows + 1, |r, c| a[(r, pick[c])]);
        let Some(mut d) = null_vector(&sub) else {
            return steps;
        };
        if d.iter().all(|v| *v >= 0.0) {
            d.iter_mut().for_each(|v| *v = -*v);
        }
        let step = pick
            .iter()
            .zip(&d)
            .filter(|(_, v)| **v < 0.0)
            .map(|(&i, v)| w[i] / -v)
            .fold(f64::INFINITY, f64::min);
        if !step.is_finite() {
            return steps;
        }
        let largest = w.iter().cloned().fold(0.0, f64::max);
        for (&i, v) in pick.iter().zip(&d) {
            w[i] += step * v;
            if w[i] <= WEIGHT_FLOOR * largest {
                w[i] = 0.0;
            }
        }
        steps += 1;
    }
}

/// Solve `a_S w_S = b` on the support by least squares (normal equations), if that keeps the
/// weights positive: the reduction's rounding drift is removed.
fn polish(a: &DMatrix<f64>, b: &DVector<f64>, w: &mut [f64]) {
    let support: Vec<usize> = (0..w.len()).filter(|&i| w[i] > 0.0).collect();
    let sub = DMatrix::from_fn(a.nrows(), support.len(), |r, c| a[(r, support[c])]);
    let current = DVector::from_fn(support.len(), |c, _| w[support[c]]);
    let residual = b - &sub * &current;
    if let Some(y) = (&sub * sub.transpose()).lu().solve(&residual) {
        let corrected = current + sub.transpose() * y;
        if corrected.iter().all(|&v| v > 0.0) {
            for (c, &i) in support.iter().enumerate() {
                w[i] = corrected[c];
            }
        }
    }
}

fn balanced(a: &DMatrix<f64>, b: &DVector<f64>, w: &[f64]) -> bool {
    let dv = DVector::from_column_slice(w);
    (a * dv - b)
        .iter()
        .zip(b.iter())
        .all(|(r, t)| r.abs() <= BALANCE_TOLERANCE * t.abs().max(1.0))
}

/// A balanced cyclic design of k-subsets of `Z_n`; `None` when none was found in the pools
/// tried, when the time ran out, or when its channel would exceed [`BALANCED_MAX_ENTRIES`].
pub(crate) fn balanced_blocks(n: usize, k: usize, run: &Run) -> Option<BalancedBlocks> {
    if k == 0 || k >= n {
        return None;
    }
    // One element or all but one: every pair is covered alike by a single block's shifts.
    if k == 1 || k == n - 1 || n <= 3 {
        return Some(BalancedBlocks {
            blocks: vec![(0..k).collect()],
            weights: vec![1.0],
            reduction_steps: 0,
        });
    }
    let rows = n / 2 + 1;
    if rows.saturating_mul(n).saturating_mul(n) > BALANCED_MAX_ENTRIES {
        return None;
    }
    let full = binomial(n - 1, k - 1) <= FULL_POOL_LIMIT as f64;
    for attempt in 0..POOL_ATTEMPTS {
        if run.expired() {
            return None;
        }
        let pool = if full {
            all_blocks(n, k)
        } else {
            let count = (POOL_PER_ROW * rows) << attempt;
            random_blocks(n, k, count, (n * 7919 + k) as u64 + attempt as u64)
        };
        let (a, b) = balance_system(&pool, n, k);
        let mut lp = LinearProgram::new();
        let vars: Vec<_> = pool
            .iter()
            .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
            .collect();
        for r in 0..rows {
            let terms = vars
                .iter()
                .enumerate()
                .map(|(c, &v)| (v, a[(r, c)]))
                .filter(|t| t.1 != 0.0)
                .collect();
            lp.add_constraint(terms, Sense::Eq, b[r]);
        }
        let solved = run.backend.solve(&lp, &run.backend_options()).ok();
        if let Some(solution) = solved.filter(|s| s.status.has_point()) {
            let mut w: Vec<f64> = solution.x.iter().map(|v| v.max(0.0)).collect();
            let steps = reduce(&a, &mut w);
            polish(&a, &b, &mut w);
            if balanced(&a, &b, &w) {
                let (blocks, weights) = pool.into_iter().zip(w).filter(|e| e.1 > 0.0).unzip();
                return Some(BalancedBlocks {
                    blocks,
                    weights,
                    reduction_steps: steps,
                });
            }
        }
        if full {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_with_zero_is_listed_once() {
        let blocks = all_blocks(7, 3);
        assert_eq!(blocks.len(), 15);
        assert!(blocks
            .iter()
            .all(|b| b[0] == 0 && b.windows(2).all(|w| w[0] < w[1])));
        let mut sorted = blocks.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), 15);
    }

    #[test]
    fn differences_count_ordered_pairs() {
        // {0, 1, 3} mod 7: each difference 1..6 once (a perfect difference set).
        assert_eq!(differences(&[0, 1, 3], 7), vec![1.0, 1.0, 1.0]);
        // {0, 2} mod 4: the pair at distance 2 counts in both orders.
        assert_eq!(differences(&[0, 2], 4), vec![0.0, 2.0]);
    }
}
