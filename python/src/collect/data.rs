//! Collections: `estimate` from reports or counts, `simulate` a collection, `plan` its size.

use super::{deadline, domain_spec, json, model_of, named, with_prior};
use crate::errors::{collect, invalid};
use mechsynth::collect::baseline::BaselineSpec;
use mechsynth::collect::estimate::{
    estimate as run_estimate, symbol_index, Estimand, EstimateOptions, EstimatorSpec, Query,
    DEFAULT_BOOTSTRAP,
};
use mechsynth::collect::plan::{plan as run_plan, PlanOptions, PlanTarget};
use mechsynth::collect::sampler::{secure_rng, seeded_rng};
use mechsynth::collect::simulate::{
    simulate as run_simulate, Sampling, SimulateOptions, UserGroup,
};
use mechsynth::collect::Model;
use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArrayDyn};
use pyo3::prelude::*;

/// The renames of collection messages: flags become the keyword arguments.
const RENAMES: &[(&str, &str)] = &[
    ("channel.rows", "Q"),
    ("--users/--trials", "users/trials"),
    ("--query", "queries"),
    ("--estimator", "estimator"),
    ("--priors", "priors"),
];

const ESTIMATORS: &str = "one of inversion, projected, em, posterior-mean";
const ESTIMANDS: &str = "one of sample, population";

fn estimators_of(names: &[String]) -> PyResult<Vec<EstimatorSpec>> {
    if names.is_empty() {
        return Err(invalid(format!(
            "invalid `estimator` = []: give at least one, {ESTIMATORS}"
        )));
    }
    names
        .iter()
        .map(|n| named("estimator", n, ESTIMATORS))
        .collect()
}

fn check_level(level: f64) -> PyResult<()> {
    if !(level > 0.0 && level < 1.0) {
        return Err(invalid(format!(
            "invalid `level` = {level}: must be in (0, 1)"
        )));
    }
    Ok(())
}

/// Output counts: the reports (output indices) counted, or the counts given.
fn counts_of(
    outputs: usize,
    reports: Option<PyReadonlyArrayDyn<'_, i64>>,
    counts: Option<PyReadonlyArray1<'_, i64>>,
) -> PyResult<Vec<u64>> {
    match (reports, counts) {
        (Some(_), Some(_)) => Err(invalid(
            "invalid `counts`: give the reports or the counts of each output, not both",
        )),
        (None, None) => Err(invalid(
            "invalid `reports`: give the reports (output indices) or `counts` (one count per output)",
        )),
        (Some(reports), None) => {
            let view = reports.as_array();
            let mut counts = vec![0u64; outputs];
            for (i, &y) in view.iter().enumerate() {
                match usize::try_from(y).ok().filter(|&y| y < outputs) {
                    Some(y) => counts[y] += 1,
                    None => {
                        return Err(invalid(format!(
                            "invalid `reports` = {y} (at flat position {i}): not an output index; the channel has {outputs} outputs (0..{})",
                            outputs - 1
                        )))
                    }
                }
            }
            Ok(counts)
        }
        (None, Some(counts)) => {
            let view = counts.as_array();
            if view.len() != outputs {
                return Err(invalid(format!(
                    "invalid `counts`: {} counts; give one per output of the channel ({outputs})",
                    view.len()
                )));
            }
            view.iter()
                .enumerate()
                .map(|(i, &c)| {
                    u64::try_from(c).map_err(|_| {
                        invalid(format!(
                            "invalid `counts[{i}]` = {c}: a count must be a non-negative integer"
                        ))
                    })
                })
                .collect()
        }
    }
}

/// Estimates with standard errors and intervals from reports or output counts (`mechsynth
/// estimate`); returns the report's JSON.
#[pyfunction]
#[pyo3(signature = (q, reports=None, *, counts=None, estimators=vec!["inversion".to_string()], queries=vec!["frequencies".to_string()], level=0.95, estimand="sample", prior=None, domain=None, time_limit=3600.0))]
#[allow(clippy::too_many_arguments)]
fn estimate(
    py: Python<'_>,
    q: PyReadonlyArray2<'_, f64>,
    reports: Option<PyReadonlyArrayDyn<'_, i64>>,
    counts: Option<PyReadonlyArray1<'_, i64>>,
    estimators: Vec<String>,
    queries: Vec<String>,
    level: f64,
    estimand: &str,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    time_limit: f64,
) -> PyResult<String> {
    let estimators = estimators_of(&estimators)?;
    check_level(level)?;
    let estimand: Estimand = named("estimand", estimand, ESTIMANDS)?;
    let queries = queries
        .iter()
        .map(|q| Query::parse(q))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| collect(e, RENAMES))?;
    let deadline = deadline(time_limit)?;
    let model = model_of(&q, domain, prior)?;
    let counts = counts_of(model.outputs(), reports, counts)?;
    let options = EstimateOptions {
        estimators,
        queries,
        level,
        estimand,
        bootstrap: DEFAULT_BOOTSTRAP,
        deadline: Some(deadline),
        progress: None,
    };
    let report = py
        .detach(|| run_estimate(&model, &counts, &options, &mut seeded_rng(0)))
        .map_err(|e| collect(e, RENAMES))?;
    json(&report)
}

