//! Which method solves a problem: the one `--method` asks for, or `auto`'s order
//! ([`crate::policy::AUTO_ORDER`], with the size rules of [`crate::policy`]). Every method for
//! linear objectives is reached through [`LinearMethod`]; what `auto` considered is recorded
//! for `solve --explain`.

use super::explain::Explain;
use super::ldp_handover::solve_ldp_auto;
use super::nonlinear::solve_nonlinear;
use crate::policy::{self, MethodChoice, LP_MAX_INPUTS};
use crate::report::Consideration;
use crate::synthesis::{
    decomposition_is_faster, lazy_symmetry_order, linear_method, staircase_epsilon,
    LdpInteriorMethod, LinearMethod, MethodOutcome, Outcome, Run, SolveError, Task,
};

/// Run the method `choice` names (or `auto`'s choice): the outcome, the encoding notes and
/// what was considered.
pub(super) fn formulate_and_solve(
    problem: &crate::problem::Problem,
    choice: MethodChoice,
    run: &Run,
) -> Result<(Outcome, Vec<String>, Vec<Consideration>), SolveError> {
    let task = Task::new(problem);
    let mut explain = Explain::new(choice);
    let solved = match choice {
        MethodChoice::Auto => auto(&task, run, &mut explain),
        chosen => asked_for(&task, chosen, run, &mut explain),
    }?;
    Ok((solved.outcome, solved.encoding, explain.finish()))
}

fn method(choice: MethodChoice) -> &'static dyn LinearMethod {
    linear_method(choice).expect("every choice but auto names a method")
}

/// The method `--method` asked for. The line method runs before anything else; the others
/// after the parameters' own infeasibility proofs and the size check.
fn asked_for(
    task: &Task,
    choice: MethodChoice,
    run: &Run,
    explain: &mut Explain,
) -> Result<MethodOutcome, SolveError> {
    let n = task.inputs();
    if choice != MethodChoice::Line {
        if let Some(proof) = infeasibility_proof(task) {
            explain.note(
                choice,
                "not run: the parameters alone prove that no channel exists",
            );
            return Ok(proof);
        }
        if !matches!(choice, MethodChoice::Tiled | MethodChoice::FirstOrder) {
            let decomposable = task.coefficients.is_some()
                && matches!(
                    choice,
                    MethodChoice::Decomposition | MethodChoice::LdpInteriorPoint
                )
                && decomposition_is_faster(&task.notions);
            if n > LP_MAX_INPUTS && !decomposable {
                return Err(too_large(n));
            }
            if task.coefficients.is_none() {
                return Err(SolveError::MethodNotApplicable(format!(
                    "a method can be chosen only for linear objectives; {} has its own",
                    task.problem.objective.describe()
                )));
            }
        }
    }
    let m = method(choice);
    match m.solve(task, run)? {
        Some(solved) => {
            explain.note(choice, "kept: asked for with --method");
            Ok(solved)
        }
        None => Err(SolveError::MethodNotApplicable(m.refusal(task))),
    }
}

