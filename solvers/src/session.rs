//! Sessions: a sequence of solves of one program that only grows by appended constraints
//! (constraint generation). A backend that can re-optimize from its last basis does so; any
//! other backend solves every program from scratch.

use crate::{BackendError, Constraint, LinearProgram, LpBackend, LpSolution, SolveOptions};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Solves a program that grows between calls.
///
/// Each call passes the whole current program. A warm-starting session checks that it extends
/// the previous one (same variables, costs and bounds; the earlier constraints unchanged and in
/// the same order, new ones appended) and then hands the backend only the new constraints; for
/// any other program it starts over, so a session never solves a program other than the one
/// it is given.
pub trait LpSession {
    /// Solve `lp` (a minimization).
    fn solve(
        &mut self,
        lp: &LinearProgram,
        options: &SolveOptions,
    ) -> Result<LpSolution, BackendError>;

    /// Whether the last call re-optimized from the previous basis rather than from scratch.
    fn last_was_warm(&self) -> bool {
        false
    }
}

/// A session on `backend`: warm-started when the backend offers it, cold otherwise.
pub fn session(backend: &dyn LpBackend) -> Box<dyn LpSession + '_> {
    backend
        .warm_session()
        .unwrap_or_else(|| Box::new(ColdSession { backend }))
}

/// Solves every program from scratch.
struct ColdSession<'a> {
    backend: &'a dyn LpBackend,
}

impl LpSession for ColdSession<'_> {
    fn solve(
        &mut self,
        lp: &LinearProgram,
        options: &SolveOptions,
    ) -> Result<LpSolution, BackendError> {
        self.backend.solve(lp, options)
    }
}

/// What a warm session remembers of the program it holds, to recognize an extension of it.
#[cfg_attr(not(feature = "highs"), allow(dead_code))]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    /// Hash of the variables' costs and bounds.
    variables: u64,
    /// Number of constraints loaded.
    pub(crate) constraints: usize,
    /// Hash of those constraints, in order.
    rows: u64,
}

#[cfg_attr(not(feature = "highs"), allow(dead_code))]
impl Fingerprint {
    /// The fingerprint of `lp`.
    pub(crate) fn of(lp: &LinearProgram) -> Self {
        Fingerprint {
            variables: hash_variables(lp),
            constraints: lp.num_constraints(),
            rows: hash_rows(lp.constraints()),
        }
    }

    /// Whether `lp` is this program with constraints appended (possibly none).
    pub(crate) fn is_extended_by(&self, lp: &LinearProgram) -> bool {
        lp.num_constraints() >= self.constraints
            && hash_variables(lp) == self.variables
            && hash_rows(&lp.constraints()[..self.constraints]) == self.rows
    }
}

fn hash_variables(lp: &LinearProgram) -> u64 {
    let mut h = DefaultHasher::new();
    lp.num_vars().hash(&mut h);
    for values in [lp.cost(), lp.lower(), lp.upper()] {
        values.iter().for_each(|v| v.to_bits().hash(&mut h));
    }
    lp.exp_cones().len().hash(&mut h);
    h.finish()
}

fn hash_rows(rows: &[Constraint]) -> u64 {
    let mut h = DefaultHasher::new();
    for row in rows {
        row.terms.len().hash(&mut h);
        for &(var, coefficient) in &row.terms {
            var.hash(&mut h);
            coefficient.to_bits().hash(&mut h);
        }
        (row.sense as u8).hash(&mut h);
        row.rhs.to_bits().hash(&mut h);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sense;

    fn base() -> LinearProgram {
        let mut lp = LinearProgram::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        let y = lp.add_var(2.0, 0.0, 1.0);
        lp.add_constraint(vec![(x, 1.0), (y, 1.0)], Sense::Eq, 1.0);
        lp
    }

    #[test]
    fn an_appended_row_extends_and_a_changed_one_does_not() {
        let print = Fingerprint::of(&base());
        let mut grown = base();
        grown.add_constraint(vec![(0, 1.0)], Sense::Le, 0.5);
        assert!(print.is_extended_by(&grown));
        assert!(print.is_extended_by(&base()));
        let mut changed = LinearProgram::new();
        let x = changed.add_var(1.0, 0.0, 1.0);
        let y = changed.add_var(2.0, 0.0, 1.0);
        changed.add_constraint(vec![(x, 1.0), (y, 1.0)], Sense::Eq, 0.9);
        assert!(!print.is_extended_by(&changed));
        let mut recosted = base();
        recosted.set_cost(1, 3.0);
        assert!(!print.is_extended_by(&recosted));
        assert!(!Fingerprint::of(&grown).is_extended_by(&base()));
    }
}
