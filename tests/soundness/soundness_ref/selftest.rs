//! Checks of the references themselves against second methods: closed forms from the
//! literature, the known shapes of extreme rays, a grid search, and channels just past their
//! epsilon.

use super::lp::{self, Reference};
use super::{draw, privacy, rays, Case, Constraint, Utility};
use mechsynth::objective::{LossSpec, ObjectiveSpec};
use mechsynth::ProblemSpec;
use std::path::Path;

/// Accuracy expected of a reference optimum against a closed form.
const CLOSED_FORM_TOLERANCE: f64 = 1e-7;
/// Float noise allowed in an enumerated ray's coordinates and in a reference optimum against a
/// grid point.
const RAY_TOLERANCE: f64 = 1e-12;
/// Float noise allowed when matching a ratio with `e^eps`.
const RATIO_MATCH: f64 = 1e-9;
/// Steps per axis of the binary grid search.
const GRID_STEPS: usize = 400;
/// How far the grid search may stay above the ray reference (its resolution).
const GRID_TOLERANCE: f64 = 1e-3;
/// The same for the coarser four-dimensional grid.
const COARSE_GRID_TOLERANCE: f64 = 2e-2;

fn ldp_pairs(n: usize, eps: f64) -> Constraint {
    let pairs = (0..n)
        .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b, eps)))
        .collect();
    Constraint::Ratios(pairs)
}

fn case(prior: Vec<f64>, constraints: Vec<Constraint>, utility: Utility) -> Case {
    let n = prior.len();
    let spec = mechsynth::ProblemSpec {
        name: None,
        description: None,
        domain: Default::default(),
        privacy: vec![],
        objective: ObjectiveSpec::ExpectedLoss {
            loss: LossSpec::Named("hamming".into()),
        },
        expected: None,
        sweep: None,
    };
    Case {
        index: 0,
        spec,
        n,
        prior,
        notion_labels: vec![],
        objective_label: String::new(),
        constraints,
        utility,
        distances: None,
    }
}

#[test]
fn reference_lp_gives_the_k_rr_hamming_loss() {
    // k-RR is optimal for Hamming loss at a uniform prior: (n - 1) / (e^eps + n - 1).
    for (n, eps) in [(2, 0.5), (4, 1.0), (6, 2.5)] {
        let cost = (0..n)
            .map(|x| {
                (0..n)
                    .map(|y| f64::from(u8::from(x != y)) / n as f64)
                    .collect()
            })
            .collect();
        let c = case(
            vec![1.0 / n as f64; n],
            vec![ldp_pairs(n, eps)],
            Utility::Linear {
                cost,
                maximize: false,
            },
        );
        let expected = (n as f64 - 1.0) / (eps.exp() + n as f64 - 1.0);
        let Some(Reference::Solved {
            value,
            bound: Some(b),
            ..
        }) = lp::reference(&c)
        else {
            panic!("no reference")
        };
        assert!(
            (value - expected).abs() < CLOSED_FORM_TOLERANCE,
            "{value} vs {expected}"
        );
        assert!(
            b <= expected && expected - b < CLOSED_FORM_TOLERANCE,
            "bound {b} vs {expected}"
        );
    }
}