/// A seeded Monte Carlo of a collection, the empirical errors beside the analytic ones
/// (`mechsynth simulate`); returns the report's JSON. Without `seed` the generator is seeded
/// from the operating system.
#[pyfunction]
#[pyo3(signature = (q, users=None, *, trials=1000, seed=None, sampling="iid", estimators=vec!["inversion".to_string()], priors=None, noncompliance=0.0, level=0.95, estimand="sample", prior=None, domain=None, time_limit=600.0))]
#[allow(clippy::too_many_arguments)]
fn simulate(
    py: Python<'_>,
    q: PyReadonlyArray2<'_, f64>,
    users: Option<u64>,
    trials: usize,
    seed: Option<u64>,
    sampling: &str,
    estimators: Vec<String>,
    priors: Option<Vec<(u64, Vec<f64>)>>,
    noncompliance: f64,
    level: f64,
    estimand: &str,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    time_limit: f64,
) -> PyResult<String> {
    let estimators = estimators_of(&estimators)?;
    check_level(level)?;
    let estimand: Estimand = named("estimand", estimand, ESTIMANDS)?;
    let sampling: Sampling = named("sampling", sampling, "one of iid, fixed")?;
    let deadline = deadline(time_limit)?;
    let model = model_of(&q, domain, prior)?;
    let groups: Vec<UserGroup> = priors
        .unwrap_or_default()
        .into_iter()
        .map(|(users, prior)| UserGroup { users, prior })
        .collect();
    let users = match (users, groups.is_empty()) {
        (Some(_), false) => {
            return Err(invalid(
                "invalid `users`: `priors` gives the users of each group; give `users` or `priors`, not both",
            ))
        }
        (None, true) => {
            return Err(invalid(
                "invalid `users`: give the users per trial, or `priors` (groups of users with their own priors)",
            ))
        }
        (Some(u), true) => u,
        (None, false) => groups.iter().fold(0u64, |n, g| n.saturating_add(g.users)),
    };
    let report = py
        .detach(|| {
            let options = SimulateOptions {
                users,
                trials,
                sampling,
                estimators,
                groups,
                noncompliance,
                level,
                estimand,
                deadline: Some(deadline),
                progress: None,
            };
            match seed {
                Some(s) => run_simulate(&model, &options, &mut seeded_rng(s)),
                None => run_simulate(&model, &options, &mut secure_rng()),
            }
        })
        .map_err(|e| collect(e, RENAMES))?;
    json(&report)
}

