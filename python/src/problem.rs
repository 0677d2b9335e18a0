//! Problems from keyword arguments (through the library's `ProblemBuilder`, so they are
//! checked as a problem file is) and from TOML; a problem crosses to Python as the JSON text of
//! its `ProblemSpec`.

use crate::errors::{invalid, problem};
use mechsynth::objective::ObjectiveSpec;
use mechsynth::privacy::PrivacySpec;
use mechsynth::problem::{DomainSpec, ExpectedSpec, GridSpec, ProblemBuilder};
use mechsynth::ProblemSpec;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use pythonize::depythonize;
use std::path::Path;

/// `value` (a dict, list or number from Python) as the serde type `T`; errors name `key`.
pub(crate) fn typed<T: serde::de::DeserializeOwned>(
    key: &str,
    value: &Bound<'_, PyAny>,
) -> PyResult<T> {
    depythonize(value).map_err(|e| invalid(format!("invalid `{key}`: {e}")))
}

/// A list of privacy entries: one dict, or a list of dicts (`[[privacy]]` entries).
pub(crate) fn privacy_list(value: &Bound<'_, PyAny>) -> PyResult<Vec<PrivacySpec>> {
    if value.is_instance_of::<PyDict>() {
        return Ok(vec![typed("privacy", value)?]);
    }
    let list = value.cast::<PyList>().map_err(|_| {
        invalid("invalid `privacy`: give a dict such as {\"notion\": \"ldp\", \"epsilon\": 1.0}, or a list of them")
    })?;
    list.iter()
        .enumerate()
        .map(|(i, entry)| typed(&format!("privacy[{i}]"), &entry))
        .collect()
}

/// An objective: a dict with `kind`, or the name of a kind without keys (`"mmse-histogram"`).
fn objective_of(value: &Bound<'_, PyAny>) -> PyResult<ObjectiveSpec> {
    if value.is_instance_of::<PyString>() {
        let kind: String = value.extract()?;
        let json = serde_json::json!({ "kind": kind });
        return serde_json::from_value(json)
            .map_err(|e| invalid(format!("invalid `objective`: {e}")));
    }
    typed("objective", value)
}

/// Build and check a problem from the keyword arguments of `mechsynth.Problem`; returns the
/// JSON of its spec.
#[pyfunction]
#[pyo3(signature = (*, name=None, description=None, domain=None, size=None, labels=None, values=None, line=None, grid=None, prior=None, privacy=None, objective=None, expected=None))]
#[allow(clippy::too_many_arguments)]
fn build_problem(
    name: Option<String>,
    description: Option<String>,
    domain: Option<&Bound<'_, PyAny>>,
    size: Option<usize>,
    labels: Option<Vec<String>>,
    values: Option<Vec<f64>>,
    line: Option<usize>,
    grid: Option<(usize, usize)>,
    prior: Option<Vec<f64>>,
    privacy: Option<&Bound<'_, PyAny>>,
    objective: Option<&Bound<'_, PyAny>>,
    expected: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let shorthand = DomainSpec {
        size,
        labels,
        values,
        line,
        grid: grid.map(|(rows, cols)| GridSpec { rows, cols }),
        ..DomainSpec::default()
    };
    let given_shorthand = shorthand != DomainSpec::default();
    let mut builder = ProblemBuilder::new();
    match (domain, given_shorthand) {
        (Some(_), true) => {
            return Err(invalid(
                "invalid `domain`: give the domain once, as `domain={...}` or as one of size, labels, values, line, grid",
            ))
        }
        (Some(d), false) => builder = builder.domain(typed::<DomainSpec>("domain", d)?),
        (None, true) => builder = builder.domain(shorthand),
        (None, false) => {}
    }
    if let Some(p) = prior {
        builder = builder.prior(p);
    }
    if let Some(p) = privacy {
        for notion in privacy_list(p)? {
            builder = builder.privacy(notion);
        }
    }
    if let Some(o) = objective {
        builder = builder.objective(objective_of(o)?);
    }
    if let Some(e) = expected {
        builder = builder.expected(typed::<ExpectedSpec>("expected", e)?);
    }
    if let Some(n) = name {
        builder = builder.name(n);
    }
    if let Some(d) = description {
        builder = builder.description(d);
    }
    let spec = builder.spec().map_err(problem)?;
    json_of(&spec)
}

/// Parse and check TOML text (a problem file); `origin` names it in messages and anchors a
/// relative `domain.points.file`. Returns the JSON of its spec.
#[pyfunction]
#[pyo3(signature = (text, origin="<string>"))]
fn problem_from_toml(text: &str, origin: &str) -> PyResult<String> {
    let spec = ProblemSpec::from_toml(text, Path::new(origin)).map_err(problem)?;
    let spec = ProblemBuilder::from_spec(spec).spec().map_err(problem)?;
    json_of(&spec)
}

/// The TOML text of a spec given as JSON.
#[pyfunction]
fn problem_to_toml(spec_json: &str) -> PyResult<String> {
    let spec = spec_of(spec_json)?;
    toml::to_string(&spec).map_err(|e| invalid(format!("cannot write the problem as TOML: {e}")))
}

/// The problem of `spec_json` with every privacy constraint's epsilon replaced (as the command
/// line's `--epsilon`); its `[expected]` optimum, which is for the old epsilon, is dropped.
#[pyfunction]
fn problem_with_epsilon(spec_json: &str, epsilon: f64) -> PyResult<String> {
    let mut spec = spec_of(spec_json)?;
    if !(epsilon.is_finite() && (0.0..=mechsynth::privacy::MAX_EPSILON).contains(&epsilon)) {
        return Err(invalid(format!(
            "invalid `epsilon` = {epsilon}: must be a finite number in [0, {}]",
            mechsynth::privacy::MAX_EPSILON
        )));
    }
    let before = spec.privacy.clone();
    spec.set_epsilon(epsilon);
    if spec.privacy != before {
        spec.expected = None;
    }
    let spec = ProblemBuilder::from_spec(spec).spec().map_err(problem)?;
    json_of(&spec)
}

/// The number of symbols and their labels of the problem's domain.
#[pyfunction]
fn problem_labels(spec_json: &str) -> PyResult<Vec<String>> {
    let problem = ProblemBuilder::from_spec(spec_of(spec_json)?)
        .build()
        .map_err(problem)?;
    Ok(problem.domain.labels().to_vec())
}

/// The spec of a JSON text made by this module.
pub fn spec_of(spec_json: &str) -> PyResult<ProblemSpec> {
    serde_json::from_str(spec_json).map_err(|e| invalid(format!("invalid problem JSON: {e}")))
}

fn json_of(spec: &ProblemSpec) -> PyResult<String> {
    serde_json::to_string(spec).map_err(|e| invalid(format!("cannot write the problem: {e}")))
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(build_problem, m)?)?;
    m.add_function(wrap_pyfunction!(problem_from_toml, m)?)?;
    m.add_function(wrap_pyfunction!(problem_to_toml, m)?)?;
    m.add_function(wrap_pyfunction!(problem_with_epsilon, m)?)?;
    m.add_function(wrap_pyfunction!(problem_labels, m)?)?;
    Ok(())
}
