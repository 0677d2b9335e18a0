//! Random objectives: the mechsynth spec and the reference's reading of it (README objective
//! table; distances are the domain's natural ones).

use super::draw::Geometry;
use super::Utility;
use mechsynth::objective::{LossSpec, ObjectiveSpec};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Range-query radii: never equal to a distance between points of the drawn domains (values
/// are multiples of 1/2, grid distances are square roots of integers).
const RADII: [f64; 5] = [0.25, 0.75, 1.2, 1.75, 2.6];

/// Every objective drawn (with expected-loss's five losses).
pub const OBJECTIVES: [&str; 11] = [
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

pub fn objective(
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
