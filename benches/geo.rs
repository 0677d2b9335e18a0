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

criterion_group!(benches, bench);
criterion_main!(benches);
