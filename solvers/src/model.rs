//! A sparse linear program, optionally with exponential-cone constraints, in a solver-neutral
//! form.

/// Index of a variable in a [`LinearProgram`].
pub type VarId = usize;

/// Direction of a linear constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sense {
    /// `terms == rhs`
    Eq,
    /// `terms <= rhs`
    Le,
    /// `terms >= rhs`
    Ge,
}

/// One linear constraint `sum(coef * x[var]) (sense) rhs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Constraint {
    /// Sparse coefficients `(variable, coefficient)`.
    pub terms: Vec<(VarId, f64)>,
    /// Direction.
    pub sense: Sense,
    /// Right-hand side.
    pub rhs: f64,
}

/// Minimize `cost . x` subject to linear constraints, variable bounds and (optionally)
/// exponential-cone constraints.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinearProgram {
    cost: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
    constraints: Vec<Constraint>,
    exp_cones: Vec<[VarId; 3]>,
}

impl LinearProgram {
    /// An empty program.
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a variable with objective coefficient `cost` and bounds `[lower, upper]`
    /// (either may be infinite).
    pub fn add_var(&mut self, cost: f64, lower: f64, upper: f64) -> VarId {
        self.cost.push(cost);
        self.lower.push(lower);
        self.upper.push(upper);
        self.cost.len() - 1
    }

    /// Add the constraint `sum(terms) (sense) rhs`.
    pub fn add_constraint(&mut self, terms: Vec<(VarId, f64)>, sense: Sense, rhs: f64) {
        self.constraints.push(Constraint { terms, sense, rhs });
    }

    /// Require `(x, y, z)` to lie in the exponential cone `closure{y e^(x/y) <= z, y > 0}`.
    /// Only conic backends (Clarabel) accept programs with such constraints.
    pub fn add_exp_cone(&mut self, x: VarId, y: VarId, z: VarId) {
        self.exp_cones.push([x, y, z]);
    }

    /// The exponential-cone constraints, as `[x, y, z]` variable triples.
    pub fn exp_cones(&self) -> &[[VarId; 3]] {
        &self.exp_cones
    }

    /// Set the objective coefficient of `var`.
    pub fn set_cost(&mut self, var: VarId, cost: f64) {
        self.cost[var] = cost;
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.cost.len()
    }

    /// Number of constraints (variable bounds not counted).
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// Objective coefficients.
    pub fn cost(&self) -> &[f64] {
        &self.cost
    }

    /// Lower bounds.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }

    /// Upper bounds.
    pub fn upper(&self) -> &[f64] {
        &self.upper
    }

    /// The constraints.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// Objective value at `x`.
    pub fn objective_at(&self, x: &[f64]) -> f64 {
        self.cost.iter().zip(x).map(|(c, v)| c * v).sum()
    }
}
