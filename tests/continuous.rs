//! Continuous calibration: quadrature against closed forms, closed forms against independent
//! references, calibrated noise meets the target and 1% less does not.

use mechsynth::continuous::closed_form as cf;
use mechsynth::continuous::convolution::{output_density, output_density_by_quadrature};
use mechsynth::continuous::hockey::{gaussian_hockey_stick, hockey_stick, lemma4};
use mechsynth::continuous::lip::{divergences_at, Criterion};
use mechsynth::continuous::{calibrate, MechanismKind, Noise, Notion, Prior, Request};

/// Agreement of two computations of the same density or divergence.
const DENSITY_AGREEMENT: f64 = 1e-9;

#[test]
fn closed_form_convolutions_agree_with_quadrature() {
    let priors = [
        Prior::normal(0.5, 2.0).unwrap(),
        Prior::laplace(-1.0, 0.7).unwrap(),
        Prior::uniform(-1.0, 3.0).unwrap(),
    ];
    let noises = [Noise::Gaussian(0.8), Noise::Laplace(1.3), Noise::Gaussian(5.0), Noise::Laplace(0.7)];
    for p in &priors {
        for n in &noises {
            for y in [-7.0, -2.0, -0.3, 0.0, 1.1, 4.0, 9.0] {
                let a = output_density(p, n, y);
                let b = output_density_by_quadrature(p, n, y);
                assert!((a - b).abs() <= DENSITY_AGREEMENT * (1.0 + b), "{p:?} {n:?} y={y}: {a} vs {b}");
            }
        }
    }
}
