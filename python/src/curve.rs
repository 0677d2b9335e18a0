//! `curve` and `verify`: a problem's JSON and plain arguments in; the curve's CSV text (the
//! command line's, byte for byte) and its columns as numpy arrays, or the verify report's JSON,
//! out. The points and checks run without the GIL.

use crate::errors::{bad_argument, invalid, problem, SolverError};
use crate::problem::spec_of;
use crate::solve::{choice, MAX_TIME_LIMIT};
use mechsynth::curve::{
    curve_svg as draw_curve, parse_csv, retain_mechanisms, run_curve, to_csv, Axis, Compare,
    CurveError, CurveOptions, Grid, PlotOptions, SeriesSource, FIGURE_SIZE, TIME_LIMIT_NOTE,
};
use mechsynth::problem::ProblemBuilder;
use mechsynth::report::GapTolerance;
use mechsynth::{BackendKind, SolveOptions};
use numpy::PyArray1;
use pyo3::exceptions::PyTimeoutError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// The largest plot side accepted, in pixels.
const MAX_PLOT_SIDE: u32 = 20_000;

/// A curve error as the command line classifies it: bad input (exit 2) or a failure (exit 1).
fn curve_error(error: CurveError) -> PyErr {
    curve_error_named(error, &[])
}

/// [`curve_error`], with the flags the library's message names (`--priors`) replaced by the
/// arguments of the Python function (`priors`): pairs `(flag, argument)`.
fn curve_error_named(error: CurveError, renames: &[(&str, &str)]) -> PyErr {
    let message = renames.iter().fold(error.to_string(), |m, (flag, name)| {
        m.replace(&format!("`{flag}`"), &format!("`{name}`"))
    });
    match error {
        CurveError::Invalid { .. } | CurveError::Problem(_) | CurveError::Resume { .. } => {
            invalid(message)
        }
        CurveError::Io { .. } | CurveError::Plot { .. } => SolverError::new_err(message),
    }
}

/// A positive number of seconds, at most [`MAX_TIME_LIMIT`]; errors name `name`.
fn seconds(name: &str, value: f64) -> PyResult<f64> {
    if value.is_finite() && value > 0.0 && value <= MAX_TIME_LIMIT {
        Ok(value)
    } else {
        Err(bad_argument(
            name,
            value,
            &format!("must be a positive number of seconds, at most {MAX_TIME_LIMIT:e}"),
        ))
    }
}

/// The Python argument that gives the grid of `axis`.
fn grid_argument(axis: Axis) -> &'static str {
    match axis {
        Axis::Epsilon => "epsilons",
        Axis::DomainSize => "sizes",
        Axis::Prior => "priors",
        Axis::Users => "users",
    }
}

/// The grid of `axis` from a spec string (`"0.1:5:25"`, `"log:0.1:10:20"`, `"1,2,3"`) or a
/// list of numbers.
fn grid_of(axis: Axis, grid: &Bound<'_, PyAny>) -> PyResult<Grid> {
    let key = grid_argument(axis);
    let parsed = if grid.is_instance_of::<PyString>() {
        Grid::parse(axis, key, &grid.extract::<String>()?)
    } else {
        let values: Vec<f64> = grid.extract().map_err(|_| {
            invalid(format!(
                "invalid `{key}`: give a grid string (FROM:TO:COUNT, log:FROM:TO:COUNT or a comma list) or a sequence of numbers"
            ))
        })?;
        Grid::new(axis, key, values)
    };
    parsed.map_err(curve_error)
}

