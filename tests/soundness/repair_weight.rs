//! Property: the repair by mixing returns a channel that meets each notion by its definition,
//! at a weight within 0.1% of the smallest that does (found by a plain bisection on the
//! definition), for LDP, d-privacy and context-aware LDP with an asymmetric privacy matrix
//! (whose weights are computed directly), for channels just
//! outside the notion (solver noise) and far outside it.

use mechsynth::certify::repair_by_mixing;
use mechsynth::objective::LossSpec;
use mechsynth::privacy::{MetricSpec, PrivacySpec};
use mechsynth::{Channel, Problem};
use proptest::prelude::*;

// Only `line_problem` is used here.
#[allow(dead_code)]
use crate::common;

/// Relative slack of the definition's ratios (the certified check rounds outwards, the
/// reference does not).
const RATIO_SLACK: f64 = 4.0 * f64::EPSILON;
/// When the reference needs no mixing, rounding may still need this much.
const ZERO_WEIGHT_LIMIT: f64 = 1e-12;
/// The weight must be within this factor of the reference's smallest (the documented 0.1%,
/// plus the reference bisection's own resolution).
const WEIGHT_FACTOR: f64 = 1.0 + 1.1e-3;
/// Rounding errors (relative, in units of f64::EPSILON) by which the outward-rounded check
/// and the lenient reference may disagree on a ratio. A weight `w` moves a ratio by about
/// `w (e^f - 1) r / q`, so the weights they call smallest may differ by this many rounding
/// errors divided by `(e^f - 1) min r` (entries at most 1): an absolute slack on the weight
/// that matters only for tiny weights (a weight of 2e-11 at eps 0.07 was 2.5e-14 above the
/// reference's, eight rounding errors in the ratio).
const RATIO_ROUNDING_ERRORS: f64 = 16.0;
/// Steps of the reference bisection on the weight.
const REFERENCE_STEPS: usize = 200;

/// The notion under test: its budget `unit[x][x2]` bounds `q[x][y] <= e^(eps unit) q[x2][y]`
/// (infinite: no bound).
#[derive(Debug, Clone)]
enum Notion {
    /// LDP: every unit is 1.
    Ldp,
    /// d-privacy on the line `0..n`: the unit is `|x - x2|`.
    Line,
    /// Context-aware LDP with a privacy matrix (not symmetric).
    Matrix(Vec<Vec<f64>>),
}

impl Notion {
    fn unit(&self, x: usize, x2: usize) -> f64 {
        match self {
            Notion::Ldp => 1.0,
            Notion::Line => x.abs_diff(x2) as f64,
            Notion::Matrix(m) => m[x][x2],
        }
    }
}

/// Whether `q` meets the notion by its definition.
fn meets(q: &[Vec<f64>], epsilon: f64, notion: &Notion) -> bool {
    let n = q.len();
    (0..n).all(|x| {
        (0..n).all(|x2| {
            let unit = notion.unit(x, x2);
            let f = (epsilon * unit).exp() * (1.0 + RATIO_SLACK);
            x == x2 || unit.is_infinite() || q[x].iter().zip(&q[x2]).all(|(a, b)| *a <= f * b)
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
fn reference_weight(q: &[Vec<f64>], target: &[f64], epsilon: f64, notion: &Notion) -> f64 {
    if meets(q, epsilon, notion) {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..REFERENCE_STEPS {
        let mid = 0.5 * (lo + hi);
        if meets(&mixture(q, target, mid), epsilon, notion) {
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
        .enumerate()
        // The first entry stays positive, so that a row never sums to 0.
        .map(|(i, &r)| {
            if zeros && i > 0 && r < 0.1 {
                0.0
            } else {
                r + 1e-3
            }
        })
        .collect();
    let s: f64 = v.iter().sum();
    v.iter().map(|a| a / s).collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: crate::common::persistence(),
        ..ProptestConfig::default()
    })]

    #[test]
    fn repaired_weight_is_the_smallest_meeting_the_definition(
        n in 2usize..=6,
        kind in 0usize..3,
        budgets in prop::collection::vec(
            prop::collection::vec(prop_oneof![Just(f64::INFINITY), 0.2f64..3.0], 6),
            6,
        ),
        epsilon in 0.05f64..3.0,
        zeros in any::<bool>(),
        raw in prop::collection::vec(prop::collection::vec(0.0f64..1.0, 6), 6),
        raw_target in prop::collection::vec(0.01f64..1.0, 6),
        // A channel just outside the notion (solver noise) or far outside it.
        closeness in prop_oneof![Just(1.0), Just(1e-6), Just(1e-10)],
    ) {
        let rows: Vec<Vec<f64>> = raw[..n].iter().map(|r| normalized(r, n, zeros)).collect();
        let target = normalized(&raw_target, n, false);
        let matrix: Vec<Vec<f64>> = budgets[..n].iter().map(|r| r[..n].to_vec()).collect();
        let (privacy, notion) = match kind {
            0 => (PrivacySpec::Ldp { epsilon, delta: None, releases: None }, Notion::Ldp),
            1 => (
                PrivacySpec::DPrivacy {
                    epsilon,
                    metric: MetricSpec::Named("line".into()),
                    approximate: None,
                },
                Notion::Line,
            ),
            _ => (
                PrivacySpec::ContextLdp { epsilon: Some(epsilon), matrix: matrix.clone() },
                Notion::Matrix(matrix),
            ),
        };
        let spec = common::line_problem(n, vec![1.0 / n as f64; n], vec![privacy], LossSpec::Named("hamming".into()));
        let problem = Problem::from_spec(spec).unwrap();
        // Start from a channel that meets the notion (mixed far enough towards the target)
        // and move it back out by `closeness` of the way.
        let safe = reference_weight(&rows, &target, epsilon, &notion);
        let start = mixture(&rows, &target, (safe * (1.0 - closeness)).max(0.0));
        let channel = Channel::new(start.clone()).unwrap();
        let (t, repaired) = repair_by_mixing(&problem.privacy, &channel, &target).unwrap();
        prop_assert!(meets(repaired.rows(), epsilon, &notion), "repaired channel at t = {t} fails the definition");
        let smallest = reference_weight(&start, &target, epsilon, &notion);
        if smallest == 0.0 {
            prop_assert!(t <= ZERO_WEIGHT_LIMIT, "weight {t} where none is needed");
        } else if t <= 0.5 {
            let smallest_log_ratio = epsilon * if kind == 2 { 0.2 } else { 1.0 };
            let smallest_target = target.iter().cloned().fold(f64::INFINITY, f64::min);
            let slack = RATIO_ROUNDING_ERRORS * f64::EPSILON
                / (smallest_log_ratio.exp_m1() * smallest_target);
            prop_assert!(t <= smallest * WEIGHT_FACTOR + slack, "weight {t} against the smallest {smallest}");
        } else {
            prop_assert!((1.0 - t) * WEIGHT_FACTOR >= 1.0 - smallest, "weight left {} against {}", 1.0 - t, 1.0 - smallest);
        }
    }
}
