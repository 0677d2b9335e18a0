//! The synthesis pipeline: formulate, solve, clean, certify, repair, report.

use crate::certify::{check_all, repair_by_mixing, Certificate, Repair};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::objective::{objective_profile, Goal};
use crate::privacy::{leakage_profile, PrivacyNotion};
use crate::problem::Problem;
use crate::report::{ExpectedCheck, Report, SolverInfo, Timings};
use crate::synthesis::{solve_by_rays, solve_locally, Method, Outcome, Status, ENUMERATION_LIMIT};
use mechsynth_solvers::{backend, BackendError, BackendKind, LpBackend};
use std::time::Instant;

/// Default accepted difference between an `[expected]` optimum and the solved objective.
pub const DEFAULT_EXPECTED_TOLERANCE: f64 = 1e-6;

/// How to solve.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveOptions {
    /// The LP backend.
    pub backend: BackendKind,
    /// Options passed to the backend.
    pub backend_options: mechsynth_solvers::SolveOptions,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            backend: BackendKind::Clarabel,
            backend_options: mechsynth_solvers::SolveOptions::default(),
        }
    }
}

/// Failures of the pipeline (bad input is a [`crate::ProblemError`] and never gets here).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The backend could not run.
    #[error(transparent)]
    Backend(#[from] BackendError),
    /// The solver's channel violates a request and no mixture repairs it.
    #[error("the solver's channel violates `{constraint}` (requested {requested}, achieved {achieved}) and mixing with a constant channel cannot repair it; no channel is emitted")]
    CertificationFailed {
        /// The violated constraint.
        constraint: String,
        /// Requested bound.
        requested: f64,
        /// Achieved leakage.
        achieved: f64,
    },
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Solve `problem`: formulate by the objective's structure (one LP or conic program for linear
/// objectives, the extreme-ray LP for column-convex ones, a local method otherwise), run the
/// backend, then certify (and if needed repair) the channel from its emitted numbers. A report
/// is returned for every backend status; it carries a channel only when the backend returned a
/// point and that point certifies.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Result<Report, SolveError> {
    let start = Instant::now();
    let backend: Box<dyn LpBackend> = backend(options.backend)?;
    let (outcome, encoding, solver_objective) =
        formulate_and_solve(problem, backend.as_ref(), options)?;
    let solve_ms = ms(start);

    let certify_start = Instant::now();
    let mut warnings = problem.warnings.clone();
    let (channel, certificate) = match &outcome.rows {
        Some(rows) => {
            let (channel, correction) = Channel::from_solver_point(rows.clone());
            if correction > crate::numeric::SOLVER_NOISE {
                warnings.push(format!(
                    "the solver's point needed a correction of {correction:e} to become a channel"
                ));
            }
            let (channel, certificate) = certify(problem, channel, correction)?;
            (Some(channel), Some(certificate))
        }
        None => (None, None),
    };
    let certify_ms = ms(certify_start);

    let objective = channel.as_ref().map(|c| problem.objective.evaluate(c));
    let leakage = channel
        .as_ref()
        .map(|c| leakage_profile(c, &problem.domain))
        .unwrap_or_default();
    let objectives = channel
        .as_ref()
        .map(|c| objective_profile(c, &problem.domain))
        .unwrap_or_default();
    let expected = match (&problem.spec.expected, objective) {
        (Some(e), Some(v)) => {
            let tolerance = e.tolerance.unwrap_or(DEFAULT_EXPECTED_TOLERANCE);
            Some(ExpectedCheck {
                objective: e.objective,
                tolerance,
                matches: (v - e.objective).abs() <= tolerance,
                source: e.source.clone(),
            })
        }
        _ => None,
    };
    let outputs = channel.as_ref().map_or(0, Channel::outputs);
    Ok(Report {
        name: problem.name().to_string(),
        status: outcome.status.clone(),
        method: outcome.method,
        objective,
        bound: outcome.bound,
        objective_description: problem.objective.describe(),
        goal: problem.objective.goal(),
        channel,
        labels: problem.domain.labels().to_vec(),
        output_labels: output_labels(problem.domain.labels(), outputs),
        leakage,
        objectives,
        certificate,
        solver: SolverInfo {
            name: backend.name(),
            status: outcome.status,
            iterations: outcome.iterations,
            objective: solver_objective,
        },
        encoding,
        method_notes: outcome.notes,
        timings: Timings {
            solve_ms,
            certify_ms,
            total_ms: ms(start),
        },
        warnings,
        expected,
        problem: problem.spec.clone(),
    })
}

/// Outputs are the inputs' symbols when there are as many; otherwise `y0, y1, ...`.
fn output_labels(inputs: &[String], outputs: usize) -> Vec<String> {
    if outputs == inputs.len() {
        inputs.to_vec()
    } else {
        (0..outputs).map(|y| format!("y{y}")).collect()
    }
}

