//! Additive noise N with `Y = X + N`: Gaussian N(0, sigma^2) or Laplace Lap(0, b).

use super::normal::{std_cdf, std_pdf, two_sided_quantile};

/// An additive noise distribution, centred at 0.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Noise {
    /// N(0, sigma^2).
    Gaussian(f64),
    /// Laplace with scale b: density `exp(-|t| / b) / (2 b)`, variance `2 b^2`.
    Laplace(f64),
}

impl Noise {
    /// The scale parameter (sigma or b).
    pub fn scale(&self) -> f64 {
        match self {
            Noise::Gaussian(s) | Noise::Laplace(s) => *s,
        }
    }

    /// The same family at another scale.
    pub fn with_scale(&self, scale: f64) -> Noise {
        match self {
            Noise::Gaussian(_) => Noise::Gaussian(scale),
            Noise::Laplace(_) => Noise::Laplace(scale),
        }
    }

    /// Density at `t`.
    pub fn pdf(&self, t: f64) -> f64 {
        match self {
            Noise::Gaussian(s) => std_pdf(t / s) / s,
            Noise::Laplace(b) => (-t.abs() / b).exp() / (2.0 * b),
        }
    }

    /// `P(N <= t)`.
    pub fn cdf(&self, t: f64) -> f64 {
        match self {
            Noise::Gaussian(s) => std_cdf(t / s),
            Noise::Laplace(b) => {
                if t < 0.0 {
                    0.5 * (t / b).exp()
                } else {
                    1.0 - 0.5 * (-t / b).exp()
                }
            }
        }
    }

    /// Variance of the noise, the MSE of releasing `Y` as the estimate of `X`.
    pub fn variance(&self) -> f64 {
        match self {
            Noise::Gaussian(s) => s * s,
            Noise::Laplace(b) => 2.0 * b * b,
        }
    }

    /// A half-width `w` with `P(|N| > w) <= tail`.
    pub fn half_width(&self, tail: f64) -> f64 {
        match self {
            Noise::Gaussian(s) => s * two_sided_quantile(tail),
            Noise::Laplace(b) => b * (1.0 / tail).ln(),
        }
    }

    /// Family name.
    pub fn name(&self) -> &'static str {
        match self {
            Noise::Gaussian(_) => "gaussian",
            Noise::Laplace(_) => "laplace",
        }
    }
}
