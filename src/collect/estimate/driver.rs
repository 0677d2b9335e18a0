//! The `estimate` driver: every query with every estimator, from output counts, and the
//! goodness-of-fit check of the prior that the posterior mean relies on.

use super::super::stats::Interval;
use super::super::{CollectError, Model};
use super::{
    bootstrap, bootstrap_interval, dot, negative_frequencies, EstimateOptions, EstimateReport,
    EstimatorSpec, IntervalKind, Inversion, QueryEstimate, MAX_BOOTSTRAP, MIN_BOOTSTRAP,
    PRIOR_FIT_ALPHA,
};
use rand::RngCore;

/// Estimate every query with every estimator from output counts.
pub fn estimate(
    model: &Model,
    counts: &[u64],
    options: &EstimateOptions,
    rng: &mut dyn RngCore,
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
    let bootstrapped = options
        .estimators
        .iter()
        .any(|e| matches!(e, EstimatorSpec::Projected | EstimatorSpec::Em));
    if options.bootstrap > MAX_BOOTSTRAP {
        return Err(CollectError::invalid(
            "--bootstrap",
            options.bootstrap,
            format!("at most {MAX_BOOTSTRAP} replicates (each is kept in memory)"),
        ));
    }
    if bootstrapped && options.bootstrap < MIN_BOOTSTRAP {
        return Err(CollectError::invalid(
            "--bootstrap",
            options.bootstrap,
            format!("the projected and EM intervals need at least {MIN_BOOTSTRAP} replicates"),
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
        let mut replicates: Option<Vec<Vec<f64>>> = None;
        let mut time_out: Option<String> = None;
        for (name, w, scaled) in &queries {
            let scale = if *scaled { n } else { 1.0 };
            let (estimate, kind) = match est.linear(model, &c, n, w) {
                Some(Ok(l)) => (
                    Some(Interval::normal(
                        l.value * scale,
                        l.std_error * scale,
                        options.level,
                    )),
                    Some(l.kind),
                ),
                Some(Err(e)) => {
                    warnings.push(format!("{} {name}: {e}", est.name()));
                    (None, None)
                }
                // Not identifiable: n/a, as the inversion reports it.
                None => match (&point, identifiable.solve(model, w)) {
                    (Ok(_), Err(e)) => {
                        warnings.push(format!("{} {name}: {e}", est.name()));
                        (None, None)
                    }
                    (Ok(pi), Ok(_)) => {
                        let reps = replicates.get_or_insert_with(|| {
                            let r = bootstrap(est.as_ref(), model, &c, users, options, rng);
                            let late = options.deadline.is_some_and(|d| std::time::Instant::now() > d);
                            if late && r.len() < MIN_BOOTSTRAP {
                                time_out = Some(format!(
                                    "{}: {} of {} bootstrap replicates by the deadline, fewer than the {MIN_BOOTSTRAP} an interval needs",
                                    est.name(),
                                    r.len(),
                                    options.bootstrap
                                ));
                            }
                            if r.len() < options.bootstrap {
                                warnings.push(format!(
                                    "{}: {} of {} bootstrap replicates (time limit, or the estimator failed on some)",
                                    est.name(),
                                    r.len(),
                                    options.bootstrap
                                ));
                            }
                            r
                        });
                        let value = dot(pi, w) * scale;
                        let samples: Vec<f64> = reps.iter().map(|r| dot(r, w) * scale).collect();
                        (
                            Some(bootstrap_interval(value, &samples, options.level)),
                            Some(IntervalKind::Bootstrap),
                        )
                    }
                    (Err(_), _) => (None, None),
                },
            };
            estimates.push(QueryEstimate {
                estimator: est.name(),
                quantity: name.clone(),
                estimate,
                interval: kind,
            });
        }
        if let Some(what) = time_out {
            return Err(CollectError::TimeLimit { what });
        }
    }
    Ok(EstimateReport {
        users,
        counts: counts.to_vec(),
        output_labels: model.output_labels.clone(),
        level: options.level,
        estimates,
        warnings,
    })
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
