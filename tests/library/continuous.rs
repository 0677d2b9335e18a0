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
    let noises = [
        Noise::Gaussian(0.8),
        Noise::Laplace(1.3),
        Noise::Gaussian(5.0),
        Noise::Laplace(0.7),
    ];
    for p in &priors {
        for n in &noises {
            for y in [-7.0, -2.0, -0.3, 0.0, 1.1, 4.0, 9.0] {
                let a = output_density(p, n, y);
                let b = output_density_by_quadrature(p, n, y);
                assert!(
                    (a - b).abs() <= DENSITY_AGREEMENT * (1.0 + b),
                    "{p:?} {n:?} y={y}: {a} vs {b}"
                );
            }
        }
    }
}

/// Quadrature of a hockey-stick divergence between two Gaussians.
fn quadrature_gaussian_hs(m1: f64, s1: f64, m2: f64, s2: f64, gamma: f64) -> f64 {
    let (p, q) = (Noise::Gaussian(s1), Noise::Gaussian(s2));
    let lo = m1.min(m2) - 40.0 * s1.max(s2);
    let hi = m1.max(m2) + 40.0 * s1.max(s2);
    let breaks: Vec<f64> = (0..200)
        .map(|i| lo + (hi - lo) * f64::from(i) / 200.0)
        .collect();
    hockey_stick(
        |y| p.pdf(y - m1),
        |y| q.pdf(y - m2),
        gamma,
        (lo, hi),
        &breaks,
        1e-13,
        0.0,
    )
    .value
}

#[test]
fn lemma4_and_its_extension_agree_with_quadrature() {
    let cases = [
        (0.0, 3.0, 1.0, 1.0, 2.0),
        (2.0, 5.0, 0.0, 2.0, 0.5),
        (0.0, 1.0, 0.0, 4.0, 2.5),
        (-3.0, 1.0, 0.0, 1.0, 1.5),
        (0.0, 2.0, 0.0, 2.0, 0.7),
        (0.0, 10.0, 0.0, 11.18, 7.389),
    ];
    for (m1, s1, m2, s2, g) in cases {
        let q = quadrature_gaussian_hs(m1, s1, m2, s2, g);
        let c = gaussian_hockey_stick(m1, s1, m2, s2, g);
        assert!(
            (q - c).abs() < DENSITY_AGREEMENT,
            "{m1} {s1} {m2} {s2} {g}: {q} vs {c}"
        );
        if s1 > s2 {
            assert!((lemma4(m1, s1, m2, s2, g).unwrap() - q).abs() < DENSITY_AGREEMENT);
        } else {
            assert!(lemma4(m1, s1, m2, s2, g).is_none());
        }
    }
}

#[test]
fn analytic_gaussian_matches_the_hockey_stick_of_two_shifted_gaussians() {
    for (sigma, eps, d) in [(1.0, 1.0, 1.0), (3.0, 0.5, 2.0), (0.7, 2.0, 1.5)] {
        let formula = cf::analytic_gaussian_delta(sigma, eps, d);
        let quad = quadrature_gaussian_hs(d, sigma, 0.0, sigma, f64::exp(eps));
        assert!(
            (formula - quad).abs() < DENSITY_AGREEMENT,
            "{formula} vs {quad}"
        );
    }
    // The calibrated analytic sigma is never above the vanilla one where both apply (eps < 1).
    let (a, v) = (
        cf::analytic_gaussian(0.5, 1e-5, 1.0),
        cf::vanilla_gaussian(0.5, 1e-5, 1.0),
    );
    assert!(a < v && cf::analytic_gaussian_delta(a, 0.5, 1.0) <= 1e-5);
}

fn request(
    prior: Prior,
    mechanism: MechanismKind,
    notion: Notion,
    eps: f64,
    delta: f64,
) -> Request {
    // LIP with a discrete prior covers the prior's points; a data range does not apply.
    let range = (!(notion == Notion::Lip && prior.is_discrete())).then_some((-10.0, 10.0));
    Request {
        prior,
        mechanism,
        notion,
        epsilon: eps,
        delta,
        range,
        sensitivity: None,
        at: None,
        criterion: Criterion::Definition,
    }
}

/// The calibrated parameter meets the target within its error bound; 1% less noise does not.
fn assert_tight(req: &Request) -> f64 {
    let s = mechsynth::continuous::calibrate::numerical(req, req.criterion).unwrap();
    let target = if req.delta == 0.0 {
        req.epsilon
    } else {
        req.delta
    };
    let m = mechsynth::continuous::calibrate::measure(req, s);
    assert!(
        m.value + m.error <= target,
        "{req:?}: {} + {} > {target}",
        m.value,
        m.error
    );
    let less = mechsynth::continuous::calibrate::measure(req, 0.99 * s);
    assert!(
        less.value - less.error > target,
        "{req:?}: 1% less noise still meets the target"
    );
    s
}

