//! The synthesis pipeline: formulate, solve, clean, certify (tie, check, repair), bound, report.

use crate::certify::{
    average_groups, check_all, repair_by_mixing, tie_groups, Certificate, Repair,
};
use crate::channel::Channel;
use crate::objective::{objective_profile_for, Goal};
use crate::privacy::{leakage_profile, PrivacyNotion};
use crate::problem::Problem;
use crate::report::{ExpectedCheck, GapReport, Report, SolverInfo, Timings};
use crate::synthesis::{
    solve_by_design, solve_by_rays, solve_linear, solve_locally, Outcome, ProgressSink, Run,
    Status, ENUMERATION_LIMIT,
};
use mechsynth_solvers::{backend, BackendError, BackendKind, LpBackend};
use serde::Serialize;
use std::time::Instant;

/// Default accepted difference between an `[expected]` optimum and the solved objective.
pub const DEFAULT_EXPECTED_TOLERANCE: f64 = 1e-6;

/// When a certified channel counts as optimal: its objective is within
/// `absolute + relative * max(|objective|, |bound|)` of a rigorous bound on the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GapTolerance {
    /// Absolute part.
    pub absolute: f64,
    /// Relative part.
    pub relative: f64,
}

impl GapTolerance {
    /// The default: 1e-9 absolute plus 1e-6 relative.
    pub const DEFAULT: GapTolerance = GapTolerance {
        absolute: 1e-9,
        relative: 1e-6,
    };

    /// The accepted gap at these values.
    pub fn allowed(&self, objective: f64, bound: f64) -> f64 {
        self.absolute + self.relative * objective.abs().max(bound.abs())
    }
}

