//! Who the simulated users are: validation of the options, the population prior, each
//! trial's composition, and the inversion covariance around it.

use super::{Sampling, SimulateOptions, UserGroup, MAX_TRIALS, MAX_USERS};
use crate::collect::stats::{generalized_inverse, matrix, multinomial_into};
use crate::collect::{CollectError, Model};
use nalgebra::{DMatrix, DVector};
use rand::RngCore;

/// Check the options for a domain of `n` symbols.
pub(crate) fn check(options: &SimulateOptions, n: usize) -> Result<(), CollectError> {
    if let Some(i) = options.groups.iter().position(|g| g.users == 0) {
        return Err(CollectError::invalid(
            format!("priors[{i}].users"),
            0,
            "every group of --priors needs at least one user",
        ));
    }
    if options.users == 0 || options.trials < 2 {
        return Err(CollectError::invalid(
            "--users/--trials",
            format!("{}/{}", options.users, options.trials),
            "need at least 1 user and 2 trials",
        ));
    }
    let group_users = options
        .groups
        .iter()
        .fold(0u64, |total, g| total.saturating_add(g.users));
    if group_users > MAX_USERS {
        return Err(CollectError::invalid(
            "--priors",
            format!("groups of {group_users} users in all"),
            format!("at most {MAX_USERS} users per trial"),
        ));
    }
    if options.users > MAX_USERS {
        return Err(CollectError::invalid(
            "--users",
            options.users,
            format!("at most {MAX_USERS} users per trial"),
        ));
    }
    if options.trials > MAX_TRIALS {
        return Err(CollectError::invalid(
            "--trials",
            options.trials,
            format!("at most {MAX_TRIALS} trials"),
        ));
    }
    if !(0.0..=1.0).contains(&options.noncompliance) {
        return Err(CollectError::invalid(
            "--noncompliance",
            options.noncompliance,
            "must be a rate in [0, 1]",
        ));
    }
    for (i, g) in options.groups.iter().enumerate() {
        crate::domain::validate_prior(&format!("priors[{i}]"), &g.prior, n)?;
    }
    Ok(())
}

/// The population prior: the domain's, or the groups' weighted average; under fixed
/// sampling, the composition every trial uses (largest remainders, per group).
pub(crate) fn population(
    model_prior: &[f64],
    options: &SimulateOptions,
) -> (Vec<UserGroup>, Vec<f64>) {
    let groups = if options.groups.is_empty() {
        vec![UserGroup {
            users: options.users,
            prior: model_prior.to_vec(),
        }]
    } else {
        options.groups.clone()
    };
    let total: u64 = groups.iter().map(|g| g.users).sum();
    if options.sampling == Sampling::Fixed {
        // The composition every trial uses, which the analytic values must be taken at.
        let mut counts = vec![0u64; model_prior.len()];
        for g in &groups {
            for (c, k) in counts.iter_mut().zip(fixed_counts(g.users, &g.prior)) {
                *c += k;
            }
        }
        let pi = counts.iter().map(|&c| c as f64 / total as f64).collect();
        return (groups, pi);
    }
    if options.groups.is_empty() {
        return (groups, model_prior.to_vec());
    }
    let pi = (0..model_prior.len())
        .map(|x| {
            options
                .groups
                .iter()
                .map(|g| g.users as f64 * g.prior[x])
                .sum::<f64>()
                / total as f64
        })
        .collect();
    (options.groups.clone(), pi)
}

/// Largest-remainder rounding of `total * p`.
fn fixed_counts(total: u64, p: &[f64]) -> Vec<u64> {
    let raw: Vec<f64> = p.iter().map(|v| v * total as f64).collect();
    let mut out: Vec<u64> = raw.iter().map(|v| v.floor() as u64).collect();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| (raw[b] - raw[b].floor()).total_cmp(&(raw[a] - raw[a].floor())));
    let short = total.saturating_sub(out.iter().sum());
    for &i in order.iter().cycle().take(short as usize) {
        out[i] += 1;
    }
    out
}

/// The composition of one trial.
pub(crate) fn composition(
    groups: &[UserGroup],
    sampling: Sampling,
    rng: &mut dyn RngCore,
) -> Vec<u64> {
    let mut nx = vec![0u64; groups[0].prior.len()];
    for g in groups {
        match sampling {
            Sampling::Iid => multinomial_into(g.users, &g.prior, rng, &mut nx),
            Sampling::Fixed => fixed_counts(g.users, &g.prior)
                .iter()
                .zip(nx.iter_mut())
                .for_each(|(a, b)| *b += a),
        }
    }
    nx
}

/// The covariance of one trial's composition `N_x / N`: `sum_g N_g (diag p_g - p_g p_g^T) /
/// N^2` when each group's users are drawn independently from its prior, 0 for a fixed
/// composition.
pub(crate) fn composition_covariance(
    groups: &[UserGroup],
    sampling: Sampling,
    n: usize,
) -> DMatrix<f64> {
    let mut cov = DMatrix::zeros(n, n);
    if sampling == Sampling::Fixed {
        return cov;
    }
    let total: f64 = groups.iter().map(|g| g.users as f64).sum();
    for g in groups {
        let weight = g.users as f64 / (total * total);
        for i in 0..n {
            for j in 0..n {
                let d = if i == j { g.prior[i] } else { 0.0 };
                cov[(i, j)] += weight * (d - g.prior[i] * g.prior[j]);
            }
        }
    }
    cov
}

/// Analytic covariance of the inversion estimate around the realized composition, for
/// composition `pi` and `users` users: `G^T (diag lambda - Q^T diag(pi) Q) G / users`.
pub fn inversion_covariance(model: &Model, pi: &[f64], users: f64) -> Option<DMatrix<f64>> {
    let (g, rank) = generalized_inverse(&model.channel);
    if rank < model.inputs() {
        return None;
    }
    let q = matrix(&model.channel);
    let lambda = model.channel.output_marginal(pi);
    let s = DMatrix::from_diagonal(&DVector::from_vec(lambda))
        - q.transpose() * DMatrix::from_diagonal(&DVector::from_column_slice(pi)) * &q;
    Some(g.transpose() * s * g / users)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_counts_add_up_and_follow_the_largest_remainders() {
        let c = fixed_counts(10, &[0.25, 0.25, 0.5]);
        assert_eq!(c.iter().sum::<u64>(), 10);
        assert_eq!(c[2], 5);
        assert_eq!(fixed_counts(7, &[1.0 / 3.0; 3]).iter().sum::<u64>(), 7);
    }
}