/// Users needed for an RMSE target, or with `users` the smallest epsilon of each baseline,
/// for `q` (or a named `baseline`) and the baselines side by side (`mechsynth plan`); returns
/// the report's JSON. Mechanisms the time limit leaves out are named in its notes.
#[pyfunction]
#[pyo3(signature = (q=None, *, rmse, target="frequency", symbol=None, users=None, epsilon=None, size=None, prior=None, domain=None, baseline=None, estimand="sample", time_limit=600.0))]
#[allow(clippy::too_many_arguments)]
fn plan(
    py: Python<'_>,
    q: Option<PyReadonlyArray2<'_, f64>>,
    rmse: f64,
    target: &str,
    symbol: Option<String>,
    users: Option<u64>,
    epsilon: Option<f64>,
    size: Option<usize>,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    baseline: Option<&str>,
    estimand: &str,
    time_limit: f64,
) -> PyResult<String> {
    let deadline = deadline(time_limit)?;
    let estimand: Estimand = named("estimand", estimand, ESTIMANDS)?;
    if !(rmse.is_finite() && rmse > 0.0) {
        return Err(invalid(format!(
            "invalid `rmse` = {rmse}: must be a positive number"
        )));
    }
    if let Some(e) = epsilon {
        mechsynth::collect::check_epsilon("epsilon", e).map_err(|e| collect(e, RENAMES))?;
    }
    if symbol.is_some() && target != "prevalence" {
        return Err(invalid(
            "invalid `symbol`: it names the symbol of target=\"prevalence\", and the target is not prevalence",
        ));
    }
    if users == Some(0) {
        return Err(invalid("invalid `users` = 0: plan for at least one user"));
    }
    if q.is_none() && epsilon.is_none() && users.is_none() {
        return Err(invalid(
            "invalid `epsilon`: the baselines need `epsilon` (users needed at that level) or `users` (smallest epsilon for that many users)",
        ));
    }
    if users.is_some() && epsilon.is_some() {
        return Err(invalid(
            "invalid `epsilon`: with `users` each baseline's smallest epsilon is searched; give `users` or `epsilon`, not both",
        ));
    }
    let model = match (&q, baseline) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "invalid `baseline`: give the mechanism once, as `Q` or as `baseline`",
            ))
        }
        (Some(q), None) => {
            if size.is_some() {
                return Err(invalid(
                    "invalid `size`: the channel `Q` has its domain (one symbol per row); leave `size` out",
                ));
            }
            let model = model_of(q, domain, prior.clone())?;
            if model.inputs() < 2 {
                return Err(invalid(
                    "invalid `Q`: it has 1 row; a mechanism needs at least 2 symbols",
                ));
            }
            Some(model)
        }
        (None, Some(name)) => {
            let Some(eps) = epsilon else {
                return Err(invalid(
                    "invalid `epsilon`: a `baseline` to plan for needs `epsilon`",
                ));
            };
            let names: Vec<&str> = BaselineSpec::ALL.iter().map(|b| b.name()).collect();
            let spec: BaselineSpec =
                named("baseline", name, &format!("one of {}", names.join(", ")))?;
            let domain = plan_domain(size, domain, prior.clone())?;
            Some(
                Model::baseline(spec, domain, eps)
                    .map_err(|e| collect(e, &[("--baseline", "baseline")]))?,
            )
        }
        (None, None) => None,
    };
    let domain = match &model {
        Some(m) => m.domain.clone(),
        None => plan_domain(size, domain, prior)?,
    };
    let target = match target {
        "frequency" => PlanTarget::Frequency,
        "mean" => PlanTarget::Mean,
        "prevalence" => {
            let Some(s) = symbol else {
                return Err(invalid(
                    "invalid `symbol`: target=\"prevalence\" needs the symbol: its label, or \"#K\" for the 0-based index K",
                ));
            };
            let symbol =
                symbol_index(&domain, "symbol", &s, &s).map_err(|e| collect(e, RENAMES))?;
            PlanTarget::Prevalence { symbol }
        }
        other => {
            return Err(crate::errors::bad_argument(
                "target",
                format!("{other:?}"),
                "one of frequency, prevalence, mean",
            ))
        }
    };
    let options = PlanOptions {
        target,
        rmse,
        estimand,
        users,
        epsilon,
        deadline: Some(deadline),
        progress: None,
    };
    let report = py
        .detach(|| run_plan(model.as_ref(), &domain, &options))
        .map_err(|e| collect(e, RENAMES))?;
    json(&report)
}

/// The domain of a plan without a channel: `size` or `domain`, at least two symbols.
fn plan_domain(
    size: Option<usize>,
    domain: Option<&Bound<'_, PyAny>>,
    prior: Option<Vec<f64>>,
) -> PyResult<mechsynth::Domain> {
    let built = match (size, domain) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "invalid `size`: give the domain once, as `size` or as `domain`",
            ))
        }
        (Some(n), None) => domain_spec(n, None)?
            .build()
            .map_err(|e| invalid(crate::errors::pythonic(&e.to_string(), &[("domain.size", "size")])))?,
        (None, Some(d)) => domain_spec(0, Some(d))?
            .build()
            .map_err(crate::errors::problem)?,
        (None, None) => {
            return Err(invalid(
                "invalid `size`: without `Q` the baselines need a domain; give `size` (the symbols 0..size-1) or `domain`",
            ))
        }
    };
    if built.size() < 2 {
        return Err(invalid(format!(
            "invalid `size` = {}: a mechanism needs at least 2 symbols (with one symbol every user's value is known)",
            built.size()
        )));
    }
    with_prior(built, prior)
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(estimate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    Ok(())
}
