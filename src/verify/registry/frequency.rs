//! Frequency oracles from the local-privacy literature, as channels, for the `frequency-mse`
//! objective: subset selection, Hadamard response, and the unary encodings (RAPPOR's symmetric
//! one and the optimized one). None claims exact optimality for a given n, eps and prior: their
//! sources claim order-optimal error or optimal variance of a particular estimator, so the
//! registry reports each one's gap to the certified optimum.

use super::multi::hadamard_block;
use super::{candidate, ldp_epsilon, Candidate, Setting};
use crate::channel::Channel;
use crate::objective::ObjectiveSpec;

/// Largest domain for subset selection (it has C(n, k) outputs).
const SUBSET_SELECTION_MAX_N: usize = 12;
/// Largest domain for the unary encodings (they have 2^n outputs).
const UNARY_MAX_N: usize = 10;

fn frequency_ldp(s: &Setting) -> Option<f64> {
    matches!(s.objective, ObjectiveSpec::FrequencyMse { .. })
        .then(|| ldp_epsilon(s))
        .flatten()
        .filter(|e| *e > 0.0)
}

/// Subset selection with subsets of size `k`: `Q[x][S]` proportional to `e^eps` when `x` is in
/// `S`, to 1 otherwise.
pub fn subset_selection_rows(n: usize, k: usize, eps: f64) -> Vec<Vec<f64>> {
    let subsets: Vec<u32> = (0u32..(1 << n))
        .filter(|s| s.count_ones() as usize == k)
        .collect();
    let e = eps.exp();
    (0..n)
        .map(|x| {
            let weight = |s: &u32| if s & (1 << x) != 0 { e } else { 1.0 };
            let total: f64 = subsets.iter().map(weight).sum();
            subsets.iter().map(|s| weight(s) / total).collect()
        })
        .collect()
}

/// Subset selection (Ye and Barg, "Optimal schemes for discrete distribution estimation under
/// locally differential privacy", IEEE Trans. IT 2018; Wang et al., "Mutual information
/// optimally local private discrete distribution estimation", 2016) at the subset size with
/// the smallest objective for this problem.
pub(super) fn subset_selection(s: &Setting) -> Option<Candidate> {
    let eps = frequency_ldp(s)?;
    let n = s.n();
    if !(2..=SUBSET_SELECTION_MAX_N).contains(&n) {
        return None;
    }
    let objective = s.objective.resolve(s.domain).ok()?;
    let (_, rows) = (1..n)
        .map(|k| {
            let rows = subset_selection_rows(n, k, eps);
            let value =
                Channel::new(rows.clone()).map_or(f64::INFINITY, |c| objective.evaluate(&c));
            (value, rows)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))?;
    let mut c = candidate(
        "subset-selection",
        "subset selection (Ye and Barg, IEEE Trans. IT 2018; Wang et al. 2016), best subset size for this problem",
        rows,
    );
    c.note = Some("its sources claim order-optimal error (exactly optimal among mechanisms of its kind as n grows), not the exact optimum at a given n, eps and prior; the gap is reported");
    Some(c)
}

/// Hadamard response (Acharya, Sun and Zhang, AISTATS 2019) over the whole domain.
pub(super) fn hadamard_response(s: &Setting) -> Option<Candidate> {
    let eps = frequency_ldp(s)?;
    let (_, rows) = hadamard_block(s.n(), eps);
    let mut c = candidate(
        "hadamard-response",
        "Hadamard response (Acharya, Sun and Zhang, AISTATS 2019): K = next power of two above n outputs",
        rows,
    );
    c.note = Some("claims order-optimal sample complexity with a fast decoder; the gap to the certified optimum is reported");
    Some(c)
}

/// A unary encoding with keep probability `p` for the true bit and `q` for every other bit, as
/// a channel over the `2^n` bit vectors.
pub fn unary_rows(n: usize, p: f64, q: f64) -> Vec<Vec<f64>> {
    (0..n)
        .map(|x| {
            (0u32..(1 << n))
                .map(|b| {
                    (0..n)
                        .map(|i| {
                            let one = b & (1 << i) != 0;
                            let prob = if i == x { p } else { q };
                            if one {
                                prob
                            } else {
                                1.0 - prob
                            }
                        })
                        .product()
                })
                .collect()
        })
        .collect()
}

fn unary(s: &Setting, optimized: bool) -> Option<Candidate> {
    let eps = frequency_ldp(s)?;
    let n = s.n();
    if n > UNARY_MAX_N {
        return None;
    }
    let mut c = if optimized {
        candidate(
            "oue",
            "optimized unary encoding (Wang, Blocki, Li, Jha, USENIX Security 2017): p = 1/2, q = 1/(e^eps + 1)",
            unary_rows(n, 0.5, 1.0 / (eps.exp() + 1.0)),
        )
    } else {
        let h = (eps / 2.0).exp();
        candidate(
            "rappor",
            "symmetric unary encoding, basic RAPPOR (Erlingsson, Pihur, Korolova, CCS 2014): p = e^(eps/2)/(e^(eps/2)+1), q = 1 - p",
            unary_rows(n, h / (h + 1.0), 1.0 / (h + 1.0)),
        )
    };
    c.note = Some("its variance is stated for the per-bit estimator; here the channel is judged with the efficient estimator, whose error is never larger");
    Some(c)
}

pub(super) fn oue(s: &Setting) -> Option<Candidate> {
    unary(s, true)
}

pub(super) fn rappor(s: &Setting) -> Option<Candidate> {
    unary(s, false)
}
