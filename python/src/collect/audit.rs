//! What a channel guarantees: `leakage`, `audit`, the named `baseline` channels and `compose`.

use super::{channel_of, deadline, domain_of, json, named, with_prior, CHANNEL_RENAMES};
use crate::arrays::array_of;
use crate::errors::{invalid, pythonic};
use mechsynth::audit::ChannelSpec;
use mechsynth::collect::baseline::{BaselineSpec, Structure};
use mechsynth::collect::Model;
use mechsynth::compose::report::ComposeOptions;
use mechsynth::privacy::{registry, MetricSpec};
use mechsynth::{AuditSpec, Domain};
use numpy::{PyArray2, PyReadonlyArray2};
use pyo3::prelude::*;

/// The notions `leakage` computes (those with a row in the leakage profile).
fn profiled_notions() -> Vec<&'static str> {
    registry::NOTIONS
        .iter()
        .filter(|n| n.profile.is_some())
        .map(|n| n.key)
        .collect()
}

/// The leakage of `q` under `notion`, outward rounded (the value `audit` reports); `d-privacy`
/// under `metric` (a name or an n x n distance matrix) when given, else under the natural
/// distance of a domain with positions.
#[pyfunction]
#[pyo3(signature = (q, notion, *, prior=None, domain=None, metric=None))]
fn leakage(
    py: Python<'_>,
    q: PyReadonlyArray2<'_, f64>,
    notion: &str,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    metric: Option<&Bound<'_, PyAny>>,
) -> PyResult<f64> {
    let entry = registry::entry(notion)
        .filter(|e| e.profile.is_some())
        .ok_or_else(|| {
            invalid(format!(
                "invalid `notion` = {notion:?}: expected one of {} (d-privacy with `metric` or a domain with positions)",
                profiled_notions().join(", ")
            ))
        })?;
    let channel = channel_of(&q)?;
    let domain = domain_of(channel.inputs(), domain, prior)?;
    if let Some(metric) = metric {
        if notion != "d-privacy" {
            return Err(invalid(format!(
                "invalid `metric`: it is the distance of notion \"d-privacy\", and the notion is {notion:?}; leave it out"
            )));
        }
        let metric: MetricSpec = crate::problem::typed("metric", metric)?;
        let d = metric
            .distances("metric", &domain, &mut Vec::new())
            .map_err(crate::errors::problem)?;
        return Ok(py.detach(|| mechsynth::privacy::matrix_leakage(&channel, &d)));
    }
    let profile = entry.profile.expect("filtered on a profile");
    py.detach(|| profile(&channel, &domain)).ok_or_else(|| {
        invalid(format!(
            "invalid `notion` = {notion:?}: it needs distances between the symbols, and the domain has no positions; give `distances` (an n x n matrix), `metric` (\"line\" for symbol indices) or a domain with positions (`values`, `line`, `grid`, `points`)"
        ))
    })
}

