//! The LP over a channel: one variable per entry `Q[x][y]`, rows summing to 1, and whatever
//! auxiliary variables and constraints the privacy notions add.

use mechsynth_solvers::{LinearProgram, Sense, VarId};

/// Log-ratio budgets above this are not encoded: `e^30` is past what an LP solver resolves
/// next to entries of order 1. Leaving such a constraint out relaxes the program (its optimum
/// stays a valid bound); certification then checks it, and the repair that mixes with a
/// constant channel meets it at a weight of order `e^-20`.
pub const LOOSE_LOG_RATIO: f64 = 20.0;

pub use crate::policy::LP_MAX_INPUTS;

/// A linear program whose first `n * m` variables are the channel entries, row-major.
#[derive(Debug, Clone)]
pub struct ChannelLp {
    lp: LinearProgram,
    n: usize,
    m: usize,
}

impl ChannelLp {
    /// Variables `0 <= Q[x][y] <= 1` with `sum_y Q[x][y] = 1` for every input `x`.
    pub fn new(n: usize, m: usize) -> Self {
        let mut lp = LinearProgram::new();
        for _ in 0..n * m {
            lp.add_var(0.0, 0.0, 1.0);
        }
        for x in 0..n {
            lp.add_constraint((0..m).map(|y| (x * m + y, 1.0)).collect(), Sense::Eq, 1.0);
        }
        ChannelLp { lp, n, m }
    }

    /// The budget to encode for a requested log-ratio `e` (a privacy parameter or a pair's
    /// `eps * d`): `None` when it is too loose to encode ([`LOOSE_LOG_RATIO`]), else `e`.
    pub fn budget(&self, e: f64) -> Option<f64> {
        (e <= LOOSE_LOG_RATIO).then_some(e)
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.n
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.m
    }

    /// The variable of `Q[x][y]`.
    pub fn q(&self, x: usize, y: usize) -> VarId {
        x * self.m + y
    }

    /// A new auxiliary variable in `[lower, upper]`, not in the objective. Give the finite
    /// range that every feasible channel allows: the rigorous dual bound needs finite ranges.
    pub fn aux(&mut self, lower: f64, upper: f64) -> VarId {
        self.lp.add_var(0.0, lower, upper)
    }

    /// Add `sum(terms) (sense) rhs`.
    pub fn constrain(&mut self, terms: Vec<(VarId, f64)>, sense: Sense, rhs: f64) {
        self.lp.add_constraint(terms, sense, rhs);
    }

    /// Require `(a, b, c)` in the exponential cone: `b e^(a/b) <= c`.
    pub fn exp_cone(&mut self, a: VarId, b: VarId, c: VarId) {
        self.lp.add_exp_cone(a, b, c);
    }

    /// Add `a <= factor * b` as `a - factor * b <= 0`.
    pub fn at_most_times(&mut self, a: VarId, factor: f64, b: VarId) {
        self.lp
            .add_constraint(vec![(a, 1.0), (b, -factor)], Sense::Le, 0.0);
    }

    /// Add `a >= factor * b` as `a - factor * b >= 0`.
    pub fn at_least_times(&mut self, a: VarId, factor: f64, b: VarId) {
        self.lp
            .add_constraint(vec![(a, 1.0), (b, -factor)], Sense::Ge, 0.0);
    }

    /// Set the objective coefficient of `Q[x][y]` (the program minimizes).
    pub fn set_entry_cost(&mut self, x: usize, y: usize, cost: f64) {
        let v = self.q(x, y);
        self.lp.set_cost(v, cost);
    }

    /// Mutable access to the program (objective scaling).
    pub fn program_mut(&mut self) -> &mut LinearProgram {
        &mut self.lp
    }

    /// The underlying program.
    pub fn program(&self) -> &LinearProgram {
        &self.lp
    }

    /// The channel entries of a solver point, as rows.
    pub fn channel_rows(&self, point: &[f64]) -> Vec<Vec<f64>> {
        (0..self.n)
            .map(|x| point[x * self.m..(x + 1) * self.m].to_vec())
            .collect()
    }
}
