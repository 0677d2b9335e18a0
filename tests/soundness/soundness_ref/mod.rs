//! The soundness suite's own reading of a problem: random problems drawn as mechsynth
//! `ProblemSpec`s together with the constraints and objective they denote, written from the
//! definitions in the README (not from mechsynth's formulation code), and the references that
//! judge mechsynth's answers: leakage checks, a naive dense LP, and an extreme-ray LP.

// Matrix code indexes rows and columns by symbol, as the definitions do.
#![allow(dead_code, clippy::needless_range_loop)]

pub mod draw;
pub mod draw_notion;
pub mod draw_objective;
pub mod judge;
pub mod lp;
pub mod privacy;
pub mod rays;
pub mod tally;

#[cfg(test)]
mod selftest;
pub mod utility;

/// One privacy constraint as the reference understands it.
#[derive(Debug, Clone)]
pub enum Constraint {
    /// `Q[a][y] <= e^budget Q[b][y]` for every output y, for each `(a, b, budget)` (LDP and its
    /// context-aware special cases, d-privacy, identifiability).
    Ratios(Vec<(usize, usize, f64)>),
    /// `e^-eps <= Q[x][y] / lambda_y(p) <= e^eps` for every input x, every output y and every
    /// listed prior p, with `lambda_y(p) = sum_x p_x Q[x][y]` (LIP, and BP-LIP at the vertices
    /// of its prior set, where continuity extends it to inputs a vertex gives no mass).
    Lip {
        /// The privacy parameter.
        epsilon: f64,
        /// The prior, or the vertices of the prior set.
        priors: Vec<Vec<f64>>,
    },
    /// `sum_y max_{x: p_x > 0} Q[x][y] <= e^eps`.
    MaxLeakage {
        /// The bound in nats.
        epsilon: f64,
        /// Which inputs have positive prior probability.
        support: Vec<bool>,
    },
    /// `I(X;Y) <= eps` nats under the domain prior.
    MutualInformation {
        /// The bound in nats.
        epsilon: f64,
    },
}

impl Constraint {
    /// Whether the constraint restricts each column on its own (so extreme rays apply).
    pub fn is_columnwise(&self) -> bool {
        matches!(self, Constraint::Ratios(_) | Constraint::Lip { .. })
    }
}

/// The objective as the reference understands it.
#[derive(Debug, Clone)]
pub enum Utility {
    /// `sum_x sum_y cost[x][y] Q[x][y]` over square channels.
    Linear {
        /// The coefficients.
        cost: Vec<Vec<f64>>,
        /// Maximized (co-location) or minimized (expected loss).
        maximize: bool,
    },
    /// Bayesian MMSE of `weight * f(X)` with the posterior-mean estimator (minimized).
    MmseSum {
        /// The value of each symbol.
        f: Vec<f64>,
        /// The weight.
        weight: f64,
    },
    /// Sum over k of the MMSE of `1{X = k}` (minimized).
    MmseHistogram,
    /// `I(X;Y)` in nats (maximized).
    MutualInformation,
    /// Frequency MSE of the inversion estimator: only privacy is judged.
    InversionMse,
}

impl Utility {
    /// Whether larger is better.
    pub fn maximize(&self) -> bool {
        matches!(
            self,
            Utility::Linear { maximize: true, .. } | Utility::MutualInformation
        )
    }
}

/// A drawn problem: mechsynth's spec and the reference's reading of it.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case number (with the suite's seed it reproduces the case).
    pub index: u64,
    /// The problem as given to mechsynth.
    pub spec: mechsynth::ProblemSpec,
    /// Number of symbols.
    pub n: usize,
    /// The domain prior (normalized).
    pub prior: Vec<f64>,
    /// Coverage labels of the privacy constraints (e.g. `d-privacy/manhattan`).
    pub notion_labels: Vec<String>,
    /// Coverage label of the objective (e.g. `expected-loss/range`).
    pub objective_label: String,
    /// The constraints, all of which must hold.
    pub constraints: Vec<Constraint>,
    /// The objective.
    pub utility: Utility,
    /// The natural distances between symbols, when the domain has positions (not for plain
    /// `size` domains).
    pub distances: Option<Vec<Vec<f64>>>,
}

impl Case {
    /// The problem as TOML, for failure messages (it reproduces the case with `mechsynth solve`).
    pub fn toml(&self) -> String {
        toml::to_string(&self.spec)
            .unwrap_or_else(|e| format!("(TOML failed: {e}) {:?}", self.spec))
    }
}
