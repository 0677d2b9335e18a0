//! Calibration: the smallest noise meeting the request numerically, beside every closed form
//! that applies, each checked by the same numerical privacy computation.

use super::closed_form as cf;
use super::discrete_laplace;
use super::error::ContinuousError;
use super::lip::{divergences_at, ldp_delta, worst_delta, Criterion};
use super::noise::Noise;
use super::prior::Prior;
use super::quadrature::Integral;
use super::request::{MechanismKind, Notion, Request};
use super::sampling;
use super::utility::posterior_mse;

/// Relative width of the numerical calibration's final bracket.
pub const CALIBRATION_WIDTH: f64 = 1e-6;
/// Relative slack on the target when judging a parameter: closed forms solved to equality are
/// `holds` when the computed quantity is within this fraction of the target.
pub const VERDICT_RELATIVE_SLACK: f64 = 1e-6;

/// One calibrated parameter and what it achieves.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// Which method produced the parameter.
    pub method: String,
    /// Where the method comes from.
    pub source: String,
    /// sigma, b or lambda.
    pub parameter: f64,
    /// The requested quantity (delta, or eps when delta = 0) computed at the parameter.
    pub achieved: f64,
    /// Error bound of `achieved` (quadrature plus tails).
    pub error: f64,
    /// `holds` (achieved + error <= target (1 + slack)), `fails` (achieved - error > target
    /// (1 + slack)) or `unsure`; slack = [`VERDICT_RELATIVE_SLACK`].
    pub verdict: String,
    /// Noise relative to the numerical optimum (sigma/sigma*, b/b*, or lambda*/lambda).
    pub ratio: f64,
    /// MSE of releasing Y as the estimate.
    pub release_mse: f64,
    /// MSE of the posterior mean E[X|Y].
    pub posterior_mse: f64,
}

/// The calibration of one request.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The mechanism.
    pub mechanism: MechanismKind,
    /// The notion.
    pub notion: Notion,
    /// The LIP criterion.
    pub criterion: Criterion,
    /// Target eps.
    pub epsilon: f64,
    /// Target delta.
    pub delta: f64,
    /// What `achieved` measures: `delta` or `epsilon`.
    pub measure: String,
    /// One row per method; the first is the numerical calibration.
    pub rows: Vec<Row>,
    /// Remarks (inapplicable closed forms, undefined constants).
    pub notes: Vec<String>,
}

/// The privacy quantity of a parameter under the request.
pub fn measure(req: &Request, parameter: f64) -> Integral {
    measure_with(req, parameter, req.criterion)
}

fn exact(value: f64) -> Integral {
    Integral { value, error: 0.0 }
}

/// As [`measure`] with an explicit LIP criterion. A parameter outside the calibration's range ([`super::edges::check_parameter`]) has no
/// meaning; at the range's edges the exact values of [`super::edges::edge_measure`] are used.
pub fn measure_with(req: &Request, parameter: f64, criterion: Criterion) -> Integral {
    let eps = req.epsilon;
    if let Some(edge) = super::edges::edge_measure(req, parameter) {
        return edge;
    }
    let noise = match req.mechanism {
        // LDP of `Y = X` w.p. lambda: the set {x} has probability lambda given x, 0 given x'.
        MechanismKind::Sampling if req.notion == Notion::Ldp => return exact(parameter),
        MechanismKind::Sampling => return exact(sampling::delta(parameter, eps, criterion)),
        MechanismKind::Gaussian => Noise::Gaussian(parameter),
        MechanismKind::Laplace => Noise::Laplace(parameter),
    };
    match req.notion {
        Notion::Ldp => {
            let d = req.sensitivity().expect("validated");
            if req.delta == 0.0 {
                // Laplace: the worst log-ratio of two Laplace densities is d / b.
                exact(d / parameter)
            } else {
                ldp_delta(&noise, eps, d)
            }
        }
        Notion::Lip => {
            if req.delta == 0.0 {
                let Prior::Discrete { points, probs } = &req.prior else {
                    unreachable!("validated: pure LIP needs a discrete prior")
                };
                let value = match req.at.and_then(|x| points.iter().position(|&p| p == x)) {
                    Some(j) => discrete_laplace::leakage_at(points, probs, parameter, j),
                    None => discrete_laplace::leakage(points, probs, parameter),
                };
                return exact(value);
            }
            match req.at {
                Some(x) => divergences_at(&req.prior, &noise, eps, x).delta(eps, criterion),
                None => worst_delta(&req.prior, &noise, eps, req.lip_range(), criterion).1,
            }
        }
    }
}

