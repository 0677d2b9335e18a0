//! Channels outside a solve: leakage, audit, baselines, composition, and the collection steps
//! (privatize, estimate, simulate, plan). Each function mirrors the command line's subcommand
//! of the same name; a channel is a float64 array `Q` of shape (inputs, outputs), checked as a
//! channel file's rows are.

mod audit;
mod data;
mod sample;

use crate::arrays::rows_of;
use crate::errors::{invalid, pythonic};
use mechsynth::collect::Model;
use mechsynth::problem::DomainSpec;
use mechsynth::{Channel, Domain};
use numpy::PyReadonlyArray2;
use pyo3::prelude::*;
use std::time::{Duration, Instant};

/// The renames of every message about a channel and its domain: the channel is the argument `Q`.
const CHANNEL_RENAMES: &[(&str, &str)] = &[("channel.rows", "Q")];

/// The largest time limit accepted, in seconds (the command line's).
const MAX_TIME_LIMIT: f64 = 1e9;

/// The channel `Q`, checked as a channel file's rows (rectangular, finite, non-negative, rows
/// summing to 1); errors name `Q[x][y]`.
fn channel_of(q: &PyReadonlyArray2<'_, f64>) -> PyResult<Channel> {
    let rows = rows_of("Q", q)?;
    Channel::new(rows).map_err(|e| invalid(pythonic(&e.to_string(), CHANNEL_RENAMES)))
}

/// The domain of `n` inputs: `domain` (a dict with the keys of a problem file's `[domain]`)
/// or the symbols `0..n-1`; with `prior` (checked as a problem file's, divided by its sum)
/// replacing its prior.
fn domain_of(
    n: usize,
    domain: Option<&Bound<'_, PyAny>>,
    prior: Option<Vec<f64>>,
) -> PyResult<Domain> {
    let spec = domain_spec(n, domain)?;
    let built = spec.build().map_err(crate::errors::problem)?;
    if built.size() != n {
        return Err(invalid(format!(
            "invalid `domain`: it has {} symbols, and the channel has {n} rows; give one row per symbol",
            built.size()
        )));
    }
    with_prior(built, prior)
}

/// The spec of `domain` (a dict), or `size = n`.
fn domain_spec(n: usize, domain: Option<&Bound<'_, PyAny>>) -> PyResult<DomainSpec> {
    Ok(match domain {
        Some(d) => crate::problem::typed::<DomainSpec>("domain", d)?,
        None => DomainSpec {
            size: Some(n),
            ..DomainSpec::default()
        },
    })
}

/// `domain` with `prior` (when given), checked under the key `prior`.
fn with_prior(domain: Domain, prior: Option<Vec<f64>>) -> PyResult<Domain> {
    let Some(prior) = prior else {
        return Ok(domain);
    };
    mechsynth::domain::validate_prior("prior", &prior, domain.size())
        .map_err(crate::errors::problem)?;
    domain.with_prior(prior).map_err(crate::errors::problem)
}

/// `Q` over its domain, ready for collection.
fn model_of(
    q: &PyReadonlyArray2<'_, f64>,
    domain: Option<&Bound<'_, PyAny>>,
    prior: Option<Vec<f64>>,
) -> PyResult<Model> {
    let channel = channel_of(q)?;
    let domain = domain_of(channel.inputs(), domain, prior)?;
    Model::new(channel, domain, "Q".into()).map_err(|e| crate::errors::collect(e, CHANNEL_RENAMES))
}

/// The instant `time_limit` seconds from now; bad input unless positive and finite.
fn deadline(time_limit: f64) -> PyResult<Instant> {
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= MAX_TIME_LIMIT) {
        return Err(crate::errors::bad_argument(
            "time_limit",
            time_limit,
            &format!("must be a positive number of seconds, at most {MAX_TIME_LIMIT:e}"),
        ));
    }
    Ok(Instant::now() + Duration::from_secs_f64(time_limit))
}

/// A kebab-case name as the serde enum `T`; bad input naming `key` and the `accepted` names
/// otherwise.
fn named<T: serde::de::DeserializeOwned>(key: &str, value: &str, accepted: &str) -> PyResult<T> {
    serde_json::from_value(serde_json::Value::String(value.into()))
        .map_err(|_| crate::errors::bad_argument(key, format!("{value:?}"), accepted))
}

/// The JSON text of a report.
fn json<T: serde::Serialize>(report: &T) -> PyResult<String> {
    serde_json::to_string(report).map_err(|e| invalid(format!("cannot write the report: {e}")))
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    audit::register(m)?;
    sample::register(m)?;
    data::register(m)?;
    Ok(())
}