#[test]
fn calibrated_noise_is_tight_for_every_mechanism_and_notion() {
    let mix = Prior::mixture(vec![
        (0.3, Prior::normal(-2.0, 1.0).unwrap()),
        (0.5, Prior::normal(1.0, 0.5).unwrap()),
        (0.2, Prior::laplace(3.0, 1.0).unwrap()),
    ])
    .unwrap();
    let normal = Prior::normal(0.0, 5.0).unwrap();
    let discrete = Prior::discrete(vec![0.0, 1.0, 2.0], vec![0.4, 0.35, 0.25]).unwrap();
    assert_tight(&request(
        normal.clone(),
        MechanismKind::Gaussian,
        Notion::Lip,
        1.0,
        1e-4,
    ));
    assert_tight(&request(
        mix.clone(),
        MechanismKind::Gaussian,
        Notion::Lip,
        1.0,
        1e-3,
    ));
    assert_tight(&request(
        mix,
        MechanismKind::Laplace,
        Notion::Lip,
        1.0,
        1e-3,
    ));
    assert_tight(&request(
        normal.clone(),
        MechanismKind::Gaussian,
        Notion::Ldp,
        1.0,
        1e-5,
    ));
    assert_tight(&request(
        normal,
        MechanismKind::Laplace,
        Notion::Ldp,
        1.0,
        1e-3,
    ));
    assert_tight(&request(
        discrete,
        MechanismKind::Laplace,
        Notion::Lip,
        1.0,
        0.0,
    ));
}

/// Relative agreement of two calibrations of the same quantity.
const CALIBRATION_AGREEMENT: f64 = 1e-4;

#[test]
fn theorem5_agrees_with_the_numerical_calibration() {
    for at in [None, Some(0.0), Some(7.0)] {
        let mut req = request(
            Prior::normal(0.0, 5.0).unwrap(),
            MechanismKind::Gaussian,
            Notion::Lip,
            1.0,
            1e-4,
        );
        req.at = at;
        req.criterion = Criterion::Corollary9;
        let numeric =
            mechsynth::continuous::calibrate::numerical(&req, Criterion::Corollary9).unwrap();
        let closed = cf::theorem5(1.0, 1e-4, (0.0, 5.0), req.lip_range()).unwrap();
        assert!(
            (numeric / closed - 1.0).abs() < CALIBRATION_AGREEMENT,
            "{at:?}: {numeric} vs {closed}"
        );
    }
}

#[test]
fn proposition2_is_exact_under_definition5_and_fails_corollary9() {
    use mechsynth::continuous::sampling;
    for (eps, delta) in [(2.0, 0.01), (0.5, 0.2), (1.0, 0.9)] {
        let lambda = sampling::proposition2(eps, delta);
        let best = sampling::calibrate(eps, delta, Criterion::Definition);
        assert!((lambda - best).abs() < 1e-12, "{lambda} vs {best}");
    }
    // Counterexample to reading Prop. 2 under Cor. 9: eps = 2, delta = 0.01.
    let lambda = sampling::proposition2(2.0, 0.01);
    assert!((sampling::delta(lambda, 2.0, Criterion::Corollary9) - 0.0739).abs() < 1e-4);
}

#[test]
fn theorem6_independent_holds_on_discrete_priors_but_is_loose() {
    let discrete = Prior::discrete(vec![0.0, 1.0, 2.0], vec![0.4, 0.35, 0.25]).unwrap();
    let req = request(discrete, MechanismKind::Laplace, Notion::Lip, 1.0, 0.0);
    let report = calibrate(&req).unwrap();
    let thm6 = report
        .rows
        .iter()
        .find(|r| r.method.starts_with("Thm 6"))
        .unwrap();
    assert_eq!(thm6.verdict, "holds");
    assert!(thm6.ratio > 1.1, "ratio {}", thm6.ratio);
}

#[test]
fn posterior_mse_matches_the_gaussian_closed_form() {
    let prior = Prior::normal(1.0, 2.0).unwrap();
    for s in [0.5, 2.0, 10.0] {
        let m = mechsynth::continuous::utility::posterior_mse(&prior, &Noise::Gaussian(s));
        let exact = 4.0 * s * s / (4.0 + s * s);
        assert!((m.value - exact).abs() < 1e-7, "{} vs {exact}", m.value);
    }
}

#[test]
fn divergences_match_lemma4_for_a_normal_prior() {
    let prior = Prior::normal(0.0, 5.0).unwrap();
    let d = divergences_at(&prior, &Noise::Gaussian(3.0), 1.0, 4.0);
    let total = (25.0f64 + 9.0).sqrt();
    let fwd = gaussian_hockey_stick(4.0, 3.0, 0.0, total, 1f64.exp());
    let bwd = gaussian_hockey_stick(0.0, total, 4.0, 3.0, 1f64.exp());
    assert!((d.forward.value - fwd).abs() <= d.forward.error + DENSITY_AGREEMENT);
    assert!((d.backward.value - bwd).abs() <= d.backward.error + DENSITY_AGREEMENT);
}

/// Agreement of the Gauss–Kronrod divergences with a plain midpoint sum on a fine grid.
const RIEMANN_AGREEMENT: f64 = 1e-5;

