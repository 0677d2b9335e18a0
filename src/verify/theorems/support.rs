//! Random and tight channels and priors, and the closed-form bounds the theorems state.

use crate::channel::Channel;
use crate::objective::ObjectiveSpec;
use crate::privacy::{lip_leakage, PrivacySpec};
use crate::problem::{DomainSpec, Problem, ProblemSpec};
use crate::rays::lip_vertices;
use crate::solve::{solve, SolveOptions};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub(super) fn prior(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    // Half of the priors are skewed, with one small entry.
    let skew = rng.gen_bool(0.5);
    let mut w: Vec<f64> = (0..n).map(|_| rng.gen_range(0.05..1.0)).collect();
    if skew {
        w[rng.gen_range(0..n)] = rng.gen_range(0.001..0.05);
    }
    let s: f64 = w.iter().sum();
    let mut p: Vec<f64> = w.iter().map(|v| v / s).collect();
    let rest: f64 = p[1..].iter().sum();
    p[0] = 1.0 - rest;
    p
}

pub(super) fn channel(rng: &mut ChaCha8Rng, n: usize, m: usize) -> Channel {
    let rows = (0..n)
        .map(|_| {
            let w: Vec<f64> = (0..m).map(|_| rng.gen_range(0.02..1.0)).collect();
            let s: f64 = w.iter().sum();
            w.iter().map(|v| v / s).collect::<Vec<f64>>()
        })
        .map(|mut r| {
            let rest: f64 = r[1..].iter().sum();
            r[0] = 1.0 - rest;
            r
        })
        .collect();
    Channel::new(rows).expect("rows are distributions")
}

/// A tight channel: the certified MMSE optimum under `notion` for random values (its columns
/// are extreme rays, so every constraint it uses is met with equality).
pub(super) fn tight(rng: &mut ChaCha8Rng, p: &[f64], notion: PrivacySpec) -> Option<Channel> {
    let n = p.len();
    let values: Vec<f64> = (0..n).map(|_| rng.gen_range(-3.0..3.0)).collect();
    let spec = ProblemSpec {
        name: None,
        description: None,
        domain: DomainSpec {
            values: Some(values),
            prior: Some(p.to_vec()),
            ..DomainSpec::default()
        },
        privacy: vec![notion],
        objective: ObjectiveSpec::MmseSum {
            weight: None,
            offset: None,
        },
        expected: None,
        sweep: None,
    };
    let problem = Problem::from_spec(spec).ok()?;
    solve(&problem, &SolveOptions::default()).ok()?.channel
}

pub(super) fn lip(c: &Channel, p: &[f64]) -> f64 {
    lip_leakage(c, std::slice::from_ref(&p.to_vec()))
}

pub(super) fn pmin(p: &[f64]) -> f64 {
    p.iter().cloned().fold(f64::INFINITY, f64::min)
}

/// [CA-LIP] Prop. 1: `min(2 eps, ln((e^eps - 1 + P_min) / P_min))`.
pub fn prop1_bound(eps: f64, p_min: f64) -> f64 {
    (2.0 * eps).min(((eps.exp() - 1.0 + p_min) / p_min).ln())
}

/// [CA-LIP] Thm 1 (converse): `ln(P_min + e^eps (1 - P_min))`.
pub fn ldp_to_lip_bound(eps: f64, p_min: f64) -> f64 {
    (p_min + eps.exp() * (1.0 - p_min)).ln()
}

/// The exact LDP leakage of the worst eps-LIP channel under `p` ([CA-LIP]
/// Thm 1, eq. 9): the largest `ln(r_x' / r_x)` over the LIP cone's extreme rays (a ratio of
/// two coordinates is maximized at an extreme ray, and every ray is a column of some channel).
pub fn exact_lip_to_ldp(p: &[f64], eps: f64) -> f64 {
    let rays = lip_vertices(p, eps, 1 << 20).unwrap_or_default();
    rays.iter()
        .map(|r| {
            let hi = r.iter().cloned().fold(0.0, f64::max);
            let lo = r.iter().cloned().fold(f64::INFINITY, f64::min);
            (hi / lo).ln()
        })
        .fold(0.0, f64::max)
}

/// The product channel of independent releases `Y_1, Y_2` of the same input.
pub(super) fn compose(a: &Channel, b: &Channel) -> Channel {
    let rows = a
        .rows()
        .iter()
        .zip(b.rows())
        .map(|(ra, rb)| {
            ra.iter()
                .flat_map(|u| rb.iter().map(move |v| u * v))
                .collect()
        })
        .collect();
    Channel::new(rows).expect("products of distributions")
}

/// `W` after `Q`: the channel `X -> Z`.
pub(super) fn chain(q: &Channel, w: &Channel) -> Channel {
    let rows = q
        .rows()
        .iter()
        .map(|r| {
            (0..w.outputs())
                .map(|z| r.iter().enumerate().map(|(y, v)| v * w.get(y, z)).sum())
                .collect()
        })
        .collect();
    Channel::from_solver_point(rows).0
}

pub(super) fn tv(a: &[f64], b: &[f64]) -> f64 {
    0.5 * a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f64>()
}

pub(super) fn cases_of(rng: &mut ChaCha8Rng) -> (usize, Vec<f64>) {
    let n = rng.gen_range(2..=5);
    (n, prior(rng, n))
}
