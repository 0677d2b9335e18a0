//! Which method solves a problem: by the objective's structure, the notions and the size.

use super::ldp_handover::solve_ldp_auto;
use super::{MethodChoice, SolveError, DECOMPOSITION_MIN_INPUTS, LP_MAX_INPUTS};

use crate::certify::repair_by_mixing;
use crate::channel::Channel;
use crate::objective::Goal;
pub use crate::policy::LDP_INTERIOR_MAX_INPUTS;
use crate::privacy::PrivacyNotion;
use crate::problem::Problem;
use crate::synthesis::line::{solve_on_line, EquallySpacedLine};
use crate::synthesis::{
    decomposition_is_faster, lazy_symmetry_order, point_symmetries, solve_by_decomposition,
    solve_by_design, solve_by_rays, solve_ldp_interior, solve_linear, solve_locally,
    solve_ratio_interior, solve_symmetric_design, solve_tiled, solve_with_lazy_rows,
    staircase_epsilon, Outcome, Run, ENUMERATION_LIMIT, LAZY_MIN_INPUTS, LAZY_ROWS_PER_INPUT,
    LAZY_SYMMETRIC_MIN_INPUTS, LAZY_SYMMETRY_ORDER, LAZY_WARM_MIN_INPUTS,
    RATIO_INTERIOR_MIN_INPUTS, TEMPLATE_SIDE, TILED_MIN_INPUTS,
};

/// Pick the method for the objective and run it: the outcome and the encoding notes.
pub(super) fn formulate_and_solve(
    problem: &Problem,
    method: MethodChoice,
    run: &Run,
) -> Result<(Outcome, Vec<String>), SolveError> {
    let n = problem.domain.size();
    let line = problem
        .objective
        .linear_coefficients()
        .filter(|_| matches!(method, MethodChoice::Auto | MethodChoice::Line))
        .and_then(|c| Some((c, EquallySpacedLine::of(problem)?)));
    let mut line_notes = Vec::new();
    if let Some((coefficients, line)) = &line {
        let outcome = solve_on_line(line, coefficients, problem.objective.goal(), run);
        // Without a bound the time limit ended the pricing: no time is left for another method.
        if outcome.status.is_optimal()
            || outcome.bound.is_none()
            || method == MethodChoice::Line
            || n > LP_MAX_INPUTS
        {
            let encoding = vec![format!(
                "d-privacy: equally spaced line, {} adjacent pairs (they imply the rest); no program is built",
                2 * (n - 1)
            )];
            return Ok((outcome, encoding));
        }
        line_notes.push(format!(
            "the remapped geometric mechanism ({:.9e}) did not meet its bound ({}); solved by the method below instead",
            outcome.solver_objective.unwrap_or(f64::NAN),
            outcome
                .bound
                .map_or("none".to_string(), |b| format!("{b:.9e}"))
        ));
    } else if method == MethodChoice::Line {
        return Err(SolveError::MethodNotApplicable(
            "the line method needs a linear objective and one d-privacy constraint with metric = \"line\" over equally spaced points".into(),
        ));
    }
    let (mut outcome, encoding) = formulate_other(problem, method, run)?;
    outcome.notes.splice(0..0, line_notes);
    Ok((outcome, encoding))
}

