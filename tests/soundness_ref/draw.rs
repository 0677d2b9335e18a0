//! Random problems: every notion, pairs of notions, every objective, several domains and priors.
//! Each draw builds the mechsynth spec and, from the same random choices, the reference's
//! constraints (README table: `Q[x][y] <= e^{E[x][x']} Q[x'][y]` and its special cases).

use super::{Case, Constraint, Utility};
use mechsynth::objective::{LossSpec, ObjectiveSpec};
use mechsynth::privacy::{MetricSpec, PrivacySpec, Symbol};
use mechsynth::problem::{DomainSpec, GridSpec};
use mechsynth::ProblemSpec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The smallest non-zero prior entry drawn ("tiny" priors).
pub const TINY_PRIOR: f64 = 1e-6;
/// Smallest positive epsilon drawn.
pub const MIN_EPSILON: f64 = 1e-4;
/// Largest epsilon (mechsynth's limit).
pub const MAX_EPSILON: f64 = 30.0;
/// Range-query radii: never equal to a distance between points of the drawn domains (values
/// are multiples of 1/2, grid distances are square roots of integers).
const RADII: [f64; 5] = [0.25, 0.75, 1.2, 1.75, 2.6];

/// Where the symbols sit: `coords` in the plane, `f` their numeric values.
struct Geometry {
    coords: Vec<[f64; 2]>,
    f: Vec<f64>,
    grid: bool,
}

fn epsilon(rng: &mut ChaCha8Rng) -> f64 {
    match rng.gen_range(0..20) {
        0 => 0.0,
        1 => MAX_EPSILON,
        2 => MIN_EPSILON,
        3..=9 => rng.gen_range(0.1..5.0),
        _ => (rng.gen_range(MIN_EPSILON.ln()..MAX_EPSILON.ln())).exp(),
    }
}

/// A prior over n symbols; `zeros` allows zero entries. Normalized exactly as far as floats go.
fn prior(rng: &mut ChaCha8Rng, n: usize, zeros: bool) -> Vec<f64> {
    let mut w: Vec<f64> = match rng.gen_range(0..6) {
        0 => vec![1.0; n],
        1 | 2 => (0..n).map(|_| rng.gen_range(0.05..1.0)).collect(),
        3 => (0..n).map(|i| 0.5f64.powi(i as i32)).collect(),
        _ => (0..n)
            .map(|_| {
                if rng.gen_bool(0.3) {
                    TINY_PRIOR
                } else {
                    rng.gen_range(0.05..1.0)
                }
            })
            .collect(),
    };
    if zeros && rng.gen_bool(0.3) {
        let k = rng.gen_range(0..n);
        w[k] = 0.0;
    }
    if w.iter().all(|&v| v == 0.0) {
        w[0] = 1.0;
    }
    let s: f64 = w.iter().sum();
    w.iter().map(|v| v / s).collect()
}

