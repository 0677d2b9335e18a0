//! Exact pricing for column generation when `g(q) = (a . q)^2 / (p . q)` (the MMSE of a
//! weighted sum) over the LDP staircase rays or the LIP box-hyperplane vertices.
//!
//! Pricing asks for `delta = max_r (g(r) - mu . r) / (p . r)` over every ray. Both cases use
//! `g(q) = max_t (2 t a - t^2 p) . q`: for fixed `t` the inner problem is separable (LDP: each
//! coordinate at 1 or e^eps by the sign of its coefficient) or a fractional knapsack (LIP: fill
//! coordinates in the order of `(2 t a_x - mu_x) / p_x`). The optimal pattern changes only at
//! finitely many breakpoints in `t`, and between them the objective is a concave quadratic in
//! `t`, so evaluating the clamped stationary point of every piece is exact. LDP adds a
//! Dinkelbach iteration for the ratio.

pub(crate) mod histogram;
pub(crate) mod histogram_ldp;
pub(crate) mod search;

pub use histogram::{price_histogram_lip, SeparableUtility, HISTOGRAM_PRICING_MAX_INPUTS};
pub use histogram_ldp::price_histogram_ldp;
pub use search::SearchStats;

/// Dinkelbach stops when `max_r (N(r) - theta D(r))` is below this (relative).
const DINKELBACH_TOLERANCE: f64 = 1e-13;
/// Most Dinkelbach iterations (it converges superlinearly; a handful is typical).
const DINKELBACH_ITERATIONS: usize = 100;

/// Columns worth adding and an upper bound on the pricing value.
#[derive(Debug, Clone)]
pub struct Priced {
    /// Rays with a positive reduced value, best first (normalized to `p . q = 1`).
    pub columns: Vec<Vec<f64>>,
    /// Upper bound on `max_r (g(r) - mu . r) / (p . r)`.
    pub delta: f64,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn ratio_value(a: &[f64], p: &[f64], mu: &[f64], q: &[f64]) -> f64 {
    let d = dot(p, q);
    (dot(a, q).powi(2) / d - dot(mu, q)) / d
}

/// Sorted distinct finite breakpoints, and one representative point inside every piece.
fn pieces(mut breaks: Vec<f64>) -> Vec<(f64, f64, f64)> {
    breaks.retain(|t| t.is_finite());
    breaks.sort_by(f64::total_cmp);
    breaks.dedup();
    let mut out = Vec::new();
    let mut lo = f64::NEG_INFINITY;
    for &b in breaks.iter().chain(std::iter::once(&f64::INFINITY)) {
        let inside = match (lo.is_finite(), b.is_finite()) {
            (true, true) => 0.5 * (lo + b),
            (true, false) => lo + 1.0,
            (false, true) => b - 1.0,
            (false, false) => 0.0,
        };
        out.push((lo, b, inside));
        lo = b;
    }
    out
}

/// LDP staircase pricing: `max_s (g(r) - mu . r) / (p . r)` over `r = 1 + (e^eps - 1) s`.
pub fn price_staircase(a: &[f64], p: &[f64], mu: &[f64], epsilon: f64) -> Priced {
    let n = a.len();
    let high = epsilon.exp();
    let ray = |s: &[bool]| -> Vec<f64> {
        let r: Vec<f64> = s.iter().map(|&b| if b { high } else { 1.0 }).collect();
        let d = dot(p, &r);
        r.into_iter().map(|v| v / d).collect()
    };
    // max_s N(s) - theta D(s), exactly, with the maximizing patterns of every piece.
    let inner = |theta: f64| -> Vec<(f64, Vec<bool>)> {
        let shifted: Vec<f64> = (0..n).map(|x| mu[x] + theta * p[x]).collect();
        let mut breaks = Vec::new();
        for x in 0..n {
            // c_x(t) = 2 t a_x - t^2 p_x - shifted_x = 0
            let disc = a[x] * a[x] - p[x] * shifted[x];
            if p[x] > 0.0 && disc >= 0.0 {
                let root = disc.sqrt();
                breaks.push((a[x] - root) / p[x]);
                breaks.push((a[x] + root) / p[x]);
            }
        }
        pieces(breaks)
            .into_iter()
            .map(|(_, _, inside)| {
                let s: Vec<bool> = (0..n)
                    .map(|x| 2.0 * inside * a[x] - inside * inside * p[x] - shifted[x] > 0.0)
                    .collect();
                let r: Vec<f64> = s.iter().map(|&b| if b { high } else { 1.0 }).collect();
                let value = dot(a, &r).powi(2) / dot(p, &r) - dot(&shifted, &r);
                (value, s)
            })
            .collect()
    };
    let mut theta = ratio_value(a, p, mu, &vec![1.0; n]);
    let mut last = inner(theta);
    for _ in 0..DINKELBACH_ITERATIONS {
        let (best, s) = last
            .iter()
            .max_by(|x, y| x.0.total_cmp(&y.0))
            .expect("at least one piece");
        if *best <= DINKELBACH_TOLERANCE * (1.0 + theta.abs()) {
            break;
        }
        theta = ratio_value(a, p, mu, &ray(s));
        last = inner(theta);
    }
    let excess = last.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
    // N - theta D <= excess and D >= p . 1 = 1 for every ray, so N / D <= theta + excess+.
    let delta = theta + excess.max(0.0);
    finish(a, p, mu, last.into_iter().map(|(_, s)| ray(&s)), delta)
}

/// LIP pricing: `max_q (a . q)^2 - mu . q` over vertices of `{q in [l, u]^n : p . q = 1}`.
pub fn price_lip_box(a: &[f64], p: &[f64], mu: &[f64], epsilon: f64) -> Priced {
    let n = a.len();
    let (low, high) = ((-epsilon).exp(), epsilon.exp());
    let f: Vec<f64> = (0..n).map(|x| a[x] / p[x]).collect();
    let c: Vec<f64> = (0..n).map(|x| mu[x] / p[x]).collect();
    let mut breaks = Vec::new();
    for x in 0..n {
        for y in x + 1..n {
            if f[x] != f[y] {
                breaks.push((c[x] - c[y]) / (2.0 * (f[x] - f[y])));
            }
        }
    }
    let greedy = |t: f64| -> Vec<f64> {
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&x, &y| (2.0 * t * f[y] - c[y]).total_cmp(&(2.0 * t * f[x] - c[x])));
        let mut q = vec![low; n];
        let mut budget = 1.0 - low;
        for x in order {
            if budget <= 0.0 {
                break;
            }
            let add = (high - low).min(budget / p[x]);
            q[x] += add;
            budget -= add * p[x];
        }
        q
    };
    let mut candidates = Vec::new();
    for (lo, hi, inside) in pieces(breaks) {
        let q = greedy(inside);
        // On this piece the value is 2 t A - t^2 - M, largest at t = A clamped to the piece.
        let t = dot(a, &q).clamp(lo, hi);
        candidates.push(if t == dot(a, &q) { q } else { greedy(t) });
        candidates.push(greedy(inside));
    }
    let delta = candidates
        .iter()
        .map(|q| ratio_value(a, p, mu, q))
        .fold(f64::NEG_INFINITY, f64::max);
    finish(a, p, mu, candidates.into_iter(), delta)
}

