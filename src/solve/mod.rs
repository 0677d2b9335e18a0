//! The synthesis pipeline: formulate, solve, clean, certify (tie, check, repair), bound, report.
//!
//! `dispatch` picks the method for the problem, `certification` turns the method's point into
//! a certified channel; this module runs them and assembles the report.

mod approximate;
mod bracket;
mod budget;
mod certification;
mod dispatch;
mod explain;
mod ldp_handover;
mod near_ties;
mod nonlinear;
mod profile;
mod tighten;

use certification::certify;
use dispatch::formulate_and_solve;
use nonlinear::krr_like;

use crate::channel::Channel;
use crate::problem::Problem;
use crate::report::{ExpectedCheck, GapReport, Report, SolverInfo, Timings};
use crate::synthesis::{Outcome, ProgressSink, Run, Status};
use mechsynth_solvers::{backend, BackendKind, LpBackend};
use std::time::Instant;

pub use crate::policy::DECOMPOSITION_MIN_INPUTS;

pub use crate::formulation::LP_MAX_INPUTS;

pub use profile::{ProfileLevel, PROFILE_QUICK_INPUTS};

/// Default accepted difference between an `[expected]` optimum and the solved objective.
pub const DEFAULT_EXPECTED_TOLERANCE: f64 = 1e-6;

pub use crate::report::GapTolerance;

pub use crate::policy::MethodChoice;

/// How to solve.
#[derive(Clone)]
pub struct SolveOptions {
    /// The method for linear objectives (other objectives have one method each).
    pub method: MethodChoice,
    /// The LP backend.
    pub backend: BackendKind,
    /// Options passed to the backend (its time limit is the whole solve's).
    pub backend_options: mechsynth_solvers::SolveOptions,
    /// When a certified channel counts as optimal.
    pub gap: GapTolerance,
    /// Where progress messages go (none by default).
    pub progress: Option<ProgressSink>,
    /// How much of the report's leakage and objective profiles to compute.
    pub profile: ProfileLevel,
}

impl std::fmt::Debug for SolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("method", &self.method)
            .field("backend", &self.backend)
            .field("backend_options", &self.backend_options)
            .field("gap", &self.gap)
            .field("progress", &self.progress.is_some())
            .field("profile", &self.profile)
            .finish()
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: MethodChoice::Auto,
            backend: BackendKind::Clarabel,
            backend_options: mechsynth_solvers::SolveOptions::default(),
            gap: GapTolerance::DEFAULT,
            progress: None,
            profile: ProfileLevel::Auto,
        }
    }
}

