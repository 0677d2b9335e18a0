//! The certified frequency-estimation optimum (`frequency-mse`) at scale: the 4 x 4 grid under
//! Euclidean d-privacy, whose cone has 16,743,648 extreme rays (minutes on two cores). The
//! other frequency-design checks are in `tests/library/frequency_design.rs`; both use the
//! references of `tests/support/references.rs`.

use crate::references::{wide_mse, OPTIMUM_SLACK};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use rand::{Rng, SeedableRng};

/// `Q[x][y] = e^{-eps d(x,y) / 2} / Z_x`, the exponential mechanism: eps-d-private since the
/// normalizers' ratio is at most `e^{eps d(x,x') / 2}` too.
fn exponential_mechanism(points: &[(f64, f64)], eps: f64) -> Vec<Vec<f64>> {
    points
        .iter()
        .map(|a| {
            let row: Vec<f64> = points
                .iter()
                .map(|b| (-eps * (a.0 - b.0).hypot(a.1 - b.1) / 2.0).exp())
                .collect();
            let z: f64 = row.iter().sum();
            row.iter().map(|v| v / z).collect()
        })
        .collect()
}

/// Largest `ln(Q[x][y] / Q[x'][y]) / d(x, x')` over every pair and output.
fn d_leakage(rows: &[Vec<f64>], points: &[(f64, f64)]) -> f64 {
    let mut worst: f64 = 0.0;
    for (a, ra) in points.iter().zip(rows) {
        for (b, rb) in points.iter().zip(rows) {
            let d = (a.0 - b.0).hypot(a.1 - b.1);
            if d == 0.0 {
                continue;
            }
            for (qa, qb) in ra.iter().zip(rb) {
                worst = worst.max((qa / qb).ln() / d);
            }
        }
    }
    worst
}

/// Under Euclidean d-privacy on the 4 x 4 grid the cone has 16,743,648 extreme rays, too many
/// to list as floats: they are kept as tree codes and priced each round. The certified optimum
/// is checked against the count covariance (no Fisher information), an independent privacy
/// check, the exponential mechanism, the k-RR-like mixture, and random mixtures of them.
#[test]
fn the_four_by_four_grid_under_d_privacy_is_certified() {
    let eps = 1.0;
    let text = format!(
        "[domain]\ngrid = {{ rows = 4, cols = 4 }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = {eps}\n[objective]\nkind = \"frequency-mse\"\n"
    );
    let spec = ProblemSpec::from_toml(&text, std::path::Path::new("grid.toml")).unwrap();
    let report = solve(&Problem::from_spec(spec).unwrap(), &SolveOptions::default()).unwrap();
    assert_eq!(report.status.to_string(), "optimal");
    assert!(report
        .method_notes
        .iter()
        .any(|n| n.contains("16743648 extreme rays")));
    let (value, bound) = (report.objective.unwrap(), report.bound.unwrap());
    let rows = report.channel.unwrap().rows().to_vec();
    let points: Vec<(f64, f64)> = (0..16).map(|i| ((i / 4) as f64, (i % 4) as f64)).collect();
    let pi = vec![1.0 / 16.0; 16];
    assert!((wide_mse(&rows, &pi) - value).abs() <= 1e-8 * value);
    assert!(d_leakage(&rows, &points) <= eps * (1.0 + 1e-9));
    assert!(bound <= value && value - bound <= 1e-6 * value);
    let em = exponential_mechanism(&points, eps);
    assert!(d_leakage(&em, &points) <= eps * (1.0 + 1e-12));
    // k-RR-like: (1 - t) / n + t on the diagonal, with the largest t adjacent cells allow.
    let t = eps.exp_m1() / (eps.exp_m1() + 16.0);
    let krr: Vec<Vec<f64>> = (0..16)
        .map(|x| {
            (0..16)
                .map(|y| (1.0 - t) / 16.0 + if x == y { t } else { 0.0 })
                .collect()
        })
        .collect();
    assert!(d_leakage(&krr, &points) <= eps * (1.0 + 1e-12));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let mut references = vec![em.clone(), krr.clone()];
    for _ in 0..20 {
        let a: f64 = rng.gen_range(0.05..0.95);
        let scaled = exponential_mechanism(&points, eps * rng.gen_range(0.3..1.0));
        // Side by side: each column keeps its own ratios, rows still sum to one.
        let mixed: Vec<Vec<f64>> = (0..16)
            .map(|x| {
                let left = scaled[x].iter().map(|v| a * v);
                let right = krr[x].iter().map(|v| (1.0 - a) * v);
                left.chain(right).collect()
            })
            .collect();
        references.push(mixed);
    }
    for r in &references {
        let v = wide_mse(r, &pi);
        assert!(
            bound <= v && value <= v * (1.0 + OPTIMUM_SLACK),
            "{v} beats {value}"
        );
    }
    // The design beats the exponential mechanism by a wide margin.
    assert!(value < 0.9 * wide_mse(&em, &pi));
}
