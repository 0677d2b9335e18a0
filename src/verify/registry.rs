//! Closed-form mechanisms from the papers and the classics they build on, each with its
//! citation, the notion it claims, the objectives it claims to optimize, and the value claimed.

use crate::domain::Domain;
use crate::objective::ObjectiveSpec;
use crate::privacy::PrivacySpec;
use nalgebra::{DMatrix, DVector};

/// What a published mechanism claims for one problem.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Short identifier.
    pub name: &'static str,
    /// Paper, theorem or equation.
    pub citation: &'static str,
    /// The channel rows (outputs may differ from the inputs).
    pub rows: Vec<Vec<f64>>,
    /// Whether the source claims it optimal for the problem's objective.
    pub claims_optimal: bool,
    /// The objective value the source claims, when it gives one.
    pub claimed_value: Option<f64>,
    /// Claims that are out of scope here (e.g. order-optimal sample complexity).
    pub note: Option<&'static str>,
    /// Whether optimality is claimed up to post-processing: the objective of a linear loss is
    /// then taken after the best deterministic remap of the outputs.
    pub remap: bool,
}

/// The problem's single privacy constraint, objective and domain, as entries see them.
pub struct Setting<'a> {
    /// The domain (with its prior).
    pub domain: &'a Domain,
    /// The only privacy constraint.
    pub notion: &'a PrivacySpec,
    /// The objective.
    pub objective: &'a ObjectiveSpec,
}

impl Setting<'_> {
    fn n(&self) -> usize {
        self.domain.size()
    }
    fn uniform(&self) -> bool {
        let p = self.domain.prior();
        p.iter().all(|v| (v - p[0]).abs() <= 1e-12)
    }
    fn hamming(&self) -> bool {
        matches!(self.objective, ObjectiveSpec::ExpectedLoss { loss: crate::objective::LossSpec::Named(l) } if l == "hamming")
    }
    /// `(weight (f1 - f0))^2` for a binary mmse-sum, the factor on the papers' X in {0, 1}.
    fn binary_mmse_scale(&self) -> Option<f64> {
        match self.objective {
            ObjectiveSpec::MmseSum { weight, .. } if self.n() == 2 => {
                let f = self.domain.numeric_values();
                Some((weight.unwrap_or(1.0) * (f[1] - f[0])).powi(2))
            }
            _ => None,
        }
    }
    fn is(&self, kind: &str) -> bool {
        matches!(
            (self.objective, kind),
            (ObjectiveSpec::MmseSum { .. }, "mmse-sum")
                | (ObjectiveSpec::MmseHistogram, "mmse-histogram")
                | (ObjectiveSpec::CoLocation, "co-location")
        )
    }
}

/// One registry entry: its name and how it instantiates for a setting (`None`: not applicable).
pub struct Entry {
    /// Short identifier.
    pub name: &'static str,
    /// Builder.
    pub build: fn(&Setting) -> Option<Candidate>,
}

fn candidate(name: &'static str, citation: &'static str, rows: Vec<Vec<f64>>) -> Candidate {
    Candidate {
        name,
        citation,
        rows,
        claims_optimal: false,
        claimed_value: None,
        note: None,
        remap: false,
    }
}

fn ldp_epsilon(s: &Setting) -> Option<f64> {
    match s.notion {
        PrivacySpec::Ldp { epsilon } => Some(*epsilon),
        _ => None,
    }
}

fn lip_epsilon(s: &Setting) -> Option<f64> {
    match s.notion {
        PrivacySpec::Lip {
            epsilon,
            prior: None,
        } => Some(*epsilon),
        _ => None,
    }
}

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

/// Binary channel from `q0 = P(Y=1|X=0)` and `q1 = P(Y=0|X=1)`.
fn binary(q0: f64, q1: f64) -> Vec<Vec<f64>> {
    vec![vec![1.0 - q0, q0], vec![q1, 1.0 - q1]]
}

fn warner(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s).filter(|_| s.n() == 2)?;
    let mut c = candidate(
        "warner",
        "Warner (1965) randomized response; context-aware-ldp.txt Sec. 4 (E01 = E10): universally optimal, i.e. optimal after the best remap of its outputs",
        krr(2, eps),
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    c.claimed_value = (s.hamming() && s.uniform()).then(|| 1.0 / (1.0 + eps.exp()));
    Some(c)
}

fn binary_ldp_mmse(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s)?;
    let scale = s.binary_mmse_scale()?;
    let p1 = s.domain.prior()[1];
    let e = eps.exp();
    let eq24 = p1 * (1.0 - p1)
        - (p1 * (1.0 - p1) * (1.0 - e)).powi(2) / ((1.0 - p1 + p1 * e) * (e - p1 * e + p1));
    let mut c = candidate(
        "binary-ldp-optimum",
        "lip-data-aggregation.txt Prop. 4, eq. (24): q0 = q1 = 1/(e^eps + 1)",
        krr(2, eps),
    );
    c.claims_optimal = true;
    c.claimed_value = Some(scale * eq24);
    Some(c)
}

