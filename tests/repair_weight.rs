//! Property: the repair by mixing returns a channel that meets each notion by its definition,
//! at a weight within 0.1% of the smallest that does (found by a plain bisection on the
//! definition), for LDP and d-privacy (whose weights are computed directly), for channels just
//! outside the notion (solver noise) and far outside it.

use mechsynth::certify::repair_by_mixing;
use mechsynth::objective::LossSpec;
use mechsynth::privacy::{MetricSpec, PrivacySpec};
use mechsynth::{Channel, Problem};
use proptest::prelude::*;

// Only `line_problem` is used here.
#[allow(dead_code)]
mod common;

/// Relative slack of the definition's ratios (the certified check rounds outwards, the
/// reference does not).
const RATIO_SLACK: f64 = 4.0 * f64::EPSILON;
/// When the reference needs no mixing, rounding may still need this much.
const ZERO_WEIGHT_LIMIT: f64 = 1e-12;
/// The weight must be within this factor of the reference's smallest (the documented 0.1%,
/// plus the reference bisection's own resolution).
const WEIGHT_FACTOR: f64 = 1.0 + 1.1e-3;
/// Steps of the reference bisection on the weight.
const REFERENCE_STEPS: usize = 200;

/// Whether `q` meets the notion by its definition: LDP `q[x][y] <= e^eps q[x2][y]` for all
/// pairs, d-privacy on the line `0..n` with `e^(eps |x - x2|)`.
fn meets(q: &[Vec<f64>], epsilon: f64, metric: bool) -> bool {
    let n = q.len();
    (0..n).all(|x| {
        (0..n).all(|x2| {
            let d = if metric { x.abs_diff(x2) as f64 } else { 1.0 };
            let f = (epsilon * d).exp() * (1.0 + RATIO_SLACK);
            q[x].iter().zip(&q[x2]).all(|(a, b)| *a <= f * b)
        })
    })
}

fn mixture(q: &[Vec<f64>], target: &[f64], t: f64) -> Vec<Vec<f64>> {
    q.iter()
        .map(|row| {
            row.iter()
                .zip(target)
                .map(|(a, g)| (1.0 - t) * a + t * g)
                .collect()
        })
        .collect()
}

/// The smallest weight meeting the definition, by bisection on `[0, 1]` (log scale near 0).
fn reference_weight(q: &[Vec<f64>], target: &[f64], epsilon: f64, metric: bool) -> f64 {
    if meets(q, epsilon, metric) {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..REFERENCE_STEPS {
        let mid = 0.5 * (lo + hi);
        if meets(&mixture(q, target, mid), epsilon, metric) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

fn normalized(raw: &[f64], n: usize, zeros: bool) -> Vec<f64> {
    let v: Vec<f64> = raw[..n]
        .iter()
        .map(|&r| if zeros && r < 0.1 { 0.0 } else { r + 1e-3 })
        .collect();
    let s: f64 = v.iter().sum();
    v.iter().map(|a| a / s).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn repaired_weight_is_the_smallest_meeting_the_definition(
        n in 2usize..=6,
        metric in any::<bool>(),
        epsilon in 0.05f64..3.0,
        zeros in any::<bool>(),
        raw in prop::collection::vec(prop::collection::vec(0.0f64..1.0, 6), 6),
        raw_target in prop::collection::vec(0.01f64..1.0, 6),
        // A channel just outside the notion (solver noise) or far outside it.
        closeness in prop_oneof![Just(1.0), Just(1e-6), Just(1e-10)],
    ) {
        let rows: Vec<Vec<f64>> = raw[..n].iter().map(|r| normalized(r, n, zeros)).collect();
        let target = normalized(&raw_target, n, false);
        let privacy = if metric {
            PrivacySpec::DPrivacy {
                epsilon,
                metric: MetricSpec::Named("line".into()),
                approximate: None,
            }
        } else {
            PrivacySpec::Ldp { epsilon, delta: None, releases: None }
        };
        let spec = common::line_problem(n, vec![1.0 / n as f64; n], vec![privacy], LossSpec::Named("hamming".into()));
        let problem = Problem::from_spec(spec).unwrap();
        // Start from a channel that meets the notion (mixed far enough towards the target)
        // and move it back out by `closeness` of the way.
        let safe = reference_weight(&rows, &target, epsilon, metric);
        let start = mixture(&rows, &target, (safe * (1.0 - closeness)).max(0.0));
        let channel = Channel::new(start.clone()).unwrap();
        let (t, repaired) = repair_by_mixing(&problem.privacy, &channel, &target).unwrap();
        prop_assert!(meets(repaired.rows(), epsilon, metric), "repaired channel at t = {t} fails the definition");
        let smallest = reference_weight(&start, &target, epsilon, metric);
        if smallest == 0.0 {
            prop_assert!(t <= ZERO_WEIGHT_LIMIT, "weight {t} where none is needed");
        } else if t <= 0.5 {
            prop_assert!(t <= smallest * WEIGHT_FACTOR, "weight {t} against the smallest {smallest}");
        } else {
            prop_assert!((1.0 - t) * WEIGHT_FACTOR >= 1.0 - smallest, "weight left {} against {}", 1.0 - t, 1.0 - smallest);
        }
    }
}
