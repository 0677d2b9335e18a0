//! Statistical helpers: normal quantiles, intervals from Monte Carlo samples, multinomial
//! draws, the projection onto the simplex and the generalized inverse of a channel.

use crate::channel::Channel;
use nalgebra::DMatrix;
use rand::RngCore;
use rand_distr::{Binomial, Distribution};
use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

/// Singular values below this times the largest are treated as zero by the generalized
/// inverse (a channel that close to singular gives no usable inversion estimate).
pub const RANK_TOLERANCE: f64 = 1e-10;

/// A query `w` counts as estimable when `Q v = w` is solved to this relative residual.
pub const ESTIMABLE_TOLERANCE: f64 = 1e-8;

/// The two-sided standard normal quantile for a confidence `level` (e.g. 1.96 for 0.95),
/// computed from the lower tail `(1 - level) / 2`: `0.5 + level / 2` rounds to 1 for levels
/// within 1e-16 of 1 (an infinite quantile), while the tail stays representable for every
/// level below 1. `NaN` outside `(0, 1)`.
pub fn z_value(level: f64) -> f64 {
    if !(level > 0.0 && level < 1.0) {
        return f64::NAN;
    }
    let n = Normal::new(0.0, 1.0).expect("the standard normal is valid");
    -n.inverse_cdf((1.0 - level) / 2.0)
}

/// A point estimate with its standard error and a confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Interval {
    /// `value +- z std_error`.
    pub fn normal(value: f64, std_error: f64, level: f64) -> Self {
        let z = z_value(level);
        Interval {
            value,
            std_error,
            low: value - z * std_error,
            high: value + z * std_error,
        }
    }

    /// The mean of Monte Carlo samples with the normal interval of the mean.
    pub fn of_mean(samples: &[f64], level: f64) -> Self {
        let (mean, var) = mean_var(samples);
        Interval::normal(mean, (var / samples.len() as f64).sqrt(), level)
    }

    /// Every field times `factor` (> 0): the interval of a sum from that of a mean.
    pub fn scaled(self, factor: f64) -> Self {
        Interval {
            value: self.value * factor,
            std_error: self.std_error * factor,
            low: self.low * factor,
            high: self.high * factor,
        }
    }

    /// Whether `v` lies in `[low, high]`.
    pub fn contains(&self, v: f64) -> bool {
        self.low <= v && v <= self.high
    }
}

/// Whether Monte Carlo samples of a squared error agree with its analytic mean `mean` at
/// `level`. Under normal estimates each sample is `sum_i l_i Z_i^2` for the eigenvalues `l_i`
/// of the error covariance, whose `shape = sum l_i^2 / (sum l_i)^2` (1 for one squared
/// error, 1/k for k equal ones) is given. The sum of T samples is matched to `g chi2_h` by its
/// mean `T mean` and variance `T V`, with `V` the larger of the Gaussian-model variance
/// `2 shape mean^2` and the samples' variance (heavier tails than the model's widen the test,
/// never narrow it), and the sum is tested two-sided. With normal estimates a correct analytic
/// value is flagged with probability about `1 - level` at any number of trials (a z interval
/// with the samples' own variance flagged 40% of correct runs at 2 trials).
pub fn squared_error_agrees(samples: &[f64], mean: f64, shape: f64, level: f64) -> bool {
    use statrs::distribution::ChiSquared;
    let t = samples.len() as f64;
    if !(mean > 0.0 && mean.is_finite()) || samples.len() < 2 {
        return Interval::of_mean(samples, level).contains(mean);
    }
    let (_, var) = mean_var(samples);
    let v = var.max(2.0 * shape.clamp(0.0, 1.0) * mean * mean);
    let g = v / (2.0 * mean);
    let h = 2.0 * t * mean * mean / v;
    let total: f64 = samples.iter().sum();
    let Ok(chi) = ChiSquared::new(h) else {
        return Interval::of_mean(samples, level).contains(mean);
    };
    let tail = (1.0 - level) / 2.0;
    let (low, high) = (chi.inverse_cdf(tail), chi.inverse_cdf(1.0 - tail));
    if !(low.is_finite() && high.is_finite()) {
        return Interval::of_mean(samples, level).contains(mean);
    }
    (low..=high).contains(&(total / g))
}

/// `sum l_i^2 / (sum l_i)^2` for the eigenvalues of a symmetric covariance: `tr(C^2) /
/// tr(C)^2`, the shape [`squared_error_agrees`] needs.
pub fn covariance_shape(cov: &DMatrix<f64>) -> f64 {
    let trace = cov.trace();
    let frobenius: f64 = cov.iter().map(|x| x * x).sum();
    if trace > 0.0 {
        (frobenius / (trace * trace)).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// Mean and unbiased sample variance (0 for fewer than two samples).
pub fn mean_var(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, 0.0);
    }
    let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var)
}

