//! The LP over a channel: one variable per entry `Q[x][y]`, rows summing to 1, and whatever
//! auxiliary variables and constraints the privacy notions add.

use mechsynth_solvers::{LinearProgram, Sense, VarId};

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

    /// A new auxiliary variable in `[lower, +inf)` (`lower` may be `-inf`), not in the
    /// objective.
    pub fn aux(&mut self, lower: f64) -> VarId {
        self.lp.add_var(0.0, lower, f64::INFINITY)
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