fn geometry(rng: &mut ChaCha8Rng, n: usize) -> (DomainSpec, Geometry) {
    let line = |v: Vec<f64>| Geometry {
        coords: v.iter().map(|&a| [a, 0.0]).collect(),
        f: v,
        grid: false,
    };
    let grid_shape = [(1, n), (2, n / 2)]
        .into_iter()
        .filter(|&(r, c)| r * c == n);
    let shapes: Vec<(usize, usize)> = grid_shape.collect();
    match rng.gen_range(0..4) {
        0 => (
            DomainSpec {
                size: Some(n),
                ..DomainSpec::default()
            },
            line((0..n).map(|i| i as f64).collect()),
        ),
        1 => (
            DomainSpec {
                line: Some(n),
                ..DomainSpec::default()
            },
            line((0..n).map(|i| i as f64).collect()),
        ),
        2 if !shapes.is_empty() => {
            let (rows, cols) = shapes[rng.gen_range(0..shapes.len())];
            let coords: Vec<[f64; 2]> = (0..n)
                .map(|i| [(i / cols) as f64, (i % cols) as f64])
                .collect();
            let spec = DomainSpec {
                grid: Some(GridSpec { rows, cols }),
                ..DomainSpec::default()
            };
            (
                spec,
                Geometry {
                    coords,
                    f: (0..n).map(|i| i as f64).collect(),
                    grid: true,
                },
            )
        }
        _ => {
            let mut v: Vec<f64> = Vec::new();
            while v.len() < n {
                let a = f64::from(rng.gen_range(-10i32..=10)) / 2.0;
                if !v.contains(&a) {
                    v.push(a);
                }
            }
            (
                DomainSpec {
                    values: Some(v.clone()),
                    ..DomainSpec::default()
                },
                line(v),
            )
        }
    }
}

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
const FULL_SUPPORT: [&str; 2] = ["lip", "identifiability"];
/// Every notion drawn.
const NOTIONS: [&str; 10] = [
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
fn notion(
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
            PrivacySpec::Ldp { epsilon: eps },
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
            let spec = PrivacySpec::DPrivacy { epsilon: e, metric };
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

/// Every objective drawn (with expected-loss's five losses).
const OBJECTIVES: [&str; 11] = [
    "hamming",
    "absolute",
    "squared",
    "range",
    "matrix",
    "co-location",
    "mmse-sum",
    "mmse-histogram",
    "mutual-information",
    "inversion-mse",
    "hamming",
];

fn objective(
    rng: &mut ChaCha8Rng,
    name: &str,
    g: &Geometry,
    p: &[f64],
) -> (ObjectiveSpec, Utility, String) {
    let n = p.len();
    let dist = |a: usize, b: usize| {
        (g.coords[a][0] - g.coords[b][0]).hypot(g.coords[a][1] - g.coords[b][1])
    };
    let loss = |spec: LossSpec, l: &dyn Fn(usize, usize) -> f64, label: &str| {
        let cost = (0..n)
            .map(|x| (0..n).map(|y| p[x] * l(x, y)).collect())
            .collect();
        (
            ObjectiveSpec::ExpectedLoss { loss: spec },
            Utility::Linear {
                cost,
                maximize: false,
            },
            format!("expected-loss/{label}"),
        )
    };
    match name {
        "hamming" => loss(
            LossSpec::Named("hamming".into()),
            &|x, y| f64::from(u8::from(x != y)),
            "hamming",
        ),
        "absolute" => loss(
            LossSpec::Named("absolute".into()),
            &|x, y| dist(x, y),
            "absolute",
        ),
        "squared" => loss(
            LossSpec::Named("squared".into()),
            &|x, y| dist(x, y).powi(2),
            "squared",
        ),
        "range" => {
            let r = RADII[rng.gen_range(0..RADII.len())];
            loss(
                LossSpec::Range { range: r },
                &|x, y| f64::from(u8::from(dist(x, y) > r)),
                "range",
            )
        }
        "matrix" => {
            let m: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..n).map(|_| rng.gen_range(0.0..2.0)).collect())
                .collect();
            loss(
                LossSpec::Matrix { matrix: m.clone() },
                &|x, y| m[x][y],
                "matrix",
            )
        }
        "co-location" => {
            let cost = (0..n)
                .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
                .collect();
            (
                ObjectiveSpec::CoLocation,
                Utility::Linear {
                    cost,
                    maximize: true,
                },
                "co-location".into(),
            )
        }
        "mmse-sum" => {
            let weight = rng.gen_bool(0.6).then(|| rng.gen_range(-3.0..3.0));
            let offset = rng.gen_bool(0.3).then(|| rng.gen_range(-5.0..5.0));
            let u = Utility::MmseSum {
                f: g.f.clone(),
                weight: weight.unwrap_or(1.0),
            };
            (
                ObjectiveSpec::MmseSum { weight, offset },
                u,
                "mmse-sum".into(),
            )
        }
        "mmse-histogram" => (
            ObjectiveSpec::MmseHistogram,
            Utility::MmseHistogram,
            "mmse-histogram".into(),
        ),
        "mutual-information" => (
            ObjectiveSpec::MutualInformation,
            Utility::MutualInformation,
            "mutual-information".into(),
        ),
        _ => (
            ObjectiveSpec::InversionMse {
                distribution: None,
                users: None,
            },
            Utility::InversionMse,
            "inversion-mse".into(),
        ),
    }
}

/// Case `index` of the suite seeded with `seed`: reproducible on its own.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let obj = OBJECTIVES[rng.gen_range(0..OBJECTIVES.len())];
    let linear = [
        "hamming",
        "absolute",
        "squared",
        "range",
        "matrix",
        "co-location",
    ]
    .contains(&obj);
    let n = match rng.gen_range(0..10) {
        0 if linear => rng.gen_range(7..=8),
        0..=3 => rng.gen_range(2..=3),
        _ => rng.gen_range(4..=6),
    };
    let count = if rng.gen_bool(0.3) { 2 } else { 1 };
    let names: Vec<&str> = (0..count)
        .map(|_| NOTIONS[rng.gen_range(0..NOTIONS.len())])
        .collect();
    let zeros = !names.iter().any(|m| FULL_SUPPORT.contains(m));
    let p = prior(&mut rng, n, zeros);
    let (mut domain, g) = geometry(&mut rng, n);
    domain.prior = Some(p.clone());
    let mut privacy = Vec::new();
    let (mut constraints, mut notion_labels) = (Vec::new(), Vec::new());
    for name in names {
        let (s, c, l) = notion(&mut rng, name, &g, &p);
        privacy.push(s);
        constraints.push(c);
        notion_labels.push(l);
    }
    let (objective, utility, objective_label) = objective(&mut rng, obj, &g, &p);
    let spec = ProblemSpec {
        name: Some(format!("soundness case {index}")),
        description: None,
        domain,
        privacy,
        objective,
        expected: None,
        sweep: None,
    };
    Case {
        index,
        spec,
        n,
        prior: p,
        notion_labels,
        objective_label,
        constraints,
        utility,
    }
}