#[test]
fn enumerated_ldp_rays_are_the_staircase_patterns() {
    let (n, eps) = (4, 0.7);
    let c = case(
        vec![0.25; 4],
        vec![ldp_pairs(n, eps)],
        Utility::MmseHistogram,
    );
    let found = rays::extreme_rays(n, &rays::cone_rows(&c).unwrap()).unwrap();
    // {1, e^eps}^n without the two constant patterns (the constant vector is the sum of two
    // complementary patterns, so it is not extreme).
    assert_eq!(found.len(), (1 << n) - 2);
    for r in &found {
        let (lo, hi) = r
            .iter()
            .fold((f64::MAX, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
        assert!(
            r.iter()
                .all(|&v| (v - lo).abs() < RAY_TOLERANCE || (v - hi).abs() < RAY_TOLERANCE),
            "{r:?}"
        );
        assert!((hi / lo - eps.exp()).abs() < RATIO_MATCH, "{r:?}");
    }
}

#[test]
fn enumerated_lip_rays_have_all_but_one_coordinate_at_a_bound() {
    let (p, eps) = (vec![0.1, 0.2, 0.3, 0.4], 0.5f64);
    let c = case(
        p.clone(),
        vec![Constraint::Lip {
            epsilon: eps,
            priors: vec![p.clone()],
        }],
        Utility::MmseHistogram,
    );
    let found = rays::extreme_rays(4, &rays::cone_rows(&c).unwrap()).unwrap();
    assert!(!found.is_empty());
    for r in &found {
        let lambda: f64 = r.iter().zip(&p).map(|(a, b)| a * b).sum();
        let inside = r
            .iter()
            .filter(|&&v| {
                (v / lambda - eps.exp()).abs() > RATIO_MATCH
                    && (v / lambda - (-eps).exp()).abs() > RATIO_MATCH
            })
            .count();
        assert!(inside <= 1, "{r:?}");
    }
}

#[test]
fn ray_reference_agrees_with_a_grid_search_on_binary_channels() {
    // Two outputs suffice for n = 2; search Q[0][0] = a, Q[1][0] = b on a grid.
    let (p, eps) = (vec![0.3, 0.7], 0.8f64);
    let u = Utility::MmseSum {
        f: vec![0.0, 1.0],
        weight: 1.0,
    };
    let c = case(p.clone(), vec![ldp_pairs(2, eps)], u.clone());
    let Some(Reference::Solved { value, .. }) = rays::reference(&c) else {
        panic!("no reference")
    };
    let mut best = f64::MAX;
    for i in 0..=GRID_STEPS {
        for j in 0..=GRID_STEPS {
            let (a, b) = (i as f64 / GRID_STEPS as f64, j as f64 / GRID_STEPS as f64);
            let q = vec![vec![a, 1.0 - a], vec![b, 1.0 - b]];
            if privacy::violation(&c.constraints[0], &q, &p).is_none() {
                best = best.min(super::utility::evaluate(&u, &p, &q).unwrap());
            }
        }
    }
    assert!(
        value <= best + RAY_TOLERANCE && best - value < GRID_TOLERANCE,
        "rays {value}, grid {best}"
    );
}

#[test]
fn ray_reference_with_maximal_leakage_agrees_with_a_grid_search() {
    // Binary inputs, three outputs (enough: 2 row sums and 1 leakage budget); the grid search
    // can only be worse than the exact optimum, and must come close.
    let (p, eps) = (vec![0.3, 0.7], 0.2f64);
    let u = Utility::MutualInformation;
    let ml = Constraint::MaxLeakage {
        epsilon: eps,
        support: vec![true; 2],
    };
    let c = case(p.clone(), vec![ml], u.clone());
    let Some(Reference::Solved { value, .. }) = rays::reference(&c) else {
        panic!("no reference")
    };
    let steps = GRID_STEPS / 8;
    let mut best = f64::MIN;
    for i in 0..=steps {
        for j in 0..=steps - i {
            for k in 0..=steps {
                for l in 0..=steps - k {
                    let s = steps as f64;
                    let (a0, a1, b0, b1) = (i as f64 / s, j as f64 / s, k as f64 / s, l as f64 / s);
                    let q = vec![vec![a0, a1, 1.0 - a0 - a1], vec![b0, b1, 1.0 - b0 - b1]];
                    if privacy::violation(&c.constraints[0], &q, &p).is_none() {
                        best = best.max(super::utility::evaluate(&u, &p, &q).unwrap());
                    }
                }
            }
        }
    }
    assert!(
        value >= best - RAY_TOLERANCE && value - best < COARSE_GRID_TOLERANCE,
        "rays {value}, grid {best}"
    );
}

#[test]
fn privacy_checks_flag_channels_just_past_their_epsilon() {
    let eps = 1.0f64;
    let k = 1.0 / (eps.exp() + 2.0);
    let krr: Vec<Vec<f64>> = (0..3)
        .map(|x| {
            (0..3)
                .map(|y| if x == y { eps.exp() * k } else { k })
                .collect()
        })
        .collect();
    let p = vec![1.0 / 3.0; 3];
    assert!(privacy::violation(&ldp_pairs(3, eps), &krr, &p).is_none());
    assert!(privacy::violation(&ldp_pairs(3, eps * 0.999), &krr, &p).is_some());
    let lip = |e: f64| Constraint::Lip {
        epsilon: e,
        priors: vec![p.clone()],
    };
    let exact = (eps.exp() * k * 3.0).ln();
    assert!(privacy::violation(&lip(exact), &krr, &p).is_none());
    assert!(privacy::violation(&lip(exact * 0.999), &krr, &p).is_some());
    let info = privacy::mutual_information(&krr, &p);
    let mi = |e: f64| Constraint::MutualInformation { epsilon: e };
    assert!(privacy::violation(&mi(info), &krr, &p).is_none());
    assert!(privacy::violation(&mi(info * 0.999), &krr, &p).is_some());
    let ml = |e: f64| Constraint::MaxLeakage {
        epsilon: e,
        support: vec![true; 3],
    };
    let leak = (3.0 * eps.exp() * k).ln();
    assert!(privacy::violation(&ml(leak), &krr, &p).is_none());
    assert!(privacy::violation(&ml(leak * 0.999), &krr, &p).is_some());
}

#[test]
fn drawn_cases_round_trip_through_their_toml() {
    for i in 0..300 {
        let c = draw::case(1, i);
        let back = ProblemSpec::from_toml(&c.toml(), Path::new("case.toml")).expect("parses");
        assert_eq!(back, c.spec, "case {i}:\n{}", c.toml());
    }
}
