//! Planning a collection: how many users an RMSE target needs, or the smallest epsilon that
//! meets it for a given number of users, for a channel and the baselines side by side.
//!
//! Every estimate planned for is the unbiased one (inversion, or the oracle's estimator), whose
//! variance is `v / N` for a per-user variance `v` evaluated at the domain prior:
//! `N = ceil(v / rmse^2)`. For the [`Estimand::Sample`] (the frequencies among the users) `v`
//! is the randomizer's variance around the realized composition, the variance `estimate`
//! reports; for the [`Estimand::Population`] the multinomial variance of drawing the users
//! from the prior is added (`diag(prior) - prior prior^T` per user). The smallest epsilon is
//! found by bisection, which assumes the variance decreases in epsilon (true of every baseline
//! here but OLH, whose variance jumps where its bucket count changes: it is searched segment by
//! segment, see the `search` module).

use super::baseline::oracle::{FrequencyOracle, OracleSpec};
use super::baseline::BaselineSpec;
use super::estimate::Estimand;
use super::simulate::inversion_covariance;
use super::{CollectError, Model};
use crate::domain::Domain;
use nalgebra::DVector;
use serde::Serialize;
use std::sync::Arc;

mod search;

/// Bisection on epsilon stops when the bracket is narrower than this.
pub const EPSILON_RESOLUTION: f64 = 1e-6;

/// `v / rmse^2` within this relative distance above an integer is rounded down to it (a
/// variance computed with rounding error must not cost a user).
pub const USERS_ROUNDING_SLACK: f64 = 1e-9;

/// The quantity whose RMSE is targeted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum PlanTarget {
    /// Every symbol's frequency (the worst symbol decides).
    Frequency,
    /// One symbol's frequency (a prevalence).
    Prevalence {
        /// The symbol's index.
        symbol: usize,
    },
    /// The mean of the domain's values.
    Mean,
}

/// One mechanism's plan.
#[derive(Debug, Clone, Serialize)]
pub struct PlanRow {
    /// The mechanism.
    pub mechanism: String,
    /// Its parameter (the channel file's: none).
    pub epsilon: Option<f64>,
    /// Per-user variance `v` of the target (RMSE = sqrt(v / N)); infinite when the target is
    /// not estimable.
    pub per_user_variance: f64,
    /// Users needed for the RMSE target.
    pub users_needed: Option<u64>,
    /// The RMSE with the given number of users.
    pub rmse_at_users: Option<f64>,
    /// The LDP leakage of the mechanism (nats).
    pub ldp: Option<f64>,
}

/// The plan for all mechanisms.
#[derive(Debug, Clone, Serialize)]
pub struct PlanReport {
    /// The target.
    pub target: PlanTarget,
    /// The RMSE asked for.
    pub rmse: f64,
    /// What the RMSE is of.
    pub estimand: Estimand,
    /// The users given (epsilon search), if any.
    pub users: Option<u64>,
    /// One row per mechanism.
    pub rows: Vec<PlanRow>,
    /// Mechanisms left out (time limit).
    pub notes: Vec<String>,
}

/// What [`plan`] is asked.
#[derive(Clone)]
pub struct PlanOptions {
    /// The quantity whose RMSE is targeted.
    pub target: PlanTarget,
    /// The target RMSE.
    pub rmse: f64,
    /// What the RMSE is of: the frequencies among the users, or of their population.
    pub estimand: Estimand,
    /// With a number of users: find each baseline's smallest epsilon.
    pub users: Option<u64>,
    /// Epsilon of the baselines otherwise (default: the channel's LDP leakage).
    pub epsilon: Option<f64>,
    /// Mechanisms not started by this instant are left out (with a note).
    pub deadline: Option<std::time::Instant>,
    /// Where progress messages go (none by default).
    pub progress: Option<crate::synthesis::ProgressSink>,
}

/// The linear queries `w` a target stands for (the worst of them decides).
fn target_weights(domain: &Domain, target: PlanTarget, values: Vec<f64>) -> Vec<Vec<f64>> {
    let n = domain.size();
    let indicator = |k: usize| (0..n).map(|x| f64::from(u8::from(x == k))).collect();
    match target {
        PlanTarget::Frequency => (0..n).map(indicator).collect(),
        PlanTarget::Prevalence { symbol } => vec![indicator(symbol)],
        PlanTarget::Mean => vec![values],
    }
}

