//! Location privacy: exact geo-indistinguishability (every pair at eps) versus the spanner
//! encoding (Bordenabe, Chatzikokolakis, Palamidessi, CCS 2014) on Euclidean grids, and the
//! 34 Paris places of `problems/`. Before timing, each case prints its objective and the number
//! of LP rows its privacy encoding adds, on stderr.
//!
//! Run with `cargo bench --bench geo`; numbers are quoted in the README.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mechsynth::formulation::ChannelLp;
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::Path;

fn grid(side: usize, spanner: Option<f64>) -> Problem {
    let approx = spanner.map_or(String::new(), |t| {
        format!("approximate = {{ spanner = {t} }}\n")
    });
    let text = format!("[domain]\ngrid = {{ rows = {side}, cols = {side} }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"euclidean\"\nepsilon = 0.5\n{approx}[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n");
    Problem::from_spec(ProblemSpec::from_toml(&text, Path::new("bench.toml")).unwrap()).unwrap()
}

fn problem_file(name: &str) -> Problem {
    Problem::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems")
            .join(name),
    )
    .unwrap()
}

fn privacy_rows(problem: &Problem) -> usize {
    let n = problem.domain.size();
    let mut lp = ChannelLp::new(n, n);
    let base = lp.program().num_constraints();
    for p in &problem.privacy {
        p.encode(&mut lp);
    }
    lp.program().num_constraints() - base
}

fn bench(c: &mut Criterion) {
    let options = SolveOptions::default();
    let mut group = c.benchmark_group("geo");
    group.sample_size(10);
    let cases = [
        ("grid-5x5-exact", grid(5, None)),
        ("grid-5x5-spanner-1.5", grid(5, Some(1.5))),
        ("grid-8x8-exact", grid(8, None)),
        ("grid-8x8-spanner-1.5", grid(8, Some(1.5))),
        ("paris-34-exact", problem_file("paris-landmarks.toml")),
        (
            "paris-34-spanner-1.2",
            problem_file("paris-landmarks-spanner.toml"),
        ),
    ];
    for (name, p) in &cases {
        let report = solve(p, &options).unwrap();
        eprintln!(
            "{name}: objective {:.6}, privacy rows {}, status {}",
            report.objective.unwrap(),
            privacy_rows(p),
            report.status
        );
        group.bench_with_input(BenchmarkId::new("solve", name), p, |b, p| {
            b.iter(|| solve(p, &options).unwrap())
        });
    }
    group.finish();
}

/// The first `n` French towns of `examples/location` with their populations as the prior.
fn towns(n: usize) -> Problem {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/location");
    let text = std::fs::read_to_string(dir.join("france-towns-500.csv")).unwrap();
    let head: String = text.lines().take(n + 1).map(|l| format!("{l}\n")).collect();
    let scratch = std::env::temp_dir().join(format!("mechsynth-bench-towns-{n}.csv"));
    std::fs::write(&scratch, head).unwrap();
    let toml = format!("[domain]\npoints = {{ file = \"{}\", x = \"lon\", y = \"lat\", weight = \"population\", coordinates = \"lonlat\" }}\n[[privacy]]\nnotion = \"d-privacy\"\nmetric = \"haversine\"\nepsilon = 0.05\n[objective]\nkind = \"expected-loss\"\nloss = \"absolute\"\n", scratch.display());
    Problem::from_spec(ProblemSpec::from_toml(&toml, &dir.join("bench.toml")).unwrap()).unwrap()
}

/// The first-order method against the exact interior point by output column on the 60 largest
/// French towns (population prior): each run's time, objective and bound on stderr.
fn first_order(c: &mut Criterion) {
    let problem = towns(60);
    let mut group = c.benchmark_group("geo-towns-60");
    group.sample_size(10);
    for (name, method, limit) in [
        ("exact", mechsynth::MethodChoice::RatioInteriorPoint, 600.0),
        ("first-order-5s", mechsynth::MethodChoice::FirstOrder, 5.0),
    ] {
        let mut options = SolveOptions {
            method,
            ..SolveOptions::default()
        };
        options.backend_options.time_limit_seconds = limit;
        let report = solve(&problem, &options).unwrap();
        eprintln!(
            "{name}: objective {:.6}, bound {:.6}, status {}",
            report.objective.unwrap(),
            report.bound.unwrap_or(f64::NAN),
            report.status
        );
        group.bench_function(name, |b| b.iter(|| solve(&problem, &options).unwrap()));
    }
    group.finish();
}

criterion_group!(benches, bench, first_order);
criterion_main!(benches);
