//! The output density `f_Y(y) = int f_X(x) f_N(y - x) dx` of `Y = X + N`, and the numerator
//! `int x f_X(x) f_N(y - x) dx` of the posterior mean `E[X | Y = y]`.
//!
//! Closed forms where they exist (normal prior with Gaussian noise: `N(mu, s^2 + sigma^2)`;
//! uniform prior: a difference of noise cdfs over the width; point masses: a finite sum);
//! adaptive Gauss–Kronrod quadrature otherwise (Laplace priors, normal priors with Laplace
//! noise), with the prior's and the noise's kinks as panel ends.

use super::noise::Noise;
use super::prior::Prior;
use super::quadrature::integrate;

/// Absolute tolerance of each inner quadrature of the output density.
pub const INNER_TOLERANCE: f64 = 1e-13;
/// Prior mass left outside the inner quadrature's interval.
pub const INNER_TAIL: f64 = 1e-15;

/// `f_Y(y)` by closed forms where available, quadrature otherwise.
pub fn output_density(prior: &Prior, noise: &Noise, y: f64) -> f64 {
    match (prior, noise) {
        (Prior::Normal { mean, sd }, Noise::Gaussian(s)) => {
            Noise::Gaussian((sd * sd + s * s).sqrt()).pdf(y - mean)
        }
        (Prior::Uniform { low, high }, _) => (noise.cdf(y - low) - noise.cdf(y - high)) / (high - low),
        (Prior::Mixture(parts), _) => parts
            .iter()
            .map(|(w, p)| w * output_density(p, noise, y))
            .sum(),
        (Prior::Discrete { points, probs }, _) => points
            .iter()
            .zip(probs)
            .map(|(x, p)| p * noise.pdf(y - x))
            .sum(),
        _ => output_density_by_quadrature(prior, noise, y),
    }
}

/// `f_Y(y)` by quadrature only (continuous priors), the independent check of the closed forms.
pub fn output_density_by_quadrature(prior: &Prior, noise: &Noise, y: f64) -> f64 {
    moment_by_quadrature(prior, noise, y, 0)
}

/// `int x^k f_X(x) f_N(y - x) dx` for k = 0 or 1 by quadrature over the prior's central
/// interval (mass outside at most [`INNER_TAIL`]).
fn moment_by_quadrature(prior: &Prior, noise: &Noise, y: f64, k: i32) -> f64 {
    let (a, b) = prior.central_interval(INNER_TAIL);
    let mut breaks = prior.kinks();
    breaks.push(y);
    let scale = noise.scale();
    // Panels no wider than the noise scale near y keep the kernel resolved.
    breaks.extend((-8..=8).map(|i| y + f64::from(i) * scale));
    integrate(
        |x| x.powi(k) * prior.pdf(x) * noise.pdf(y - x),
        a,
        b,
        &breaks,
        INNER_TOLERANCE,
    )
    .value
}

/// `int x f_X(x) f_N(y - x) dx`, so that `E[X | Y = y]` is this over `f_Y(y)`.
pub fn posterior_numerator(prior: &Prior, noise: &Noise, y: f64) -> f64 {
    match (prior, noise) {
        (Prior::Normal { mean, sd }, Noise::Gaussian(s)) => {
            let v = sd * sd + s * s;
            let post_mean = mean + sd * sd / v * (y - mean);
            post_mean * output_density(prior, noise, y)
        }
        (Prior::Mixture(parts), _) => parts
            .iter()
            .map(|(w, p)| w * posterior_numerator(p, noise, y))
            .sum(),
        (Prior::Discrete { points, probs }, _) => points
            .iter()
            .zip(probs)
            .map(|(x, p)| x * p * noise.pdf(y - x))
            .sum(),
        _ => moment_by_quadrature(prior, noise, y, 1),
    }
}