/// Audit `q` as `mechsynth audit` does; returns the report's JSON. `epsilons` and `deltas`
/// add the smallest delta of (eps, delta)-LDP and -LIP at each eps, and the smallest eps at
/// each delta (the command line's `--epsilon` and `--delta`).
#[pyfunction]
#[pyo3(signature = (q, *, prior=None, domain=None, privacy=None, metric=None, epsilons=Vec::new(), deltas=Vec::new()))]
#[allow(clippy::too_many_arguments)]
fn audit(
    py: Python<'_>,
    q: PyReadonlyArray2<'_, f64>,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    privacy: Option<&Bound<'_, PyAny>>,
    metric: Option<&Bound<'_, PyAny>>,
    epsilons: Vec<f64>,
    deltas: Vec<f64>,
) -> PyResult<String> {
    let rows = crate::arrays::rows_of("Q", &q)?;
    let n = rows.len();
    if let Some(p) = &prior {
        mechsynth::domain::validate_prior("prior", p, n).map_err(crate::errors::problem)?;
    }
    for (i, &e) in epsilons.iter().enumerate() {
        mechsynth::privacy::check_epsilon_finite(&format!("epsilons[{i}]"), e)
            .map_err(crate::errors::problem)?;
    }
    for (i, &d) in deltas.iter().enumerate() {
        mechsynth::privacy::check_delta(&format!("deltas[{i}]"), Some(d))
            .map_err(crate::errors::problem)?;
    }
    let spec = AuditSpec {
        channel: ChannelSpec { rows },
        domain: match domain {
            Some(d) => Some(crate::problem::typed("domain", d)?),
            None => None,
        },
        prior,
        metric: match metric {
            Some(m) => Some(crate::problem::typed("metric", m)?),
            None => None,
        },
        privacy: match privacy {
            Some(p) => crate::problem::privacy_list(p)?,
            None => Vec::new(),
        },
    };
    let report = py.detach(|| -> Result<_, mechsynth::ProblemError> {
        let mut report = mechsynth::audit(&spec)?;
        if !epsilons.is_empty() || !deltas.is_empty() {
            let (channel, domain) = spec.channel_and_domain()?;
            report
                .leakage
                .extend(mechsynth::privacy::approximate_profile(
                    &channel,
                    domain.prior(),
                    &epsilons,
                    &deltas,
                ));
        }
        Ok(report)
    });
    let report = report.map_err(|e| invalid(pythonic(&e.to_string(), CHANNEL_RENAMES)))?;
    json(&report)
}

/// The symbols `items` name (labels as strings, or 0-based indices), for the argument `key`.
fn symbols(key: &str, items: &[Bound<'_, PyAny>], domain: &Domain) -> PyResult<Vec<usize>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let found = if let Ok(index) = item.extract::<usize>() {
                (index < domain.size()).then_some(index)
            } else if let Ok(label) = item.extract::<String>() {
                domain.index_of(&label)
            } else {
                None
            };
            found.ok_or_else(|| {
                invalid(format!(
                    "invalid `{key}[{i}]` = {}: not a symbol of the domain (a label, or an index below {})",
                    item.repr().map_or_else(|_| "?".into(), |r| r.to_string()),
                    domain.size()
                ))
            })
        })
        .collect()
}

/// The channel of the named baseline at `epsilon` over the symbols `0..k-1` or `domain`, and
/// its output labels.
#[pyfunction]
#[pyo3(signature = (name, k=None, epsilon=None, *, prior=None, domain=None, sensitive=None, blocks=None))]
#[allow(clippy::too_many_arguments)]
fn baseline<'py>(
    py: Python<'py>,
    name: &str,
    k: Option<usize>,
    epsilon: Option<f64>,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'py, PyAny>>,
    sensitive: Option<Vec<Bound<'py, PyAny>>>,
    blocks: Option<Vec<Vec<Bound<'py, PyAny>>>>,
) -> PyResult<(Bound<'py, PyArray2<f64>>, Vec<String>)> {
    let names: Vec<&str> = BaselineSpec::ALL.iter().map(|b| b.name()).collect();
    let spec: BaselineSpec = named("name", name, &format!("one of {}", names.join(", ")))?;
    let Some(epsilon) = epsilon else {
        return Err(invalid(
            "invalid `epsilon`: a baseline needs its privacy parameter, e.g. epsilon=1.0",
        ));
    };
    let domain = match (k, domain) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "invalid `k`: give the domain once, as `k` (the symbols 0..k-1) or as `domain`",
            ))
        }
        (Some(k), None) => {
            if k < 2 {
                return Err(invalid(format!(
                    "invalid `k` = {k}: a mechanism needs at least 2 symbols (with one symbol every user's value is known and there is nothing to privatize)"
                )));
            }
            let built = Domain::sized(k)
                .map_err(|e| invalid(pythonic(&e.to_string(), &[("domain.size", "k")])))?;
            with_prior(built, prior)?
        }
        (None, Some(d)) => {
            let spec: mechsynth::problem::DomainSpec = crate::problem::typed("domain", d)?;
            let built = spec.build().map_err(crate::errors::problem)?;
            if built.size() < 2 {
                return Err(invalid(format!(
                    "invalid `domain`: it has {} symbol(s); a mechanism needs at least 2",
                    built.size()
                )));
            }
            with_prior(built, prior)?
        }
        (None, None) => {
            return Err(invalid(
                "invalid `k`: a baseline needs a domain; give `k` (the symbols 0..k-1) or `domain`",
            ))
        }
    };
    let structure = Structure {
        sensitive: symbols(
            "sensitive",
            sensitive.as_deref().unwrap_or_default(),
            &domain,
        )?,
        blocks: blocks
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, b)| symbols(&format!("blocks[{i}]"), b, &domain))
            .collect::<PyResult<_>>()?,
    };
    let renames = [
        ("--baseline", "name"),
        ("--epsilon", "epsilon"),
        ("--sensitive", "`sensitive`"),
        ("--blocks", "`blocks`"),
    ];
    let model = py
        .detach(|| Model::structured_baseline(spec, domain, epsilon, &structure))
        .map_err(|e| crate::errors::collect(e, &renames))?;
    Ok((array_of(py, model.channel.rows())?, model.output_labels))
}

