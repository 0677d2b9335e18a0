//! Points domains read from CSV files: great-circle distances against an independent formula,
//! validation errors (library and binary, exit 2), and a solve that round-trips through the
//! same problem written with explicit matrices.

use crate::bin::{command, TempDir};
use mechsynth::geo::haversine_km;
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

/// Paris (Hotel de Ville) - London (Charing Cross) great-circle distance, km, as commonly
/// quoted for these coordinates (e.g. by the haversine calculators of movable-type.co.uk).
const PARIS_LONDON_KM: f64 = 343.5;
/// Rounding of that quoted figure (one decimal) plus float error.
const QUOTED_DISTANCE_TOLERANCE_KM: f64 = 0.1;
/// Agreement between two exact formulas for the same great-circle distance, km.
const FORMULA_AGREEMENT_KM: f64 = 1e-6;
/// Agreement between objectives of two formulations of the same problem.
const OBJECTIVE_AGREEMENT: f64 = 1e-6;

const R: f64 = 6371.0088;

/// Spherical law of cosines: `R acos(sin phi1 sin phi2 + cos phi1 cos phi2 cos dlambda)`.
fn law_of_cosines_km(lon1: f64, lat1: f64, lon2: f64, lat2: f64) -> f64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let dl = (lon2 - lon1).to_radians();
    let c = p1.sin() * p2.sin() + p1.cos() * p2.cos() * dl.cos();
    R * c.clamp(-1.0, 1.0).acos()
}

const PRIVACY: &str = "[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"haversine\"\nepsilon = 2.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n";

fn problem_text(points: &str, extra: &str) -> String {
    format!("[domain]\npoints = {{ {points} }}\n{extra}{PRIVACY}")
}

fn load(dir: &TempDir, csv: &str, points: &str, extra: &str) -> Result<Problem, String> {
    dir.write("places.csv", csv);
    let path = dir.write("p.toml", &problem_text(points, extra));
    Problem::load(&path).map_err(|e| e.to_string())
}

const LONLAT: &str =
    "file = \"places.csv\", x = \"lon\", y = \"lat\", label = \"name\", coordinates = \"lonlat\"";

#[test]
fn haversine_matches_known_pairs_and_an_independent_formula() {
    let (paris, london) = ([2.3522, 48.8566], [-0.1278, 51.5074]);
    let d = haversine_km(paris, london);
    assert!(
        (d - PARIS_LONDON_KM).abs() <= QUOTED_DISTANCE_TOLERANCE_KM,
        "{d}"
    );
    let cosines = law_of_cosines_km(paris[0], paris[1], london[0], london[1]);
    assert!(
        (d - cosines).abs() <= FORMULA_AGREEMENT_KM,
        "{d} vs {cosines}"
    );
    // A quarter meridian is pi R / 2; half the equator is pi R.
    let quarter = haversine_km([10.0, 0.0], [10.0, 90.0]);
    assert!((quarter - std::f64::consts::FRAC_PI_2 * R).abs() <= FORMULA_AGREEMENT_KM);
    let half = haversine_km([-90.0, 0.0], [90.0, 0.0]);
    assert!((half - std::f64::consts::PI * R).abs() <= FORMULA_AGREEMENT_KM);
}

#[test]
fn a_lonlat_points_domain_uses_great_circle_distances_for_metric_and_loss() {
    let dir = TempDir::new("dist");
    let csv = "name,lon,lat,count\nParis,2.3522,48.8566,3\nLondon,-0.1278,51.5074,1\nBerlin,13.4050,52.5200,0\n";
    let p = load(&dir, csv, LONLAT, "").unwrap();
    let coords = [[2.3522, 48.8566], [-0.1278, 51.5074], [13.4050, 52.5200]];
    let d = p.domain.natural_distances();
    for a in 0..3 {
        for b in 0..3 {
            if a == b {
                // The law of cosines is ill-conditioned at 0 (acos near 1); haversine is exact.
                assert_eq!(d[a][b], 0.0);
                continue;
            }
            let want = law_of_cosines_km(coords[a][0], coords[a][1], coords[b][0], coords[b][1]);
            assert!((d[a][b] - want).abs() <= FORMULA_AGREEMENT_KM, "{a},{b}");
        }
    }
    assert_eq!(p.domain.labels(), ["Paris", "London", "Berlin"]);
    // The weight column becomes the prior.
    let w = format!("{LONLAT}, weight = \"count\"");
    let p = load(&dir, csv, &w, "").unwrap();
    assert_eq!(p.domain.prior(), [0.75, 0.25, 0.0]);
}

