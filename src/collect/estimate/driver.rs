//! The `estimate` driver: every query with every estimator, from output counts, and the
//! goodness-of-fit check of the prior that the posterior mean relies on.

use super::super::stats::Interval;
use super::super::{CollectError, Model};
use super::{
    dot, negative_frequencies, EstimateOptions, EstimateReport, Estimator, EstimatorSpec,
    IntervalKind, Inversion, QueryEstimate, MAX_BOOTSTRAP, PRIOR_FIT_ALPHA,
};
use rand::RngCore;

/// Estimate every query with every estimator from output counts.
pub fn estimate(
    model: &Model,
    counts: &[u64],
    options: &EstimateOptions,
    _rng: &mut dyn RngCore,
) -> Result<EstimateReport, CollectError> {
    if counts.len() != model.outputs() {
        return Err(CollectError::invalid(
            "counts",
            counts.len(),
            format!("expected one count per output ({})", model.outputs()),
        ));
    }
    let users: u64 = counts.iter().sum();
    if users == 0 {
        return Err(CollectError::invalid("counts", 0, "there are no reports"));
    }
    if !(options.level > 0.0 && options.level < 1.0) {
        return Err(CollectError::invalid(
            "--level",
            options.level,
            "must be in (0, 1)",
        ));
    }
    if options.bootstrap > MAX_BOOTSTRAP {
        return Err(CollectError::invalid(
            "--bootstrap",
            options.bootstrap,
            format!("at most {MAX_BOOTSTRAP} replicates"),
        ));
    }
    let mut warnings = Vec::new();
    let impossible: Vec<&str> = (0..model.outputs())
        .filter(|&y| counts[y] > 0 && model.channel.column(y).iter().all(|q| *q == 0.0))
        .map(|y| model.output_labels[y].as_str())
        .collect();
    if !impossible.is_empty() {
        return Err(CollectError::invalid(
            "counts",
            impossible.join(", "),
            "the channel never produces these outputs",
        ));
    }
    let n = users as f64;
    let c: Vec<f64> = counts.iter().map(|&k| k as f64 / n).collect();
    let mut queries = Vec::new();
    for q in &options.queries {
        queries.extend(q.expand(model)?);
    }
    if options.estimators.contains(&EstimatorSpec::PosteriorMean) {
        if let Some(p) = prior_fit_p_value(model, counts) {
            if p < PRIOR_FIT_ALPHA {
                warnings.push(format!(
                    "posterior-mean: the reports contradict the domain prior (chi-square goodness of fit of the output counts against the prior's output distribution, p = {p:.1e} < {PRIOR_FIT_ALPHA}); the posterior mean is dominated by a prior the data contradict and its credible intervals do not cover the truth; use `inversion` or `em`"
                ));
            }
        }
    }
    // Decides which queries the channel identifies, for the bootstrapped estimators.
    let identifiable = Inversion::default();
    let mut estimates = Vec::new();
    for spec in &options.estimators {
        let est = spec.build_until(options.deadline);
        if let Some(p) = &options.progress {
            p(&format!("{}: point estimate", est.name()));
        }
        let point = est.frequencies(model, &c);
        if let Err(e @ CollectError::TimeLimit { .. }) = point {
            return Err(e);
        }
        match (&point, spec) {
            (Ok(pi), EstimatorSpec::Inversion) => {
                if let Some(labels) = negative_frequencies(model.domain.labels(), pi) {
                    warnings.push(format!("the inversion estimate gives negative frequencies for {labels}; `projected` and `em` give a distribution"));
                }
            }
            (Err(e), _) => warnings.push(format!("{}: {e}", est.name())),
            _ => {}
        }
        for (name, w, scaled) in &queries {
            let scale = if *scaled { n } else { 1.0 };
            let answer = match est.linear(model, &c, n, w, options.estimand) {
                Some(Ok(l)) => Ok(Some((
                    Interval::normal(l.value * scale, l.std_error * scale, options.level),
                    l.kind,
                    l.estimand,
                ))),
                Some(Err(e)) => Err(e),
                // Not identifiable: n/a, as the inversion reports it.
                None => match &point {
                    Ok(pi) => identifiable
                        .linear(model, &c, n, w, options.estimand)
                        .unwrap_or_else(|| {
                            Err(CollectError::invalid("query", name, "no inversion"))
                        })
                        .map(|l| {
                            let inner = Interval::normal(l.value, l.std_error, options.level);
                            Some((
                                clipped(dot(pi, w), &inner, w).scaled(scale),
                                IntervalKind::InversionClipped,
                                l.estimand,
                            ))
                        }),
                    Err(_) => Ok(None),
                },
            };
            let (estimate, kind, estimand) = match answer {
                Ok(Some((i, k, e))) => (Some(i), Some(k), Some(e)),
                Ok(None) => (None, None, None),
                Err(e) => {
                    warnings.push(format!("{} {name}: {e}", est.name()));
                    (None, None, None)
                }
            };
            estimates.push(QueryEstimate {
                estimator: est.name(),
                quantity: name.clone(),
                estimate,
                interval: kind,
                estimand,
            });
        }
    }
    Ok(EstimateReport {
        users,
        counts: counts.to_vec(),
        output_labels: model.output_labels.clone(),
        level: options.level,
        estimand: options.estimand,
        estimates,
        warnings,
    })
}

/// The estimate `value` of `w . pi` with the inversion's interval `inner` for the same
/// quantity, cut to `[min w, max w]` (where `w . pi` lies for every distribution `pi`) and
/// widened to hold `value`; the standard error stays the inversion's.
fn clipped(value: f64, inner: &Interval, w: &[f64]) -> Interval {
    let lowest = w.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let low = inner.low.max(lowest).min(value);
    let high = inner.high.min(highest).max(value);
    Interval {
        value,
        std_error: inner.std_error,
        low,
        high,
    }
}

/// The p-value of Pearson's chi-square goodness-of-fit test of `counts` against the output
/// distribution `lambda = Q^T prior` implied by the domain prior (over outputs of positive
/// probability; `None` when fewer than two outputs are possible, or a count falls on an
/// output the prior rules out, which the posterior mean reports as an error itself).
pub fn prior_fit_p_value(model: &Model, counts: &[u64]) -> Option<f64> {
    use statrs::distribution::{ChiSquared, ContinuousCDF};
    let lambda = model.channel.output_marginal(model.domain.prior());
    let n: u64 = counts.iter().sum();
    let mut stat = 0.0;
    let mut cells = 0usize;
    for (&k, &l) in counts.iter().zip(&lambda) {
        if l <= 0.0 {
            if k > 0 {
                return None;
            }
            continue;
        }
        let e = l * n as f64;
        stat += (k as f64 - e).powi(2) / e;
        cells += 1;
    }
    if cells < 2 {
        return None;
    }
    let chi = ChiSquared::new((cells - 1) as f64).ok()?;
    Some(chi.sf(stat))
}