/// Pick the method for the objective and run it: the outcome, the encoding notes, and the
/// backend's own objective value (exact formulations only).
fn formulate_and_solve(
    problem: &Problem,
    backend: &dyn LpBackend,
    options: &SolveOptions,
) -> Result<(Outcome, Vec<String>, Option<f64>), SolveError> {
    let n = problem.domain.size();
    let bo = &options.backend_options;
    if let Some(coefficients) = problem.objective.linear_coefficients() {
        let sign = match problem.objective.goal() {
            Goal::Minimize => 1.0,
            Goal::Maximize => -1.0,
        };
        let mut lp = ChannelLp::new(n, n);
        for (x, row) in coefficients.iter().enumerate() {
            for (y, c) in row.iter().enumerate() {
                lp.set_entry_cost(x, y, sign * c);
            }
        }
        let encoding: Vec<String> = problem.privacy.iter().map(|p| p.encode(&mut lp)).collect();
        let conic = !lp.program().exp_cones().is_empty();
        let s = backend.solve(lp.program(), bo)?;
        let value = s.status.has_point().then_some(sign * s.objective);
        let outcome = Outcome {
            method: if conic {
                Method::ConicProgram
            } else {
                Method::Lp
            },
            status: Status::from_lp(s.status.clone()),
            iterations: s.iterations,
            rows: s.status.has_point().then(|| lp.channel_rows(&s.x)),
            bound: value.filter(|_| s.status.is_optimal()),
            notes: Vec::new(),
        };
        return Ok((outcome, encoding, value));
    }
    let local = || {
        solve_locally(
            &problem.privacy,
            problem.objective.as_ref(),
            problem.domain.prior(),
            backend,
            bo,
        )
    };
    let describe = || {
        problem
            .privacy
            .iter()
            .map(|p| p.key().to_string())
            .collect::<Vec<_>>()
    };
    let Some(f) = problem.objective.column_convex() else {
        let outcome = local()?;
        return Ok((outcome, describe(), None));
    };
    let all: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
    let (rest, mi): (Vec<_>, Vec<_>) = all.iter().partition(|p| p.column_cone(n).is_some());
    if mi.is_empty() {
        if let Some(outcome) = solve_by_rays(&all, f, n, backend, bo)? {
            return Ok((outcome, describe(), None));
        }
        let mut outcome = local()?;
        outcome.notes.push(format!(
            "the column cone has more than {ENUMERATION_LIMIT} extreme rays and exact pricing exists only for mmse-sum under a single ldp or lip constraint; the result is a local optimum"
        ));
        return Ok((outcome, describe(), None));
    }
    // Mutual-information privacy couples the columns: a local optimum, and the optimum without
    // it as a bound.
    let mut outcome = local()?;
    if let Some(relaxed) = solve_by_rays(&rest, f, n, backend, bo)? {
        if relaxed.status.is_optimal() {
            outcome.bound = relaxed.bound;
            outcome.notes.push(
                "bound: the global optimum without the mutual-information constraint (extreme-ray LP)".into(),
            );
        }
    }
    Ok((outcome, describe(), None))
}

/// Check every requested bound on `channel`; repair by mixing with the output distribution when
/// one is exceeded; fail when no mixture certifies.
fn certify(
    problem: &Problem,
    channel: Channel,
    correction: f64,
) -> Result<(Channel, Certificate), SolveError> {
    let checks = check_all(&problem.privacy, &channel);
    if checks.iter().all(|c| c.holds()) {
        let certificate = Certificate {
            checks,
            all_hold: true,
            cleanup_correction: correction,
            repair: None,
        };
        return Ok((channel, certificate));
    }
    // Candidate constant rows: the output distribution (keeps unused outputs unused) and the
    // uniform distribution (cheapest when a near-empty column carries the violation); the one
    // whose certified mixture costs the least objective wins.
    let m = channel.outputs();
    let targets = [
        channel.output_marginal(problem.domain.prior()),
        vec![1.0 / m as f64; m],
    ];
    let sign = match problem.objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let best = targets
        .iter()
        .filter_map(|t| repair_by_mixing(&problem.privacy, &channel, t))
        .min_by(|a, b| {
            let cost = |c: &Channel| sign * problem.objective.evaluate(c);
            cost(&a.1).total_cmp(&cost(&b.1))
        });
    let Some((weight, repaired)) = best else {
        let worst = checks
            .into_iter()
            .find(|c| !c.holds())
            .expect("some check fails");
        return Err(SolveError::CertificationFailed {
            constraint: worst.constraint,
            requested: worst.requested,
            achieved: worst.achieved,
        });
    };
    let repair = Repair {
        weight,
        objective_before: problem.objective.evaluate(&channel),
        objective_after: problem.objective.evaluate(&repaired),
    };
    let checks = check_all(&problem.privacy, &repaired);
    let all_hold = checks.iter().all(|c| c.holds());
    debug_assert!(all_hold, "repair_by_mixing returns a certified channel");
    let certificate = Certificate {
        checks,
        all_hold,
        cleanup_correction: correction,
        repair: Some(repair),
    };
    Ok((repaired, certificate))
}
