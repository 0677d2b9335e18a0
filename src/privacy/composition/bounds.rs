//! The composition bounds of the papers, as stated.

/// Prop. 1 of context-aware-lip: an eps-LIP channel under a prior with smallest entry `p_min` is
/// `min{2 eps, ln((e^eps - 1 + p_min) / p_min)}`-LDP.
pub fn lip_to_ldp(epsilon: f64, p_min: f64) -> f64 {
    (2.0 * epsilon).min(((epsilon.exp() - 1.0 + p_min) / p_min).ln())
}

/// Thm 4 of context-aware-lip: releases that are `eps_k`-LIP under a prior with smallest entry
/// `p_min` leak at most `ln(p_min + exp(sum_k min{2 eps_k, ln((e^eps_k - 1 + p_min) / p_min)})
/// (1 - p_min))` under LIP together. Cor. 4 (BP-LIP) is the same expression with `p_min` =
/// `min P_min^bp` outside and `max P_min^bp` inside: see [`bp_theorem4_bound`].
pub fn theorem4_bound(epsilons: &[f64], p_min: f64) -> f64 {
    bp_theorem4_bound(epsilons, p_min, p_min)
}

/// Cor. 4 of context-aware-lip: `ln(min_bp + exp(sum_k omega_k) (1 - min_bp))` with
/// `omega_k = min{2 eps_k, ln((e^eps_k - 1 + max_bp) / max_bp)}`, where `min_bp` is the smallest
/// entry of any prior in the set and `max_bp` the largest of the priors' smallest entries.
pub fn bp_theorem4_bound(epsilons: &[f64], min_bp: f64, max_bp: f64) -> f64 {
    let total: f64 = epsilons.iter().map(|&e| lip_to_ldp(e, max_bp)).sum();
    (min_bp + total.exp() * (1.0 - min_bp)).ln()
}

/// Cor. 5 of context-aware-lip, eq. (11): releases `Y_k` of the components `X_k` of a correlated
/// sequence, each `eps_k`-LIP under the marginal with smallest entry `marginal_min[k]`, leak at
/// most `ln(P^min + exp(sum_k min{2 eps_k, ln((e^eps_k - 1 + P^k_min) / P^k_min)}) (1 - P^min))`
/// about the whole sequence, with `P^min` the smallest joint probability.
pub fn sequential_bound(epsilons: &[f64], marginal_min: &[f64], joint_min: f64) -> f64 {
    let total: f64 = epsilons
        .iter()
        .zip(marginal_min)
        .map(|(&e, &p)| lip_to_ldp(e, p))
        .sum();
    (joint_min + total.exp() * (1.0 - joint_min)).ln()
}

/// Basic composition of LDP (Dwork and Roth, Thm 3.16): `sum_k eps_k`, rounded upwards (a
/// k-term sum of non-negative numbers errs by at most `gamma_k` times itself).
pub fn basic_composition(epsilons: &[f64]) -> f64 {
    let sum: f64 = epsilons.iter().sum();
    let k = epsilons.len() as f64;
    (sum * (1.0 + (k + 1.0) * f64::EPSILON)).next_up()
}

/// Advanced composition (Dwork, Rothblum and Vadhan, "Boosting and Differential Privacy", FOCS
/// 2010, Thm III.3; Dwork and Roth Thm 3.20): k releases, each eps-LDP, are together
/// `(eps', delta')`-LDP with `eps' = sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1)`.
pub fn advanced_composition(epsilon: f64, releases: usize, delta_prime: f64) -> f64 {
    let k = releases as f64;
    (2.0 * k * (1.0 / delta_prime).ln()).sqrt() * epsilon + k * epsilon * epsilon.exp_m1()
}