fn k_rr(s: &Setting) -> Option<Candidate> {
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

fn mimo_ldp(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s).filter(|_| s.is("mmse-sum"))?;
    let mut c = candidate(
        "mimo-ldp-optimum",
        "lip-data-aggregation.txt Sec. IV-B: Opt-mimo-LDP solved by q_mm = e^eps/(e^eps+d-1)",
        krr(s.n(), eps),
    );
    c.claims_optimal = true;
    Some(c)
}

/// The binary point where both cross constraints of a privacy matrix are tight (DESIGN.md).
fn context_binary_rows(e01: f64, e10: f64) -> Vec<Vec<f64>> {
    let q01 = (e01.exp() - 1.0) / ((e01 + e10).exp() - 1.0);
    let q10 = (e10.exp() - 1.0) / ((e01 + e10).exp() - 1.0);
    binary(q01, q10)
}

fn context_matrix(s: &Setting) -> Option<(f64, f64)> {
    match s.notion {
        PrivacySpec::ContextLdp { epsilon, matrix } if s.n() == 2 => {
            let eps = epsilon.unwrap_or(1.0);
            let scale = |u: f64| if u.is_infinite() { u } else { eps * u };
            Some((scale(matrix[0][1]), scale(matrix[1][0])))
        }
        _ => None,
    }
}

fn context_binary(s: &Setting) -> Option<Candidate> {
    let (e01, e10) = context_matrix(s).filter(|(a, b)| a.is_finite() && b.is_finite())?;
    if e01 == 0.0 || e10 == 0.0 {
        return None;
    }
    let mut c = candidate(
        "context-binary",
        "context-aware-ldp.txt Sec. 4 (Thm 2): the universally optimal binary scheme (optimal after the best remap), both cross constraints tight",
        context_binary_rows(e01, e10),
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    Some(c)
}

fn mangat(s: &Setting) -> Option<Candidate> {
    let (e01, e10) = context_matrix(s)?;
    // Only Q[1][y] <= e^{E10} Q[0][y] binds (E01 = inf), or the mirror image.
    let rows = match (e01.is_infinite(), e10.is_infinite()) {
        (true, false) => vec![vec![1.0 - (-e10).exp(), (-e10).exp()], vec![0.0, 1.0]],
        (false, true) => vec![vec![1.0, 0.0], vec![(-e01).exp(), 1.0 - (-e01).exp()]],
        _ => return None,
    };
    let mut c = candidate(
        "mangat",
        "Mangat (1994) improved response; context-aware-ldp.txt Sec. 4 (one cross entry infinite): optimal after the best remap",
        rows,
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    Some(c)
}

fn binary_lip_rows(p1: f64, eps: f64) -> Vec<Vec<f64>> {
    binary(p1 / eps.exp(), (1.0 - p1) / eps.exp())
}

fn binary_lip(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s)?;
    let scale = s.binary_mmse_scale()?;
    let p1 = s.domain.prior()[1];
    let mut c = candidate(
        "binary-lip-optimum",
        "lip-data-aggregation.txt Thm 2, eq. (21): q0 = P1/e^eps, q1 = (1-P1)/e^eps",
        binary_lip_rows(p1, eps),
    );
    c.claims_optimal = true;
    c.claimed_value = Some(scale * p1 * (1.0 - p1) * (2.0 * (-eps).exp() - (-2.0 * eps).exp()));
    Some(c)
}

fn binary_lip_mae(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s).filter(|_| s.n() == 2)?;
    let absolute = matches!(s.objective, ObjectiveSpec::ExpectedLoss { loss: crate::objective::LossSpec::Named(l) } if l == "absolute" || l == "hamming");
    if !absolute {
        return None;
    }
    let p1 = s.domain.prior()[1];
    let mut c = candidate(
        "binary-lip-mae",
        "lip-data-aggregation.txt Prop. 3: the same q0, q1 minimize the MAE (22)",
        binary_lip_rows(p1, eps),
    );
    c.claims_optimal = true;
    Some(c)
}

/// lip-data-aggregation.txt Thm 3/5 and context-aware-lip.txt eq. (19).
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

fn mimo_lip(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s)?;
    let mut c = candidate(
        "mimo-lip",
        "lip-data-aggregation.txt Thm 3 (sum) and Thm 5 (histogram); context-aware-lip.txt eq. (19)",
        mimo_lip_rows(s.domain.prior(), eps),
    );
    c.claims_optimal = s.is("mmse-sum") || s.is("mmse-histogram");
    Some(c)
}

