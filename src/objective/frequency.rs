//! Frequency-estimation MSE of the efficient unbiased estimator, through the Fisher information
//! of the reports about the input distribution (docs/design-notes.md, "Optimal design"; docs/frequency.md).
//!
//! For a channel with columns `q_y` and true distribution `pi`, let `lambda_y = pi . q_y` and
//! `J(Q) = sum_y q_y q_y^T / lambda_y`. The estimator `pi_hat = J^-1 sum_y (c_y / N) q_y /
//! lambda_y` is unbiased (`J pi = Q 1 = 1`), and from the multinomial covariance of the output
//! counts its per-user covariance is `J^-1 - diag(pi)` when every true count is fixed, and
//! `J^-1 - pi pi^T` under i.i.d. sampling. For linear queries `A pi` (rows of `A` are queries)
//! the MSE is therefore `(tr(A J^-1 A^T) - kappa) / N` with `kappa = sum_x pi_x ||A e_x||^2`
//! (fixed counts) or `||A pi||^2` (i.i.d.). For a square invertible channel `J^-1 =
//! Q^-T diag(lambda) Q^-1`, so with `A = I` and fixed counts this is `inversion-mse`.

use super::registry::{ObjectiveEntry, ObjectiveProfile};
use super::{Goal, Objective};
use crate::channel::Channel;
use nalgebra::{DMatrix, DVector};
use serde::{Deserialize, Serialize};

/// An eigenvalue of `J` below this fraction of the largest counts as zero: a query with a
/// component there is not estimable, and its MSE is `+inf`.
pub const FISHER_RANK_TOLERANCE: f64 = 1e-12;

/// Which linear functions of the frequencies are estimated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum QuerySpec {
    /// Every frequency (`A = I`).
    #[default]
    Identity,
    /// Every range `[a, b]` of the symbols' order: `n (n + 1) / 2` interval sums.
    Ranges,
    /// Every prefix `[0, b]`: the cumulative distribution.
    Prefixes,
    /// Explicit queries: one row per query, one coefficient per symbol.
    Matrix(Vec<Vec<f64>>),
}

impl QuerySpec {
    /// The query matrix (one row per query) over `n` symbols.
    pub fn matrix(&self, n: usize) -> Vec<Vec<f64>> {
        let indicator = |a: usize, b: usize| -> Vec<f64> {
            (0..n)
                .map(|x| f64::from(u8::from(a <= x && x <= b)))
                .collect()
        };
        match self {
            QuerySpec::Identity => (0..n).map(|x| indicator(x, x)).collect(),
            QuerySpec::Ranges => (0..n)
                .flat_map(|a| (a..n).map(move |b| (a, b)))
                .map(|(a, b)| indicator(a, b))
                .collect(),
            QuerySpec::Prefixes => (0..n).map(|b| indicator(0, b)).collect(),
            QuerySpec::Matrix(rows) => rows.clone(),
        }
    }

    /// A short name for descriptions.
    pub fn name(&self) -> &'static str {
        match self {
            QuerySpec::Identity => "every frequency",
            QuerySpec::Ranges => "every range",
            QuerySpec::Prefixes => "every prefix",
            QuerySpec::Matrix(_) => "the given queries",
        }
    }
}

/// How the users' true values arise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Sampling {
    /// The true counts are fixed (`N pi_x` users hold symbol x): the error of estimating the
    /// collection's own histogram.
    #[default]
    FixedCounts,
    /// Each user's value is drawn i.i.d. from `pi`: the error of estimating `pi` itself.
    Iid,
}

/// `(tr(A J^-1 A^T) - kappa) / users`, minimized.
#[derive(Debug, Clone, PartialEq)]
pub struct FrequencyMse {
    /// `A^T`, one column per query (n x k).
    queries_t: DMatrix<f64>,
    distribution: Vec<f64>,
    users: f64,
    kappa: f64,
    description: String,
}

