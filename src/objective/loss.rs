//! Loss functions `L[x][y]` for the expected-loss objective.

use super::registry::ObjectiveEntry;
use crate::domain::Domain;
use crate::error::{show_list, show_number, ProblemError};
use crate::numeric::DISTANCE_TOLERANCE;
use serde::{Deserialize, Serialize};

/// A loss as written in a problem file: a name, `{ matrix = [[...]] }` or `{ range = r }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    untagged,
    deny_unknown_fields,
    expecting = "a loss name (\"hamming\", \"absolute\", \"squared\"), { matrix = [[...]] } or { range = r }"
)]
pub enum LossSpec {
    /// `hamming`, `absolute` or `squared`.
    Named(String),
    /// An explicit n x n loss matrix.
    Matrix {
        /// `L[x][y]`.
        matrix: Vec<Vec<f64>>,
    },
    /// Range-query loss: 1 when the distance from x to y exceeds `range`.
    Range {
        /// The query radius (natural distance of the domain).
        range: f64,
    },
}

/// The registry entry of `expected-loss` (no profile: the loss is the problem's own).
pub(super) const ENTRY: ObjectiveEntry = ObjectiveEntry::new("expected-loss");

/// Accepted loss names.
pub const LOSS_NAMES: [&str; 3] = ["hamming", "absolute", "squared"];

impl LossSpec {
    /// The 0/1 loss: 1 when the output is not the input.
    pub fn hamming() -> Self {
        LossSpec::Named("hamming".into())
    }

    /// The absolute difference of the values (or the natural distance of the domain).
    pub fn absolute() -> Self {
        LossSpec::Named("absolute".into())
    }

    /// The squared difference of the values (or of the natural distance).
    pub fn squared() -> Self {
        LossSpec::Named("squared".into())
    }

    /// A short name for reports.
    pub fn name(&self) -> String {
        match self {
            LossSpec::Named(n) => n.clone(),
            LossSpec::Matrix { .. } => "matrix".into(),
            LossSpec::Range { range } => format!("range-query (r = {})", show_number(*range)),
        }
    }

    /// Whether the loss is a function of the distance between symbols (`absolute`,
    /// `squared`, `{ range = r }`), which a `labels` domain does not have.
    pub fn needs_distances(&self) -> bool {
        match self {
            LossSpec::Named(name) => matches!(name.as_str(), "absolute" | "squared"),
            LossSpec::Range { .. } => true,
            LossSpec::Matrix { .. } => false,
        }
    }

    /// The loss as written in a problem file, for error messages.
    fn shown(&self) -> String {
        match self {
            LossSpec::Named(name) => format!("{name:?}"),
            LossSpec::Matrix { .. } => "{ matrix = [[...]] }".into(),
            LossSpec::Range { range } => format!("{{ range = {} }}", show_number(*range)),
        }
    }

    /// The loss matrix over `domain` (outputs = inputs). Distances are the domain's natural
    /// ones: `|a_x - a_y|` for values, lines and `size` symbols (their indices), Euclidean on
    /// grids and planar points, great-circle km on lon/lat points; a `labels` domain has none,
    /// and a loss that needs them is an error naming `key`.
    pub fn matrix(&self, key: &str, domain: &Domain) -> Result<Vec<Vec<f64>>, ProblemError> {
        let n = domain.size();
        if self.needs_distances() && !domain.has_distances() {
            return Err(ProblemError::invalid(
                key,
                self.shown(),
                format!("the {} loss needs distances between symbols, and a `labels` domain has none; give a domain with distances (`values`, `line`, `size`, `grid` or `points`), or use a loss that needs none: \"hamming\" or {{ matrix = [[...]] }}", self.name()),
            ));
        }
        let d = domain.natural_distances();
        let from = |f: &dyn Fn(usize, usize) -> f64| -> Vec<Vec<f64>> {
            (0..n).map(|x| (0..n).map(|y| f(x, y)).collect()).collect()
        };
        match self {
            LossSpec::Named(name) => match name.as_str() {
                "hamming" => Ok(from(&|x, y| f64::from(u8::from(x != y)))),
                "absolute" => Ok(d),
                "squared" => Ok(from(&|x, y| d[x][y] * d[x][y])),
                other => Err(ProblemError::unknown("loss", key, other, &LOSS_NAMES)),
            },
            LossSpec::Range { range } => {
                if !(range.is_finite() && *range >= 0.0) {
                    return Err(ProblemError::invalid(
                        format!("{key}.range"),
                        range,
                        "the radius must be a finite number >= 0",
                    ));
                }
                Ok(from(&|x, y| {
                    f64::from(u8::from(d[x][y] > range + DISTANCE_TOLERANCE))
                }))
            }
            LossSpec::Matrix { matrix } => {
                let mkey = format!("{key}.matrix");
                if matrix.len() != n {
                    return Err(ProblemError::invalid(
                        mkey,
                        format!("{} rows", matrix.len()),
                        format!("must be {n} x {n} to match the domain"),
                    ));
                }
                for (i, row) in matrix.iter().enumerate() {
                    if row.len() != n {
                        return Err(ProblemError::invalid(
                            format!("{mkey}[{i}]"),
                            show_list(row),
                            format!("row has {} entries; must have {n}", row.len()),
                        ));
                    }
                    if let Some((j, v)) = row
                        .iter()
                        .enumerate()
                        .find(|(_, v)| !(v.is_finite() && v.abs() <= crate::numeric::MAX_MAGNITUDE))
                    {
                        return Err(ProblemError::invalid(
                            format!("{mkey}[{i}][{j}]"),
                            show_number(*v),
                            "losses must be finite, of magnitude at most 1e100 (rescale the units)",
                        ));
                    }
                }
                Ok(matrix.clone())
            }
        }
    }
}
