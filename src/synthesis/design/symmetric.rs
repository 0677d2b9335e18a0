//! Certified optimal frequency estimation under eps-LDP at a uniform true distribution, for any
//! number of symbols, by symmetry (docs/frequency.md, "Uniform distributions: the symmetric
//! optimum").
//!
//! The design problem `min tr(J(w)^-1)` over ray weights with `sum_r w_r r = 1` is convex, and
//! with a uniform `pi`, identity queries and the LDP cone it is invariant under every
//! permutation of the symbols. Averaging an optimal design over the permutations keeps it
//! feasible and (by convexity) optimal, so an optimum puts weight `omega_k` uniformly on the
//! staircase rays with `k` high entries. For those, `J = alpha I + (1 - alpha / n) 1 1^T` with
//! `alpha = sum_k omega_k m_k g_k`, the row sums read `sum_k omega_k m_k = 1`, and
//!
//! ```text
//! m_k = 1 + (e^eps - 1) k / n,   g_k = (e^eps - 1)^2 k (n - k) / (n (n - 1) m_k^2),
//! tr(J^-1) = (n - 1) / alpha + 1 / n.
//! ```
//!
//! `alpha` is linear in `omega` under a linear constraint, so the best design is one `k*`
//! maximizing `g_k`: subset selection (Ye and Barg, "Optimal schemes for discrete distribution
//! estimation under locally differential privacy", IEEE Trans. Inf. Theory 64(8), 2018) is
//! exactly optimal at a uniform distribution for every n. The bound of [`crate::synthesis::design::bound`]
//! specializes to `2 tr(J0^-1) - max_r h(r)` over every ray, where `h` depends on a ray only
//! through its number of high entries; with `J0` at any `alpha > 0` it equals
//! `2 (n - 1) / alpha + 1 / n - (n - 1) G / alpha^2` with `G = max_k g_k`, which is at most the
//! optimum and meets it at `alpha = G`. The channel is a balanced cyclic design
//! ([`crate::synthesis::design::balanced::balanced_blocks`]) with the same Fisher information.

use crate::objective::FrequencyMse;
use crate::privacy::PrivacyNotion;
use crate::rays::RayFamily;
use crate::synthesis::design::balanced::{balanced_blocks, BALANCED_MAX_ENTRIES};
use crate::synthesis::design::bound::gamma;
use crate::synthesis::{Method, Outcome, Run, Status};

/// `g_k` for `k = 1 .. n-1`: the Fisher-information gain per unit of row mass of the uniform
/// design over rays with `k` high entries.
pub(crate) fn subset_gains(n: usize, epsilon: f64) -> Vec<f64> {
    let am1 = epsilon.exp_m1();
    let nf = n as f64;
    (1..n)
        .map(|k| {
            let kf = k as f64;
            let m = 1.0 + am1 * kf / nf;
            am1 * am1 * kf * (nf - kf) / (nf * (nf - 1.0) * m * m)
        })
        .collect()
}

/// Whether `C(n, k) <= limit`.
fn binomial_at_most(n: usize, k: usize, limit: usize) -> bool {
    let mut value = 1.0;
    for i in 0..k {
        value = value * (n - i) as f64 / (i + 1) as f64;
        if value > limit as f64 + 0.5 {
            return false;
        }
    }
    true
}

/// Every k-subset of `0 .. n` in lexicographic order.
fn k_subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current: Vec<usize> = (0..k).collect();
    loop {
        out.push(current.clone());
        let mut i = k;
        while i > 0 && current[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        current[i - 1] += 1;
        for j in i..k {
            current[j] = current[j - 1] + 1;
        }
    }
}

/// Whether the problem has the symmetry: one eps-LDP constraint (eps > 0), identity queries
/// and a uniform true distribution. Returns eps.
fn symmetric_epsilon(
    privacy: &[&dyn PrivacyNotion],
    design: &FrequencyMse,
    n: usize,
) -> Option<f64> {
    let [notion] = privacy else { return None };
    let Some(RayFamily::Staircase { epsilon }) = notion.ray_family() else {
        return None;
    };
    let pi = design.distribution();
    let c = design.queries_t();
    let uniform = pi.iter().all(|&p| p == pi[0] && p > 0.0);
    let identity = c.shape() == (n, n)
        && (0..n).all(|i| (0..n).all(|j| c[(i, j)] == f64::from(u8::from(i == j))));
    (n >= 2 && epsilon > 0.0 && epsilon.is_finite() && uniform && identity).then_some(epsilon)
}

