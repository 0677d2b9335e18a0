//! The restricted master LP of the decomposition over outputs (Dantzig-Wolfe).
//!
//! Every polyhedral notion without coupling rows confines each output column `q_y` to a cone C,
//! and the columns meet only in the row sums `sum_y Q[x][y] = 1`. With generated columns
//! `(y_j, q_j)`, `q_j` in C with entries in [0, 1], the master is
//!
//! ```text
//! min sum_j cost_j w_j   s.t.   sum_j w_j q_j[x] = 1 (every x),  w >= 0,
//! ```
//!
//! with `cost_j = c_{y_j} . q_j`. Columns of d-privacy cones are dense (every entry is positive),
//! but staircase columns are a constant plus a few high entries, so each column is stored as its
//! minimum `b_j` times the all-ones vector plus the sparse rest: the rows read
//! `T + sum_j w_j (q_j[x] - b_j) = 1` with one more row `sum_j b_j w_j - T = 0`. Eliminating `T`
//! gives back the rows above, and the duals of the `n` row-sum rows are the prices of the
//! original master (the reduced cost of `w_j` is `cost_j - price . q_j` in both).

use mechsynth_solvers::{BackendError, LinearProgram, LpBackend, LpSolution, Sense, SolveOptions};

/// One generated column: an output, a point of its cone with entries in [0, 1], and its cost.
#[derive(Debug, Clone)]
pub(crate) struct Column {
    /// The output this column belongs to.
    pub output: usize,
    /// The column (one entry per input).
    pub q: Vec<f64>,
    /// `c_output . q` (in the scaled, minimized units of the decomposition).
    pub cost: f64,
}

/// A solved master.
pub(crate) struct MasterPoint {
    /// The backend's answer.
    pub solution: LpSolution,
    /// One weight per column (clipped at 0); empty without a point.
    pub weights: Vec<f64>,
    /// Prices of the row sums (the duals of the first `n` rows).
    pub prices: Vec<f64>,
    /// `sum_j cost_j w_j` at the clipped weights.
    pub objective: f64,
}

/// Solve the master over `columns` for `n` inputs.
pub(crate) fn solve_master(
    n: usize,
    columns: &[Column],
    backend: &dyn LpBackend,
    options: &SolveOptions,
) -> Result<MasterPoint, BackendError> {
    let mut lp = LinearProgram::new();
    let weights: Vec<usize> = columns
        .iter()
        .map(|c| lp.add_var(c.cost, 0.0, f64::INFINITY))
        .collect();
    let base_total = lp.add_var(0.0, 0.0, f64::INFINITY);
    let mut rows: Vec<Vec<(usize, f64)>> = vec![vec![(base_total, 1.0)]; n];
    let mut base_row = vec![(base_total, -1.0)];
    for (column, &w) in columns.iter().zip(&weights) {
        let base = column
            .q
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
            .max(0.0);
        if base > 0.0 {
            base_row.push((w, base));
        }
        for (x, &v) in column.q.iter().enumerate() {
            let rest = v - base;
            if rest != 0.0 {
                rows[x].push((w, rest));
            }
        }
    }
    for row in rows {
        lp.add_constraint(row, Sense::Eq, 1.0);
    }
    lp.add_constraint(base_row, Sense::Eq, 0.0);
    let solution = backend.solve(&lp, options)?;
    if !solution.status.has_point() {
        return Ok(MasterPoint {
            solution,
            weights: Vec::new(),
            prices: Vec::new(),
            objective: f64::NAN,
        });
    }
    let w: Vec<f64> = weights.iter().map(|&j| solution.x[j].max(0.0)).collect();
    let objective = w.iter().zip(columns).map(|(w, c)| w * c.cost).sum();
    let prices = solution.duals[..n].to_vec();
    Ok(MasterPoint {
        solution,
        weights: w,
        prices,
        objective,
    })
}

/// The channel `Q[x][y] = sum_{j: output j = y} w_j q_j[x]` over `outputs` outputs.
pub(crate) fn channel_rows(
    n: usize,
    outputs: usize,
    columns: &[Column],
    weights: &[f64],
) -> Vec<Vec<f64>> {
    let mut rows = vec![vec![0.0; outputs]; n];
    for (column, &w) in columns.iter().zip(weights) {
        if w > 0.0 {
            for (row, &v) in rows.iter_mut().zip(&column.q) {
                row[column.output] += w * v;
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use mechsynth_solvers::ClarabelBackend;

    #[test]
    fn base_plus_sparse_rows_reproduce_the_row_sums() {
        // Two outputs on two inputs: identity columns scaled into [0.25, 1]. The master must
        // pick weights whose channel has unit row sums and the cheapest cost.
        let columns = vec![
            Column {
                output: 0,
                q: vec![1.0, 0.25],
                cost: 0.25,
            },
            Column {
                output: 1,
                q: vec![0.25, 1.0],
                cost: 0.25,
            },
            Column {
                output: 0,
                q: vec![1.0, 1.0],
                cost: 1.0,
            },
        ];
        let m = solve_master(2, &columns, &ClarabelBackend, &SolveOptions::default()).unwrap();
        let rows = channel_rows(2, 2, &columns, &m.weights);
        for row in &rows {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-7, "{rows:?}");
        }
        // w = 0.8 on each of the first two columns: cost 0.4; the ones column costs 1.
        assert!((m.objective - 0.4).abs() < 1e-7, "{}", m.objective);
        // Reduced costs are non-negative at the prices.
        for c in &columns {
            let reduced = c.cost - c.q.iter().zip(&m.prices).map(|(q, p)| q * p).sum::<f64>();
            assert!(reduced > -1e-7, "{reduced}");
        }
    }
}
