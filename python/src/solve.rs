//! `solve` and the channel heatmap: a problem's JSON in, the report's JSON and the channel as a
//! numpy array out. The solve runs without the GIL.

use crate::arrays::array_of;
use crate::errors::{bad_argument, invalid, problem};
use crate::problem::spec_of;
use mechsynth::problem::ProblemBuilder;
use mechsynth::report::GapTolerance;
use mechsynth::solve::ProfileLevel;
use mechsynth::{BackendKind, MethodChoice, SolveOptions};
use numpy::PyArray2;
use pyo3::prelude::*;

/// The largest time limit accepted, in seconds (the command line's).
pub(crate) const MAX_TIME_LIMIT: f64 = 1e9;

/// A kebab-case name as the serde enum `T` (`"lazy-rows"`, `"highs"`).
pub(crate) fn choice<T: serde::de::DeserializeOwned>(
    name: &str,
    value: &str,
    accepted: &str,
) -> PyResult<T> {
    serde_json::from_value(serde_json::Value::String(value.into()))
        .map_err(|_| bad_argument(name, value, accepted))
}

/// The fields of a report most calls read, so that Python reads them without parsing the
/// report's JSON: status, method, objective, bound, absolute and relative gap.
type Summary = (
    String,
    String,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
);

/// What `solve` returns: the report's JSON, the channel and the summary.
type Solved<'py> = (String, Option<Bound<'py, PyArray2<f64>>>, Summary);

/// A serde enum's name as the report writes it.
fn name_of(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// Solve the problem of `spec_json`; returns the report's JSON, the certified channel (or
/// `None` when there is none) and the report's summary.
#[pyfunction]
#[pyo3(signature = (spec_json, *, method="auto", solver="clarabel", time_limit=600.0, gap=None, profile="auto"))]
fn solve<'py>(
    py: Python<'py>,
    spec_json: &str,
    method: &str,
    solver: &str,
    time_limit: f64,
    gap: Option<f64>,
    profile: &str,
) -> PyResult<Solved<'py>> {
    let method: MethodChoice = choice(
        "method",
        method,
        "one of auto, lp, lazy-rows, decomposition, ldp-interior-point, ratio-interior-point, lip-interior-point, line, tiled, first-order",
    )?;
    let backend: BackendKind = choice("solver", solver, "one of clarabel, highs")?;
    let profile: ProfileLevel = choice("profile", profile, "one of auto, full, none")?;
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT) {
        return Err(bad_argument(
            "time_limit",
            time_limit,
            &format!("must be a positive number of seconds, at most {MAX_TIME_LIMIT:e}"),
        ));
    }
    let relative = gap.unwrap_or(GapTolerance::DEFAULT.relative);
    if !(relative.is_finite() && (0.0..1.0).contains(&relative)) {
        return Err(bad_argument(
            "gap",
            relative,
            "must be a relative gap in [0, 1)",
        ));
    }
    let problem = ProblemBuilder::from_spec(spec_of(spec_json)?)
        .build()
        .map_err(problem)?;
    let mut options = SolveOptions {
        method,
        backend,
        gap: GapTolerance {
            relative,
            ..GapTolerance::DEFAULT
        },
        profile,
        ..SolveOptions::default()
    };
    options.backend_options.time_limit_seconds = time_limit;
    let report = py
        .detach(|| mechsynth::solve(&problem, &options))
        .map_err(crate::errors::solve)?;
    let json = serde_json::to_string(&report)
        .map_err(|e| invalid(format!("cannot write the report: {e}")))?;
    let channel = match &report.channel {
        Some(c) => Some(array_of(py, c.rows())?),
        None => None,
    };
    let summary = (
        name_of(&report.status),
        name_of(&report.method),
        report.objective,
        report.bound,
        report.gap.as_ref().map(|g| g.absolute),
        report.gap.as_ref().map(|g| g.relative),
    );
    Ok((json, channel, summary))
}

/// The SVG heatmap of a channel (rows: inputs, columns: outputs).
#[pyfunction]
#[pyo3(signature = (channel, inputs, outputs, title))]
fn channel_svg(
    channel: numpy::PyReadonlyArray2<'_, f64>,
    inputs: Vec<String>,
    outputs: Vec<String>,
    title: &str,
) -> PyResult<String> {
    let rows = crate::arrays::rows_of("channel", &channel)?;
    mechsynth::curve::channel_svg(&rows, &inputs, &outputs, title).map_err(invalid)
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(channel_svg, m)?)?;
    Ok(())
}
