//! Mechanisms on larger domains: k-RR, the multi-valued LIP mechanism, the tight-constraints
//! and truncated geometric mechanisms for d-privacy, Hadamard response, maximal leakage.

use super::{candidate, ldp_epsilon, lip_epsilon, Candidate, Setting};
use crate::objective::ObjectiveSpec;
use crate::privacy::PrivacySpec;
use nalgebra::{DMatrix, DVector};

/// k-ary randomized response: `e^eps / (e^eps + n - 1)` on the diagonal.
pub fn krr(n: usize, eps: f64) -> Vec<Vec<f64>> {
    let e = eps.exp();
    let d = e + n as f64 - 1.0;
    (0..n)
        .map(|x| {
            (0..n)
                .map(|y| if x == y { e / d } else { 1.0 / d })
                .collect()
        })
        .collect()
}

pub(super) fn k_rr(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s)?;
    let n = s.n();
    let mut c = candidate(
        "k-rr",
        "k-ary randomized response (Kairouz, Bonawitz, Ramage 2016): optimal Hamming loss (n-1)/(e^eps+n-1) at a uniform prior",
        krr(n, eps),
    );
    c.claims_optimal = s.hamming() && s.uniform();
    c.claimed_value = c
        .claims_optimal
        .then(|| (n as f64 - 1.0) / (eps.exp() + n as f64 - 1.0));
    Some(c)
}

pub(super) fn mimo_ldp(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s).filter(|_| s.is("mmse-sum"))?;
    let mut c = candidate(
        "mimo-ldp-optimum",
        "[LIP-agg] Sec. IV-B: Opt-mimo-LDP solved by q_mm = e^eps/(e^eps+d-1)",
        krr(s.n(), eps),
    );
    c.claims_optimal = true;
    Some(c)
}

/// [LIP-agg] Thm 3/5 and [CA-LIP] eq. (19).
pub fn mimo_lip_rows(prior: &[f64], eps: f64) -> Vec<Vec<f64>> {
    let r = (-eps).exp();
    let n = prior.len();
    (0..n)
        .map(|m| {
            (0..n)
                .map(|k| {
                    if m == k {
                        1.0 - (1.0 - prior[m]) * r
                    } else {
                        prior[k] * r
                    }
                })
                .collect()
        })
        .collect()
}

pub(super) fn mimo_lip(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s)?;
    let mut c = candidate(
        "mimo-lip",
        "[LIP-agg] Thm 3 (sum) and Thm 5 (histogram); [CA-LIP] eq. (19)",
        mimo_lip_rows(s.domain.prior(), eps),
    );
    c.claims_optimal = s.is("mmse-sum") || s.is("mmse-histogram");
    Some(c)
}

/// The tight-constraints (LE) mechanism: `p_jk = e^{-eps d_jk} p_kk`, rows summing to 1.
pub fn tight_constraints_rows(d: &[Vec<f64>], eps: f64) -> Option<Vec<Vec<f64>>> {
    let n = d.len();
    let k = DMatrix::from_fn(n, n, |j, kk| (-eps * d[j][kk]).exp());
    let diag = k.lu().solve(&DVector::from_element(n, 1.0))?;
    if diag.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
        return None;
    }
    Some(
        (0..n)
            .map(|j| {
                (0..n)
                    .map(|kk| (-eps * d[j][kk]).exp() * diag[kk])
                    .collect()
            })
            .collect(),
    )
}

pub(super) fn dprivacy_metric(s: &Setting) -> Option<(f64, Vec<Vec<f64>>)> {
    let PrivacySpec::DPrivacy {
        epsilon, metric, ..
    } = s.notion
    else {
        return None;
    };
    let d = metric.distances("metric", s.domain, &mut Vec::new()).ok()?;
    Some((*epsilon, d))
}

pub(super) fn tight_constraints(s: &Setting) -> Option<Candidate> {
    let (eps, d) = dprivacy_metric(s)?;
    let rows = tight_constraints_rows(&d, eps)?;
    let mut c = candidate(
        "tight-constraints",
        "[dP-slides], \"Our Mechanism\": p_jk = e^{-eps d_jk} p_kk, optimal for co-location by KKT",
        rows,
    );
    c.claims_optimal = s.is("co-location");
    Some(c)
}