/// Per-user variance of the inversion estimate of `target` for `estimand` at the domain
/// prior.
pub fn channel_variance(model: &Model, target: PlanTarget, estimand: Estimand) -> f64 {
    let prior = model.domain.prior();
    let Some(cov) = inversion_covariance(model, prior, 1.0) else {
        return f64::INFINITY;
    };
    target_weights(&model.domain, target, model.values())
        .iter()
        .map(|w| {
            let v = DVector::from_column_slice(w);
            (v.transpose() * &cov * v)[(0, 0)] + estimand.sampling_variance(w, prior)
        })
        .fold(0.0, f64::max)
}

/// Per-user variance of an oracle's estimate of `target` for `estimand` at the domain prior
/// (supports of different symbols are uncorrelated, so a linear query's variance is
/// `sum_v w_v^2 Var f_v`, plus the population's multinomial variance).
pub fn oracle_variance(
    oracle: &dyn FrequencyOracle,
    domain: &Domain,
    target: PlanTarget,
    estimand: Estimand,
) -> f64 {
    let prior = domain.prior();
    let var: Vec<f64> = prior.iter().map(|f| oracle.variance(*f, 1.0)).collect();
    target_weights(domain, target, domain.numeric_values())
        .iter()
        .map(|w| {
            w.iter().zip(&var).map(|(a, v)| a * a * v).sum::<f64>()
                + estimand.sampling_variance(w, prior)
        })
        .fold(0.0, f64::max)
}

fn users_needed(v: f64, rmse: f64) -> Option<u64> {
    let n = (v / (rmse * rmse) * (1.0 - USERS_ROUNDING_SLACK))
        .ceil()
        .max(1.0);
    (v.is_finite() && n < u64::MAX as f64).then_some(n as u64)
}

