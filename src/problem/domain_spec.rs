//! `[domain]` as written in problem files, and the domain it builds.

use crate::domain::Domain;
use crate::error::ProblemError;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `[domain]`: exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`; optional
/// `prior` (not together with a `points` weight column).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainSpec {
    /// `n` symbols `0..n-1`.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "n")]
    pub size: Option<usize>,
    /// Named symbols.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// Numeric symbols (points on a line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
    /// Points `0..n-1` on a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Cells of a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridSpec>,
    /// Points from a CSV file of coordinates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<crate::geo::PointsSpec>,
    /// Prior over the symbols (default uniform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<Vec<f64>>,
}

/// `grid = { rows = r, cols = c }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl DomainSpec {
    /// Take a relative `points.file` relative to `dir`, the folder of the file this domain was
    /// read from (as every file that embeds a `[domain]` does).
    pub fn resolve_relative_to(&mut self, dir: &Path) {
        if let Some(points) = &mut self.points {
            points.resolve_relative_to(dir);
        }
    }

    /// Validate and build the domain.
    pub fn build(&self) -> Result<Domain, ProblemError> {
        let given: Vec<&str> = [
            ("size", self.size.is_some()),
            ("labels", self.labels.is_some()),
            ("values", self.values.is_some()),
            ("line", self.line.is_some()),
            ("grid", self.grid.is_some()),
            ("points", self.points.is_some()),
        ]
        .iter()
        .filter(|(_, g)| *g)
        .map(|(k, _)| *k)
        .collect();
        if given.len() != 1 {
            let reason = if given.is_empty() {
                "give exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`"
                    .to_string()
            } else {
                format!(
                    "give exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`; found {}",
                    given.join(" and ")
                )
            };
            return Err(ProblemError::structure("domain", reason));
        }
        let domain = if let Some(points) = &self.points {
            let loaded = points.load()?;
            let domain = Domain::points(loaded.labels, loaded.coordinates, points.coordinates)?;
            match (loaded.prior, &self.prior) {
                (Some(_), Some(_)) => {
                    return Err(ProblemError::structure(
                        "domain",
                        "give either `domain.points.weight` or `domain.prior`, not both: the weight column is the prior",
                    ))
                }
                (Some(weights), None) => return domain.with_prior(weights),
                (None, _) => domain,
            }
        } else if let Some(n) = self.size {
            Domain::sized(n)?
        } else if let Some(labels) = &self.labels {
            Domain::labeled(labels.clone())?
        } else if let Some(values) = &self.values {
            Domain::values(values.clone())?
        } else if let Some(n) = self.line {
            Domain::line(n)?
        } else {
            let g = self.grid.expect("exactly one domain key is set");
            Domain::grid(g.rows, g.cols)?
        };
        match &self.prior {
            Some(p) => domain.with_prior(p.clone()),
            None => Ok(domain),
        }
    }
}
