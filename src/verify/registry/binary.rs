//! Binary-domain mechanisms: randomized response, Mangat, the context-aware scheme, and the
//! binary LIP and bounded-prior LIP closed forms.

use super::{candidate, ldp_epsilon, lip_epsilon, multi::krr, Candidate, Setting};
use crate::objective::ObjectiveSpec;
use crate::privacy::PrivacySpec;

/// Binary channel from `q0 = P(Y=1|X=0)` and `q1 = P(Y=0|X=1)`.
pub(super) fn binary(q0: f64, q1: f64) -> Vec<Vec<f64>> {
    vec![vec![1.0 - q0, q0], vec![q1, 1.0 - q1]]
}

pub(super) fn warner(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s).filter(|_| s.n() == 2)?;
    let mut c = candidate(
        "warner",
        "Warner (1965) randomized response; [CA-LDP] Sec. 4 (E01 = E10): universally optimal, i.e. optimal after the best remap of its outputs",
        krr(2, eps),
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    c.claimed_value = (s.hamming() && s.uniform()).then(|| 1.0 / (1.0 + eps.exp()));
    Some(c)
}

pub(super) fn binary_ldp_mmse(s: &Setting) -> Option<Candidate> {
    let eps = ldp_epsilon(s)?;
    let scale = s.binary_mmse_scale()?;
    let p1 = s.domain.prior()[1];
    let e = eps.exp();
    let eq24 = p1 * (1.0 - p1)
        - (p1 * (1.0 - p1) * (1.0 - e)).powi(2) / ((1.0 - p1 + p1 * e) * (e - p1 * e + p1));
    let mut c = candidate(
        "binary-ldp-optimum",
        "[LIP-agg] Prop. 4, eq. (24): q0 = q1 = 1/(e^eps + 1)",
        krr(2, eps),
    );
    c.claims_optimal = true;
    c.claimed_value = Some(scale * eq24);
    Some(c)
}

/// The binary point where both cross constraints of a privacy matrix are tight (docs/design-notes.md, "The binary tight point of a privacy matrix").
pub(super) fn context_binary_rows(e01: f64, e10: f64) -> Vec<Vec<f64>> {
    let q01 = (e01.exp() - 1.0) / ((e01 + e10).exp() - 1.0);
    let q10 = (e10.exp() - 1.0) / ((e01 + e10).exp() - 1.0);
    binary(q01, q10)
}

pub(super) fn context_matrix(s: &Setting) -> Option<(f64, f64)> {
    match s.notion {
        PrivacySpec::ContextLdp { epsilon, matrix } if s.n() == 2 => {
            let eps = epsilon.unwrap_or(1.0);
            let scale = |u: f64| if u.is_infinite() { u } else { eps * u };
            Some((scale(matrix[0][1]), scale(matrix[1][0])))
        }
        _ => None,
    }
}

pub(super) fn context_binary(s: &Setting) -> Option<Candidate> {
    let (e01, e10) = context_matrix(s).filter(|(a, b)| a.is_finite() && b.is_finite())?;
    if e01 == 0.0 || e10 == 0.0 {
        return None;
    }
    let mut c = candidate(
        "context-binary",
        "[CA-LDP] Sec. 4 (Thm 2): the universally optimal binary scheme (optimal after the best remap), both cross constraints tight",
        context_binary_rows(e01, e10),
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    Some(c)
}

/// Mangat's improved response: `Q[1][1] = 1`, `Q[0][1] = e^-eps` (only the ratio
/// `Q[1][1] / Q[0][1] <= e^eps` binds; the other direction is unconstrained).
pub(crate) fn mangat_rows(eps: f64) -> Vec<Vec<f64>> {
    vec![vec![1.0 - (-eps).exp(), (-eps).exp()], vec![0.0, 1.0]]
}

pub(super) fn mangat(s: &Setting) -> Option<Candidate> {
    let (e01, e10) = context_matrix(s)?;
    // Only Q[1][y] <= e^{E10} Q[0][y] binds (E01 = inf), or the mirror image.
    let rows = match (e01.is_infinite(), e10.is_infinite()) {
        (true, false) => mangat_rows(e10),
        (false, true) => vec![vec![1.0, 0.0], vec![(-e01).exp(), 1.0 - (-e01).exp()]],
        _ => return None,
    };
    let mut c = candidate(
        "mangat",
        "Mangat (1994) improved response; [CA-LDP] Sec. 4 (one cross entry infinite): optimal after the best remap",
        rows,
    );
    c.claims_optimal = s.hamming();
    c.remap = true;
    Some(c)
}

pub(super) fn binary_lip_rows(p1: f64, eps: f64) -> Vec<Vec<f64>> {
    binary(p1 / eps.exp(), (1.0 - p1) / eps.exp())
}

pub(super) fn binary_lip(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s)?;
    let scale = s.binary_mmse_scale()?;
    let p1 = s.domain.prior()[1];
    let mut c = candidate(
        "binary-lip-optimum",
        "[LIP-agg] Thm 2, eq. (21): q0 = P1/e^eps, q1 = (1-P1)/e^eps",
        binary_lip_rows(p1, eps),
    );
    c.claims_optimal = true;
    c.claimed_value = Some(scale * p1 * (1.0 - p1) * (2.0 * (-eps).exp() - (-2.0 * eps).exp()));
    Some(c)
}

pub(super) fn binary_lip_mae(s: &Setting) -> Option<Candidate> {
    let eps = lip_epsilon(s).filter(|_| s.n() == 2)?;
    let absolute = matches!(s.objective, ObjectiveSpec::ExpectedLoss { loss: crate::objective::LossSpec::Named(l) } if l == "absolute" || l == "hamming");
    if !absolute {
        return None;
    }
    let p1 = s.domain.prior()[1];
    let mut c = candidate(
        "binary-lip-mae",
        "[LIP-agg] Prop. 3: the same q0, q1 minimize the MAE (22)",
        binary_lip_rows(p1, eps),
    );
    c.claims_optimal = true;
    Some(c)
}

pub(super) fn bp_lip_binary(s: &Setting) -> Option<Candidate> {
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
        "[CA-LIP] Sec. IV-B2: q01 = b/(b-a+e^eps), q10 = (1-a)/(b-a+e^eps) for P(X=1) in [a, b]",
        binary(b / d, (1.0 - a) / d),
    );
    c.claims_optimal = s.hamming() || s.is("mmse-sum");
    Some(c)
}