/// The smallest epsilon in `[0, MAX_EPSILON]` with `variance(eps) <= bound`, by bisection.
fn smallest_epsilon(variance: &dyn Fn(f64) -> f64, bound: f64) -> Option<f64> {
    let (mut lo, mut hi) = (0.0, crate::privacy::MAX_EPSILON);
    if variance(hi) > bound {
        return None;
    }
    while hi - lo > EPSILON_RESOLUTION {
        let mid = 0.5 * (lo + hi);
        if variance(mid) <= bound {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

fn row(
    mechanism: String,
    epsilon: Option<f64>,
    v: f64,
    rmse: f64,
    users: Option<u64>,
    ldp: Option<f64>,
) -> PlanRow {
    PlanRow {
        mechanism,
        epsilon,
        per_user_variance: v,
        users_needed: users_needed(v, rmse),
        rmse_at_users: users.map(|n| (v / n as f64).sqrt()),
        ldp,
    }
}

fn ldp_of(model: &Model) -> Option<f64> {
    crate::privacy::leakage_profile(&model.channel, &model.domain)
        .get("ldp")
        .copied()
}

/// A mechanism family to plan for: its name, its per-user variance and its LDP leakage as
/// functions of epsilon, and the epsilons where its variance jumps (if it does).
type Candidate = (
    String,
    Arc<dyn Fn(f64) -> f64 + Send + Sync>,
    Arc<dyn Fn(f64) -> Option<f64> + Send + Sync>,
    Option<fn(u64) -> f64>,
);

/// Plan for `model` (if given) and every baseline that applies to `domain`. With `users`, each
/// baseline gets the smallest epsilon meeting `rmse`; otherwise baselines run at `epsilon`
/// (default: the LDP leakage of `model`).
pub fn plan(
    model: Option<&Model>,
    domain: &Domain,
    options: &PlanOptions,
) -> Result<PlanReport, CollectError> {
    let PlanOptions {
        target,
        rmse,
        estimand,
        users,
        epsilon,
        ..
    } = *options;
    if !(rmse.is_finite() && rmse > 0.0) {
        return Err(CollectError::invalid(
            "--rmse",
            rmse,
            "must be a positive number",
        ));
    }
    if domain.size() < 2 {
        return Err(CollectError::invalid(
            "--size",
            domain.size(),
            "a domain of one symbol needs no privacy mechanism: every user's value is known",
        ));
    }
    if let PlanTarget::Prevalence { symbol } = target {
        if symbol >= domain.size() {
            return Err(CollectError::invalid(
                "--symbol",
                symbol,
                "not a symbol of the domain",
            ));
        }
    }
    let epsilon = epsilon.or_else(|| model.and_then(ldp_of).filter(|e| e.is_finite()));
    let mut rows = Vec::new();
    let mut notes = Vec::new();
    if epsilon.is_none() && users.is_none() {
        notes.push("the channel's LDP level is infinite, so the baselines have no epsilon to match: give --epsilon (or --users for the smallest epsilon that meets the target)".to_string());
    }
    if let Some(m) = model {
        rows.push(row(
            m.source.clone(),
            None,
            channel_variance(m, target, estimand),
            rmse,
            users,
            ldp_of(m),
        ));
    }
    let mut candidates: Vec<Candidate> = Vec::new();
    for spec in BaselineSpec::ALL {
        if spec.mechanism().applies(domain) {
            let (d, d2) = (domain.clone(), domain.clone());
            candidates.push((
                spec.name().into(),
                Arc::new(move |eps| {
                    Model::baseline(spec, d.clone(), eps)
                        .map_or(f64::INFINITY, |m| channel_variance(&m, target, estimand))
                }),
                Arc::new(move |eps| {
                    Model::baseline(spec, d2.clone(), eps)
                        .ok()
                        .as_ref()
                        .and_then(ldp_of)
                }),
                None,
            ));
        }
    }
    for spec in OracleSpec::ALL {
        let d = domain.clone();
        // Unary encodings are eps-LDP by construction; OLH too.
        candidates.push((
            spec.name().into(),
            Arc::new(move |eps| {
                spec.build(d.size(), eps).map_or(f64::INFINITY, |o| {
                    oracle_variance(o.as_ref(), &d, target, estimand)
                })
            }),
            Arc::new(Some),
            spec.parameter_jumps(),
        ));
    }
    for (name, variance, ldp, jumps) in &candidates {
        if options
            .deadline
            .is_some_and(|d| std::time::Instant::now() > d)
        {
            notes.push(format!(
                "time limit reached before {name}; it and the mechanisms after it are left out"
            ));
            break;
        }
        if let Some(p) = &options.progress {
            p(&format!("plan: {name}"));
        }
        // Each mechanism runs on a worker, so that the time limit can end a long one (its
        // linear algebra is O(n^3) on large domains); a worker cut off finishes unobserved.
        let (variance, ldp, jumps) = (variance.clone(), ldp.clone(), *jumps);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let eps = match users {
                Some(n) => {
                    let bound = n as f64 * rmse * rmse;
                    match jumps {
                        Some(jump) => search::smallest_epsilon_piecewise(
                            variance.as_ref(),
                            bound,
                            &jump,
                            crate::privacy::MAX_EPSILON,
                        ),
                        None => smallest_epsilon(variance.as_ref(), bound),
                    }
                }
                None => epsilon,
            };
            let _ = tx.send(eps.map(|e| (e, variance(e), ldp(e))));
        });
        let answer = match options.deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(std::time::Instant::now())),
            None => rx
                .recv()
                .map_err(|_| std::sync::mpsc::RecvTimeoutError::Disconnected),
        };
        let Ok(answer) = answer else {
            notes.push(format!(
                "time limit reached during {name}; it and the mechanisms after it are left out"
            ));
            break;
        };
        match answer {
            Some((e, v, l)) => rows.push(row(name.clone(), Some(e), v, rmse, users, l)),
            None => rows.push(PlanRow {
                mechanism: name.clone(),
                epsilon: None,
                per_user_variance: f64::INFINITY,
                users_needed: None,
                rmse_at_users: None,
                ldp: None,
            }),
        }
    }
    Ok(PlanReport {
        target,
        rmse,
        estimand,
        users,
        rows,
        notes,
    })
}
