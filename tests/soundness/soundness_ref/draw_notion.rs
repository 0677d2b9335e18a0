//! Random privacy notions: the mechsynth spec and, from the same draws, the reference's
//! constraints (README table: `Q[x][y] <= e^{E[x][x']} Q[x'][y]` and its special cases).

use super::draw::{epsilon, prior, Geometry, MAX_EPSILON};
use super::Constraint;
use mechsynth::privacy::{MetricSpec, PrivacySpec, Symbol};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Pairs `(a, b, e[a][b])` of a privacy matrix, leaving out the diagonal and infinite entries.
fn matrix_pairs(e: &[Vec<f64>]) -> Vec<(usize, usize, f64)> {
    let mut out = Vec::new();
    for (a, row) in e.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            if a != b && v.is_finite() {
                out.push((a, b, v));
            }
        }
    }
    out
}

/// `eps * unit`, an infinite entry staying infinite (no constraint) even at eps = 0.
fn scaled(unit: &[Vec<f64>], eps: f64) -> Vec<Vec<f64>> {
    unit.iter()
        .map(|r| {
            r.iter()
                .map(|&u| if u.is_infinite() { u } else { eps * u })
                .collect()
        })
        .collect()
}

/// The notions that need a prior of full support (under the domain prior).
pub const FULL_SUPPORT: [&str; 2] = ["lip", "identifiability"];
/// Every notion drawn.
pub const NOTIONS: [&str; 10] = [
    "ldp",
    "context-ldp",
    "high-low",
    "block",
    "d-privacy",
    "lip",
    "bp-lip",
    "max-leakage",
    "identifiability",
    "mutual-information",
];