/// The truncated geometric mechanism on `0..n-1` (n >= 2): `Q[x][y]` proportional to
/// `e^{-eps |x - y|}`, with the tails of the two-sided geometric folded onto `0` and `n - 1`.
pub(crate) fn truncated_geometric_rows(n: usize, eps: f64) -> Vec<Vec<f64>> {
    let a = (-eps).exp();
    (0..n)
        .map(|x| {
            (0..n)
                .map(|y| {
                    let dist = (x as f64 - y as f64).abs();
                    if y == 0 || y == n - 1 {
                        a.powf(dist) / (1.0 + a)
                    } else {
                        (1.0 - a) / (1.0 + a) * a.powf(dist)
                    }
                })
                .collect()
        })
        .collect()
}

pub(super) fn truncated_geometric(s: &Setting) -> Option<Candidate> {
    let (eps, _) = dprivacy_metric(s)?;
    let PrivacySpec::DPrivacy { metric, .. } = s.notion else {
        return None;
    };
    if !matches!(metric, crate::privacy::MetricSpec::Named(m) if m == "line") {
        return None;
    }
    let v = s.domain.numeric_values();
    let n = v.len();
    if n < 2 || (0..n).any(|i| (v[i] - i as f64).abs() > 0.0) {
        return None;
    }
    let rows = truncated_geometric_rows(n, eps);
    let mut c = candidate(
        "truncated-geometric",
        "Ghosh, Roughgarden, Sundararajan (2009): the truncated geometric mechanism on 0..n-1 is optimal, after the best remap, for every prior and every loss monotone in |x - y|",
        rows,
    );
    c.claims_optimal = matches!(
        s.objective,
        ObjectiveSpec::ExpectedLoss {
            loss: crate::objective::LossSpec::Named(_)
        } | ObjectiveSpec::ExpectedLoss {
            loss: crate::objective::LossSpec::Range { .. }
        }
    );
    c.remap = true;
    Some(c)
}

/// Sylvester's Hadamard matrix of order `k` (a power of 2), entries +-1.
pub(super) fn hadamard(k: usize) -> Vec<Vec<i8>> {
    let mut h = vec![vec![1i8]];
    while h.len() < k {
        let m = h.len();
        let mut next = vec![vec![0i8; 2 * m]; 2 * m];
        for i in 0..m {
            for j in 0..m {
                next[i][j] = h[i][j];
                next[i][j + m] = h[i][j];
                next[i + m][j] = h[i][j];
                next[i + m][j + m] = -h[i][j];
            }
        }
        h = next;
    }
    h
}

/// Hadamard response over `k` symbols: output `y` in `0..K` (K the smallest power of 2 above
/// k); symbol `i` uses row `i + 1`, and outputs where it is +1 get `e^eps` times the weight.
pub(crate) fn hadamard_block(k: usize, eps: f64) -> (usize, Vec<Vec<f64>>) {
    let big = (k + 1).next_power_of_two();
    let h = hadamard(big);
    let e = eps.exp();
    let unit = 2.0 / (big as f64 * (1.0 + e));
    let rows = (0..k)
        .map(|i| {
            (0..big)
                .map(|y| if h[i + 1][y] > 0 { e * unit } else { unit })
                .collect()
        })
        .collect();
    (big, rows)
}

/// Hadamard response for high-low LDP ([CA-LDP] Sec. 5.1, reconstructed): HR over
/// the sensitive symbols `sens`; a non-sensitive symbol reports itself with probability
/// `(e^eps - 1) / (e^eps + 1)` and otherwise a uniform element of the HR block.
pub fn hadamard_high_low_rows(n: usize, sens: &[usize], epsilon: f64) -> Vec<Vec<f64>> {
    let (big, hr) = hadamard_block(sens.len(), epsilon);
    let others: Vec<usize> = (0..n).filter(|x| !sens.contains(x)).collect();
    let m = big + others.len();
    let e = epsilon.exp();
    let mut rows = vec![vec![0.0; m]; n];
    for (i, &x) in sens.iter().enumerate() {
        rows[x][..big].copy_from_slice(&hr[i]);
    }
    for (j, &x) in others.iter().enumerate() {
        rows[x][..big].fill(2.0 / (big as f64 * (1.0 + e)));
        rows[x][big + j] = (e - 1.0) / (e + 1.0);
    }
    rows
}