/// The exact leakage of `releases` independent releases of every channel of `channels`
/// (their product) under every notion, beside the stated bounds (`mechsynth compose`); returns
/// the report's JSON.
#[pyfunction]
#[pyo3(signature = (channels, releases=1, *, prior=None, domain=None, delta_prime=None, bp_priors=None, time_limit=None))]
#[allow(clippy::too_many_arguments)]
fn compose(
    py: Python<'_>,
    channels: Vec<PyReadonlyArray2<'_, f64>>,
    releases: usize,
    prior: Option<Vec<f64>>,
    domain: Option<&Bound<'_, PyAny>>,
    delta_prime: Option<f64>,
    bp_priors: Option<Vec<Vec<f64>>>,
    time_limit: Option<f64>,
) -> PyResult<String> {
    let max = mechsynth::privacy::MAX_RELEASES;
    if !(1..=max).contains(&releases) {
        return Err(invalid(format!(
            "invalid `releases` = {releases}: give from 1 to {max} releases"
        )));
    }
    if let Some(d) = delta_prime {
        if !(d > 0.0 && d < 1.0) {
            return Err(invalid(format!(
                "invalid `delta_prime` = {d}: must be in (0, 1)"
            )));
        }
    }
    if channels.is_empty() {
        return Err(invalid(
            "invalid `Q`: give a channel, or a list of channels",
        ));
    }
    let deadline = time_limit.map(deadline).transpose()?;
    let loaded = channels
        .iter()
        .enumerate()
        .map(|(i, q)| {
            channel_of(q).map_err(|e| {
                let text = e.to_string();
                let name = if channels.len() == 1 {
                    "Q".to_string()
                } else {
                    format!("Q[{i}]")
                };
                invalid(text.replacen("`Q", &format!("`{name}"), 1))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    let prior = domain_of(loaded[0].inputs(), domain, prior)?
        .prior()
        .to_vec();
    let bp_priors = bp_priors
        .map(|priors| {
            priors
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let key = format!("bp_priors[{i}]");
                    mechsynth::domain::validate_prior(&key, p, prior.len())
                        .map_err(crate::errors::problem)?;
                    Ok(mechsynth::domain::normalize_prior(&key, p).0)
                })
                .collect::<PyResult<Vec<_>>>()
        })
        .transpose()?;
    let all: Vec<&mechsynth::Channel> = (0..releases).flat_map(|_| loaded.iter()).collect();
    let options = ComposeOptions {
        bp_priors,
        delta_prime,
        deadline,
    };
    let report = py
        .detach(|| mechsynth::compose::compose(&all, &prior, &options))
        .map_err(|e| crate::errors::compose(e, &[]))?;
    json(&report)
}

/// Add the functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(leakage, m)?)?;
    m.add_function(wrap_pyfunction!(audit, m)?)?;
    m.add_function(wrap_pyfunction!(baseline, m)?)?;
    m.add_function(wrap_pyfunction!(compose, m)?)?;
    Ok(())
}