fn bp_lip_binary(s: &Setting) -> Option<Candidate> {
    let PrivacySpec::BpLip { epsilon, priors } = s.notion else {
        return None;
    };
    if s.n() != 2 {
        return None;
    }
    let ones: Vec<f64> = priors.iter().map(|p| p[1]).collect();
    let a = ones.iter().cloned().fold(f64::INFINITY, f64::min);
    let b = ones.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let d = b - a + epsilon.exp();
    let mut c = candidate(
        "bp-lip-binary",
        "context-aware-lip.txt Sec. IV-B2: q01 = b/(b-a+e^eps), q10 = (1-a)/(b-a+e^eps) for P(X=1) in [a, b]",
        binary(b / d, (1.0 - a) / d),
    );
    c.claims_optimal = s.hamming() || s.is("mmse-sum");
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

fn dprivacy_metric(s: &Setting) -> Option<(f64, Vec<Vec<f64>>)> {
    let PrivacySpec::DPrivacy { epsilon, metric } = s.notion else {
        return None;
    };
    let d = metric.distances("metric", s.domain, &mut Vec::new()).ok()?;
    Some((*epsilon, d))
}

fn tight_constraints(s: &Setting) -> Option<Candidate> {
    let (eps, d) = dprivacy_metric(s)?;
    let rows = tight_constraints_rows(&d, eps)?;
    let mut c = candidate(
        "tight-constraints",
        "range-and-frequency-d-privacy-slides.txt, \"Our Mechanism\": p_jk = e^{-eps d_jk} p_kk, optimal for co-location by KKT",
        rows,
    );
    c.claims_optimal = s.is("co-location");
    Some(c)
}

fn truncated_geometric(s: &Setting) -> Option<Candidate> {
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
    let a = (-eps).exp();
    let rows = (0..n)
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
        .collect();
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
fn hadamard(k: usize) -> Vec<Vec<i8>> {
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
fn hadamard_block(k: usize, eps: f64) -> (usize, Vec<Vec<f64>>) {
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

fn hadamard_high_low(s: &Setting) -> Option<Candidate> {
    let PrivacySpec::HighLow { epsilon, sensitive } = s.notion else {
        return None;
    };
    let n = s.n();
    let sens: Vec<usize> = sensitive
        .iter()
        .filter_map(|sym| sym.resolve("sensitive", s.domain).ok())
        .collect();
    if sens.is_empty() {
        return None;
    }
    let (big, hr) = hadamard_block(sens.len(), *epsilon);
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
    let mut c = candidate(
        "hadamard-high-low",
        "context-aware-ldp.txt Sec. 5.1 (formulas lost in extraction; reconstructed: HR over the sensitive set, non-sensitive symbols report themselves w.p. (e^eps-1)/(e^eps+1))",
        rows,
    );
    c.note = Some("the paper claims order-optimal sample complexity, not optimality for a loss here; feasibility is checked");
    Some(c)
}

fn hadamard_blocks(s: &Setting) -> Option<Candidate> {
    // The scheme releases the block: it is block-structured LDP with nothing across blocks.
    let PrivacySpec::Block {
        epsilon,
        blocks,
        epsilon_across: None,
    } = s.notion
    else {
        return None;
    };
    let n = s.n();
    let parts: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            b.iter()
                .filter_map(|sym| sym.resolve("blocks", s.domain).ok())
                .collect()
        })
        .collect();
    let layouts: Vec<(usize, Vec<Vec<f64>>)> = parts
        .iter()
        .map(|b| hadamard_block(b.len(), *epsilon))
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
    let mut c = candidate(
        "hadamard-block",
        "context-aware-ldp.txt Sec. 6.1: Hadamard response within each block (block identity released)",
        rows,
    );
    c.note = Some("the paper claims order-optimal sample complexity, not optimality for a loss here; feasibility is checked");
    Some(c)
}

fn max_leakage_hamming(s: &Setting) -> Option<Candidate> {
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

/// Every entry, in report order.
pub const REGISTRY: [Entry; 15] = [
    Entry {
        name: "warner",
        build: warner,
    },
    Entry {
        name: "binary-ldp-optimum",
        build: binary_ldp_mmse,
    },
    Entry {
        name: "k-rr",
        build: k_rr,
    },
    Entry {
        name: "mimo-ldp-optimum",
        build: mimo_ldp,
    },
    Entry {
        name: "context-binary",
        build: context_binary,
    },
    Entry {
        name: "mangat",
        build: mangat,
    },
    Entry {
        name: "binary-lip-optimum",
        build: binary_lip,
    },
    Entry {
        name: "binary-lip-mae",
        build: binary_lip_mae,
    },
    Entry {
        name: "mimo-lip",
        build: mimo_lip,
    },
    Entry {
        name: "bp-lip-binary",
        build: bp_lip_binary,
    },
    Entry {
        name: "tight-constraints",
        build: tight_constraints,
    },
    Entry {
        name: "truncated-geometric",
        build: truncated_geometric,
    },
    Entry {
        name: "hadamard-high-low",
        build: hadamard_high_low,
    },
    Entry {
        name: "hadamard-block",
        build: hadamard_blocks,
    },
    Entry {
        name: "max-leakage-hamming",
        build: max_leakage_hamming,
    },
];