impl FrequencyMse {
    /// For the query matrix `queries` (rows are queries), a true distribution with every entry
    /// positive, the sampling model and the number of users. The caller validates the inputs.
    pub fn new(queries: &[Vec<f64>], distribution: &[f64], sampling: Sampling, users: f64) -> Self {
        let n = distribution.len();
        let k = queries.len();
        let queries_t = DMatrix::from_fn(n, k, |x, j| queries[j][x]);
        let kappa = match sampling {
            Sampling::FixedCounts => (0..n)
                .map(|x| distribution[x] * queries_t.row(x).norm_squared())
                .sum(),
            Sampling::Iid => {
                let pi = DVector::from_column_slice(distribution);
                (queries_t.transpose() * pi).norm_squared()
            }
        };
        let sampling_name = match sampling {
            Sampling::FixedCounts => "fixed counts",
            Sampling::Iid => "i.i.d. sampling",
        };
        FrequencyMse {
            queries_t,
            distribution: distribution.to_vec(),
            users,
            kappa,
            description: format!(
                "frequency MSE of the efficient unbiased estimator, {k} queries, {sampling_name}, {users} user(s)"
            ),
        }
    }

    /// `A^T` (n x k): column `j` is query `j`.
    pub fn queries_t(&self) -> &DMatrix<f64> {
        &self.queries_t
    }

    /// The true distribution `pi`.
    pub fn distribution(&self) -> &[f64] {
        &self.distribution
    }

    /// The MSE for a value `t = tr(A J^-1 A^T)`.
    pub fn mse_from_trace(&self, t: f64) -> f64 {
        (t - self.kappa) / self.users
    }

    /// The trace `tr(A J^-1 A^T)` for a value of the MSE (the inverse of
    /// [`FrequencyMse::mse_from_trace`]).
    pub fn trace_from_mse(&self, mse: f64) -> f64 {
        mse * self.users + self.kappa
    }

    /// The Fisher information `J = sum_y q_y q_y^T / (pi . q_y)` over the columns of `channel`.
    pub fn fisher(&self, channel: &Channel) -> DMatrix<f64> {
        let n = channel.inputs();
        // J = B B^T with B's columns q_y / sqrt(lambda_y): one matrix product instead of a
        // rank-one update per output.
        let scaled: Vec<DVector<f64>> = (0..channel.outputs())
            .filter_map(|y| {
                let q = DVector::from_vec(channel.column(y));
                let lambda: f64 = q.iter().zip(&self.distribution).map(|(a, b)| a * b).sum();
                (lambda > 0.0).then(|| q / lambda.sqrt())
            })
            .collect();
        if scaled.is_empty() {
            return DMatrix::zeros(n, n);
        }
        let b = DMatrix::from_columns(&scaled);
        &b * b.transpose()
    }

    /// An estimate of the condition number of the Fisher information of `channel`: the squared
    /// ratio of the largest to the smallest pivot of its Cholesky factor (`+inf` when the
    /// factorization fails). The MSEs computed from `J` lose about this times the unit
    /// roundoff, relative.
    pub fn fisher_condition(&self, channel: &Channel) -> f64 {
        let Some(chol) = self.fisher(channel).cholesky() else {
            return f64::INFINITY;
        };
        let pivots = chol.l_dirty().diagonal();
        let largest = pivots.iter().cloned().fold(0.0, f64::max);
        let smallest = pivots.iter().cloned().fold(f64::INFINITY, f64::min);
        if smallest > 0.0 {
            (largest / smallest).powi(2)
        } else {
            f64::INFINITY
        }
    }

    /// `tr(A J^-1 A^T)`, or `+inf` when some query is not in the range of `J`.
    pub fn trace(&self, fisher: &DMatrix<f64>) -> f64 {
        let largest_diagonal = fisher.diagonal().iter().cloned().fold(0.0, f64::max);
        let well_posed = fisher.clone().cholesky().filter(|chol| {
            // A pivot this small is a rounding residue of a singular J: decide by eigenvalues.
            chol.l_dirty()
                .diagonal()
                .iter()
                .all(|p| p * p > FISHER_RANK_TOLERANCE * largest_diagonal)
        });
        if let Some(chol) = well_posed {
            let v = chol.solve(&self.queries_t);
            return v
                .iter()
                .zip(self.queries_t.iter())
                .map(|(a, b)| a * b)
                .sum();
        }
        let eigen = fisher.clone().symmetric_eigen();
        let largest = eigen.eigenvalues.iter().cloned().fold(0.0, f64::max);
        let mut total = 0.0;
        for (i, &value) in eigen.eigenvalues.iter().enumerate() {
            let u = eigen.eigenvectors.column(i);
            let projection = (self.queries_t.transpose() * u).norm_squared();
            if value <= FISHER_RANK_TOLERANCE * largest {
                if projection > FISHER_RANK_TOLERANCE * self.queries_t.norm_squared() {
                    return f64::INFINITY;
                }
            } else {
                total += projection / value;
            }
        }
        total
    }

