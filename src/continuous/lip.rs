//! The (eps, delta)-LIP and (eps, delta)-LDP failure probabilities of an additive-noise
//! mechanism `Y = X + N`, from the hockey-stick divergences (context-aware-lip Sec. IV-C).
//!
//! Definition 5 asks, for all sets `S_x, S_y`: `P(Y in S_y) >= e^-eps P(Y in S_y | X in S_x)
//! - delta` and `P(Y in S_y) <= e^eps P(Y in S_y | X in S_x) + delta`, i.e.
//! `E_{e^eps}(f_{Y|x} || f_Y) <= e^eps delta` and `E_{e^eps}(f_Y || f_{Y|x}) <= delta`.
//! Conditioning on a set `S_x` mixes the point conditionals `f_{Y|x}`, and `E_gamma` is jointly
//! convex, so the worst set is a point: checking every `x` is exactly Definition 5.
//! Corollary 9 states the stricter sufficient condition `E_{e^eps}(f_{Y|x} || f_Y) <= delta`
//! (no `e^eps` factor). Both are computed; [`Criterion`] picks which one calibrates.

use super::convolution::output_density;
use super::hockey::hockey_stick;
use super::noise::Noise;
use super::prior::Prior;
use super::quadrature::Integral;

/// Mass left outside the outer integration interval, per distribution.
pub const OUTER_TAIL: f64 = 1e-13;
/// Absolute tolerance of each outer hockey-stick quadrature.
pub const OUTER_TOLERANCE: f64 = 1e-11;
/// Points of the grid over the data range on which the worst `x` is searched.
pub const X_GRID: usize = 41;
/// Golden-section steps refining the worst grid point.
pub const GOLDEN_STEPS: usize = 25;

/// Which (eps, delta)-LIP condition a noise level must meet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Criterion {
    /// Definition 5: `e^-eps E(f_{Y|x}||f_Y) <= delta` and `E(f_Y||f_{Y|x}) <= delta`.
    Definition,
    /// Corollary 9: both divergences `<= delta` (sufficient, stricter).
    Corollary9,
}

/// The two divergences at one input `x`.
#[derive(Debug, Clone, Copy)]
pub struct Divergences {
    /// `E_{e^eps}(f_{Y|x} || f_Y)` with its error bound.
    pub forward: Integral,
    /// `E_{e^eps}(f_Y || f_{Y|x})` with its error bound.
    pub backward: Integral,
}

impl Divergences {
    /// The smallest delta the criterion allows, with its error bound.
    pub fn delta(&self, eps: f64, criterion: Criterion) -> Integral {
        let scale = match criterion {
            Criterion::Definition => (-eps).exp(),
            Criterion::Corollary9 => 1.0,
        };
        let f = Integral {
            value: scale * self.forward.value,
            error: scale * self.forward.error,
        };
        if f.value >= self.backward.value {
            f
        } else {
            self.backward
        }
    }
}

/// Both hockey-stick divergences between `f_{Y|x} = f_N(. - x)` and `f_Y = f_X * f_N` at
/// `gamma = e^eps`, by quadrature (for a continuous prior).
pub fn divergences_at(prior: &Prior, noise: &Noise, eps: f64, x: f64) -> Divergences {
    let gamma = eps.exp();
    let w = noise.half_width(OUTER_TAIL);
    let (a, b) = prior.central_interval(OUTER_TAIL);
    let range = (a.min(x) - w, b.max(x) + w);
    let s = noise.scale();
    let mut breaks: Vec<f64> = (-10..=10).map(|k| x + f64::from(k) * s).collect();
    breaks.extend(prior.kinks());
    let conditional = |y: f64| noise.pdf(y - x);
    let marginal = |y: f64| output_density(prior, noise, y);
    let forward = hockey_stick(
        conditional,
        marginal,
        gamma,
        range,
        &breaks,
        OUTER_TOLERANCE,
        2.0 * OUTER_TAIL,
    );
    let backward = hockey_stick(
        marginal,
        conditional,
        gamma,
        range,
        &breaks,
        OUTER_TOLERANCE,
        2.0 * OUTER_TAIL,
    );
    Divergences { forward, backward }
}

/// The worst delta over `x` in `[lo, hi]` (over the support points for a discrete prior),
/// by [`worst_over`]. Returns `(x, delta)`. The supremum over `x` is searched, not proven; the
/// error bound covers the quadrature only.
pub fn worst_delta(
    prior: &Prior,
    noise: &Noise,
    eps: f64,
    range: (f64, f64),
    criterion: Criterion,
) -> (f64, Integral) {
    if let Prior::Discrete { points, .. } = prior {
        return points
            .iter()
            .map(|&x| {
                (
                    x,
                    divergences_at(prior, noise, eps, x).delta(eps, criterion),
                )
            })
            .max_by(|a, b| a.1.value.total_cmp(&b.1.value))
            .expect("a discrete prior has points");
    }
    worst_over(
        |x| divergences_at(prior, noise, eps, x).delta(eps, criterion),
        range,
    )
}

/// The largest `at(x)` over `x` in `[lo, hi]`: a grid of [`X_GRID`] points, then a
/// golden-section refinement between the neighbours of the worst grid point.
pub fn worst_over(at: impl Fn(f64) -> Integral, (lo, hi): (f64, f64)) -> (f64, Integral) {
    if hi <= lo {
        return (lo, at(lo));
    }
    let step = (hi - lo) / (X_GRID - 1) as f64;
    let grid: Vec<(f64, Integral)> = (0..X_GRID)
        .map(|i| {
            let x = lo + step * i as f64;
            (x, at(x))
        })
        .collect();
    let (best_i, _) = grid
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.value.total_cmp(&b.1 .1.value))
        .expect("grid is not empty");
    let (mut a, mut b) = (
        lo + step * best_i.saturating_sub(1) as f64,
        (lo + step * (best_i + 1) as f64).min(hi),
    );
    let mut best = grid[best_i];
    let ratio = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..GOLDEN_STEPS {
        let (c, d) = (b - ratio * (b - a), a + ratio * (b - a));
        let (fc, fd) = (at(c), at(d));
        for cand in [(c, fc), (d, fd)] {
            if cand.1.value > best.1.value {
                best = cand;
            }
        }
        if fc.value > fd.value {
            b = d;
        } else {
            a = c;
        }
    }
    best
}

/// (eps, delta)-LDP failure probability of additive noise on data of range `sensitivity`:
/// `E_{e^eps}(f_N(. - sensitivity) || f_N)` by quadrature (the worst pair of inputs is at the
/// largest distance for Gaussian and Laplace noise; both orders are equal by symmetry).
pub fn ldp_delta(noise: &Noise, eps: f64, sensitivity: f64) -> Integral {
    let w = noise.half_width(OUTER_TAIL);
    let s = noise.scale();
    let breaks: Vec<f64> = (-10..=10)
        .map(|k| f64::from(k) * s)
        .chain((-10..=10).map(|k| sensitivity + f64::from(k) * s))
        .collect();
    hockey_stick(
        |y| noise.pdf(y - sensitivity),
        |y| noise.pdf(y),
        eps.exp(),
        (-w, sensitivity + w),
        &breaks,
        OUTER_TOLERANCE,
        2.0 * OUTER_TAIL,
    )
}