/// Run the curve of the problem `spec_json` over `grid` along `axis` (`"epsilon"`,
/// `"domain-size"`, `"prior"`, `"users"`), as `mechsynth curve` does; returns the CSV text and
/// a JSON object with the axis, its label, the default title and the points left out or cut
/// by the time limits.
#[pyfunction]
#[pyo3(signature = (spec_json, *, axis, grid, compare=Vec::new(), registry=true, mechanisms=Vec::new(), time_limit=None, point_time_limit=600.0, gap=None, solver="clarabel"))]
#[allow(clippy::too_many_arguments)]
fn curve(
    py: Python<'_>,
    spec_json: &str,
    axis: &str,
    grid: &Bound<'_, PyAny>,
    compare: Vec<String>,
    registry: bool,
    mechanisms: Vec<String>,
    time_limit: Option<f64>,
    point_time_limit: f64,
    gap: Option<f64>,
    solver: &str,
) -> PyResult<(String, String)> {
    let axis: Axis = choice("axis", axis, "one of epsilon, domain-size, prior, users")?;
    let backend: BackendKind = choice("solver", solver, "one of clarabel, highs")?;
    let point_time_limit = seconds("point_time_limit", point_time_limit)?;
    let time_limit = time_limit.map(|t| seconds("time_limit", t)).transpose()?;
    let relative = gap.unwrap_or(GapTolerance::DEFAULT.relative);
    if !(relative.is_finite() && (0.0..1.0).contains(&relative)) {
        return Err(bad_argument(
            "gap",
            relative,
            "must be a relative gap in [0, 1)",
        ));
    }
    let spec = spec_of(spec_json)?;
    let problem_checked = ProblemBuilder::from_spec(spec.clone())
        .spec()
        .map_err(problem)?;
    let grid = grid_of(axis, grid)?;
    let mut sources = vec![SeriesSource::Optimum];
    for c in &compare {
        sources.push(SeriesSource::Compare(
            Compare::parse("compare", c).map_err(curve_error)?,
        ));
    }
    if registry {
        sources.push(SeriesSource::Registry);
    }
    let known: Vec<&str> = mechsynth::verify::REGISTRY.iter().map(|e| e.name).collect();
    if let Some(unknown) = mechanisms.iter().find(|m| !known.contains(&m.as_str())) {
        return Err(bad_argument(
            "mechanisms",
            unknown,
            &format!(
                "not a registry mechanism; the registry has {}",
                known.join(", ")
            ),
        ));
    }
    let options = CurveOptions {
        solve: SolveOptions {
            backend,
            gap: GapTolerance {
                relative,
                ..GapTolerance::DEFAULT
            },
            ..SolveOptions::default()
        },
        point_time_limit: Some(point_time_limit),
        time_limit,
        ..CurveOptions::default()
    };
    // The library names the command line's flags; here the arguments are named.
    let flags = [(axis.flag(), grid_argument(axis)), ("--compare", "compare")];
    let result = py
        .detach(|| run_curve(&problem_checked, &grid, &sources, &options))
        .map_err(|e| curve_error_named(e, &flags))?;
    let mut rows = result.rows;
    retain_mechanisms(&mut rows, &mechanisms);
    let mut cut: Vec<f64> = Vec::new();
    for r in rows.iter().filter(|r| r.notes.contains(TIME_LIMIT_NOTE)) {
        if !cut.iter().any(|x| x.to_bits() == r.x.to_bits()) {
            cut.push(r.x);
        }
    }
    let meta = serde_json::json!({
        "axis": axis,
        "x_label": axis.label(),
        "title": spec.name.clone().unwrap_or_else(|| "curve".into()),
        "grid": grid.values,
        "timed_out": result.timed_out,
        "cut": cut,
    });
    Ok((to_csv(&rows), meta.to_string()))
}

/// The columns of a curve CSV (one entry per row): series names, x, value, status, bound,
/// leakage and notes; absent numbers are NaN.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn curve_columns<'py>(
    py: Python<'py>,
    csv: &str,
) -> PyResult<(
    Vec<String>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Vec<String>,
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<f64>>,
    Vec<String>,
)> {
    let rows = parse_csv(csv, "the curve's CSV").map_err(curve_error)?;
    let column = |f: &dyn Fn(&mechsynth::curve::Row) -> Option<f64>| {
        PyArray1::from_vec(py, rows.iter().map(|r| f(r).unwrap_or(f64::NAN)).collect())
    };
    Ok((
        rows.iter().map(|r| r.series.clone()).collect(),
        column(&|r| Some(r.x)),
        column(&|r| r.value),
        rows.iter().map(|r| r.status.to_string()).collect(),
        column(&|r| r.bound),
        column(&|r| r.leakage),
        rows.iter().map(|r| r.notes.clone()).collect(),
    ))
}

