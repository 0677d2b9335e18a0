//! Curves: values against `solve`, status marks of an infeasible closed form, well-formed and
//! renderable SVG, reproducible figures, resume, and errors for bad grids.

use crate::bin::{root, run as mechsynth};
use mechsynth::curve::{
    apply_axis, channel_svg, curve_svg, parse_csv, run_curve, run_figure, Axis, CurveOptions, Grid,
    PlotOptions, PointStatus, SeriesSource,
};
use mechsynth::{solve, Problem, ProblemSpec, SolveOptions};
use std::path::{Path, PathBuf};

fn spec(name: &str) -> ProblemSpec {
    ProblemSpec::load(&root().join("problems").join(name)).unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = root().join("target").join("curve-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Parse and rasterize an SVG with the library's renderer (the bundled font); return the
/// number of non-white pixels.
fn render(svg: &str, png: Option<&Path>) -> usize {
    let bytes = mechsynth::curve::svg_to_png(svg, 1.0).expect("well-formed SVG");
    if let Some(p) = png {
        std::fs::write(p, &bytes).unwrap();
    }
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    pixmap
        .pixels()
        .iter()
        .filter(|p| p.red() < 250 || p.green() < 250 || p.blue() < 250)
        .count()
}

#[test]
fn grid_specs_parse() {
    let g = Grid::parse(Axis::Epsilon, "--epsilons", "0.1:5:25").unwrap();
    assert_eq!(g.values.len(), 25);
    assert_eq!(g.values[0], 0.1);
    assert_eq!(g.values[24], 5.0);
    assert!((g.values[1] - (0.1 + 4.9 / 24.0)).abs() < 1e-12);
    let g = Grid::parse(Axis::Epsilon, "--epsilons", "log:0.01:10:4").unwrap();
    assert_eq!((g.values[0], g.values[3]), (0.01, 10.0), "both ends exact");
    for (v, want) in g.values.iter().zip([0.01, 0.1, 1.0, 10.0]) {
        assert!((v - want).abs() < 1e-12 * want, "{v} vs {want}");
    }
    assert_eq!(
        Grid::parse(Axis::DomainSize, "--sizes", "2, 3,5")
            .unwrap()
            .values,
        vec![2.0, 3.0, 5.0]
    );
    for bad in ["1:2", "a:2:3", "1:2:0", "log:0:1:3", "-1,2", "1,,2"] {
        let e = Grid::parse(Axis::Epsilon, "--epsilons", bad)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--epsilons") && e.contains(bad.split(',').next().unwrap()),
            "{e}"
        );
    }
    assert!(Grid::parse(Axis::DomainSize, "--sizes", "2.5").is_err());
    assert!(Grid::parse(Axis::Prior, "--priors", "1").is_err());
}

#[test]
fn csv_values_equal_solve_at_the_same_points() {
    let base = spec("mmse-survey-lip.toml");
    let grid = Grid::new(Axis::Epsilon, "grid", vec![0.5, 1.5, 3.0]).unwrap();
    let out = run_curve(
        &base,
        &grid,
        &[SeriesSource::Optimum],
        &CurveOptions::default(),
    )
    .unwrap();
    let csv = mechsynth::curve::to_csv(&out.rows);
    let rows = parse_csv(&csv, "memory").unwrap();
    assert_eq!(rows.len(), 3);
    for (row, eps) in rows.iter().zip([0.5, 1.5, 3.0]) {
        let mut s = base.clone();
        s.set_epsilon(eps);
        let report = solve(&Problem::from_spec(s).unwrap(), &SolveOptions::default()).unwrap();
        assert_eq!(row.x, eps);
        assert_eq!(
            row.value, report.objective,
            "full precision round trip at eps {eps}"
        );
        assert_eq!(row.status.to_string(), report.status.to_string());
        assert_eq!(row.bound, report.bound);
    }
    // The prior axis changes the prior: P1 = 0.01 there equals the file itself.
    let p = apply_axis(&base, Axis::Prior, 0.01).unwrap();
    assert_eq!(p.domain.prior, Some(vec![0.99, 0.01]));
}

/// Thm 2 of lip-data-aggregation (binary LIP, eq. 21) is eps-LIP only when
/// P_min >= 1/(e^eps + 1); at P1 = 0.01 that is eps >= ln(99) ~ 4.595.
#[test]
fn an_infeasible_closed_form_is_marked() {
    let base = spec("mmse-survey-lip.toml");
    let eps = [0.5, 1.0, 2.0, 3.0, 4.0, 4.5, 4.7, 5.0, 6.0];
    let grid = Grid::new(Axis::Epsilon, "grid", eps.to_vec()).unwrap();
    let out = run_curve(
        &base,
        &grid,
        &[SeriesSource::Optimum, SeriesSource::Registry],
        &CurveOptions::default(),
    )
    .unwrap();
    let p1: f64 = 0.01;
    for e in eps {
        let holds = p1 >= 1.0 / (e.exp() + 1.0);
        let thm2 = out
            .rows
            .iter()
            .find(|r| r.x == e && r.series == "binary-lip-optimum")
            .expect("Thm 2 applies to a binary LIP MMSE problem");
        let want = if holds {
            PointStatus::Feasible
        } else {
            PointStatus::ViolatesConstraint
        };
        assert_eq!(thm2.status, want, "eps {e}");
        let opt = out
            .rows
            .iter()
            .find(|r| r.x == e && r.series == "optimum lip")
            .unwrap();
        assert_eq!(opt.status, PointStatus::Optimal);
        // Where Thm 2 is not private it may beat the optimum; where it is, it cannot.
        if holds {
            assert!(thm2.value.unwrap() >= opt.bound.unwrap() - 1e-9);
        }
    }
}

#[test]
fn svg_is_well_formed_and_renders() {
    let base = spec("mmse-survey-lip.toml");
    let grid = Grid::parse(Axis::Epsilon, "--epsilons", "0.5:6:8").unwrap();
    let sources = [
        SeriesSource::Optimum,
        SeriesSource::Compare(mechsynth::curve::Compare::parse("c", "ldp").unwrap()),
        SeriesSource::Registry,
    ];
    let out = run_curve(&base, &grid, &sources, &CurveOptions::default()).unwrap();
    let plot = PlotOptions {
        title: "binary survey under LIP, P1 = 0.01".into(),
        x_label: Axis::Epsilon.label().into(),
        y_label: "MSE".into(),
        size: (900, 560),
    };
    let svg = curve_svg(&out.rows, &plot).unwrap();
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert!(svg.contains("epsilon (nats)") && svg.contains("MSE"));
    assert!(
        svg.contains("optimum lip") && svg.contains("binary-lip-optimum"),
        "legend"
    );
    assert!(svg.contains("violates a constraint"), "status legend");
    assert!(
        svg.contains("log scale"),
        "values span more than two decades"
    );
    let png = root().join("target").join("curve-tests");
    std::fs::create_dir_all(&png).unwrap();
    assert!(
        render(&svg, Some(&png.join("curve.png"))) > 10_000,
        "something is drawn"
    );

    let heat = channel_svg(
        &[vec![0.7, 0.3], vec![0.2, 0.8]],
        &["no".into(), "yes".into()],
        &["no".into(), "yes".into()],
        "test",
    )
    .unwrap();
    assert!(heat.contains(">yes<") || heat.contains("yes"));
    assert!(render(&heat, Some(&png.join("heatmap.png"))) > 1_000);
    assert!(channel_svg(&[vec![1.0]], &[], &[], "bad").is_err());
}

#[test]
fn regenerating_a_figure_gives_the_same_csv() {
    let manifest = root()
        .join("figures")
        .join("lip-data-aggregation-fig5.toml");
    let options = CurveOptions::default();
    let dir = |n: &str| {
        let d = root().join("target").join("curve-tests").join(n);
        std::fs::create_dir_all(&d).unwrap();
        d
    };
    let a = run_figure(&manifest, &dir("fig-a"), &options).unwrap();
    let b = run_figure(&manifest, &dir("fig-b"), &options).unwrap();
    let (ca, cb) = (
        std::fs::read(&a.csv).unwrap(),
        std::fs::read(&b.csv).unwrap(),
    );
    assert!(!a.rows.is_empty());
    assert_eq!(ca, cb);
    assert_eq!(
        std::fs::read(&a.svg).unwrap(),
        std::fs::read(&b.svg).unwrap()
    );
}

#[test]
fn resume_skips_done_points() {
    let out = tmp("resume.csv");
    let o = out.to_str().unwrap();
    let file = "problems/mmse-survey-lip.toml";
    let first = mechsynth(&["curve", file, "--epsilons", "1,2", "--no-registry", "-o", o]);
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    // Plant a note that only a skipped point keeps (the value stays: resuming solves the
    // first optimal point again and refuses a CSV whose value does not reproduce).
    let text = std::fs::read_to_string(&out).unwrap();
    let planted: String = text
        .lines()
        .map(|l| {
            if l.starts_with("optimum lip,1.0,") {
                let fields: Vec<&str> = l.split(',').collect();
                format!("optimum lip,1.0,{},optimal,,,planted", fields[2])
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    std::fs::write(&out, &planted).unwrap();
    // Without --resume (or --force) the CSV is not overwritten.
    let refused = mechsynth(&[
        "curve",
        file,
        "--epsilons",
        "1,2,3",
        "--no-registry",
        "-o",
        o,
    ]);
    assert_eq!(refused.status.code(), Some(2));
    let second = mechsynth(&[
        "curve",
        file,
        "--epsilons",
        "1,2,3",
        "--no-registry",
        "-o",
        o,
        "--resume",
    ]);
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let rows = parse_csv(&std::fs::read_to_string(&out).unwrap(), o).unwrap();
    let xs: Vec<f64> = rows.iter().map(|r| r.x).collect();
    assert_eq!(xs, vec![1.0, 2.0, 3.0]);
    assert_eq!(rows[0].notes, "planted", "x = 1 was skipped");
    assert_eq!(rows[2].status, PointStatus::Optimal);
}

#[test]
fn bad_grids_exit_2_naming_flag_and_value() {
    let file = "problems/mmse-survey-lip.toml";
    for (flag, value) in [
        ("--epsilons", "0.1:5"),
        ("--epsilons", "0.1:5:abc"),
        ("--epsilons", "-1,2"),
        ("--priors", "0,0.5"),
        ("--sizes", "3,4"),
        ("--users", "0"),
    ] {
        let out = mechsynth(&["curve", file, flag, value]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}: {err}");
        assert!(err.contains(flag), "{flag} {value}: {err}");
        assert!(
            err.contains(value.split(',').next().unwrap()) || err.contains('0'),
            "{flag} {value}: {err}"
        );
    }
    let out = mechsynth(&["curve", file, "--epsilons", "1", "--compare", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--compare"));
}

#[test]
fn solve_svg_draws_the_channel() {
    let svg = tmp("dprivacy-line.svg");
    let out = mechsynth(&[
        "solve",
        "problems/dprivacy-line-8.toml",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(render(&text, Some(&svg.with_extension("png"))) > 1_000);
    assert!(text.contains("rows: input x"), "axis legend");
    // Not replaced without --force.
    let again = mechsynth(&[
        "solve",
        "problems/dprivacy-line-8.toml",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    // audit --svg draws the channel of a solve report.
    let report = tmp("dprivacy-line.json");
    let heat = tmp("dprivacy-line-audit.svg");
    let solved = mechsynth(&[
        "solve",
        "problems/dprivacy-line-8.toml",
        "--format",
        "json",
        "-o",
        report.to_str().unwrap(),
    ]);
    assert_eq!(solved.status.code(), Some(0));
    let audited = mechsynth(&[
        "audit",
        report.to_str().unwrap(),
        "--svg",
        heat.to_str().unwrap(),
    ]);
    assert_eq!(
        audited.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&audited.stderr)
    );
    assert!(render(&std::fs::read_to_string(&heat).unwrap(), None) > 1_000);
}

#[test]
fn committed_figures_parse_and_render() {
    let dir = root().join("figures").join("out");
    let png = root().join("target").join("curve-tests").join("figures");
    std::fs::create_dir_all(&png).unwrap();
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "svg") {
            let svg = std::fs::read_to_string(&path).unwrap();
            let out = png.join(path.file_stem().unwrap()).with_extension("png");
            assert!(render(&svg, Some(&out)) > 10_000, "{}", path.display());
            count += 1;
        }
    }
    assert!(count >= 7, "one SVG per manifest");
}

/// The frequency MSE of N users is one user's divided by N (same optimal channel).
#[test]
fn users_axis_scales_the_frequency_mse() {
    let base = spec("frequency-ldp-8.toml");
    let grid = Grid::new(Axis::Users, "--users", vec![1.0, 10.0, 250.0]).unwrap();
    let out = run_curve(
        &base,
        &grid,
        &[SeriesSource::Optimum],
        &CurveOptions::default(),
    )
    .unwrap();
    let v: Vec<f64> = out.rows.iter().map(|r| r.value.unwrap()).collect();
    for (i, n) in [1.0, 10.0, 250.0].iter().enumerate() {
        assert!((v[i] * n - v[0]).abs() <= 1e-6 * v[0], "{v:?}");
    }
}

#[test]
fn the_overall_time_limit_leaves_points_out() {
    let out = tmp("timed-out.csv");
    let run = mechsynth(&[
        "curve",
        "problems/mmse-survey-lip.toml",
        "--epsilons",
        "1:3:5",
        "--time-limit",
        "1e-9",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        run.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("--resume"));
    let rows = parse_csv(&std::fs::read_to_string(&out).unwrap(), "timed-out").unwrap();
    assert!(rows.is_empty());
}