/// Keep the distinct candidates with positive reduced value, best first.
fn finish(
    a: &[f64],
    p: &[f64],
    mu: &[f64],
    candidates: impl Iterator<Item = Vec<f64>>,
    delta: f64,
) -> Priced {
    let mut scored: Vec<(f64, Vec<f64>)> = candidates
        .map(|q| (ratio_value(a, p, mu, &q), q))
        .filter(|(v, _)| *v > 0.0)
        .collect();
    scored.sort_by(|x, y| y.0.total_cmp(&x.0));
    scored.dedup_by(|x, y| x.1 == y.1);
    Priced {
        columns: scored.into_iter().map(|(_, q)| q).collect(),
        delta,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rays::{lip_vertices, staircase_rays};

    fn brute(rays: &[Vec<f64>], a: &[f64], p: &[f64], mu: &[f64]) -> f64 {
        rays.iter()
            .map(|r| ratio_value(a, p, mu, r))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn case(seed: u64, n: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.1..1.0)).collect();
        let s: f64 = w.iter().sum();
        let p: Vec<f64> = w.iter().map(|v| v / s).collect();
        let f: Vec<f64> = (0..n).map(|_| rng.gen_range(-2.0..3.0)).collect();
        let a: Vec<f64> = (0..n).map(|x| f[x] * p[x]).collect();
        let mu: Vec<f64> = (0..n).map(|_| rng.gen_range(-0.5..0.8)).collect();
        (a, p, mu)
    }

    #[test]
    fn staircase_pricing_matches_brute_force() {
        for seed in 0..40 {
            let n = 2 + (seed as usize % 6);
            let (a, p, mu) = case(seed, n);
            let eps = 0.3 + 0.2 * (seed % 7) as f64;
            let priced = price_staircase(&a, &p, &mu, eps);
            let exact = brute(&staircase_rays(n, eps, 1 << 12).unwrap(), &a, &p, &mu);
            assert!(
                priced.delta >= exact - 1e-10,
                "seed {seed}: {} < {exact}",
                priced.delta
            );
            assert!(
                priced.delta <= exact + 1e-9,
                "seed {seed}: {} > {exact}",
                priced.delta
            );
        }
    }

    #[test]
    fn lip_pricing_matches_brute_force() {
        for seed in 0..40 {
            let n = 2 + (seed as usize % 6);
            let (a, p, mu) = case(seed + 100, n);
            let eps = 0.3 + 0.2 * (seed % 7) as f64;
            let priced = price_lip_box(&a, &p, &mu, eps);
            let exact = brute(&lip_vertices(&p, eps, 1 << 12).unwrap(), &a, &p, &mu);
            assert!(
                priced.delta >= exact - 1e-10,
                "seed {seed}: {} < {exact}",
                priced.delta
            );
            assert!(
                priced.delta <= exact + 1e-9,
                "seed {seed}: {} > {exact}",
                priced.delta
            );
        }
    }
}
