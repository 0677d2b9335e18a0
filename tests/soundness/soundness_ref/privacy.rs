//! Leakage of an emitted channel, recomputed from the definitions (README notion table), with
//! a float-rounding tolerance only.

use super::Constraint;

/// Relative tolerance on a likelihood ratio (and on `sum_y max_x Q[x][y]` and on mutual
/// information): float rounding in `e^eps` and in the products, nothing more.
pub const RATIO_TOLERANCE: f64 = 1e-9;
/// Absolute tolerance on mutual information (nats): rounding in the logarithms of equal rows.
pub const MI_ABSOLUTE_TOLERANCE: f64 = 1e-12;
/// Largest accepted `|row sum - 1|`.
pub const ROW_SUM_TOLERANCE: f64 = 1e-9;

/// Relative tolerance on ratios when a reference point must be feasible to rounding only.
pub const STRICT_RATIO_TOLERANCE: f64 = 4.0 * f64::EPSILON;

/// The first violation of `c` by `q`, described; `None` when `q` satisfies it.
pub fn violation(c: &Constraint, q: &[Vec<f64>], prior: &[f64]) -> Option<String> {
    violation_within(c, q, prior, RATIO_TOLERANCE)
}

/// As [`violation`], with relative tolerance `tol` on ratios and on mutual information.
pub fn violation_within(c: &Constraint, q: &[Vec<f64>], prior: &[f64], tol: f64) -> Option<String> {
    let m = q.first().map_or(0, Vec::len);
    match c {
        Constraint::Ratios(pairs) => {
            for &(a, b, budget) in pairs {
                for y in 0..m {
                    let (qa, qb) = (q[a][y], q[b][y]);
                    let bad = if qb == 0.0 {
                        qa > 0.0
                    } else {
                        qa > budget.exp() * qb * (1.0 + tol)
                    };
                    if bad {
                        return Some(format!(
                            "Q[{a}][{y}] = {qa:e} > e^{budget} * Q[{b}][{y}] = {:e} (log-ratio {} > {budget})",
                            budget.exp() * qb,
                            (qa / qb).ln()
                        ));
                    }
                }
            }
            None
        }
        Constraint::Lip { epsilon, priors } => {
            let (hi, lo) = (epsilon.exp(), (-epsilon).exp());
            for (k, p) in priors.iter().enumerate() {
                for y in 0..m {
                    let lambda: f64 = (0..q.len()).map(|x| p[x] * q[x][y]).sum();
                    for (x, row) in q.iter().enumerate() {
                        let v = row[y];
                        let above = v > hi * lambda * (1.0 + tol);
                        let below = v * (1.0 + tol) < lo * lambda;
                        if above || below {
                            return Some(format!(
                                "prior {k}: Q[{x}][{y}] = {v:e}, lambda_{y} = {lambda:e}: |ln ratio| = {} > {epsilon}",
                                (v / lambda).ln().abs()
                            ));
                        }
                    }
                }
            }
            None
        }
        Constraint::MaxLeakage { epsilon, support } => {
            let total: f64 = (0..m)
                .map(|y| {
                    (0..q.len())
                        .filter(|&x| support[x])
                        .map(|x| q[x][y])
                        .fold(0.0, f64::max)
                })
                .sum();
            (total > epsilon.exp() * (1.0 + tol)).then(|| {
                format!(
                    "sum_y max_x Q[x][y] = {total} > e^{epsilon}: leakage {}",
                    total.ln()
                )
            })
        }
        Constraint::MutualInformation { epsilon } => {
            let i = mutual_information(q, prior);
            let limit = epsilon + MI_ABSOLUTE_TOLERANCE + tol * epsilon;
            (i > limit).then(|| format!("I(X;Y) = {i} > {epsilon}"))
        }
    }
}

/// `I(X;Y)` in nats: `sum_{x,y} p_x Q[x][y] ln(Q[x][y] / lambda_y)`.
pub fn mutual_information(q: &[Vec<f64>], prior: &[f64]) -> f64 {
    let m = q.first().map_or(0, Vec::len);
    let mut total = 0.0;
    for y in 0..m {
        let lambda: f64 = (0..q.len()).map(|x| prior[x] * q[x][y]).sum();
        for (x, row) in q.iter().enumerate() {
            if prior[x] > 0.0 && row[y] > 0.0 {
                total += prior[x] * row[y] * (row[y] / lambda).ln();
            }
        }
    }
    total
}

/// A problem with the rows of `q`: not a channel (negative entry, row sum off by more than
/// [`ROW_SUM_TOLERANCE`], not finite).
pub fn not_a_channel(q: &[Vec<f64>]) -> Option<String> {
    for (x, row) in q.iter().enumerate() {
        if let Some(v) = row.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
            return Some(format!("row {x} has the entry {v}"));
        }
        let s: f64 = row.iter().sum();
        if (s - 1.0).abs() > ROW_SUM_TOLERANCE {
            return Some(format!("row {x} sums to {s}"));
        }
    }
    None
}

/// Leakage of `q` under the notions mechsynth reports for every channel (`ldp`, `lip`,
/// `max-leakage`, `mutual-information`, `identifiability`, and `d-privacy` for the natural
/// `distances` when the domain has positions), from the definitions over the prior's support;
/// `inf` when a ratio has a zero denominator.
pub fn leakage_profile(
    q: &[Vec<f64>],
    prior: &[f64],
    distances: Option<&[Vec<f64>]>,
) -> Vec<(&'static str, f64)> {
    let n = q.len();
    let m = q.first().map_or(0, Vec::len);
    let support: Vec<usize> = (0..n).filter(|&x| prior[x] > 0.0).collect();
    let log_ratio = |a: f64, b: f64| {
        if a == 0.0 {
            f64::NEG_INFINITY
        } else if b == 0.0 {
            f64::INFINITY
        } else {
            (a / b).ln()
        }
    };
    let (mut ldp, mut ident, mut lip, mut dp) = (0.0f64, 0.0f64, 0.0f64, 0.0f64);
    for y in 0..m {
        let lambda: f64 = (0..n).map(|x| prior[x] * q[x][y]).sum();
        for a in 0..n {
            if support.contains(&a) && lambda > 0.0 {
                lip = lip
                    .max(log_ratio(q[a][y], lambda))
                    .max(log_ratio(lambda, q[a][y]));
            }
            for b in (0..n).filter(|&b| b != a) {
                let r = log_ratio(q[a][y], q[b][y]);
                ldp = ldp.max(r);
                if let Some(d) = distances.filter(|d| d[a][b] > 0.0) {
                    dp = dp.max(r / d[a][b]);
                }
                if support.contains(&a) && support.contains(&b) {
                    ident = ident.max(log_ratio(prior[a] * q[a][y], prior[b] * q[b][y]));
                }
            }
        }
    }
    let max_leak: f64 = (0..m)
        .map(|y| support.iter().map(|&x| q[x][y]).fold(0.0, f64::max))
        .sum::<f64>()
        .ln()
        .max(0.0);
    let mut out = vec![
        ("ldp", ldp),
        ("lip", lip),
        ("max-leakage", max_leak),
        ("mutual-information", mutual_information(q, prior)),
        ("identifiability", ident),
    ];
    if distances.is_some() {
        out.push(("d-privacy", dp));
    }
    out
}
