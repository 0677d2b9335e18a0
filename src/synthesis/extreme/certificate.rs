//! The outcome of an LP over extreme rays: its channel from the master's weights, and the dual
//! bound that certifies it, widened outwards for rounding.

use super::column_generation::CG_GAP_TOLERANCE;
use crate::objective::ColumnConvex;
use crate::rays::ColumnCone;
use crate::synthesis::master::{channel_rows, purify, Columns, MasterSolution};
use crate::synthesis::{Method, Outcome, Status};
use mechsynth_solvers::LpStatus;

/// No channel: the time limit passed before the method had a point.
pub(crate) fn timed_out(note: &str) -> Outcome {
    Outcome {
        method: Method::ExtremeRayLp,
        status: Status::Solver(LpStatus::TimeLimit),
        iterations: 0,
        rows: None,
        bound: None,
        notes: vec![note.into()],
        solver_objective: None,
        trace: Vec::new(),
    }
}

/// Whether the certified bound closes the gap to the master's value: then the channel is
/// optimal by weak duality, whatever accuracy the backend reported.
fn gap_closed(bound_total: Option<f64>, total: f64) -> bool {
    bound_total.is_some_and(|b| b - total <= CG_GAP_TOLERANCE * total.abs().max(1.0))
}

/// Relative slack added to a dual bound computed in floating point: the few hundred
/// roundings in `mu . 1 + nu . rhs + (eta . 1) delta` and in each `g(r)` stay far below it.
const BOUND_ROUNDING_SLACK: f64 = 1e-12;

pub(super) fn outcome_from(
    cone: &ColumnCone,
    f: &dyn ColumnConvex,
    columns: &Columns,
    master: MasterSolution,
    bound_total: Option<f64>,
    method: Method,
    mut notes: Vec<String>,
) -> Outcome {
    let closed = gap_closed(bound_total, master.total);
    let MasterSolution {
        lp, mut weights, ..
    } = master;
    let rows = lp.status.has_point().then(|| {
        purify(cone, columns, &mut weights);
        channel_rows(cone, columns, &weights)
    });
    // A reduced-accuracy master still has a valid certificate: the dual bound holds for any
    // prices, so a closed gap proves optimality.
    let status = match lp.status {
        LpStatus::OptimalReducedAccuracy if closed => {
            notes.push(
                "the backend reported reduced accuracy; optimality is certified by the dual bound"
                    .into(),
            );
            Status::Optimal
        }
        other => Status::from_lp(other),
    };
    Outcome {
        method,
        status,
        iterations: lp.iterations,
        rows,
        bound: bound_total.map(|v| {
            let v = v + BOUND_ROUNDING_SLACK * (v.abs() + 1.0);
            let b = f.offset() + f.scale() * v;
            // The bound is on the side the goal needs: widen it outwards.
            b + b.abs().max(1.0) * BOUND_ROUNDING_SLACK * f.scale().signum()
        }),
        notes,
        solver_objective: None,
        trace: Vec::new(),
    }
}