/// The SVG of a curve CSV (the command line's `curve --svg`).
#[pyfunction]
#[pyo3(signature = (csv, *, title, x_label, y_label, width=FIGURE_SIZE.0, height=FIGURE_SIZE.1))]
fn curve_svg(
    csv: &str,
    title: String,
    x_label: String,
    y_label: String,
    width: u32,
    height: u32,
) -> PyResult<String> {
    for (name, side) in [("width", width), ("height", height)] {
        if side == 0 || side > MAX_PLOT_SIDE {
            return Err(bad_argument(
                name,
                side,
                &format!("must be a whole number of pixels from 1 to {MAX_PLOT_SIDE}"),
            ));
        }
    }
    let rows = parse_csv(csv, "the curve's CSV").map_err(curve_error)?;
    let plot = PlotOptions {
        title,
        x_label,
        y_label,
        size: (width, height),
    };
    draw_curve(&rows, &plot).map_err(curve_error)
}

/// Verify the registry's closed forms against the problem `spec_json`, as `mechsynth verify`
/// does (with the sweep when `sweep` is true or the problem has a `[sweep]`); returns the JSON
/// of `--format json` and the table.
#[pyfunction]
#[pyo3(signature = (spec_json, *, sweep=false, solver="clarabel", time_limit=600.0))]
fn verify(
    py: Python<'_>,
    spec_json: &str,
    sweep: bool,
    solver: &str,
    time_limit: f64,
) -> PyResult<(String, String)> {
    use mechsynth::verify::SweepError;
    let backend: BackendKind = choice("solver", solver, "one of clarabel, highs")?;
    let time_limit = seconds("time_limit", time_limit)?;
    let spec = ProblemBuilder::from_spec(spec_of(spec_json)?)
        .spec()
        .map_err(problem)?;
    let checked = ProblemBuilder::from_spec(spec.clone())
        .build()
        .map_err(problem)?;
    let mut options = SolveOptions {
        backend,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = time_limit;
    let run = || -> PyResult<(String, String)> {
        let report = mechsynth::verify::verify(&checked, &options).map_err(crate::errors::solve)?;
        let mut all_hold = report.all_hold;
        let mut text = report.to_table();
        let mut out = match serde_json::to_value(&report) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Err(invalid("cannot write the verify report")),
        };
        if sweep || spec.sweep.is_some() {
            let grid = spec.sweep.clone().unwrap_or_default();
            let s = match mechsynth::verify::sweep(&spec, &grid, &options) {
                Ok(s) => s,
                Err(e @ SweepError::TimeLimit { .. }) => {
                    return Err(PyTimeoutError::new_err(format!(
                        "{e}; raise `time_limit` or narrow the sweep's grid"
                    )))
                }
                Err(SweepError::Problem(p)) => return Err(problem(p)),
                Err(SweepError::Solve(s)) => return Err(crate::errors::solve(s)),
            };
            all_hold &= s.all_hold;
            text += "\nsweep\n";
            text += &s.to_table();
            let value = serde_json::to_value(&s)
                .map_err(|e| invalid(format!("cannot write the sweep: {e}")))?;
            out.insert("sweep".into(), value);
        }
        out.insert("all_hold".into(), serde_json::Value::Bool(all_hold));
        let json = serde_json::to_string(&serde_json::Value::Object(out))
            .map_err(|e| invalid(format!("cannot write the verify report: {e}")))?;
        Ok((json, text))
    };
    py.detach(run)
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(curve, m)?)?;
    m.add_function(wrap_pyfunction!(curve_columns, m)?)?;
    m.add_function(wrap_pyfunction!(curve_svg, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    Ok(())
}