fn target(req: &Request) -> f64 {
    if req.delta == 0.0 {
        req.epsilon
    } else {
        req.delta
    }
}

/// Numerically calibrated parameter for a criterion: the smallest noise (largest lambda) whose
/// measured quantity plus its error bound is at most the target.
pub fn numerical(req: &Request, criterion: Criterion) -> Result<f64, ContinuousError> {
    numerical_within(req, criterion, &Limits::default())
}

/// A time limit and a progress callback (called with the number of evaluations and the
/// parameter just evaluated).
#[derive(Default)]
pub struct Limits<'a> {
    /// Stop with [`ContinuousError::TimeLimit`] at this instant (the limit in seconds is the
    /// second element, for the message).
    pub deadline: Option<(std::time::Instant, f64)>,
    /// Progress callback.
    pub progress: Option<&'a dyn Fn(usize, f64)>,
}

/// [`numerical`] under [`Limits`].
pub fn numerical_within(
    req: &Request,
    criterion: Criterion,
    limits: &Limits,
) -> Result<f64, ContinuousError> {
    req.validate()?;
    let t = target(req);
    if req.mechanism == MechanismKind::Sampling {
        return Ok(sampling::calibrate(req.epsilon, req.delta, criterion));
    }
    let mut evaluations = 0usize;
    let feasible = |s: f64| {
        if let Some((deadline, seconds)) = limits.deadline {
            if std::time::Instant::now() > deadline {
                return Err(ContinuousError::TimeLimit(seconds));
            }
        }
        evaluations += 1;
        if let Some(p) = limits.progress {
            p(evaluations, s);
        }
        let m = measure_with(req, s, criterion);
        Ok(m.value + m.error <= t)
    };
    let start = req
        .sensitivity()
        .unwrap_or_else(|| req.prior.variance().sqrt());
    cf::try_smallest_scale(feasible, start, CALIBRATION_WIDTH)
}

/// Calibrate: numerical rows first, then every closed form that applies.
pub fn calibrate(req: &Request) -> Result<Report, ContinuousError> {
    calibrate_within(req, &Limits::default())
}

