//! Utility of an additive-noise release: the MSE of `Y` itself (the noise variance) and of the
//! best estimator, the posterior mean `E[X | Y]`, whose MSE is
//! `E[X^2] - int (int x f_X(x) f_N(y - x) dx)^2 / f_Y(y) dy` (by quadrature).

use super::convolution::{output_density, posterior_numerator};
use super::noise::Noise;
use super::prior::Prior;
use super::quadrature::{integrate, Integral};

/// Mass left outside the integration interval of the MMSE.
pub const MMSE_TAIL: f64 = 1e-12;
/// Absolute tolerance of the MMSE quadrature, relative to the prior variance.
pub const MMSE_RELATIVE_TOLERANCE: f64 = 1e-9;

/// MSE of the posterior mean, with the quadrature's error estimate.
pub fn posterior_mse(prior: &Prior, noise: &Noise) -> Integral {
    let (a, b) = prior.central_interval(MMSE_TAIL);
    let w = noise.half_width(MMSE_TAIL);
    let mut breaks = prior.kinks();
    let s = noise.scale();
    let steps = (((b - a) / s).ceil() as i64).clamp(1, 400);
    breaks.extend((0..=steps).map(|k| a + (b - a) * k as f64 / steps as f64));
    let tol = MMSE_RELATIVE_TOLERANCE * prior.variance().max(f64::MIN_POSITIVE);
    let explained = integrate(
        |y| {
            let f = output_density(prior, noise, y);
            if f <= f64::MIN_POSITIVE {
                0.0
            } else {
                let n = posterior_numerator(prior, noise, y);
                n * n / f
            }
        },
        a - w,
        b + w,
        &breaks,
        tol,
    );
    Integral {
        value: (prior.second_moment() - explained.value).max(0.0),
        error: explained.error,
    }
}
