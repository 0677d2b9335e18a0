//! The synthesis pipeline: formulate, solve, clean, certify, repair, report.

use crate::certify::{check_all, repair_by_mixing, Certificate, Repair};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::objective::Goal;
use crate::privacy::leakage_profile;
use crate::problem::Problem;
use crate::report::{ExpectedCheck, Report, SolverInfo, Timings};
use mechsynth_solvers::{backend, BackendError, BackendKind, LpBackend};
use std::collections::BTreeMap;
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
    /// The objective cannot be posed as an LP.
    #[error("objective `{0}` is not linear; this version solves linear objectives only")]
    NonlinearObjective(String),
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

/// Solve `problem`: build the LP, run the backend, then certify (and if needed repair) the
/// channel from its emitted numbers. A report is returned for every backend status; it carries
/// a channel only when the backend returned a point and that point certifies.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Result<Report, SolveError> {
    let start = Instant::now();
    let n = problem.domain.size();
    let coefficients = problem
        .objective
        .linear_coefficients()
        .ok_or_else(|| SolveError::NonlinearObjective(problem.objective.describe()))?;
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
    let formulate_ms = ms(start);

    let solve_start = Instant::now();
    let backend: Box<dyn LpBackend> = backend(options.backend)?;
    let lp_solution = backend.solve(lp.program(), &options.backend_options)?;
    let solve_ms = ms(solve_start);

    let certify_start = Instant::now();
    let mut warnings = problem.warnings.clone();
    let (channel, certificate) = if lp_solution.status.has_point() {
        let (channel, correction) = Channel::from_solver_point(lp.channel_rows(&lp_solution.x));
        if correction > crate::numeric::SOLVER_NOISE {
            warnings.push(format!(
                "the solver's point needed a correction of {correction:e} to become a channel"
            ));
        }
        let (channel, certificate) = certify(problem, channel, correction)?;
        (Some(channel), Some(certificate))
    } else {
        (None, None)
    };
    let certify_ms = ms(certify_start);

    let objective = channel.as_ref().map(|c| problem.objective.evaluate(c));
    let leakage = channel
        .as_ref()
        .map(|c| leakage_profile(c, &problem.domain))
        .unwrap_or_else(BTreeMap::new);
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
    Ok(Report {
        name: problem.name().to_string(),
        status: lp_solution.status.clone(),
        objective,
        objective_description: problem.objective.describe(),
        goal: problem.objective.goal(),
        channel,
        labels: problem.domain.labels().to_vec(),
        leakage,
        certificate,
        solver: SolverInfo {
            name: backend.name(),
            status: lp_solution.status.clone(),
            iterations: lp_solution.iterations,
            objective: lp_solution
                .status
                .has_point()
                .then_some(sign * lp_solution.objective),
        },
        encoding,
        timings: Timings {
            formulate_ms,
            solve_ms,
            certify_ms,
            total_ms: ms(start),
        },
        warnings,
        expected,
        problem: problem.spec.clone(),
    })
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