pub use crate::synthesis::SolveError;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// Solve `problem`: formulate by the objective's structure (one LP or conic program for linear
/// objectives, the extreme-ray LP for column-convex ones, a local method otherwise), run the
/// backend, certify (and if needed repair) the channel from its emitted numbers, and compare
/// its objective with a rigorous bound. The status is `optimal` only when that gap is within
/// `options.gap`. A report is returned for every backend status; it carries a channel only
/// when the backend returned a point and that point certifies.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Result<Report, SolveError> {
    let start = Instant::now();
    let backend: Box<dyn LpBackend> = backend(options.backend)?;
    let budget = budget::Budget::new(start, options.backend_options.time_limit_seconds);
    let run = Run::new(
        backend.as_ref(),
        mechsynth_solvers::SolveOptions {
            time_limit_seconds: budget.method_seconds(problem),
            ..options.backend_options.clone()
        },
        options.progress.clone(),
    );
    let (mut outcome, encoding, methods_considered) =
        formulate_and_solve(problem, options.method, &run)?;
    let mut warnings = problem.warnings.clone();
    let stopped = run.expired();
    if outcome.rows.is_none() && (!stopped || budget::mixture_fits(problem, &budget, &mut warnings))
    {
        // Ended without a point (time or iteration limit, numerical trouble, or a wrong
        // infeasibility verdict): the k-RR-like mixture is certified when it exists, and then
        // the problem is feasible; the status will say `feasible`.
        if let Some((t, c)) = krr_like(problem) {
            outcome.rows = Some(c.rows().to_vec());
            outcome.notes.push(format!(
                "the method ended without a point ({}); the channel is the k-RR-like mixture (uniform weight {t:.3e}), which certifies",
                outcome.status
            ));
        }
    }
    budget::keep_if_certifiable(&mut outcome, problem, &budget, &mut warnings);
    let solve_ms = ms(start);

    let certify_start = Instant::now();
    let (mut channel, mut certificate) = match &outcome.rows {
        Some(rows) => {
            let (channel, correction) = Channel::from_solver_point(rows.clone());
            if correction > crate::numeric::SOLVER_NOISE {
                warnings.push(format!(
                    "the solver's point needed a correction of {correction:e} to become a channel"
                ));
            }
            if let Some(progress) = &options.progress {
                progress("certifying the channel (leakage recomputed with outward rounding)");
            }
            let (channel, certificate) = certify(problem, channel, correction)?;
            (Some(channel), Some(certificate))
        }
        None => (None, None),
    };
    let certify_ms = ms(certify_start);

    if channel.is_some() && bracket::uses_spanner(problem) {
        outcome.bound = approximate::exact_problem_bound(
            problem,
            options,
            start,
            outcome.bound,
            &mut outcome.notes,
        )?;
    }
    let goal = problem.objective.goal();
    if let (Some(c), Some(b)) = (&channel, outcome.bound) {
        let v = problem.objective.evaluate(c);
        if !GapReport::new(v, b, goal, options.gap).closed {
            if let Some((c, cert, _, note)) =
                tighten::retry_tightened(problem, &run, v, b, options.gap)
            {
                channel = Some(c);
                certificate = Some(cert);
                outcome.notes.push(note);
            }
        }
    }
    let objective = channel.as_ref().map(|c| problem.objective.evaluate(c));
    let gap = match (objective, outcome.bound) {
        (Some(v), Some(b)) => Some(GapReport::new(v, b, goal, options.gap)),
        _ => None,
    };
    let status = final_status(&outcome, objective, gap.as_ref());
    if stopped && status != Status::Optimal && channel.is_some() {
        warnings.push(budget::stopped_warning(
            options.backend_options.time_limit_seconds,
            gap.as_ref(),
        ));
    }
    if let Some(g) = &gap {
        if g.absolute < -options.gap.allowed(g.objective, g.bound) {
            warnings.push(format!(
                "the objective {} is beyond the bound {} by {:e}: the bound is inconsistent, please report this problem",
                g.objective, g.bound, -g.absolute
            ));
        }
    }
    if let Some(c) = &channel {
        if c.ignores_input() && c.inputs() > 1 {
            warnings.push("every row of the channel is the same: the output carries no information about the input".into());
        }
    }
    if let (Some(progress), Some(_), true) = (
        &options.progress,
        &channel,
        options.profile != ProfileLevel::None,
    ) {
        progress("profiling the channel (its leakage under every notion and every objective)");
    }
    let profiles = channel
        .as_ref()
        .filter(|c| budget::profile_fits(problem, c, &budget, &mut warnings))
        .map(|c| profile::profiles(c, problem, options.profile, run.deadline()))
        .unwrap_or_default();
    warnings.extend(profiles.warnings);
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
        status,
        method: outcome.method,
        objective,
        bound: outcome.bound,
        gap,
        objective_description: problem.objective.describe(),
        goal,
        channel,
        labels: problem.domain.labels().to_vec(),
        output_labels: output_labels(
            problem.domain.labels(),
            outputs,
            problem.spec.objective.outputs_estimate_inputs(),
        ),
        leakage: profiles.leakage,
        objectives: profiles.objectives,
        profile_notes: profiles.notes,
        certificate,
        solver: SolverInfo {
            name: match outcome.method.own_solver() {
                Some(own) => own,
                None if outcome.method.uses_backend() => backend.name(),
                None => "none",
            },
            status: outcome.status.clone(),
            iterations: outcome.iterations,
            objective: outcome.solver_objective,
        },
        encoding,
        method_notes: outcome.notes,
        methods_considered,
        rounds: outcome.trace,
        timings: Timings {
            solve_ms,
            certify_ms,
            leakage_profile_ms: profiles.leakage_ms,
            objective_profile_ms: profiles.objective_ms,
            total_ms: ms(start),
        },
        warnings,
        expected,
        problem: problem.spec.clone(),
    })
}

/// `optimal` for a certified channel within the gap of a rigorous bound; `local-optimum` for
/// the local method otherwise; `feasible` for any other certified channel; the backend's
/// status when there is no channel. A NaN or infinite objective is never optimal.
fn final_status(outcome: &Outcome, objective: Option<f64>, gap: Option<&GapReport>) -> Status {
    let Some(value) = objective else {
        return match &outcome.status {
            Status::Solver(s) => Status::Solver(s.clone()),
            _ => Status::Solver(mechsynth_solvers::LpStatus::Other("no channel".into())),
        };
    };
    if value.is_finite() && gap.is_some_and(|g| g.closed) {
        Status::Optimal
    } else if outcome.method == crate::synthesis::Method::Local {
        Status::LocalOptimum
    } else {
        Status::Feasible
    }
}

/// Outputs are named after the inputs' symbols when the objective makes output `y` an
/// estimate of input `y` (an expected loss between symbols, co-location) and there are as many;
/// otherwise `y0, y1, ...`.
fn output_labels(inputs: &[String], outputs: usize, estimates_inputs: bool) -> Vec<String> {
    if estimates_inputs && outputs == inputs.len() {
        inputs.to_vec()
    } else {
        (0..outputs).map(|y| format!("y{y}")).collect()
    }
}
