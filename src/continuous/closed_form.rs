//! The closed forms the paper states or compares against, each with its citation.

use super::error::ContinuousError;
use super::hockey::gaussian_hockey_stick;
use super::lip::{worst_over, Criterion};
use super::normal::std_cdf;
use super::quadrature::Integral;

/// Relative width at which a root search on a closed form stops.
pub const CLOSED_FORM_WIDTH: f64 = 1e-12;

/// Vanilla Gaussian mechanism (Dwork and Roth 2014, Thm A.1; context-aware-lip \[39\]):
/// `sigma = Delta sqrt(2 ln(1.25 / delta)) / eps`, proven for `eps < 1`.
pub fn vanilla_gaussian(eps: f64, delta: f64, sensitivity: f64) -> f64 {
    sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / eps
}

/// The analytic Gaussian mechanism's exact failure probability (Balle and Wang 2018, Thm 8;
/// context-aware-lip eq. (24)): `Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D)`.
pub fn analytic_gaussian_delta(sigma: f64, eps: f64, sensitivity: f64) -> f64 {
    let (a, b) = (sensitivity / (2.0 * sigma), eps * sigma / sensitivity);
    std_cdf(a - b) - eps.exp() * std_cdf(-a - b)
}

/// Smallest `sigma` with [`analytic_gaussian_delta`] `<= delta` (decreasing in `sigma`).
pub fn analytic_gaussian(eps: f64, delta: f64, sensitivity: f64) -> f64 {
    smallest_scale(
        |s| analytic_gaussian_delta(s, eps, sensitivity) <= delta,
        sensitivity,
    )
    .unwrap_or(f64::INFINITY)
}

/// Laplace mechanism under eps-LDP (Dwork et al. 2006; context-aware-lip \[13\]): `b = Delta / eps`.
pub fn laplace_ldp(eps: f64, sensitivity: f64) -> f64 {
    sensitivity / eps
}

/// Theorem 6, instance-independent: `b = Delta / ln((e^eps - P_min)/(1 - P_min))` when
/// `eps < ln(1/P_min)`, else `Delta / eps`.
pub fn theorem6_independent(eps: f64, sensitivity: f64, p_min: f64) -> f64 {
    if eps < (1.0 / p_min).ln() {
        sensitivity / ((eps.exp() - p_min) / (1.0 - p_min)).ln()
    } else {
        sensitivity / eps
    }
}

/// Theorem 5 (Corollary 10 when the range is one point) for a normal prior `N(mu, s^2)`:
/// `delta(sigma) = sup_x max{E_{e^eps}(N(x, sigma^2) || N(mu, s^2 + sigma^2)),
/// E_{e^eps}(N(mu, s^2 + sigma^2) || N(x, sigma^2))}`, each term by Lemma 4 (and
/// Proposition 3), the sup over `x` in `range` by a grid and golden section.
pub fn theorem5_delta(
    sigma: f64,
    eps: f64,
    (mean, sd): (f64, f64),
    range: (f64, f64),
    criterion: Criterion,
) -> f64 {
    let gamma = eps.exp();
    let total = (sd * sd + sigma * sigma).sqrt();
    let scale = match criterion {
        Criterion::Definition => (-eps).exp(),
        Criterion::Corollary9 => 1.0,
    };
    let at = |x: f64| Integral {
        value: (scale * gaussian_hockey_stick(x, sigma, mean, total, gamma))
            .max(gaussian_hockey_stick(mean, total, x, sigma, gamma)),
        error: 0.0,
    };
    worst_over(at, range).1.value
}

/// Smallest `sigma` meeting Theorem 5's delta (as stated: Corollary 9's criterion).
pub fn theorem5(
    eps: f64,
    delta: f64,
    prior: (f64, f64),
    range: (f64, f64),
) -> Result<f64, ContinuousError> {
    smallest_scale(
        |s| theorem5_delta(s, eps, prior, range, Criterion::Corollary9) <= delta,
        prior.1,
    )
}

/// Largest step count of the bracketing (doubling / halving) in [`smallest_scale`].
const BRACKET_STEPS: usize = 200;

/// The smallest scale `s > 0` with `feasible(s)`, assuming feasibility is monotone in `s`:
/// bracket by doubling and halving from `start`, then bisect in log scale to relative width
/// [`CLOSED_FORM_WIDTH`]. Returns the feasible end of the final bracket.
pub fn smallest_scale(feasible: impl Fn(f64) -> bool, start: f64) -> Result<f64, ContinuousError> {
    smallest_scale_to(feasible, start, CLOSED_FORM_WIDTH)
}

/// [`smallest_scale`] to a given relative width.
pub fn smallest_scale_to(
    feasible: impl Fn(f64) -> bool,
    start: f64,
    width: f64,
) -> Result<f64, ContinuousError> {
    try_smallest_scale(|s| Ok(feasible(s)), start, width)
}

/// [`smallest_scale_to`] with a fallible test (a time limit, for instance), whose error ends
/// the search.
pub fn try_smallest_scale(
    mut feasible: impl FnMut(f64) -> Result<bool, ContinuousError>,
    start: f64,
    width: f64,
) -> Result<f64, ContinuousError> {
    let mut hi = start;
    let mut steps = 0;
    while !feasible(hi)? {
        hi *= 2.0;
        steps += 1;
        if steps > BRACKET_STEPS || !hi.is_finite() {
            return Err(ContinuousError::Infeasible(format!(
                "no noise scale up to {hi:.3e} meets the target"
            )));
        }
    }
    let mut lo = hi / 2.0;
    steps = 0;
    while feasible(lo)? {
        hi = lo;
        lo /= 2.0;
        steps += 1;
        if steps > BRACKET_STEPS {
            return Ok(0.0);
        }
    }
    while hi / lo > 1.0 + width {
        let mid = (lo * hi).sqrt();
        if feasible(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}
