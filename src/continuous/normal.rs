//! The standard normal density, distribution and tail quantile (through statrs' erfc, which is
//! accurate in the tails, unlike `1 - cdf`).

use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::erf::erfc;

/// Standard normal density.
pub fn std_pdf(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Standard normal cdf `Phi(z) = erfc(-z / sqrt 2) / 2`.
pub fn std_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The `z` with `P(|Z| > z) = tail` (two-sided), for `0 < tail < 1`.
pub fn two_sided_quantile(tail: f64) -> f64 {
    let n = Normal::new(0.0, 1.0).expect("standard normal");
    n.inverse_cdf(1.0 - 0.5 * tail)
}