impl Default for GapTolerance {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// How to solve.
#[derive(Clone)]
pub struct SolveOptions {
    /// The LP backend.
    pub backend: BackendKind,
    /// Options passed to the backend (its time limit is the whole solve's).
    pub backend_options: mechsynth_solvers::SolveOptions,
    /// When a certified channel counts as optimal.
    pub gap: GapTolerance,
    /// Where progress messages go (none by default).
    pub progress: Option<ProgressSink>,
}

impl std::fmt::Debug for SolveOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("backend", &self.backend)
            .field("backend_options", &self.backend_options)
            .field("gap", &self.gap)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            backend: BackendKind::Clarabel,
            backend_options: mechsynth_solvers::SolveOptions::default(),
            gap: GapTolerance::DEFAULT,
            progress: None,
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
/// backend, certify (and if needed repair) the channel from its emitted numbers, and compare
/// its objective with a rigorous bound. The status is `optimal` only when that gap is within
/// `options.gap`. A report is returned for every backend status; it carries a channel only
/// when the backend returned a point and that point certifies.
pub fn solve(problem: &Problem, options: &SolveOptions) -> Result<Report, SolveError> {
    let start = Instant::now();
    let backend: Box<dyn LpBackend> = backend(options.backend)?;
    let run = Run::new(
        backend.as_ref(),
        options.backend_options.clone(),
        options.progress.clone(),
    );
    let (mut outcome, encoding) = formulate_and_solve(problem, &run)?;
    if outcome.rows.is_none() {
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
    let goal = problem.objective.goal();
    let gap = match (objective, outcome.bound) {
        (Some(v), Some(b)) => Some(GapReport::new(v, b, goal, options.gap)),
        _ => None,
    };
    let status = final_status(&outcome, objective, gap.as_ref());
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
    let leakage = channel
        .as_ref()
        .map(|c| leakage_profile(c, &problem.domain))
        .unwrap_or_default();
    let objectives = channel
        .as_ref()
        .map(|c| objective_profile_for(c, &problem.domain, &problem.spec.objective))
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
        status,
        method: outcome.method,
        objective,
        bound: outcome.bound,
        gap,
        objective_description: problem.objective.describe(),
        goal,
        channel,
        labels: problem.domain.labels().to_vec(),
        output_labels: output_labels(problem.domain.labels(), outputs),
        leakage,
        objectives,
        certificate,
        solver: SolverInfo {
            name: backend.name(),
            status: outcome.status.clone(),
            iterations: outcome.iterations,
            objective: outcome.solver_objective,
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

/// Outputs are the inputs' symbols when there are as many; otherwise `y0, y1, ...`.
fn output_labels(inputs: &[String], outputs: usize) -> Vec<String> {
    if outputs == inputs.len() {
        inputs.to_vec()
    } else {
        (0..outputs).map(|y| format!("y{y}")).collect()
    }
}

/// Pick the method for the objective and run it: the outcome and the encoding notes.
fn formulate_and_solve(problem: &Problem, run: &Run) -> Result<(Outcome, Vec<String>), SolveError> {
    let n = problem.domain.size();
    if let Some(coefficients) = problem.objective.linear_coefficients() {
        return Ok(solve_linear(
            &problem.privacy,
            coefficients,
            problem.objective.goal(),
            run,
        )?);
    }
    let local = || {
        solve_locally(
            &problem.privacy,
            problem.objective.as_ref(),
            problem.domain.prior(),
            local_seeds(problem),
            run,
        )
    };
    let describe = || {
        problem
            .privacy
            .iter()
            .map(|p| p.key().to_string())
            .collect::<Vec<_>>()
    };
    if let Some(design) = problem.objective.frequency_design() {
        let all: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
        if let Some(outcome) = solve_by_design(&all, design, n, run) {
            return Ok((outcome, describe()));
        }
        let mut outcome = local()?;
        outcome.notes.push(format!(
            "the constraints have no column cone (mutual-information privacy, (eps, delta) notions), or its extreme rays could not be listed (more than {ENUMERATION_LIMIT}, or double description did not finish within its share of the time limit); the result is a local optimum"
        ));
        return Ok((with_krr_note(problem, outcome), describe()));
    }
    let Some(f) = problem.objective.column_convex() else {
        let outcome = with_krr_note(problem, local()?);
        return Ok((outcome, describe()));
    };
    let all: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
    let (rest, mi): (Vec<_>, Vec<_>) = all.iter().partition(|p| p.column_cone(n).is_some());
    if mi.is_empty() {
        if let Some(outcome) = solve_by_rays(&all, f, n, run)? {
            return Ok((outcome, describe()));
        }
        let mut outcome = local()?;
        outcome.notes.push(format!(
            "the column cone's extreme rays could not be listed (more than {ENUMERATION_LIMIT}, or double description did not finish within its share of the time limit) and exact pricing exists only for mmse-sum under a single ldp or lip constraint; the result is a local optimum"
        ));
        return Ok((with_krr_note(problem, outcome), describe()));
    }
    // Mutual-information privacy couples the columns: a local optimum, and the optimum without
    // it as a bound.
    let mut outcome = local()?;
    if let Some(relaxed) = solve_by_rays(&rest, f, n, run)? {
        if relaxed.bound.is_some() {
            outcome.bound = relaxed.bound;
            outcome.notes.push(
                "bound: the global optimum without the constraints that couple the columns (mutual-information privacy, (eps, delta) notions; extreme-ray LP)".into(),
            );
        }
    }
    Ok((with_krr_note(problem, outcome), describe()))
}

/// The k-RR-like start: the identity mixed with the uniform channel at the smallest weight
/// that certifies under the problem's constraints (k-RR itself under LDP).
fn krr_like(problem: &Problem) -> Option<(f64, Channel)> {
    let n = problem.domain.size();
    let identity = Channel::from_rows_internal(
        (0..n)
            .map(|x| (0..n).map(|y| f64::from(u8::from(x == y))).collect())
            .collect(),
    );
    repair_by_mixing(&problem.privacy, &identity, &vec![1.0 / n as f64; n])
}

/// Known mechanisms that meet the constraints, as starts for the local method.
fn local_seeds(problem: &Problem) -> Vec<(String, Channel)> {
    krr_like(problem)
        .map(|(t, c)| (format!("k-RR-like mixture (uniform weight {t:.3e})"), c))
        .into_iter()
        .collect()
}

/// Say how the local result compares with the k-RR-like mechanism.
fn with_krr_note(problem: &Problem, mut outcome: Outcome) -> Outcome {
    let (Some((_, krr)), Some(rows)) = (krr_like(problem), &outcome.rows) else {
        return outcome;
    };
    let objective = problem.objective.as_ref();
    let (base, found) = (
        objective.evaluate(&krr),
        objective.evaluate(&Channel::from_solver_point(rows.clone()).0),
    );
    if base.is_finite() && found.is_finite() && base != 0.0 {
        let better = match objective.goal() {
            Goal::Minimize => (base - found) / base.abs(),
            Goal::Maximize => (found - base) / base.abs(),
        };
        let verdict = if better.abs() < 1e-9 {
            "the same".to_string()
        } else {
            format!("{:.4}% better", 100.0 * better)
        };
        outcome.notes.push(format!(
            "compared with the k-RR-like mechanism (objective {base:.6e}): {verdict}"
        ));
    }
    outcome
}

/// Tie the rows the constraints force equal, check every requested bound on `channel`, and
/// repair by mixing with a constant row when one is still exceeded; fail when no mixture
/// certifies.
fn certify(
    problem: &Problem,
    channel: Channel,
    correction: f64,
) -> Result<(Channel, Certificate), SolveError> {
    let groups = tie_groups(problem.privacy.iter().map(|p| p.as_ref()), channel.inputs());
    let channel = if groups.is_empty() {
        channel
    } else {
        average_groups(&channel, &groups, problem.domain.prior())
    };
    let checks = check_all(&problem.privacy, &channel);
    if checks.iter().all(|c| c.holds()) {
        let certificate = Certificate {
            checks,
            all_hold: true,
            cleanup_correction: correction,
            tied_rows: groups,
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
        tied_rows: groups,
        repair: Some(repair),
    };
    Ok((repaired, certificate))
}
