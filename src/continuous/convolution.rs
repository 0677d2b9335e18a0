//! The output density `f_Y(y) = int f_X(x) f_N(y - x) dx` of `Y = X + N`, and the numerator
//! `int x f_X(x) f_N(y - x) dx` of the posterior mean `E[X | Y = y]`.
//!
//! Closed forms where they exist (normal prior with Gaussian noise: `N(mu, s^2 + sigma^2)`;
//! Laplace with Gaussian (either order) and Laplace with Laplace: see the functions below;
//! uniform prior: a difference of noise cdfs over the width; point masses: a finite sum);
//! adaptive Gauss–Kronrod quadrature otherwise (Laplace priors, normal priors with Laplace
//! noise), with the prior's and the noise's kinks as panel ends.

use super::noise::Noise;
use super::prior::Prior;
use super::quadrature::integrate;

/// Absolute tolerance of each inner quadrature of the output density.
pub const INNER_TOLERANCE: f64 = 1e-13;
/// Absolute tolerance of the inner quadrature of the posterior-mean numerator (utility only).
pub const NUMERATOR_TOLERANCE: f64 = 1e-10;
/// Prior mass left outside the inner quadrature's interval.
pub const INNER_TAIL: f64 = 1e-15;

/// `f_Y(y)` by closed forms where available, quadrature otherwise.
pub fn output_density(prior: &Prior, noise: &Noise, y: f64) -> f64 {
    match (prior, noise) {
        (Prior::Normal { mean, sd }, Noise::Gaussian(s)) => {
            Noise::Gaussian((sd * sd + s * s).sqrt()).pdf(y - mean)
        }
        (Prior::Laplace { location, scale }, Noise::Laplace(b)) => {
            laplace_laplace(y - location, *scale, *b)
        }
        (Prior::Laplace { location, scale }, Noise::Gaussian(s)) => {
            laplace_gaussian(y - location, *scale, *s)
        }
        (Prior::Normal { mean, sd }, Noise::Laplace(b)) => laplace_gaussian(y - mean, *b, *sd),
        (Prior::Uniform { low, high }, _) => {
            (noise.cdf(y - low) - noise.cdf(y - high)) / (high - low)
        }
        (Prior::Mixture(parts), _) => parts
            .iter()
            .map(|(w, p)| w * output_density(p, noise, y))
            .sum(),
        (Prior::Discrete { points, probs }, _) => points
            .iter()
            .zip(probs)
            .map(|(x, p)| p * noise.pdf(y - x))
            .sum(),
    }
}

/// `f_Y(y)` by quadrature only (continuous priors), the independent check of the closed forms.
pub fn output_density_by_quadrature(prior: &Prior, noise: &Noise, y: f64) -> f64 {
    moment_by_quadrature(prior, noise, y, 0)
}

/// `int x^k f_X(x) f_N(y - x) dx` for k = 0 or 1 by quadrature over the prior's central
/// interval (mass outside at most [`INNER_TAIL`]).
fn moment_by_quadrature(prior: &Prior, noise: &Noise, y: f64, k: i32) -> f64 {
    let tol = if k == 0 {
        INNER_TOLERANCE
    } else {
        NUMERATOR_TOLERANCE
    };
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
        tol,
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

/// Density at `t` of `Lap(0, beta) + Lap(0, b)`: `(beta e^{-|t|/beta} - b e^{-|t|/b}) /
/// (2 (beta^2 - b^2))`, and `(1 + |t|/b) e^{-|t|/b} / (4 b)` when the scales are equal (the
/// product of the characteristic functions split into partial fractions).
pub fn laplace_laplace(t: f64, beta: f64, b: f64) -> f64 {
    let t = t.abs();
    if ((beta - b) / b).abs() < 1e-6 {
        let m = 0.5 * (beta + b);
        return (1.0 + t / m) * (-t / m).exp() / (4.0 * m);
    }
    (beta * (-t / beta).exp() - b * (-t / b).exp()) / (2.0 * (beta * beta - b * b))
}

/// Density at `t` of `Lap(0, beta) + N(0, s^2)`:
/// `(1/(2 beta)) [e^{s^2/(2beta^2) - t/beta} Phi(t/s - s/beta) + e^{s^2/(2beta^2) + t/beta}
/// Phi(-t/s - s/beta)]`, each term written as `phi(t/s) R(u)` with the Mills ratio
/// `R(u) = Phi(-u)/phi(u)` so that nothing overflows.
pub fn laplace_gaussian(t: f64, beta: f64, s: f64) -> f64 {
    let (u1, u2) = (s / beta - t / s, s / beta + t / s);
    (normal_times_mills(t / s, u1) + normal_times_mills(t / s, u2)) / (2.0 * beta)
}

/// `phi(z) R(u)` with the Mills ratio `R(u) = Phi(-u) / phi(u)`: as
/// `exp(u^2/2 - z^2/2) Phi(-u)` for `u < 5` (the exponent stays below 12.5 in
/// [`laplace_gaussian`]), by the continued fraction `R(u) = 1/(u + 1/(u + 2/(u + ...)))` beyond.
fn normal_times_mills(z: f64, u: f64) -> f64 {
    use super::normal::{std_cdf, std_pdf};
    if u < 5.0 {
        return (0.5 * (u * u - z * z)).exp() * std_cdf(-u);
    }
    let mut tail = u;
    for k in (1..=60).rev() {
        tail = u + f64::from(k) / tail;
    }
    std_pdf(z) / tail
}
