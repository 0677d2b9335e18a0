//! A noise parameter given to be measured (`continuous --noise`) rather than calibrated: the
//! range the calibration itself searches, and the exact measures at its edges, where the
//! quadrature cannot be used (no noise: point masses; noise far wider than the data: the
//! integrands underflow, and `sigma^2` overflows past about 1e154).

use super::error::ContinuousError;
use super::prior::Prior;
use super::quadrature::Integral;
use super::request::{MechanismKind, Notion, Request};

/// Below this bound on the total variation between the two output distributions compared,
/// the measured delta is reported as 0 with the bound as its error, without quadrature (the
/// quadrature's own accuracy is about 1e-13, [`super::request::MIN_LIP_DELTA`]).
pub const NEGLIGIBLE_VARIATION: f64 = 1e-15;

/// Check a noise parameter (with key `key`) the way the calibration bounds its search: a
/// Gaussian sigma or Laplace b is a finite number >= 0 (0 releases the value as is), a
/// sampling lambda a probability in [0, 1]. A scale of 0 is refused when eps is measured
/// (target delta 0): a value released as is meets no finite eps.
pub fn check_parameter(req: &Request, key: &str, parameter: f64) -> Result<f64, ContinuousError> {
    match req.mechanism {
        MechanismKind::Sampling if !(0.0..=1.0).contains(&parameter) => {
            Err(ContinuousError::invalid(
                key,
                parameter,
                "the sampling mechanism's lambda is a probability: give a number in [0, 1]",
            ))
        }
        MechanismKind::Sampling => Ok(parameter),
        _ if !(parameter.is_finite() && parameter >= 0.0) => Err(ContinuousError::invalid(
            key,
            parameter,
            "a noise scale (sigma or b) must be a finite number >= 0",
        )),
        _ if parameter == 0.0 && req.delta == 0.0 => Err(ContinuousError::invalid(
            key,
            parameter,
            "with no noise the value is released as is and no finite eps holds; give a scale > 0, or a delta > 0 to measure delta",
        )),
        _ => Ok(parameter),
    }
}

/// The exact measure at an edge of the scale's range, if `parameter` is at one: delta = 1
/// with no noise (LDP, and LIP with a continuous prior; `1 - P(x)` at a point `x` of a
/// discrete prior, the worst over its points), and delta = 0 within [`NEGLIGIBLE_VARIATION`]
/// when the noise makes the two outputs compared that close in total variation. `None`
/// inside the range, for the sampling mechanism, and when eps is measured at a scale > 0.
/// Both LIP criteria give the same values there (see `no_noise_lip`).
pub fn edge_measure(req: &Request, parameter: f64) -> Option<Integral> {
    if req.mechanism == MechanismKind::Sampling || req.delta == 0.0 {
        return None;
    }
    if parameter == 0.0 {
        let value = match req.notion {
            Notion::Ldp => 1.0,
            Notion::Lip => no_noise_lip(req),
        };
        return Some(Integral { value, error: 0.0 });
    }
    let bound = variation_bound(req, parameter)?;
    (bound < NEGLIGIBLE_VARIATION).then_some(Integral {
        value: 0.0,
        error: bound,
    })
}

/// LIP's delta of `Y = X`: at `x`, the forward divergence `E_g(delta_x || P_X)` is
/// `(1 - g P(x))_+` and the backward `E_g(P_X || delta_x)` is `1 - P(x)` (the set of all
/// other values), which is the larger under Definition 5 (`e^-eps (1 - g P(x))` =
/// `e^-eps - P(x)`) and Corollary 9 alike; a continuous prior has `P(x) = 0`.
fn no_noise_lip(req: &Request) -> f64 {
    match &req.prior {
        Prior::Discrete { points, probs } => {
            let mass = |x: f64| {
                points
                    .iter()
                    .zip(probs)
                    .filter(|(p, _)| **p == x)
                    .map(|(_, q)| *q)
                    .sum::<f64>()
            };
            match req.at {
                Some(x) => 1.0 - mass(x),
                None => 1.0 - probs.iter().copied().fold(f64::INFINITY, f64::min),
            }
        }
        _ => 1.0,
    }
}

/// An upper bound on delta from the total variation of shifted noise: `TV(N(a, s^2),
/// N(c, s^2)) <= |a - c| / (s sqrt(2 pi))` and `TV(Lap(a, b), Lap(c, b)) <= |a - c| / (2 b)`,
/// and a hockey-stick divergence with `e^eps >= 1` is at most the total variation. For LIP
/// the output's law is a mixture over the prior, so `|a - c|` becomes `E|X - x| <=
/// sqrt(Var X + (E X - x)^2)`, largest at an end of the inputs checked.
fn variation_bound(req: &Request, scale: f64) -> Option<f64> {
    let spread = match req.notion {
        Notion::Ldp => req.sensitivity()?,
        Notion::Lip => {
            let (lo, hi) = match (&req.prior, req.at) {
                (Prior::Discrete { points, .. }, None) => (
                    points.iter().copied().fold(f64::INFINITY, f64::min),
                    points.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                ),
                _ => req.lip_range(),
            };
            let (mean, var) = (req.prior.mean(), req.prior.variance());
            let far = (mean - lo).abs().max((hi - mean).abs());
            (var + far * far).sqrt()
        }
    };
    let per_unit = match req.mechanism {
        MechanismKind::Gaussian => 1.0 / (scale * (2.0 * std::f64::consts::PI).sqrt()),
        _ => 1.0 / (2.0 * scale),
    };
    let bound = spread * per_unit;
    bound.is_finite().then_some(bound)
}
