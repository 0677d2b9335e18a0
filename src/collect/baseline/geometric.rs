//! Distance-based baselines: the geometric and truncated geometric mechanisms on symbol
//! indices (not on grids, whose indices are not a line), and the exponential mechanism over
//! the domain's natural distance.

use super::{wrap, Baseline, BaselineChannel};
use crate::collect::CollectError;
use crate::domain::{Domain, Positions};
use crate::verify::truncated_geometric_rows;

/// The (untruncated) geometric mechanism, with the far tails merged into two outputs.
#[derive(Debug, Clone, Copy)]
pub struct Geometric;

impl Baseline for Geometric {
    fn name(&self) -> &'static str {
        "geometric"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() >= 2 && !matches!(domain.positions(), Positions::Grid { .. })
    }
    /// Outputs `-L..=n-1+L` with `L = n - 1`, plus `<-L` and `>n-1+L` for the tails:
    /// `P(x + Z = y) = (1 - a)/(1 + a) a^|y - x|` and `P(x + Z < -L) = a^(L + x + 1) / (1 + a)`
    /// with `a = e^-eps`. Merging the tails is post-processing, so the channel stays
    /// eps-d-private on the line of indices.
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        let n = domain.size() as i64;
        let l = n - 1;
        let a = (-eps).exp();
        let core = (1.0 - a) / (1.0 + a);
        let rows = (0..n)
            .map(|x| {
                let mut row = vec![a.powi((l + x + 1) as i32) / (1.0 + a)];
                row.extend((-l..=n - 1 + l).map(|y| core * a.powi((y - x).abs() as i32)));
                row.push(a.powi((n + l - x) as i32) / (1.0 + a));
                row
            })
            .collect();
        let mut labels = vec![format!("<{}", -l)];
        labels.extend((-l..=n - 1 + l).map(|y| y.to_string()));
        labels.push(format!(">{}", n - 1 + l));
        wrap(rows, Some(labels))
    }
}

/// The truncated geometric mechanism.
#[derive(Debug, Clone, Copy)]
pub struct TruncatedGeometric;

impl Baseline for TruncatedGeometric {
    fn name(&self) -> &'static str {
        "truncated-geometric"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() >= 2 && !matches!(domain.positions(), Positions::Grid { .. })
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        wrap(truncated_geometric_rows(domain.size(), eps), None)
    }
}

/// The exponential mechanism with utility `-d(x, y)`: `Q[x][y]` proportional to
/// `e^{-eps d(x, y) / 2}`.
#[derive(Debug, Clone, Copy)]
pub struct Exponential;

impl Baseline for Exponential {
    fn name(&self) -> &'static str {
        "exponential"
    }
    fn applies(&self, domain: &Domain) -> bool {
        domain.size() >= 2
    }
    fn channel(&self, domain: &Domain, eps: f64) -> Result<BaselineChannel, CollectError> {
        let d = domain.natural_distances();
        let rows = d
            .iter()
            .map(|row| {
                let w: Vec<f64> = row.iter().map(|dxy| (-eps * dxy / 2.0).exp()).collect();
                let s: f64 = w.iter().sum();
                w.iter().map(|v| v / s).collect()
            })
            .collect();
        wrap(rows, None)
    }
}