/// The `q`-quantile of samples (linear interpolation; sorts a copy).
pub fn quantile(samples: &[f64], q: f64) -> f64 {
    let mut s = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (s.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    s[lo] + (s[hi] - s[lo]) * (pos - lo as f64)
}

/// Counts of `total` draws from the distribution `p` (summing to 1), by sequential binomials:
/// O(len p) whatever `total`.
pub fn multinomial(total: u64, p: &[f64], rng: &mut dyn RngCore) -> Vec<u64> {
    let mut out = vec![0u64; p.len()];
    multinomial_into(total, p, rng, &mut out);
    out
}

/// As [`multinomial`], adding the counts into `out`.
pub fn multinomial_into(total: u64, p: &[f64], rng: &mut dyn RngCore, out: &mut [u64]) {
    let mut left = total;
    let mut mass = 1.0f64;
    for (i, &pi) in p.iter().enumerate() {
        if left == 0 {
            break;
        }
        if i + 1 == p.len() || mass <= pi {
            out[i] += left;
            break;
        }
        let r = (pi / mass).clamp(0.0, 1.0);
        let k = Binomial::new(left, r).map_or(0, |b| b.sample(rng));
        out[i] += k;
        left -= k;
        mass -= pi;
    }
}

/// One binomial draw `Bin(n, p)` (`p` clamped to [0, 1]).
pub fn binomial(n: u64, p: f64, rng: &mut dyn RngCore) -> u64 {
    Binomial::new(n, p.clamp(0.0, 1.0)).map_or(0, |b| b.sample(rng))
}

/// The Euclidean projection of `v` onto the probability simplex (sort-based, exact).
pub fn project_to_simplex(v: &[f64]) -> Vec<f64> {
    let mut u = v.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let mut cumulative = 0.0;
    let mut theta = 0.0;
    for (j, uj) in u.iter().enumerate() {
        cumulative += uj;
        let t = (cumulative - 1.0) / (j + 1) as f64;
        if uj - t > 0.0 {
            theta = t;
        }
    }
    v.iter().map(|x| (x - theta).max(0.0)).collect()
}

/// The channel as an `n x m` matrix.
pub fn matrix(channel: &Channel) -> DMatrix<f64> {
    DMatrix::from_fn(channel.inputs(), channel.outputs(), |x, y| {
        channel.get(x, y)
    })
}

/// The generalized (Moore-Penrose) inverse `Q^+` (`m x n`) and the rank of `Q`. For a square
/// invertible channel it is `Q^-1`; with full column rank of `Q^T` (rank n),
/// `pi = (Q^+)^T lambda` inverts `lambda = Q^T pi` in the least-squares sense.
pub fn generalized_inverse(channel: &Channel) -> (DMatrix<f64>, usize) {
    let q = matrix(channel);
    let svd = q.clone().svd(true, true);
    let top = svd.singular_values.max();
    let rank = svd
        .singular_values
        .iter()
        .filter(|s| **s > RANK_TOLERANCE * top)
        .count();
    let pinv = svd
        .pseudo_inverse(RANK_TOLERANCE * top)
        .unwrap_or_else(|_| DMatrix::zeros(q.ncols(), q.nrows()));
    (pinv, rank)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplex_projection_of_a_point_inside_is_itself() {
        let p = project_to_simplex(&[0.2, 0.3, 0.5]);
        assert!((p[0] - 0.2).abs() < 1e-15 && (p[2] - 0.5).abs() < 1e-15);
        let q = project_to_simplex(&[1.2, -0.1, -0.1]);
        assert_eq!(q, vec![1.0, 0.0, 0.0]);
    }

    /// `--level 0.9999999999999999` gave infinite intervals: the quantile is finite, about
    /// 8.29, and its two-sided tail is 1 - level (checked with the normal tail function).
    #[test]
    fn z_value_is_finite_for_levels_next_to_one() {
        let level = 0.9999999999999999;
        let z = z_value(level);
        assert!(z.is_finite() && z > 8.0 && z < 8.6, "{z}");
        let n = Normal::new(0.0, 1.0).unwrap();
        let tail = 2.0 * n.sf(z);
        assert!(
            ((tail - (1.0 - level)) / (1.0 - level)).abs() < 1e-6,
            "{tail}"
        );
        assert!(z_value(1.0).is_nan() && z_value(0.0).is_nan());
    }

    #[test]
    fn z_value_is_the_normal_quantile() {
        assert!((z_value(0.95) - 1.959963984540054).abs() < 1e-9);
    }
}