/// Solve the frequency design in closed form when `symmetric_epsilon` applies; `None`
/// otherwise (or when the balanced channel would be too large to emit).
pub fn solve_symmetric_design(
    privacy: &[&dyn PrivacyNotion],
    design: &FrequencyMse,
    n: usize,
    run: &Run,
) -> Option<Outcome> {
    let epsilon = symmetric_epsilon(privacy, design, n)?;
    let gains = subset_gains(n, epsilon);
    let (best, &g) = gains.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    let k = best + 1;
    let nf = n as f64;
    // Every g_k above is a handful of correctly rounded operations on e^eps - 1 (itself within
    // an ulp): gamma(32) covers them, so g_upper bounds the exact maximum from above.
    let g_upper = g * (1.0 + gamma(32));
    // With every pi_x = c, J scales by 1 / (n c): tr(J^-1) = n c ((n - 1) / alpha + 1 / n).
    let scale = nf * design.distribution()[0];
    let trace_at = |alpha: f64| scale * ((nf - 1.0) / alpha + 1.0 / nf);
    let trace_bound = trace_at(g_upper);
    let mse = design.mse_from_trace(trace_at(g));
    // In MSE units: kappa / users and tr / users, for the rounding margin of (tr - kappa) / users.
    let kappa_per_user = design.mse_from_trace(0.0).abs();
    let trace_per_user = (design.mse_from_trace(trace_bound) - design.mse_from_trace(0.0)).abs();
    let margin = gamma(2 * n + 32) * (trace_per_user + 2.0 * kappa_per_user);
    let bound = design.mse_from_trace(trace_bound) - margin;
    let m = 1.0 + epsilon.exp_m1() * k as f64 / nf;
    // The subsets of the design and their weights (summing to 1): every k-subset when there
    // are at most as many as a balanced cyclic design would emit, else the cyclic design.
    let cyclic_size = (n / 2 + 1) * n;
    let (subsets, description, steps) = if binomial_at_most(n, k, cyclic_size) {
        let all = k_subsets(n, k);
        let w = 1.0 / all.len() as f64;
        let count = all.len();
        (
            all.into_iter().map(|s| (s, w)).collect::<Vec<_>>(),
            format!("channel: all {count} subsets of size {k}"),
            0,
        )
    } else {
        let blocks = balanced_blocks(n, k, run)?;
        let mut subsets = Vec::with_capacity(blocks.blocks.len() * n);
        for (block, &w) in blocks.blocks.iter().zip(&blocks.weights) {
            for shift in 0..n {
                let shifted: Vec<usize> = block.iter().map(|b| (b + shift) % n).collect();
                subsets.push((shifted, w / nf));
            }
        }
        let description = format!(
            "channel: {} base block(s) of size {k}, each with its {n} cyclic shifts, weighted so that every pair of symbols shares the same mass (the Fisher information of all C(n, k) subsets)",
            blocks.blocks.len()
        );
        (subsets, description, blocks.reduction_steps)
    };
    let columns = subsets.len();
    if columns.saturating_mul(n) > BALANCED_MAX_ENTRIES {
        return None;
    }
    let high = epsilon.exp();
    let mut rows = vec![Vec::with_capacity(columns); n];
    for (subset, w) in &subsets {
        let base = w / m;
        let mut column = vec![base; n];
        for &b in subset {
            column[b] = base * high;
        }
        for (row, v) in rows.iter_mut().zip(column) {
            row.push(v);
        }
    }
    let notes = vec![
        format!(
            "uniform distribution: the optimum is symmetric under permutations of the symbols, so it is subset selection with k = {k} high entries (best of k = 1..{}), exact at every n; bound from exact pricing over all 2^n - 2 rays by their number of high entries",
            n - 1
        ),
        format!("{description} ({columns} outputs)"),
    ];
    Some(Outcome {
        method: Method::SymmetricDesign,
        status: Status::Optimal,
        iterations: steps as u64,
        rows: Some(rows),
        bound: Some(bound),
        notes,
        solver_objective: Some(mse),
        trace: Vec::new(),
    })
}