#[test]
fn planar_points_use_euclidean_distance_and_default_labels() {
    let dir = TempDir::new("plane");
    let csv = "px,py\n0,0\n3,4\n-1,2.5\n";
    let text = "[domain]\npoints = { file = \"pts.csv\", x = \"px\", y = \"py\" }\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 1.0\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n";
    dir.write("pts.csv", csv);
    let p = Problem::load(&dir.write("p.toml", text)).unwrap();
    assert_eq!(p.domain.labels(), ["0", "1", "2"]);
    let d = p.domain.natural_distances();
    assert_eq!(d[0][1], 5.0);
    assert!((d[1][2] - (16.0f64 + 2.25).sqrt()).abs() <= FORMULA_AGREEMENT_KM);
    assert_eq!(p.domain.prior(), [1.0 / 3.0; 3]);
}

#[test]
fn bad_points_files_name_the_key_the_line_and_the_value() {
    let dir = TempDir::new("errors");
    let good = "name,lon,lat,count\nA,2.0,48.0,1\nB,2.1,48.1,2\n";
    let cases: Vec<(&str, String, &str, Vec<&str>)> = vec![
        (
            good,
            LONLAT.replace("places.csv", "missing.csv"),
            "",
            vec!["domain.points.file", "missing.csv"],
        ),
        (
            good,
            LONLAT.replace("\"lat\"", "\"latitude\""),
            "",
            vec!["domain.points.y", "latitude", "lon, lat"],
        ),
        (
            "name,lon,lat\nA,2.0,48.0\nB,east,48.1\n",
            LONLAT.into(),
            "",
            vec!["line 3", "\"lon\"", "east", "not a number"],
        ),
        (
            "name,lon,lat\nA,2.0,48.0\nA,2.1,48.1\n",
            LONLAT.into(),
            "",
            vec!["domain.points.label", "\"A\"", "lines 2 and 3"],
        ),
        (
            "name,lon,lat\nA,2.0,48.0\n",
            LONLAT.into(),
            "",
            vec!["domain.points.file", "at least 2 points"],
        ),
        (
            "",
            LONLAT.into(),
            "",
            vec!["domain.points.file", "is empty", "header row"],
        ),
        (
            "name,lon,lat\nA,2.0,48.0\nB,2.1,91.0\n",
            LONLAT.into(),
            "",
            vec!["line 3", "\"lat\"", "91", "[-90, 90]"],
        ),
        (
            "name,lon,lat\nA,190.0,48.0\nB,2.1,48.1\n",
            LONLAT.into(),
            "",
            vec!["line 2", "\"lon\"", "190", "[-180, 180]"],
        ),
        (
            good,
            format!("{LONLAT}, weight = \"count\""),
            "prior = [0.5, 0.5]\n",
            vec!["domain.points.weight", "domain.prior"],
        ),
        (
            "name,lon,lat,count\nA,2.0,48.0,1\nB,2.1,48.1,-2\n",
            format!("{LONLAT}, weight = \"count\""),
            "",
            vec!["line 3", "\"count\"", "-2"],
        ),
    ];
    for (csv, points, extra, needles) in cases {
        let e = load(&dir, csv, &points, extra).expect_err(&points);
        for n in needles {
            assert!(e.contains(n), "{e:?} lacks {n:?}");
        }
    }
    // Euclidean on lon/lat degrees is allowed, with a warning.
    let euclid = problem_text(LONLAT, "").replace("\"haversine\"", "\"euclidean\"");
    let p = Problem::load(&dir.write("e.toml", &euclid)).unwrap();
    assert!(
        p.warnings.iter().any(|w| w.contains("raw degrees")),
        "{:?}",
        p.warnings
    );
    // A haversine metric needs lon/lat points.
    let plane = "file = \"places.csv\", x = \"lon\", y = \"lat\"";
    let e = load(&dir, good, plane, "").unwrap_err();
    assert!(
        e.contains("privacy[0].metric") && e.contains("lonlat"),
        "{e}"
    );
}

