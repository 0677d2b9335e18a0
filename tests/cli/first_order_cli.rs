//! The first-order method on irregular places, against the exact program where both run:
//! plane and lon/lat coordinates, uniform and skewed priors. Every emitted channel's
//! d-privacy is recomputed here, pair by pair, from the coordinates (not from the tool's
//! distances), and the method's bound must lie below the exact optimum.

use crate::bin::{run, TempDir};
use serde_json::Value;

/// Relative slack on the exact program's bound and objective (rounding of the JSON numbers).
const EXACT_TOLERANCE: f64 = 1e-6;
/// The first-order channel must be within this of the exact program's bound (relative) after
/// its 20 s: a sanity check that does not depend on the machine's speed (idle, the channels
/// here end within 0.3%; on a loaded CI machine one ended 6.1% above; a cleanup that lost the
/// iterate gave several times the optimum). Its own certified gap is what the report states.
const FIRST_ORDER_DEMAND: f64 = 0.25;
/// Relative slack of the pair-by-pair check (the tool certifies with outward rounding; this
/// check recomputes distances in its own order of operations).
const PAIR_SLACK: f64 = 1e-9;
/// Earth radius of the haversine distance (IUGG mean radius, km), as the docs state.
const EARTH_RADIUS_KM: f64 = 6371.0088;

/// A small linear congruential generator: the places are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `n` irregular places (clustered) with weights; lon/lat in a box around France, or plane
/// coordinates in a 10 x 10 square.
fn places(n: usize, lonlat: bool, skewed: bool, seed: u64) -> Vec<(f64, f64, f64)> {
    let mut r = Lcg(seed);
    let centres: Vec<(f64, f64)> = (0..4).map(|_| (r.next(), r.next())).collect();
    (0..n)
        .map(|i| {
            let (cx, cy) = centres[i % centres.len()];
            let (x, y) = (cx + 0.15 * (r.next() - 0.5), cy + 0.15 * (r.next() - 0.5));
            let weight = if skewed {
                1.0 / (1.0 + i as f64).powf(1.2)
            } else {
                1.0
            };
            if lonlat {
                (-1.0 + 7.0 * x, 43.0 + 5.0 * y, weight)
            } else {
                (10.0 * x, 10.0 * y, weight)
            }
        })
        .collect()
}

fn distance(a: (f64, f64), b: (f64, f64), lonlat: bool) -> f64 {
    if !lonlat {
        return ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    }
    let (l1, p1, l2, p2) = (
        a.0.to_radians(),
        a.1.to_radians(),
        b.0.to_radians(),
        b.1.to_radians(),
    );
    let h = ((p2 - p1) / 2.0).sin().powi(2) + p1.cos() * p2.cos() * ((l2 - l1) / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * h.sqrt().asin()
}

fn problem(dir: &TempDir, places: &[(f64, f64, f64)], lonlat: bool, epsilon: f64) -> String {
    let mut csv = String::from("x,y,w\n");
    for (x, y, w) in places {
        csv.push_str(&format!("{x},{y},{w}\n"));
    }
    dir.write("places.csv", &csv);
    let (coordinates, metric) = if lonlat {
        ("lonlat", "haversine")
    } else {
        ("plane", "euclidean")
    };
    let toml = format!(
        "[domain]\npoints = {{ file = \"places.csv\", x = \"x\", y = \"y\", weight = \"w\", coordinates = \"{coordinates}\" }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"{metric}\"\nepsilon = {epsilon}\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n"
    );
    dir.write("problem.toml", &toml).display().to_string()
}

fn solve(path: &str, method: &str, limit: &str) -> Value {
    let out = run(&[
        "-q",
        "solve",
        path,
        "--method",
        method,
        "--time-limit",
        limit,
        "--format",
        "json",
    ]);
    // Exit 4: a certified channel whose gap is not closed (documented exit codes).
    assert!(
        matches!(out.status.code(), Some(0 | 4)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON report")
}

fn channel(report: &Value) -> Vec<Vec<f64>> {
    report["channel"]
        .as_array()
        .expect("a channel")
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect()
        })
        .collect()
}

/// Every pair and output: `Q[a][y] <= e^(eps d(a, b)) Q[b][y]`, and rows summing to 1.
fn assert_private(q: &[Vec<f64>], places: &[(f64, f64, f64)], lonlat: bool, epsilon: f64) {
    for (a, pa) in places.iter().enumerate() {
        let sum: f64 = q[a].iter().sum();
        assert!((sum - 1.0).abs() <= 1e-9, "row {a} sums to {sum}");
        for (b, pb) in places.iter().enumerate() {
            let bound = (epsilon * distance((pa.0, pa.1), (pb.0, pb.1), lonlat)).exp();
            for (y, (&qa, &qb)) in q[a].iter().zip(&q[b]).enumerate() {
                assert!(
                    qa <= bound * qb * (1.0 + PAIR_SLACK) + 1e-300,
                    "Q[{a}][{y}] = {qa} > e^(eps d) Q[{b}][{y}] = {}",
                    bound * qb
                );
            }
        }
    }
}

fn compare(n: usize, lonlat: bool, skewed: bool, epsilon: f64, seed: u64) {
    let dir = TempDir::new("first-order");
    let set = places(n, lonlat, skewed, seed);
    let path = problem(&dir, &set, lonlat, epsilon);
    // The exact program's optimum lies between its bound and its objective (it can end at
    // reduced accuracy, `feasible` with a gap of about 1e-4).
    let exact = solve(&path, "lp", "600");
    let (low, high) = (
        exact["bound"].as_f64().unwrap(),
        exact["objective"].as_f64().unwrap(),
    );
    let fast = solve(&path, "first-order", "20");
    let (objective, bound) = (
        fast["objective"].as_f64().unwrap(),
        fast["bound"].as_f64().unwrap(),
    );
    assert_private(&channel(&fast), &set, lonlat, epsilon);
    assert!(
        bound <= high * (1.0 + EXACT_TOLERANCE),
        "bound {bound} above the exact program's channel {high}"
    );
    assert!(
        objective >= low * (1.0 - EXACT_TOLERANCE),
        "channel {objective} below the exact program's bound {low}"
    );
    assert!(
        objective <= low * (1.0 + FIRST_ORDER_DEMAND),
        "channel {objective} more than {FIRST_ORDER_DEMAND} above the exact bound {low}"
    );
    if fast["status"] == "optimal" {
        assert!(fast["gap"]["closed"].as_bool().unwrap());
    }
}

#[test]
fn first_order_meets_the_exact_program_in_the_plane_with_a_uniform_prior() {
    compare(36, false, false, 1.0, 1);
}

#[test]
fn first_order_meets_the_exact_program_in_the_plane_with_a_skewed_prior() {
    compare(40, false, true, 1.0, 2);
}

#[test]
fn first_order_meets_the_exact_program_on_lonlat_places_with_a_uniform_prior() {
    compare(36, true, false, 0.02, 3);
}

#[test]
fn first_order_meets_the_exact_program_on_lonlat_places_with_a_skewed_prior() {
    compare(40, true, true, 0.02, 4);
}
