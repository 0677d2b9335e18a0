//! Random problems: every notion, pairs of notions, every objective, several domains and priors.
//! Each draw builds the mechsynth spec and, from the same random choices, the reference's
//! constraints (README table: `Q[x][y] <= e^{E[x][x']} Q[x'][y]` and its special cases).

use super::draw_notion::{notion, FULL_SUPPORT, NOTIONS};
use super::draw_objective::{objective, OBJECTIVES};
use super::Case;
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

/// Where the symbols sit.
pub struct Geometry {
    /// Coordinates in the plane (1-D domains on the x axis).
    pub coords: Vec<[f64; 2]>,
    /// Numeric values (indices for plain symbols, lines and grids).
    pub f: Vec<f64>,
    /// Whether the domain is a grid.
    pub grid: bool,
}

pub fn epsilon(rng: &mut ChaCha8Rng) -> f64 {
    match rng.gen_range(0..20) {
        0 => 0.0,
        1 => MAX_EPSILON,
        2 => MIN_EPSILON,
        3..=9 => rng.gen_range(0.1..5.0),
        _ => (rng.gen_range(MIN_EPSILON.ln()..MAX_EPSILON.ln())).exp(),
    }
}

/// A prior over n symbols; `zeros` allows zero entries. Normalized exactly as far as floats go.
pub fn prior(rng: &mut ChaCha8Rng, n: usize, zeros: bool) -> Vec<f64> {
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
    let c = &g.coords;
    let distances = domain.size.is_none().then(|| {
        (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| (c[a][0] - c[b][0]).hypot(c[a][1] - c[b][1]))
                    .collect()
            })
            .collect()
    });
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
        distances,
    }
}