#[test]
fn the_binary_exits_2_on_a_bad_points_file() {
    let dir = TempDir::new("cli");
    dir.write("places.csv", "name,lon,lat\nA,2.0,48.0\nB,2.1,north\n");
    let path = dir.write("p.toml", &problem_text(LONLAT, ""));
    let out = command()
        .args(["solve", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("north") && err.contains("line 3"), "{err}");
}

/// The same problem written with labels and explicit matrices computed here.
fn explicit_problem(labels: &[&str], coords: &[[f64; 2]], eps: f64) -> String {
    let m: Vec<String> = coords
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let row: Vec<String> = coords
                .iter()
                .enumerate()
                .map(|(j, b)| match i == j {
                    true => "0.0".to_string(),
                    false => format!("{:e}", law_of_cosines_km(a[0], a[1], b[0], b[1])),
                })
                .collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    let m = format!("[{}]", m.join(", "));
    let labels: Vec<String> = labels.iter().map(|l| format!("{l:?}")).collect();
    format!("[domain]\nlabels = [{}]\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = {m}\nepsilon = {eps}\n[objective]\nkind = \"expected-loss\"\nloss = {{ matrix = {m} }}\n", labels.join(", "))
}

#[test]
fn a_points_domain_round_trips_through_solve() {
    let dir = TempDir::new("solve");
    let labels = ["Louvre", "Eiffel", "Bastille", "Nord", "Montsouris"];
    let coords = [
        [2.3376, 48.8606],
        [2.2945, 48.8584],
        [2.3692, 48.8532],
        [2.3553, 48.8809],
        [2.3380, 48.8222],
    ];
    let csv: String = std::iter::once("name,lon,lat\n".to_string())
        .chain(
            labels
                .iter()
                .zip(&coords)
                .map(|(l, c)| format!("{l},{},{}\n", c[0], c[1])),
        )
        .collect();
    let p = load(&dir, &csv, LONLAT, "").unwrap();
    let report = solve(&p, &SolveOptions::default()).unwrap();
    assert!(report.status.is_optimal(), "{}", report.status);
    assert!(report.certificate.as_ref().unwrap().all_hold);
    assert_eq!(report.labels, labels);
    let text = explicit_problem(&labels, &coords, 2.0);
    let q = Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("explicit.toml")).unwrap())
        .unwrap();
    let explicit = solve(&q, &SolveOptions::default()).unwrap();
    let (a, b) = (report.objective.unwrap(), explicit.objective.unwrap());
    assert!((a - b).abs() <= OBJECTIVE_AGREEMENT, "{a} vs {b}");
}

/// Two places at the same coordinates are solved (their rows are forced equal) with a warning
/// that names both; places a metre apart, or on distinct lines of a planar file, get none.
#[test]
fn coincident_points_are_named_in_a_warning() {
    let dir = TempDir::new("coincident");
    let warned = |p: &Problem| p.warnings.iter().any(|w| w.contains("same place"));
    let csv = "name,lon,lat\nA,13.37,52.51\nB,13.40,52.52\nC,13.37,52.51\nD,13.41,52.50\n";
    let p = load(&dir, csv, LONLAT, "").unwrap();
    let w: Vec<&String> = p
        .warnings
        .iter()
        .filter(|w| w.contains("same place"))
        .collect();
    assert_eq!(w.len(), 1, "{:?}", p.warnings);
    assert!(
        w[0].contains("\"A\" and \"C\"") && w[0].contains("1 pair "),
        "{}",
        w[0]
    );
    let report = solve(&p, &SolveOptions::default()).unwrap();
    let rows = report.channel.as_ref().unwrap().rows();
    assert_eq!(rows[0], rows[2]);
    assert!(report.warnings.iter().any(|w| w.contains("same place")));
    let apart = "name,lon,lat\nA,13.37,52.51\nB,13.40,52.52\nC,13.37001,52.51\n";
    assert!(!warned(&load(&dir, apart, LONLAT, "").unwrap()));
}
