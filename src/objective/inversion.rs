//! Frequency-estimation MSE of the unbiased inversion estimator
//! ([dP-slides], "Frequency Estimation" and "Evaluation"):
//! `c_hat = (P^T)^{-1} c_out`, with `MSE_freq = sum_k sum_j c_j^* sum_i q_ki^2 p_ji - N` for
//! counts, where `q = (P^T)^{-1}`. Divided by `N^2` it is the MSE of the estimated frequencies:
//! `(sum_i lambda_i ||row_i(P^-1)||^2 - 1) / N` with `lambda = P^T pi`. Neither convex nor
//! concave in P.

use super::registry::{ObjectiveEntry, ObjectiveProfile};
use super::{Goal, Objective};
use crate::channel::Channel;
use nalgebra::DMatrix;

/// A channel whose inverse has entries beyond this is treated as singular.
const SINGULAR_LIMIT: f64 = 1e12;

/// `P^-1` for a square channel, or `None` when it is singular or not square.
pub(crate) fn channel_inverse(channel: &Channel) -> Option<DMatrix<f64>> {
    let n = channel.inputs();
    if channel.outputs() != n {
        return None;
    }
    let m = DMatrix::from_fn(n, n, |x, y| channel.get(x, y));
    let mut inv = m.clone().try_inverse()?;
    // Two steps of iterative refinement, X <- X + X (I - M X): near-singular channels (tiny
    // epsilon) lose digits in a plain inverse.
    for _ in 0..2 {
        let residual = DMatrix::identity(n, n) - &m * &inv;
        inv += &inv * residual;
    }
    inv.iter()
        .all(|v| v.is_finite() && v.abs() < SINGULAR_LIMIT)
        .then_some(inv)
}

/// The frequency MSE for the true distribution `pi` and `users` users.
#[derive(Debug, Clone, PartialEq)]
pub struct InversionMse {
    distribution: Vec<f64>,
    users: f64,
}

impl InversionMse {
    /// For a true distribution and a number of users (the MSE scales as `1 / users`).
    pub fn new(distribution: &[f64], users: f64) -> Self {
        InversionMse {
            distribution: distribution.to_vec(),
            users,
        }
    }

    /// The MSE, or `+inf` when the channel is not square and invertible.
    pub fn value(&self, channel: &Channel) -> f64 {
        let Some(r) = channel_inverse(channel) else {
            return f64::INFINITY;
        };
        let lambda = channel.output_marginal(&self.distribution);
        let total: f64 = lambda
            .iter()
            .enumerate()
            .map(|(i, l)| l * r.row(i).norm_squared())
            .sum();
        (total - 1.0) / self.users
    }
}

impl Objective for InversionMse {
    fn describe(&self) -> String {
        format!(
            "frequency MSE of the inversion estimator ({} user(s))",
            self.users
        )
    }
    fn goal(&self) -> Goal {
        Goal::Minimize
    }
    fn evaluate(&self, channel: &Channel) -> f64 {
        self.value(channel)
    }
    fn linear_coefficients(&self) -> Option<&[Vec<f64>]> {
        None
    }
    /// With `R = P^-1`, `W = diag(lambda)`: `dF/dP[j][i] = pi_j (R R^T)_ii - 2 (R R^T W R)^T_ji`,
    /// divided by the number of users.
    fn gradient(&self, channel: &Channel) -> Option<Vec<Vec<f64>>> {
        let r = channel_inverse(channel)?;
        let n = channel.inputs();
        let lambda = channel.output_marginal(&self.distribution);
        let rrt = &r * r.transpose();
        let w = DMatrix::from_diagonal(&nalgebra::DVector::from_vec(lambda));
        let second = (&rrt * w * &r).transpose();
        Some(
            (0..n)
                .map(|j| {
                    (0..n)
                        .map(|i| {
                            (self.distribution[j] * rrt[(i, i)] - 2.0 * second[(j, i)]) / self.users
                        })
                        .collect()
                })
                .collect(),
        )
    }
}

/// The registry entry: profiled with one user and the prior as true distribution, when the
/// channel is invertible (O(n^3)).
pub(super) const ENTRY: ObjectiveEntry = ObjectiveEntry {
    profile: Some(ObjectiveProfile {
        value: |channel, domain| {
            Some(InversionMse::new(domain.prior(), 1.0).value(channel)).filter(|v| v.is_finite())
        },
        cubic: true,
    }),
    ..ObjectiveEntry::new("inversion-mse")
};

#[cfg(test)]
mod tests {
    use super::*;

    fn krr(k: usize, eps: f64) -> Channel {
        let e = eps.exp();
        let (p, q) = (e / (e + k as f64 - 1.0), 1.0 / (e + k as f64 - 1.0));
        Channel::new(
            (0..k)
                .map(|x| (0..k).map(|y| if x == y { p } else { q }).collect())
                .collect(),
        )
        .unwrap()
    }

    /// k-RR frequency variance from Wang et al. (USENIX Security 2017), summed over the k
    /// categories for fixed counts: `sum_v [q(1-q) + pi_v (p - q)(1 - p - q)] / (N (p-q)^2)`.
    #[test]
    fn krr_matches_the_direct_encoding_variance() {
        let pi = [0.1, 0.2, 0.3, 0.4];
        for eps in [0.5, 1.0, 2.0] {
            let e: f64 = eps;
            let k = 4.0;
            let p = e.exp() / (e.exp() + k - 1.0);
            let q = 1.0 / (e.exp() + k - 1.0);
            let expected: f64 = pi
                .iter()
                .map(|v| (q * (1.0 - q) + v * (p - q) * (1.0 - p - q)) / (p - q).powi(2))
                .sum::<f64>()
                / 100.0;
            let got = InversionMse::new(&pi, 100.0).value(&krr(4, eps));
            assert!((got - expected).abs() < 1e-12, "{got} vs {expected}");
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let pi = [0.2, 0.3, 0.5];
        let f = InversionMse::new(&pi, 1.0);
        let rows = vec![
            vec![0.6, 0.3, 0.1],
            vec![0.2, 0.5, 0.3],
            vec![0.1, 0.2, 0.7],
        ];
        let g = f.gradient(&Channel::new(rows.clone()).unwrap()).unwrap();
        let h = 1e-7;
        for j in 0..3 {
            for i in 0..3 {
                let mut up = rows.clone();
                up[j][i] += h;
                let mut down = rows.clone();
                down[j][i] -= h;
                // Entries off the simplex are fine for a derivative check.
                let value = |m: Vec<Vec<f64>>| {
                    let ch = Channel::from_rows_unchecked(m);
                    f.value(&ch)
                };
                let fd = (value(up) - value(down)) / (2.0 * h);
                assert!(
                    (fd - g[j][i]).abs() < 1e-5,
                    "[{j}][{i}] {fd} vs {}",
                    g[j][i]
                );
            }
        }
    }

    #[test]
    fn singular_channels_have_infinite_mse() {
        let constant = Channel::new(vec![vec![0.5, 0.5], vec![0.5, 0.5]]).unwrap();
        assert_eq!(
            InversionMse::new(&[0.5, 0.5], 1.0).value(&constant),
            f64::INFINITY
        );
    }
}