/// `auto`: the methods of [`policy::AUTO_ORDER`] in turn, each where it applies and its size
/// rule holds, until one settles the problem.
fn auto(task: &Task, run: &Run, explain: &mut Explain) -> Result<MethodOutcome, SolveError> {
    let n = task.inputs();
    // Notes of methods whose results were passed over, put before the kept method's notes.
    let mut passed_over = Vec::new();

    // The line method: kept when it closes its gap, when it has no bound (the time limit
    // ended its pricing: no time is left for another method), or above LP_MAX_INPUTS.
    if task.coefficients.is_some() {
        let line = method(MethodChoice::Line);
        match line.solve(task, run)? {
            Some(solved)
                if solved.outcome.status.is_optimal()
                    || solved.outcome.bound.is_none()
                    || n > LP_MAX_INPUTS =>
            {
                explain.kept(MethodChoice::Line);
                return Ok(solved);
            }
            Some(solved) => {
                let note = format!(
                    "the remapped geometric mechanism ({:.9e}) did not meet its bound ({}); solved by the method below instead",
                    solved.outcome.solver_objective.unwrap_or(f64::NAN),
                    solved
                        .outcome
                        .bound
                        .map_or("none".to_string(), |b| format!("{b:.9e}"))
                );
                explain.note(MethodChoice::Line, format!("passed over: {note}"));
                passed_over.push(note);
            }
            None => explain.skipped(MethodChoice::Line, line.refusal(task)),
        }
    }
    let with_notes = |mut solved: MethodOutcome, notes: Vec<String>| {
        solved.outcome.notes.splice(0..0, notes);
        solved
    };
    if let Some(proof) = infeasibility_proof(task) {
        explain.rest("not run: the parameters alone prove that no channel exists");
        return Ok(with_notes(proof, passed_over));
    }

    // The tiled method, above LP_MAX_INPUTS points.
    match policy::auto_tries_tiled(n) {
        Err(why) => explain.skipped(MethodChoice::Tiled, why),
        Ok(()) => {
            let tiled = method(MethodChoice::Tiled);
            match tiled.solve(task, run)? {
                Some(solved) => {
                    explain.kept(MethodChoice::Tiled);
                    return Ok(with_notes(solved, passed_over));
                }
                None => explain.skipped(MethodChoice::Tiled, tiled.refusal(task)),
            }
        }
    }

    // The first-order method, for large problems under pair rows (see the policy).
    let symmetric = || {
        task.coefficients.is_some_and(|c| {
            lazy_symmetry_order(&task.notions, c, task.symmetries()) >= policy::LAZY_SYMMETRY_ORDER
        })
    };
    let tries = if !(policy::FIRST_ORDER_MIN_INPUTS..=LP_MAX_INPUTS).contains(&n) {
        policy::auto_tries_first_order(n, false)
    } else {
        policy::auto_tries_first_order(n, symmetric())
    };
    match tries {
        Err(why) => explain.skipped(MethodChoice::FirstOrder, why),
        Ok(()) => {
            let first_order = method(MethodChoice::FirstOrder);
            match first_order.solve(task, run)? {
                Some(solved) => {
                    explain.kept(MethodChoice::FirstOrder);
                    return Ok(with_notes(solved, passed_over));
                }
                None => explain.skipped(MethodChoice::FirstOrder, first_order.refusal(task)),
            }
        }
    }

    let faster = task.coefficients.is_some() && decomposition_is_faster(&task.notions);
    if n > LP_MAX_INPUTS && !faster {
        return Err(too_large(n));
    }
    let Some(coefficients) = task.coefficients else {
        explain.rest(format!(
            "not run: the objective ({}) is not linear and has its own method",
            task.problem.objective.describe()
        ));
        return solve_nonlinear(task, run).map(|s| with_notes(s, passed_over));
    };

    // Decomposition over outputs; under a lone LDP constraint its first round, then the LDP
    // interior point, then one LP (see `ldp_handover`).
    match policy::auto_tries_decomposition(n, faster) {
        Err(why) => {
            explain.skipped(MethodChoice::Decomposition, why.clone());
            explain.skipped(
                MethodChoice::LdpInteriorPoint,
                format!("only after the decomposition, which was not run: {why}"),
            );
        }
        Ok(()) => {
            if let Some(epsilon) = LdpInteriorMethod::epsilon(task) {
                if let Some((outcome, encoding)) =
                    solve_ldp_auto(task.problem, coefficients, epsilon, run)?
                {
                    let solved = MethodOutcome { outcome, encoding };
                    explain.ldp_handover(&solved.outcome);
                    return Ok(with_notes(solved, passed_over));
                }
            } else {
                let decomposition = method(MethodChoice::Decomposition);
                if let Some(mut solved) = decomposition.solve(task, run)? {
                    if staircase_epsilon(&task.notions).is_some() {
                        let why = method(MethodChoice::LdpInteriorPoint).refusal(task);
                        explain.skipped(MethodChoice::LdpInteriorPoint, why.clone());
                        solved.outcome.notes.push(why);
                    }
                    explain.kept(MethodChoice::Decomposition);
                    return Ok(with_notes(solved, passed_over));
                }
                explain.skipped(MethodChoice::Decomposition, decomposition.refusal(task));
            }
        }
    }

    // The LIP interior point; one LP below when its gap stays open.
    let mut lip_unclosed = None;
    if let Err(why) = policy::auto_tries_lip_interior(n) {
        explain.skipped(MethodChoice::LipInteriorPoint, why);
    } else {
        let lip = method(MethodChoice::LipInteriorPoint);
        match lip.solve(task, run)? {
            Some(solved)
                if policy::lip_interior_settles(
                    solved.outcome.solver_objective,
                    solved.outcome.bound,
                ) || run.expired() =>
            {
                explain.kept(MethodChoice::LipInteriorPoint);
                return Ok(with_notes(solved, passed_over));
            }
            Some(solved) => {
                explain.note(
                    MethodChoice::LipInteriorPoint,
                    "passed over: its gap stayed open (see the method notes)",
                );
                lip_unclosed = Some(solved);
            }
            None => explain.skipped(MethodChoice::LipInteriorPoint, lip.refusal(task)),
        }
    }

    // The interior point by output column, then lazy rows, then one LP.
    let warm = run.backend.warm_session().is_some();
    let lazy_sized = policy::lazy_rows_sized(n, warm, || {
        lazy_symmetry_order(&task.notions, coefficients, task.symmetries())
    });
    let mut unclosed = None;
    match policy::auto_tries_ratio_interior(n, lazy_sized) {
        Err(why) => explain.skipped(MethodChoice::RatioInteriorPoint, why),
        Ok(()) => {
            let ratio = method(MethodChoice::RatioInteriorPoint);
            match ratio.solve(task, run)? {
                Some(solved)
                    if policy::ratio_interior_settles(
                        solved.outcome.solver_objective,
                        solved.outcome.bound,
                    ) || run.expired() =>
                {
                    explain.kept(MethodChoice::RatioInteriorPoint);
                    return Ok(with_notes(solved, passed_over));
                }
                Some(solved) => {
                    explain.note(
                        MethodChoice::RatioInteriorPoint,
                        "passed over: its gap stayed open (see the method notes)",
                    );
                    unclosed = Some(solved);
                }
                None => explain.skipped(MethodChoice::RatioInteriorPoint, ratio.refusal(task)),
            }
        }
    }
    let gap_open = |first: &MethodOutcome, instead: &str| {
        format!(
            "the interior point by output column ended with its gap open ({}); {instead} solved the problem instead",
            first.outcome.notes.first().map_or("", String::as_str)
        )
    };
    match policy::auto_tries_lazy_rows(n, lazy_sized) {
        Err(why) => explain.skipped(MethodChoice::LazyRows, why),
        Ok(()) => {
            let lazy = method(MethodChoice::LazyRows);
            match lazy.solve(task, run)? {
                Some(mut solved) => {
                    if let Some(first) = &unclosed {
                        solved.outcome.notes.insert(0, gap_open(first, "lazy rows"));
                    }
                    explain.kept(MethodChoice::LazyRows);
                    return Ok(with_notes(solved, passed_over));
                }
                None => explain.skipped(MethodChoice::LazyRows, lazy.refusal(task)),
            }
        }
    }
    if let Some(first) = unclosed.take_if(|_| lazy_sized || run.expired()) {
        explain.skipped(
            MethodChoice::Lp,
            "too large for one LP here, or the time limit has passed: the interior point's result is kept",
        );
        explain.kept_after_all(MethodChoice::RatioInteriorPoint);
        return Ok(with_notes(first, passed_over));
    }
    let mut solved = method(MethodChoice::Lp)
        .solve(task, run)?
        .expect("one LP applies to every linear objective");
    if let Some(first) = &unclosed {
        // Small enough for one LP, which closes what the interior point left open.
        solved.outcome.notes.insert(0, gap_open(first, "one LP"));
    }
    if let Some(first) = &lip_unclosed {
        let note = format!(
            "the LIP interior point ended with its gap open ({}); one LP solved the problem instead",
            first.outcome.notes.first().map_or("", String::as_str)
        );
        solved.outcome.notes.insert(0, note);
    }
    explain.kept(MethodChoice::Lp);
    Ok(with_notes(solved, passed_over))
}

/// The outcome of the notions' own infeasibility proofs (no program is solved), if any.
fn infeasibility_proof(task: &Task) -> Option<MethodOutcome> {
    let proofs: Vec<String> = task
        .notions
        .iter()
        .filter_map(|p| p.infeasibility())
        .collect();
    (!proofs.is_empty()).then(|| MethodOutcome {
        outcome: Outcome {
            method: crate::synthesis::Method::InfeasibilityProof,
            status: crate::synthesis::Status::Solver(mechsynth_solvers::LpStatus::Infeasible),
            iterations: 0,
            rows: None,
            bound: None,
            notes: proofs,
            solver_objective: None,
            trace: Vec::new(),
        },
        encoding: Vec::new(),
    })
}

/// The refusal of a problem too large for one program over the channel.
fn too_large(n: usize) -> SolveError {
    SolveError::TooLarge(format!(
        "{n} symbols: this problem is solved by one program over the channel's {} entries (about {:.0} GB of solver memory); at most {LP_MAX_INPUTS} symbols, except a linear objective under a lone ldp constraint (decomposition), under d-privacy (the first-order method) or a lone d-privacy constraint on an equally spaced line",
        n * n,
        (n as f64).powi(2) * 2.8e3 / 1e9
    ))
}