    /// The MSE of `channel` (`+inf` when the queries are not estimable from its reports).
    pub fn value(&self, channel: &Channel) -> f64 {
        if channel.inputs() != self.distribution.len() {
            return f64::NAN;
        }
        self.mse_from_trace(self.trace(&self.fisher(channel)))
    }
}

impl Objective for FrequencyMse {
    fn describe(&self) -> String {
        self.description.clone()
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
    fn frequency_design(&self) -> Option<&FrequencyMse> {
        Some(self)
    }
    /// With `M = J^-1 A^T A J^-1`: `d tr(A J^-1 A^T) / dQ[x][y] = -(2 (M q_y)_x / lambda_y -
    /// pi_x q_y^T M q_y / lambda_y^2)`, divided by the number of users.
    fn gradient(&self, channel: &Channel) -> Option<Vec<Vec<f64>>> {
        let fisher = self.fisher(channel);
        let v = fisher.cholesky()?.solve(&self.queries_t);
        let m = &v * v.transpose();
        let n = channel.inputs();
        let mut out = vec![vec![0.0; channel.outputs()]; n];
        for y in 0..channel.outputs() {
            let q = DVector::from_vec(channel.column(y));
            let lambda: f64 = q.iter().zip(&self.distribution).map(|(a, b)| a * b).sum();
            if lambda <= 0.0 {
                continue;
            }
            let mq = &m * &q;
            let quad = q.dot(&mq);
            for (x, row) in out.iter_mut().enumerate() {
                row[y] = -(2.0 * mq[x] / lambda - self.distribution[x] * quad / lambda.powi(2))
                    / self.users;
            }
        }
        Some(out)
    }
}

/// The registry entry: profiled for every frequency, fixed counts and one user, when the prior
/// is positive everywhere and the value finite (O(n^3)).
pub(super) const ENTRY: ObjectiveEntry = ObjectiveEntry {
    profile: Some(ObjectiveProfile {
        value: |channel, domain| {
            let prior = domain.prior();
            if !prior.iter().all(|&p| p > 0.0) {
                return None;
            }
            let identity = QuerySpec::Identity.matrix(prior.len());
            Some(FrequencyMse::new(&identity, prior, Sampling::FixedCounts, 1.0).value(channel))
                .filter(|v| v.is_finite())
        },
        cubic: true,
    }),
    ..ObjectiveEntry::new("frequency-mse")
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Central differences of the value agree with the analytic gradient.
    #[test]
    fn gradient_matches_finite_differences() {
        let pi = [0.2, 0.3, 0.5];
        let ranges = QuerySpec::Ranges.matrix(3);
        let f = FrequencyMse::new(&ranges, &pi, Sampling::Iid, 2.0);
        let rows = vec![
            vec![0.5, 0.2, 0.2, 0.1],
            vec![0.2, 0.5, 0.1, 0.2],
            vec![0.1, 0.2, 0.3, 0.4],
        ];
        let g = f
            .gradient(&Channel::from_rows_unchecked(rows.clone()))
            .unwrap();
        let h = 1e-7;
        for x in 0..3 {
            for y in 0..4 {
                let mut up = rows.clone();
                up[x][y] += h;
                let mut down = rows.clone();
                down[x][y] -= h;
                let value = |m: Vec<Vec<f64>>| f.value(&Channel::from_rows_unchecked(m));
                let fd = (value(up) - value(down)) / (2.0 * h);
                assert!(
                    (fd - g[x][y]).abs() < 1e-5 * (1.0 + fd.abs()),
                    "[{x}][{y}] {fd} vs {}",
                    g[x][y]
                );
            }
        }
    }

    /// A query outside the range of `J` has infinite MSE; one inside it stays finite.
    #[test]
    fn singular_fisher_information_is_infinite_only_for_unestimable_queries() {
        let pi = [0.25, 0.25, 0.5];
        // Rows 0 and 1 are equal: frequencies 0 and 1 are not separable, their sum is.
        let channel = Channel::new(vec![vec![0.7, 0.3], vec![0.7, 0.3], vec![0.2, 0.8]]).unwrap();
        let each = FrequencyMse::new(&QuerySpec::Identity.matrix(3), &pi, Sampling::Iid, 1.0);
        assert_eq!(each.value(&channel), f64::INFINITY);
        let pooled = FrequencyMse::new(&[vec![1.0, 1.0, 0.0]], &pi, Sampling::Iid, 1.0);
        assert!(pooled.value(&channel).is_finite());
    }
}