#[test]
fn divergences_for_a_mixture_prior_match_a_midpoint_sum_from_the_definition() {
    let prior = Prior::mixture(vec![
        (0.6, Prior::normal(-1.0, 0.7).unwrap()),
        (0.4, Prior::uniform(0.5, 2.5).unwrap()),
    ])
    .unwrap();
    for noise in [Noise::Gaussian(0.9), Noise::Laplace(0.6)] {
        for x in [-2.0, 0.3, 2.4] {
            let eps: f64 = 0.8;
            let d = divergences_at(&prior, &noise, eps, x);
            // Independent: f_Y by a midpoint sum over x' too (no closed form, no adaptivity).
            let (lo, hi, steps) = (-25.0, 25.0, 10_000);
            let h = (hi - lo) / f64::from(steps);
            // Cells aligned with the uniform component's jumps at 0.5 and 2.5.
            let inner_steps = 9000;
            let (a, b) = (-6.5, 2.5);
            let hx = (b - a) / f64::from(inner_steps);
            let f_y = |y: f64| -> f64 {
                (0..inner_steps)
                    .map(|j| {
                        let t = a + (f64::from(j) + 0.5) * hx;
                        prior.pdf(t) * noise.pdf(y - t) * hx
                    })
                    .sum()
            };
            let (mut fwd, mut bwd) = (0.0, 0.0);
            for i in 0..steps {
                let y = lo + (f64::from(i) + 0.5) * h;
                let (p, q) = (noise.pdf(y - x), f_y(y));
                fwd += (p - eps.exp() * q).max(0.0) * h;
                bwd += (q - eps.exp() * p).max(0.0) * h;
            }
            assert!(
                (d.forward.value - fwd).abs() < RIEMANN_AGREEMENT,
                "{noise:?} x={x}: {} vs {fwd}",
                d.forward.value
            );
            assert!(
                (d.backward.value - bwd).abs() < RIEMANN_AGREEMENT,
                "{noise:?} x={x}: {} vs {bwd}",
                d.backward.value
            );
        }
    }
}

#[test]
fn no_smaller_noise_meets_the_target_on_a_scan() {
    // The bisection assumes the loss decreases with the noise; scan below the optimum.
    let req = request(
        Prior::normal(0.0, 5.0).unwrap(),
        MechanismKind::Gaussian,
        Notion::Lip,
        1.0,
        1e-4,
    );
    let best = mechsynth::continuous::calibrate::numerical(&req, req.criterion).unwrap();
    for k in 1..40 {
        let s = best * f64::from(k) / 40.0;
        let m = mechsynth::continuous::calibrate::measure(&req, s);
        assert!(
            m.value - m.error > req.delta,
            "sigma {s} meets the target below {best}"
        );
    }
}

#[test]
fn sampling_divergences_match_a_discretized_channel() {
    use mechsynth::continuous::sampling;
    // Uniform prior on m cells; the sampling mechanism is Q = lambda I + (1 - lambda) 1 p^T.
    let m = 20_000;
    let p = 1.0 / f64::from(m);
    for (lambda, eps) in [(0.07f64, 2.0f64), (0.5, 0.3), (0.9, 1.0)] {
        let g = eps.exp();
        // x = cell 0; outputs: the same cell, and the m - 1 others.
        let same = lambda + (1.0 - lambda) * p;
        let other = (1.0 - lambda) * p;
        let forward = (same - g * p).max(0.0) + f64::from(m - 1) * (other - g * p).max(0.0);
        let backward = (p - g * same).max(0.0) + f64::from(m - 1) * (p - g * other).max(0.0);
        let discrete = ((-eps).exp() * forward).max(backward);
        let exact = sampling::delta(lambda, eps, Criterion::Definition);
        assert!(
            (discrete - exact).abs() < 10.0 * g * p,
            "{lambda} {eps}: {discrete} vs {exact}"
        );
    }
}

#[test]
fn remark2_noise_for_every_component_serves_the_mixture() {
    // Lemma 2 (modularity) as used by Remark 2: the largest component calibration meets the
    // target for the mixture.
    let parts = [
        vec![(0.5, (-5.0, 1.0)), (0.5, (5.0, 1.0))],
        vec![(0.3, (0.0, 0.5)), (0.7, (0.0, 5.0))],
        vec![(0.2, (-2.0, 0.3)), (0.5, (1.0, 2.0)), (0.3, (4.0, 1.0))],
    ];
    for mix in parts {
        let mut worst: f64 = 0.0;
        let mut components = Vec::new();
        for &(w, (m, s)) in &mix {
            let prior = Prior::normal(m, s).unwrap();
            let req = request(
                prior.clone(),
                MechanismKind::Gaussian,
                Notion::Lip,
                1.0,
                1e-4,
            );
            worst = worst
                .max(mechsynth::continuous::calibrate::numerical(&req, req.criterion).unwrap());
            components.push((w, prior));
        }
        let req = request(
            Prior::mixture(components).unwrap(),
            MechanismKind::Gaussian,
            Notion::Lip,
            1.0,
            1e-4,
        );
        let m = mechsynth::continuous::calibrate::measure(&req, worst);
        assert!(
            m.value + m.error <= 1e-4,
            "{mix:?}: {} at sigma {worst}",
            m.value
        );
    }
}
