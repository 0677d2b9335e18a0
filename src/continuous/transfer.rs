//! Transferability of LIP between priors (context-aware-lip Sec. III-C): Lemma 3, the bound
//! (12) with Corollary 6, Corollary 7 for empirical priors and Corollary 8 for a family, and a
//! bounded-prior LIP design over a superset of the empirical prior's confidence set.
//!
//! `L(M, P) = sup_{x, y} |ln(P_{X|Y}(x|y) / P(x))|` is [`crate::privacy::lip_leakage`].

use super::error::ContinuousError;

/// Total variation distance (Definition 7): `sup_S |P1(S) - P2(S)| = ||P1 - P2||_1 / 2`.
pub fn total_variation(p1: &[f64], p2: &[f64]) -> f64 {
    0.5 * p1.iter().zip(p2).map(|(a, b)| (a - b).abs()).sum::<f64>()
}

/// Smallest entry of a pmf.
pub fn p_min(p: &[f64]) -> f64 {
    p.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Lemma 3: `|L(M, P1) - L(M, P2)| <= eta = ln(1 + D_TV(P1, P2) / c)`,
/// `c = min(P1_min, P2_min)`.
pub fn lemma3_eta(p1: &[f64], p2: &[f64]) -> f64 {
    (total_variation(p1, p2) / p_min(p1).min(p_min(p2))).ln_1p()
}

/// Bound (12) on `L(M(P1), P2)` given `leak = L(M(P1), P1)`:
/// `min[eta + leak, 2 leak, ln((e^leak - 1 + P1_min)/P1_min)]`; the last two terms hold when
/// `M(P1)` is the optimal mechanism for `P1` (eq. (19)), through its LDP level.
pub fn bound12(leak: f64, eta: f64, p1_min: f64) -> f64 {
    (eta + leak)
        .min(2.0 * leak)
        .min(((leak.exp() - 1.0 + p1_min) / p1_min).ln())
}

/// Corollary 6: `eta + eps` is the smallest term of (12) when
/// `D_TV <= min(P1_min, P2_min) (e^{min(eps, Phi)} - 1)`, `Phi = (e^eps - 1 + P1_min)/P1_min - eps`
/// (as printed).
pub fn corollary6_threshold(eps: f64, p1_min: f64, p2_min: f64) -> f64 {
    let phi = (eps.exp() - 1.0 + p1_min) / p1_min - eps;
    p1_min.min(p2_min) * (eps.min(phi).exp() - 1.0)
}

/// Corollary 6 with the logarithm the derivation needs, `Phi = ln((e^eps - 1 + P1_min)/P1_min)
/// - eps`: `eta + eps` is the smallest term of (12) exactly when `D_TV <= c (e^{min(eps, Phi)} - 1)`
/// (with `eta = ln(1 + D_TV / c)`, `c = min(P1_min, P2_min)`).
pub fn corollary6_threshold_with_log(eps: f64, p1_min: f64, p2_min: f64) -> f64 {
    let phi = ((eps.exp() - 1.0 + p1_min) / p1_min).ln() - eps;
    p1_min.min(p2_min) * (eps.min(phi).exp() - 1.0)
}

/// Corollary 7's L1 radius `Delta_bar = sqrt(2 (|X| - ln beta) / n)`.
pub fn corollary7_radius(n: u64, size: usize, beta: f64) -> f64 {
    (2.0 * (size as f64 - beta.ln()) / n as f64).sqrt()
}

/// Corollary 7: with probability `1 - beta`, `Delta_n <= ln(1 + Delta_bar / (2 c))`.
pub fn corollary7_eta(n: u64, size: usize, beta: f64, c: f64) -> f64 {
    (corollary7_radius(n, size, beta) / (2.0 * c)).ln_1p()
}

/// Corollary 8: `eta = ln[1 + max_i D_TV(P_true, P_i) / min_i min(P_true_min, P_i_min)]`.
pub fn corollary8_eta(truth: &[f64], family: &[Vec<f64>]) -> f64 {
    let tv = family
        .iter()
        .map(|p| total_variation(truth, p))
        .fold(0.0, f64::max);
    let c = family
        .iter()
        .map(|p| p_min(truth).min(p_min(p)))
        .fold(f64::INFINITY, f64::min);
    (tv / c).ln_1p()
}

/// The eq. (19) mechanism for a prior: `q_xy = P(y)/e^eps` (x != y),
/// `q_xx = 1 - (1 - P(x))/e^eps`.
pub fn equation19(prior: &[f64], eps: f64) -> Vec<Vec<f64>> {
    let k = (-eps).exp();
    (0..prior.len())
        .map(|x| {
            (0..prior.len())
                .map(|y| {
                    if x == y {
                        1.0 - (1.0 - prior[x]) * k
                    } else {
                        prior[y] * k
                    }
                })
                .collect()
        })
        .collect()
}

/// Vertices of `{P in simplex : P(x) >= l_x}`, `l_x = max(0, Phat(x) - radius / 2)`: the
/// points `l + (1 - sum l) e_k`. Every prior within L1 distance `radius` of `phat` (TV at most
/// `radius / 2`) lies in their convex hull, so a channel that is eps-BP-LIP over these vertices
/// is eps-LIP for every prior in the confidence set.
pub fn confidence_vertices(phat: &[f64], radius: f64) -> Result<Vec<Vec<f64>>, ContinuousError> {
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(ContinuousError::invalid("radius", radius, "must be >= 0"));
    }
    let lower: Vec<f64> = phat.iter().map(|p| (p - 0.5 * radius).max(0.0)).collect();
    let slack = 1.0 - lower.iter().sum::<f64>();
    Ok((0..phat.len())
        .map(|k| {
            let mut v = lower.clone();
            v[k] += slack;
            v
        })
        .collect())
}

/// A problem file (TOML) asking for the optimal eps-BP-LIP channel over
/// [`confidence_vertices`], Hamming loss under `phat`.
pub fn bp_lip_problem(
    labels: &[String],
    phat: &[f64],
    radius: f64,
    eps: f64,
) -> Result<String, ContinuousError> {
    let vertices = confidence_vertices(phat, radius)?;
    let fmt = |v: &[f64]| {
        format!(
            "[{}]",
            v.iter()
                .map(|x| format!("{x:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let labels_text = labels
        .iter()
        .map(|l| format!("{l:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let priors = vertices
        .iter()
        .map(|v| fmt(v))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(format!(
        "# eps-BP-LIP over a superset of the L1 ball of radius {radius} around the estimated prior\n\
         # (vertices l + (1 - sum l) e_k, l_x = max(0, phat_x - radius/2)): the designed channel is\n\
         # eps-LIP for every prior the confidence set holds (context-aware-lip Cor. 7, Def. 6).\n\
         name = \"BP-LIP over the confidence set of an estimated prior\"\n\
         [domain]\nlabels = [{labels_text}]\nprior = {}\n\
         [[privacy]]\nnotion = \"bp-lip\"\nepsilon = {eps:?}\npriors = [{priors}]\n\
         [objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n",
        fmt(phat)
    ))
}