/// [`calibrate`] under [`Limits`] (the limit applies to each numerical calibration).
pub fn calibrate_within(req: &Request, limits: &Limits) -> Result<Report, ContinuousError> {
    req.validate()?;
    let eps = req.epsilon;
    let best = numerical_within(req, req.criterion, limits)?;
    let label = match req.notion {
        Notion::Lip => format!("numerical ({})", criterion_name(req.criterion)),
        Notion::Ldp => "numerical (Def. 1)".to_string(),
    };
    let mut candidates: Vec<(String, String, f64)> =
        vec![(label, "bisection on the quadrature".into(), best)];
    let mut notes = Vec::new();
    let lip = req.notion == Notion::Lip;
    if lip && req.delta > 0.0 && req.criterion == Criterion::Definition {
        candidates.push((
            "numerical (Cor. 9)".into(),
            "bisection on the quadrature".into(),
            numerical_within(req, Criterion::Corollary9, limits)?,
        ));
    }
    let sens = req.sensitivity();
    match req.mechanism {
        MechanismKind::Gaussian => {
            if let (true, Prior::Normal { mean, sd }) = (lip, &req.prior) {
                let (name, src) = if req.at.is_some() {
                    (
                        "Cor. 10 (Lemma 4)",
                        "context-aware-lip Cor. 10, Lemma 4, Prop. 3",
                    )
                } else {
                    (
                        "Thm 5 (Lemma 4)",
                        "context-aware-lip Thm 5, Lemma 4, Prop. 3",
                    )
                };
                let s = cf::theorem5(eps, req.delta, (*mean, *sd), req.lip_range())?;
                candidates.push((name.into(), src.into(), s));
            } else if lip {
                notes.push("Thm 5 / Cor. 10 are stated for a normal prior only".into());
            }
            if let Some(d) = sens {
                candidates.push((
                    "vanilla Gaussian (LDP)".into(),
                    "Dwork-Roth Thm A.1: D sqrt(2 ln(1.25/delta))/eps".into(),
                    cf::vanilla_gaussian(eps, req.delta, d),
                ));
                candidates.push((
                    "analytic Gaussian (LDP)".into(),
                    "Balle-Wang 2018 Thm 8, eq. (24)".into(),
                    cf::analytic_gaussian(eps, req.delta, d),
                ));
            }
        }
        MechanismKind::Laplace => {
            if let Some(d) = sens {
                candidates.push((
                    "Laplace (LDP)".into(),
                    "b = D / eps".into(),
                    cf::laplace_ldp(eps, d),
                ));
            }
            if let (true, Some(p_min), Some(d)) = (lip, req.prior.min_probability(), sens) {
                candidates.push((
                    "Thm 6 (instance-independent)".into(),
                    "context-aware-lip Thm 6 eq. (25)".into(),
                    cf::theorem6_independent(eps, d, p_min),
                ));
                if let Some(x) = req.at {
                    let p = req.prior.mass_at(x);
                    notes.push(format!(
                        "Thm 6 eq. (26) b(x) = D/(alpha_eps P(x) + eps) leaves alpha_eps undefined; \
                         the numerical b(x) = {best:.6} corresponds to alpha_eps = {:.6}",
                        (d / best - eps) / p
                    ));
                }
            }
        }
        MechanismKind::Sampling => candidates.push((
            "Prop. 2".into(),
            "context-aware-lip Prop. 2".into(),
            sampling::proposition2(eps, req.delta),
        )),
    }
    let t = target(req);
    let rows = candidates
        .into_iter()
        .map(|(method, source, parameter)| {
            let m = measure(req, parameter);
            row(req, method, source, parameter, m, t, best)
        })
        .collect();
    Ok(Report {
        mechanism: req.mechanism,
        notion: req.notion,
        criterion: req.criterion,
        epsilon: eps,
        delta: req.delta,
        measure: if req.delta == 0.0 { "epsilon" } else { "delta" }.into(),
        rows,
        notes,
    })
}

fn criterion_name(c: Criterion) -> &'static str {
    match c {
        Criterion::Definition => "Def. 5",
        Criterion::Corollary9 => "Cor. 9",
    }
}

fn row(
    req: &Request,
    method: String,
    source: String,
    parameter: f64,
    m: Integral,
    target: f64,
    best: f64,
) -> Row {
    let slack = target * VERDICT_RELATIVE_SLACK;
    let verdict = if m.value + m.error <= target + slack {
        "holds"
    } else if m.value - m.error > target + slack {
        "fails"
    } else {
        "unsure"
    };
    let variance = req.prior.variance();
    let (ratio, release, post) = match req.mechanism {
        MechanismKind::Sampling => (
            best / parameter,
            sampling::release_mse(parameter, variance),
            sampling::posterior_mse(parameter, variance),
        ),
        kind => {
            let noise = if kind == MechanismKind::Gaussian {
                Noise::Gaussian(parameter)
            } else {
                Noise::Laplace(parameter)
            };
            (
                parameter / best,
                noise.variance(),
                posterior_mse(&req.prior, &noise).value,
            )
        }
    };
    Row {
        method,
        source,
        parameter,
        achieved: m.value,
        error: m.error,
        verdict: verdict.into(),
        ratio,
        release_mse: release,
        posterior_mse: post,
    }
}