/// One notion: the spec, the reference constraint and a coverage label.
pub fn notion(
    rng: &mut ChaCha8Rng,
    name: &str,
    g: &Geometry,
    p: &[f64],
) -> (PrivacySpec, Constraint, String) {
    let n = p.len();
    let eps = epsilon(rng);
    let all_pairs = |budget: f64| -> Vec<(usize, usize, f64)> {
        (0..n)
            .flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b, budget)))
            .collect()
    };
    let idx = |v: &[usize]| v.iter().map(|&i| Symbol::Index(i)).collect::<Vec<_>>();
    match name {
        "ldp" => (
            PrivacySpec::Ldp {
                epsilon: eps,
                delta: None,
                releases: None,
            },
            Constraint::Ratios(all_pairs(eps)),
            "ldp".into(),
        ),
        "context-ldp" => {
            let unit: Vec<Vec<f64>> = (0..n)
                .map(|_| {
                    (0..n)
                        .map(|_| match rng.gen_range(0..8) {
                            0 | 1 => f64::INFINITY,
                            2 => 0.0,
                            _ => rng.gen_range(0.2..3.0),
                        })
                        .collect()
                })
                .collect();
            let given = if rng.gen_bool(0.2) {
                None
            } else {
                Some(eps / 3.0)
            };
            let e = scaled(&unit, given.unwrap_or(1.0));
            let spec = PrivacySpec::ContextLdp {
                epsilon: given,
                matrix: unit,
            };
            (
                spec,
                Constraint::Ratios(matrix_pairs(&e)),
                "context-ldp".into(),
            )
        }
        "high-low" => {
            let s: Vec<usize> = (0..n).filter(|&i| i == 0 || rng.gen_bool(0.4)).collect();
            let pairs = s
                .iter()
                .flat_map(|&a| (0..n).filter(move |&b| b != a).map(move |b| (a, b, eps)));
            let spec = PrivacySpec::HighLow {
                epsilon: eps,
                sensitive: idx(&s),
            };
            (spec, Constraint::Ratios(pairs.collect()), "high-low".into())
        }
        "block" => {
            let owner: Vec<usize> = (0..n).map(|_| rng.gen_range(0..3)).collect();
            let blocks: Vec<Vec<usize>> = (0..3)
                .map(|b| (0..n).filter(|&x| owner[x] == b).collect::<Vec<_>>())
                .filter(|b| !b.is_empty())
                .collect();
            let across = rng.gen_bool(0.5).then(|| epsilon(rng));
            let pairs = all_pairs(0.0).into_iter().filter_map(|(a, b, _)| {
                if owner[a] == owner[b] {
                    Some((a, b, eps))
                } else {
                    across.map(|e| (a, b, e))
                }
            });
            let label = if across.is_some() {
                "block+epsilon_across"
            } else {
                "block"
            };
            let spec = PrivacySpec::Block {
                epsilon: eps,
                blocks: blocks.iter().map(|b| idx(b)).collect(),
                epsilon_across: across,
            };
            (spec, Constraint::Ratios(pairs.collect()), label.into())
        }
        "d-privacy" => {
            let kinds: &[&str] = if g.grid {
                &["euclidean", "manhattan", "matrix"]
            } else {
                &["line", "euclidean", "manhattan", "matrix"]
            };
            let kind = kinds[rng.gen_range(0..kinds.len())];
            let (c, e) = (&g.coords, eps);
            let d: Vec<Vec<f64>> = match kind {
                "line" => (0..n)
                    .map(|a| (0..n).map(|b| (c[a][0] - c[b][0]).abs()).collect())
                    .collect(),
                "euclidean" => (0..n)
                    .map(|a| {
                        (0..n)
                            .map(|b| (c[a][0] - c[b][0]).hypot(c[a][1] - c[b][1]))
                            .collect()
                    })
                    .collect(),
                "manhattan" => (0..n)
                    .map(|a| {
                        (0..n)
                            .map(|b| (c[a][0] - c[b][0]).abs() + (c[a][1] - c[b][1]).abs())
                            .collect()
                    })
                    .collect(),
                _ => {
                    let mut m = vec![vec![0.0; n]; n];
                    for a in 0..n {
                        for b in a + 1..n {
                            let v = if rng.gen_bool(0.15) {
                                f64::INFINITY
                            } else {
                                rng.gen_range(0.1..3.0)
                            };
                            m[a][b] = v;
                            m[b][a] = v;
                        }
                    }
                    m
                }
            };
            let metric = if kind == "matrix" {
                MetricSpec::Matrix(d.clone())
            } else {
                MetricSpec::Named(kind.into())
            };
            let spec = PrivacySpec::DPrivacy {
                epsilon: e,
                metric,
                approximate: None,
            };
            (
                spec,
                Constraint::Ratios(matrix_pairs(&scaled(&d, e))),
                format!("d-privacy/{kind}"),
            )
        }
        "lip" => {
            let own = p.contains(&0.0) || rng.gen_bool(0.3);
            let q = if own {
                prior(rng, n, false)
            } else {
                p.to_vec()
            };
            let spec = PrivacySpec::Lip {
                epsilon: eps,
                prior: own.then(|| q.clone()),
                delta: None,
                releases: None,
            };
            (
                spec,
                Constraint::Lip {
                    epsilon: eps,
                    priors: vec![q],
                },
                "lip".into(),
            )
        }
        "bp-lip" => {
            let mut vs: Vec<Vec<f64>> = (0..rng.gen_range(1..=3))
                .map(|_| prior(rng, n, true))
                .collect();
            if (0..n).any(|x| vs.iter().all(|v| v[x] == 0.0)) {
                vs.push(prior(rng, n, false));
            }
            let spec = PrivacySpec::BpLip {
                epsilon: eps,
                priors: vs.clone(),
            };
            (
                spec,
                Constraint::Lip {
                    epsilon: eps,
                    priors: vs,
                },
                "bp-lip".into(),
            )
        }
        "max-leakage" => {
            let support = p.iter().map(|&v| v > 0.0).collect();
            (
                PrivacySpec::MaxLeakage { epsilon: eps },
                Constraint::MaxLeakage {
                    epsilon: eps,
                    support,
                },
                "max-leakage".into(),
            )
        }
        "identifiability" => {
            // Feasible only when max p / min p <= e^eps; draw both sides of that.
            let spread = p.iter().fold(0.0f64, |m, &v| m.max(v)).ln()
                - p.iter().fold(1.0f64, |m, &v| m.min(v)).ln();
            let e = if rng.gen_bool(0.8) {
                (spread + eps).min(MAX_EPSILON)
            } else {
                eps
            };
            let pairs = all_pairs(e)
                .into_iter()
                .map(|(a, b, _)| (a, b, e + p[b].ln() - p[a].ln()));
            (
                PrivacySpec::Identifiability { epsilon: e },
                Constraint::Ratios(pairs.collect()),
                "identifiability".into(),
            )
        }
        _ => {
            let e = if rng.gen_bool(0.8) {
                eps.min((n as f64).ln() * rng.gen_range(0.0..1.2))
            } else {
                eps
            };
            (
                PrivacySpec::MutualInformation { epsilon: e },
                Constraint::MutualInformation { epsilon: e },
                "mutual-information".into(),
            )
        }
    }
}