pub(super) fn hadamard_high_low(s: &Setting) -> Option<Candidate> {
    let PrivacySpec::HighLow { epsilon, sensitive } = s.notion else {
        return None;
    };
    let sens: Vec<usize> = sensitive
        .iter()
        .filter_map(|sym| sym.resolve("sensitive", s.domain).ok())
        .collect();
    if sens.is_empty() {
        return None;
    }
    let rows = hadamard_high_low_rows(s.n(), &sens, *epsilon);
    let mut c = candidate(
        "hadamard-high-low",
        "[CA-LDP] Sec. 5.1 (formulas lost in extraction; reconstructed: HR over the sensitive set, non-sensitive symbols report themselves w.p. (e^eps-1)/(e^eps+1))",
        rows,
    );
    c.note = Some("the paper claims order-optimal sample complexity, not optimality for a loss here; feasibility is checked");
    Some(c)
}

/// Hadamard response within each block of a partition ([CA-LDP] Sec. 6.1): the
/// block is released, and HR runs over its members.
pub fn hadamard_blocks_rows(n: usize, parts: &[Vec<usize>], epsilon: f64) -> Vec<Vec<f64>> {
    let layouts: Vec<(usize, Vec<Vec<f64>>)> = parts
        .iter()
        .map(|b| hadamard_block(b.len(), epsilon))
        .collect();
    let m: usize = layouts.iter().map(|l| l.0).sum();
    let mut rows = vec![vec![0.0; m]; n];
    let mut offset = 0;
    for (members, (big, hr)) in parts.iter().zip(&layouts) {
        for (i, &x) in members.iter().enumerate() {
            rows[x][offset..offset + big].copy_from_slice(&hr[i]);
        }
        offset += big;
    }
    rows
}

pub(super) fn hadamard_blocks(s: &Setting) -> Option<Candidate> {
    // The scheme releases the block: it is block-structured LDP with nothing across blocks.
    let PrivacySpec::Block {
        epsilon,
        blocks,
        epsilon_across: None,
    } = s.notion
    else {
        return None;
    };
    let parts: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            b.iter()
                .filter_map(|sym| sym.resolve("blocks", s.domain).ok())
                .collect()
        })
        .collect();
    let rows = hadamard_blocks_rows(s.n(), &parts, *epsilon);
    let mut c = candidate(
        "hadamard-block",
        "[CA-LDP] Sec. 6.1: Hadamard response within each block (block identity released)",
        rows,
    );
    c.note = Some("the paper claims order-optimal sample complexity, not optimality for a loss here; feasibility is checked");
    Some(c)
}

pub(super) fn max_leakage_hamming(s: &Setting) -> Option<Candidate> {
    let PrivacySpec::MaxLeakage { epsilon } = s.notion else {
        return None;
    };
    let n = s.n() as f64;
    let e = epsilon.exp();
    if e > n || !s.hamming() {
        return None;
    }
    let diag = e / n;
    let off = (1.0 - diag) / (n - 1.0);
    let rows = (0..s.n())
        .map(|x| {
            (0..s.n())
                .map(|y| if x == y { diag } else { off })
                .collect()
        })
        .collect();
    let mut c = candidate(
        "max-leakage-hamming",
        "maximal leakage (Issa, Kamath, Wagner): Q[x][x] = e^eps/n uses the whole budget sum_y max_x Q = e^eps; Hamming loss 1 - e^eps/n, optimal at a uniform prior",
        rows,
    );
    // The budget argument gives the optimum at a uniform prior only.
    c.claims_optimal = s.uniform();
    c.claimed_value = c.claims_optimal.then_some(1.0 - diag);
    Some(c)
}