/// Every method but the line method.
fn formulate_other(
    problem: &Problem,
    method: MethodChoice,
    run: &Run,
) -> Result<(Outcome, Vec<String>), SolveError> {
    let n = problem.domain.size();
    let all: Vec<&dyn PrivacyNotion> = problem.privacy.iter().map(|p| p.as_ref()).collect();
    let proofs: Vec<String> = all.iter().filter_map(|p| p.infeasibility()).collect();
    if !proofs.is_empty() {
        let outcome = Outcome {
            method: crate::synthesis::Method::InfeasibilityProof,
            status: crate::synthesis::Status::Solver(mechsynth_solvers::LpStatus::Infeasible),
            iterations: 0,
            rows: None,
            bound: None,
            notes: proofs,
            solver_objective: None,
            trace: Vec::new(),
        };
        return Ok((outcome, Vec::new()));
    }
    let decomposable = problem.objective.linear_coefficients().is_some()
        && matches!(
            method,
            MethodChoice::Auto | MethodChoice::Decomposition | MethodChoice::LdpInteriorPoint
        )
        && decomposition_is_faster(&all);
    if let Some(tiled) = try_tiled(problem, &all, method, run)? {
        return Ok(tiled);
    }
    if n > LP_MAX_INPUTS && !decomposable {
        return Err(SolveError::TooLarge(format!(
            "{n} symbols: this problem is solved by one program over the channel's {} entries (about {:.0} GB of solver memory); at most {LP_MAX_INPUTS} symbols, except a linear objective under a lone ldp constraint (decomposition) or a lone d-privacy constraint on an equally spaced line",
            n * n,
            (n as f64).powi(2) * 2.8e3 / 1e9
        )));
    }
    if method != MethodChoice::Auto && problem.objective.linear_coefficients().is_none() {
        return Err(SolveError::MethodNotApplicable(format!(
            "a method can be chosen only for linear objectives; {} has its own",
            problem.objective.describe()
        )));
    }
    if let Some(coefficients) = problem.objective.linear_coefficients() {
        let goal = problem.objective.goal();
        let ldp_epsilon = staircase_epsilon(&all).filter(|_| n <= LDP_INTERIOR_MAX_INPUTS);
        let ldp_encoding =
            || vec!["ldp: envelope form, column floor m_y <= Q[x][y] <= e^eps m_y".to_string()];
        if method == MethodChoice::LdpInteriorPoint {
            let Some(epsilon) = ldp_epsilon else {
                return Err(SolveError::MethodNotApplicable(ldp_interior_refusal(
                    &all, n,
                )));
            };
            return Ok((
                solve_ldp_interior(epsilon, coefficients, goal, run),
                ldp_encoding(),
            ));
        }
        let decompose = match method {
            MethodChoice::Decomposition => true,
            MethodChoice::Auto => n >= DECOMPOSITION_MIN_INPUTS && decomposition_is_faster(&all),
            _ => false,
        };
        if decompose {
            if let (Some(epsilon), MethodChoice::Auto) = (ldp_epsilon, method) {
                if let Some(solved) = solve_ldp_auto(problem, coefficients, epsilon, run)? {
                    return Ok(solved);
                }
            } else if let Some(mut outcome) =
                solve_by_decomposition(&all, coefficients, goal, None, run)?
            {
                if method == MethodChoice::Auto && staircase_epsilon(&all).is_some() {
                    outcome.notes.push(ldp_interior_refusal(&all, n));
                }
                return Ok((outcome, cone_encoding(&all, "column cone for pricing")));
            }
            if method == MethodChoice::Decomposition {
                return Err(SolveError::MethodNotApplicable(
                    "decomposition needs polyhedral notions without coupling rows (not max-leakage, mutual-information or (eps, delta) notions)".into(),
                ));
            }
        }
        let symmetries = if problem.domain.has_geometry() {
            point_symmetries(&problem.domain.coordinates())
        } else {
            Vec::new()
        };
        if method == MethodChoice::RatioInteriorPoint {
            let Some(outcome) = solve_ratio_interior(&all, coefficients, goal, &symmetries, run)
            else {
                return Err(SolveError::MethodNotApplicable(
                    "the ratio-interior-point method needs notions made only of ratio rows Q[a][y] <= f Q[b][y] with every factor above 1 (d-privacy between distinct points, context-ldp without zero entries, ldp with eps > 0), without (eps, delta) or coupling rows".into(),
                ));
            };
            return Ok((
                outcome,
                cone_encoding(&all, "ratio rows, one dense block per output column"),
            ));
        }
        // Sizes at which lazy rows beat one LP (the fallback when the interior point by output
        // column does not close its gap); the interior point itself goes first from fewer.
        let lazy_sized = n >= LAZY_MIN_INPUTS
            || (n >= LAZY_WARM_MIN_INPUTS && run.backend.warm_session().is_some())
            || (n >= LAZY_SYMMETRIC_MIN_INPUTS
                && lazy_symmetry_order(&all, coefficients, &symmetries) >= LAZY_SYMMETRY_ORDER);
        let large = method == MethodChoice::Auto && (lazy_sized || n >= RATIO_INTERIOR_MIN_INPUTS);
        let mut unclosed = None;
        if large {
            // The interior point by output column, then lazy rows if its gap stayed open.
            if let Some(outcome) = solve_ratio_interior(&all, coefficients, goal, &symmetries, run)
            {
                if ratio_interior_closed(&outcome) || run.expired() {
                    return Ok((
                        outcome,
                        cone_encoding(&all, "ratio rows, one dense block per output column"),
                    ));
                }
                unclosed = Some(outcome);
            }
        }
        let lazy = (large && lazy_sized) || method == MethodChoice::LazyRows;
        if lazy {
            if let Some(mut outcome) =
                solve_with_lazy_rows(&all, coefficients, goal, &symmetries, run)?
            {
                if let Some(first) = unclosed {
                    outcome.notes.insert(0, format!(
                        "the interior point by output column ended with its gap open ({}); lazy rows solved the problem instead",
                        first.notes.first().map_or("", String::as_str)
                    ));
                }
                let encoding =
                    cone_encoding(&all, "ratio rows added as violated (see the method notes)");
                return Ok((outcome, encoding));
            }
            if method == MethodChoice::LazyRows {
                return Err(SolveError::MethodNotApplicable(format!(
                    "lazy rows need notions made only of ratio rows, more than {LAZY_ROWS_PER_INPUT} per input (d-privacy, context-ldp)"
                )));
            }
        }
        if let Some(outcome) = unclosed {
            if lazy_sized || run.expired() {
                return Ok((
                    outcome,
                    cone_encoding(&all, "ratio rows, one dense block per output column"),
                ));
            }
            // Small enough for one LP, which closes what the interior point left open.
            let (mut lp, encoding) = solve_linear(
                &problem.privacy,
                coefficients,
                problem.objective.goal(),
                run,
            )?;
            lp.notes.insert(0, format!(
                "the interior point by output column ended with its gap open ({}); one LP solved the problem instead",
                outcome.notes.first().map_or("", String::as_str)
            ));
            return Ok((lp, encoding));
        }
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
        if let Some(outcome) = solve_symmetric_design(&all, design, n, run) {
            return Ok((outcome, describe()));
        }
        if let Some(outcome) = solve_by_design(&all, design, n, run) {
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
        if let Some(outcome) = solve_by_rays(&all, f, n, run)? {
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

/// Why the LDP interior-point method does not apply.
fn ldp_interior_refusal(all: &[&dyn PrivacyNotion], n: usize) -> String {
    let keys: Vec<&str> = all.iter().map(|p| p.key()).collect();
    let reason = match keys.as_slice() {
        ["ldp"] if n > LDP_INTERIOR_MAX_INPUTS => format!(
            "{n} symbols, above its maximum of {LDP_INTERIOR_MAX_INPUTS} (it keeps about 22 arrays of n^2 numbers, {:.1} GB here)",
            22.0 * 8.0 * (n as f64).powi(2) / 1e9
        ),
        ["ldp"] => format!(
            "its ldp constraint is not pure eps-LDP with eps at most {} (an (eps, delta) or multi-release constraint, or an eps so loose it is not encoded)",
            crate::formulation::LOOSE_LOG_RATIO
        ),
        _ => format!(
            "it needs exactly one privacy constraint, of notion ldp; the problem has {}",
            keys.join(", ")
        ),
    };
    format!("the ldp-interior-point method does not apply: {reason}")
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

use crate::policy::RATIO_INTERIOR_CLOSED_GAP as CLOSED_GAP;

/// The encoding lines of a method that encodes the notions' column cones itself: `what` it
/// does with them, and what an approximate cone keeps (a spanner's edges).
fn cone_encoding(all: &[&dyn PrivacyNotion], what: &str) -> Vec<String> {
    all.iter()
        .map(|p| {
            let kept = p.cone_note().map(|n| format!("; {n}")).unwrap_or_default();
            format!("{}: {what}{kept}", p.key())
        })
        .collect()
}

/// Whether the interior point by output column closed its gap (to its own tolerance, with
/// room to spare up to the report's default relative tolerance).
fn ratio_interior_closed(outcome: &Outcome) -> bool {
    match (outcome.solver_objective, outcome.bound) {
        (Some(objective), Some(bound)) => {
            (objective - bound).abs() <= CLOSED_GAP * objective.abs().max(1e-300)
        }
        _ => false,
    }
}

/// The tiled method where it is chosen (`auto` above [`LP_MAX_INPUTS`] points): `None` when
/// it is not chosen; an error when it was asked for and does not apply.
fn try_tiled(
    problem: &Problem,
    all: &[&dyn PrivacyNotion],
    method: MethodChoice,
    run: &Run,
) -> Result<Option<(Outcome, Vec<String>)>, SolveError> {
    let n = problem.domain.size();
    let wanted = match method {
        MethodChoice::Tiled => true,
        MethodChoice::Auto => n > LP_MAX_INPUTS,
        _ => false,
    };
    let coefficients = problem.objective.linear_coefficients();
    let outcome = match (wanted, coefficients) {
        (true, Some(coefficients)) if problem.domain.has_geometry() => {
            pair_budgets(all).and_then(|budgets| {
                solve_tiled(
                    &budgets,
                    coefficients,
                    problem.objective.goal(),
                    &problem.domain.coordinates(),
                    run,
                )
            })
        }
        _ => None,
    };
    match outcome {
        Some(outcome) => Ok(Some((
            outcome,
            cone_encoding(all, "ratio rows of a template lattice, carried to every output"),
        ))),
        None if method == MethodChoice::Tiled => Err(SolveError::MethodNotApplicable(format!(
            "the tiled method needs a minimized linear objective under notions made only of ratio rows (d-privacy) over a full grid of at least {TILED_MIN_INPUTS} points, larger than {TEMPLATE_SIDE} cells along some axis, whose costs and factors depend only on the displacement between points (a uniform prior)"
        ))),
        None => Ok(None),
    }
}

/// The entrywise least budgets of notions made only of pair rows, when every notion is one.
fn pair_budgets(all: &[&dyn PrivacyNotion]) -> Option<Vec<Vec<f64>>> {
    let mut budgets: Option<Vec<Vec<f64>>> = None;
    for p in all {
        let b = p.pair_budgets()?;
        budgets = Some(match budgets {
            None => b,
            Some(mut acc) => {
                for (ra, rb) in acc.iter_mut().zip(&b) {
                    ra.iter_mut().zip(rb).for_each(|(x, &y)| *x = x.min(y));
                }
                acc
            }
        });
    }
    budgets
}
