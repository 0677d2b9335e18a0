//! Objectives that are not linear: each has its own method (the optimal design for frequency
//! estimation, extreme rays for column-convex objectives, the local method otherwise).

use crate::certify::repair_by_mixing;
use crate::channel::Channel;
use crate::objective::Goal;
use crate::problem::Problem;
use crate::synthesis::{
    solve_by_design, solve_by_rays, solve_locally, solve_symmetric_design, MethodOutcome, Outcome,
    Run, SolveError, Task, ENUMERATION_LIMIT,
};

/// Solve a task whose objective is not linear.
pub(super) fn solve_nonlinear(task: &Task, run: &Run) -> Result<MethodOutcome, SolveError> {
    let (outcome, encoding) = by_objective(task.problem, &task.notions, task.inputs(), run)?;
    Ok(MethodOutcome { outcome, encoding })
}

/// The method the objective's structure calls for: the outcome and the encoding notes.
fn by_objective(
    problem: &Problem,
    all: &[&dyn crate::privacy::PrivacyNotion],
    n: usize,
    run: &Run,
) -> Result<(Outcome, Vec<String>), SolveError> {
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
        if let Some(outcome) = solve_symmetric_design(all, design, n, run) {
            return Ok((outcome, describe()));
        }
        if let Some(outcome) = solve_by_design(all, design, n, run) {
            return Ok((outcome, describe()));
        }
        let mut outcome = local()?;
        outcome.notes.push(format!(
            "the constraints have no column cone (mutual-information privacy, (eps, delta) notions), or its extreme rays could not be listed (more than {ENUMERATION_LIMIT}, or, for ratio cones, more than 1 GiB of tree codes; or double description did not finish within its share of the time limit); the result is a local optimum"
        ));
        return Ok((with_krr_note(problem, outcome), describe()));
    }
    let Some(f) = problem.objective.column_convex() else {
        let outcome = with_krr_note(problem, local()?);
        return Ok((outcome, describe()));
    };
    let (rest, mi): (Vec<_>, Vec<_>) = all.iter().partition(|p| p.column_cone(n).is_some());
    if mi.is_empty() {
        if let Some(outcome) = solve_by_rays(all, f, n, run)? {
            return Ok((outcome, describe()));
        }
        let mut outcome = local()?;
        outcome.notes.push(format!(
            "the column cone's extreme rays could not be listed (more than {ENUMERATION_LIMIT}, or, for ratio cones, more than 1 GiB of tree codes; or double description did not finish within its share of the time limit) and exact pricing exists only for mmse-sum and mmse-histogram under a single ldp or lip constraint, and mutual-information under a single lip constraint (lip with the objective's prior); the result is a local optimum"
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
pub(super) fn krr_like(problem: &Problem) -> Option<(f64, Channel)> {
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
