//! The finite input domain: symbols, optional numeric positions, and the prior.

use crate::error::{show_list, show_number, ProblemError};
use crate::geo::Geometry;
use crate::numeric::{PRIOR_SUM_TOLERANCE, RENORMALIZE_NOTE_THRESHOLD};
use serde::Serialize;

/// Where the symbols sit, which decides the distances available to metrics and losses.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Positions {
    /// The numbers `0..n-1` (`size = n`); distance-based features use them.
    Indices,
    /// Named symbols (`labels = [...]`): no order of magnitude, no distances. Losses and
    /// metrics that need distances, and objectives that need numeric values, are refused.
    Labels,
    /// Points on the real line (`values = [...]` or `line = n`).
    Line(Vec<f64>),
    /// Cells of a `rows x cols` grid, row-major, with coordinates `(row, col)`.
    Grid {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
    /// Points read from a file (`[domain] points = { ... }`), `[x, y]` each.
    Points {
        /// `[x, y]` per symbol (`[lon, lat]` in degrees for [`Geometry::Lonlat`]).
        coordinates: Vec<[f64; 2]>,
        /// How the coordinates are read, which decides the natural distance.
        geometry: Geometry,
    },
}

/// A validated input domain with its prior (outputs default to the inputs).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Domain {
    labels: Vec<String>,
    positions: Positions,
    prior: Vec<f64>,
}

impl Domain {
    /// `n` symbols labelled `0..n-1`, uniform prior.
    pub fn sized(n: usize) -> Result<Self, ProblemError> {
        Self::sized_as("domain.size", n)
    }

    /// As [`Domain::sized`], naming `key` in errors.
    fn sized_as(key: &str, n: usize) -> Result<Self, ProblemError> {
        check_size(key, n)?;
        if n == 0 {
            return Err(ProblemError::invalid(
                key,
                0,
                "the domain needs at least one symbol",
            ));
        }
        Self::distinct((0..n).map(|i| i.to_string()).collect())
    }

    /// Symbols with the given distinct labels, uniform prior; they have no positions and so
    /// no distances ([`Positions::Labels`]).
    pub fn labeled(labels: Vec<String>) -> Result<Self, ProblemError> {
        let mut d = Self::distinct(labels)?;
        d.positions = Positions::Labels;
        Ok(d)
    }

    /// Symbols with the given distinct labels at [`Positions::Indices`], uniform prior.
    fn distinct(labels: Vec<String>) -> Result<Self, ProblemError> {
        check_size("domain.labels", labels.len())?;
        if labels.is_empty() {
            return Err(ProblemError::invalid(
                "domain.labels",
                "[]",
                "the domain needs at least one symbol",
            ));
        }
        for (i, l) in labels.iter().enumerate() {
            if let Some(j) = labels[..i].iter().position(|o| o == l) {
                return Err(ProblemError::invalid(
                    "domain.labels",
                    format!("{l:?}"),
                    format!("label appears twice (positions {j} and {i}); labels must be distinct"),
                ));
            }
        }
        let n = labels.len();
        Ok(Domain {
            labels,
            positions: Positions::Indices,
            prior: vec![1.0 / n as f64; n],
        })
    }

    /// Points `0, 1, ..., n-1` on a line.
    pub fn line(n: usize) -> Result<Self, ProblemError> {
        check_size("domain.line", n)?;
        let mut d = Self::sized(n).map_err(|_| {
            ProblemError::invalid("domain.line", n, "the domain needs at least one point")
        })?;
        d.positions = Positions::Line((0..n).map(|i| i as f64).collect());
        Ok(d)
    }

    /// Symbols with numeric values (points on a line); labels are the values.
    pub fn values(values: Vec<f64>) -> Result<Self, ProblemError> {
        if let Some((i, v)) = values
            .iter()
            .enumerate()
            .find(|(_, v)| !(v.is_finite() && v.abs() <= crate::numeric::MAX_MAGNITUDE))
        {
            return Err(ProblemError::invalid(
                format!("domain.values[{i}]"),
                show_number(*v),
                format!(
                    "values must be finite numbers of magnitude at most {:e}; rescale the units",
                    crate::numeric::MAX_MAGNITUDE
                ),
            ));
        }
        if values.is_empty() {
            return Err(ProblemError::invalid(
                "domain.values",
                "[]",
                "the domain needs at least one value",
            ));
        }
        check_size("domain.values", values.len())?;
        for (i, v) in values.iter().enumerate() {
            if let Some(j) = values[..i].iter().position(|o| o == v) {
                return Err(ProblemError::invalid(
                    format!("domain.values[{i}]"),
                    show_number(*v),
                    format!("value appears twice (positions {j} and {i}); values must be distinct (they are the symbols' labels)"),
                ));
            }
        }
        let n = values.len();
        let mut d = Self::sized_as("domain.values", n)?;
        d.labels = values.iter().map(|v| format!("{v}")).collect();
        d.positions = Positions::Line(values);
        Ok(d)
    }

    /// The cells of a `rows x cols` grid, labelled `(r,c)`, row-major.
    pub fn grid(rows: usize, cols: usize) -> Result<Self, ProblemError> {
        if rows == 0 || cols == 0 {
            return Err(ProblemError::invalid(
                "domain.grid",
                format!("{{ rows = {rows}, cols = {cols} }}"),
                "both dimensions must be at least 1",
            ));
        }
        check_size("domain.grid", rows.saturating_mul(cols))?;
        let labels = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| format!("({r},{c})")))
            .collect();
        let mut d = Self::distinct(labels)?;
        d.positions = Positions::Grid { rows, cols };
        Ok(d)
    }

    /// Points with the given distinct labels and `[x, y]` coordinates (see [`Positions::Points`]).
    pub fn points(
        labels: Vec<String>,
        coordinates: Vec<[f64; 2]>,
        geometry: Geometry,
    ) -> Result<Self, ProblemError> {
        if labels.len() != coordinates.len() {
            return Err(ProblemError::invalid(
                "domain.points",
                format!("{} labels", labels.len()),
                format!("but {} coordinate pairs", coordinates.len()),
            ));
        }
        check_size("domain.points", labels.len())?;
        let mut d = Self::distinct(labels).map_err(|e| match e {
            ProblemError::InvalidValue { value, reason, .. } => {
                ProblemError::invalid("domain.points.label", value, reason)
            }
            other => other,
        })?;
        d.positions = Positions::Points {
            coordinates,
            geometry,
        };
        Ok(d)
    }

    /// Replace the prior; it must have one entry per symbol, be non-negative and sum to 1
    /// within [`PRIOR_SUM_TOLERANCE`]; it is divided by its sum.
    pub fn with_prior(mut self, prior: Vec<f64>) -> Result<Self, ProblemError> {
        validate_prior("domain.prior", &prior, self.size())?;
        self.prior = normalize_prior("domain.prior", &prior).0;
        Ok(self)
    }

    /// Number of symbols.
    pub fn size(&self) -> usize {
        self.labels.len()
    }

    /// Symbol labels.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The prior.
    pub fn prior(&self) -> &[f64] {
        &self.prior
    }

    /// How the symbols are placed.
    pub fn positions(&self) -> &Positions {
        &self.positions
    }

    /// Index of a label, if present.
    pub fn index_of(&self, label: &str) -> Option<usize> {
        self.labels.iter().position(|l| l == label)
    }

    /// Numeric value of every symbol: its value on the line, else its index
    /// (grid cells: their row-major index).
    pub fn numeric_values(&self) -> Vec<f64> {
        match &self.positions {
            Positions::Line(v) => v.clone(),
            _ => (0..self.size()).map(|i| i as f64).collect(),
        }
    }

    /// Coordinates of every symbol in the plane (1-D domains sit on the x axis).
    pub fn coordinates(&self) -> Vec<[f64; 2]> {
        match &self.positions {
            Positions::Grid { cols, .. } => (0..self.size())
                .map(|i| [(i / cols) as f64, (i % cols) as f64])
                .collect(),
            Positions::Points { coordinates, .. } => coordinates.clone(),
            _ => self
                .numeric_values()
                .into_iter()
                .map(|v| [v, 0.0])
                .collect(),
        }
    }

    /// The natural distance between symbols: |a - b| in 1-D, Euclidean on a grid and on
    /// planar points, great-circle km ([`crate::geo::haversine_km`]) on lon/lat points.
    pub fn natural_distances(&self) -> Vec<Vec<f64>> {
        let c = self.coordinates();
        let distance: fn([f64; 2], [f64; 2]) -> f64 = match self.positions {
            Positions::Points {
                geometry: Geometry::Lonlat,
                ..
            } => crate::geo::haversine_km,
            _ => |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]),
        };
        c.iter()
            .map(|&a| c.iter().map(|&b| distance(a, b)).collect())
            .collect()
    }

    /// Whether the symbols have positions of their own (not just indices).
    pub fn has_geometry(&self) -> bool {
        !matches!(self.positions, Positions::Indices | Positions::Labels)
    }

    /// Whether distances between symbols (and numeric values of symbols) mean anything: every
    /// domain but `labels`, whose symbols are names.
    pub fn has_distances(&self) -> bool {
        !matches!(self.positions, Positions::Labels)
    }
}

/// Largest domain: the channel has n^2 entries (200 MB at this size). Methods that build one
/// program over the whole channel stop earlier ([`crate::policy::LP_MAX_INPUTS`]).
pub const MAX_DOMAIN_SIZE: usize = 5000;

fn check_size(key: &str, n: usize) -> Result<(), ProblemError> {
    if n > MAX_DOMAIN_SIZE {
        return Err(ProblemError::invalid(
            key,
            n,
            format!("at most {MAX_DOMAIN_SIZE} symbols: the channel has n^2 entries ({:.1} GB at this size)", (n as f64).powi(2) * 8.0 / 1e9),
        ));
    }
    Ok(())
}

/// Check that `prior` is a probability vector over `n` symbols.
pub fn validate_prior(key: &str, prior: &[f64], n: usize) -> Result<(), ProblemError> {
    if prior.len() != n {
        return Err(ProblemError::invalid(
            key,
            show_list(prior),
            format!("has {} entries but the domain has {n} symbols", prior.len()),
        ));
    }
    if let Some((i, v)) = prior
        .iter()
        .enumerate()
        .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
    {
        return Err(ProblemError::invalid(
            format!("{key}[{i}]"),
            v,
            "prior entries must be finite and non-negative",
        ));
    }
    let sum: f64 = prior.iter().sum();
    if (sum - 1.0).abs() > PRIOR_SUM_TOLERANCE {
        return Err(ProblemError::invalid(
            key,
            show_list(prior),
            format!("entries sum to {sum}, not 1 (within {PRIOR_SUM_TOLERANCE:e})"),
        ));
    }
    Ok(())
}

/// `prior` divided by its sum, and a warning naming `key` when that changed it by more than
/// rounding (a prior written with a few digits, e.g. `[0.3333333, 0.3333333, 0.3333333]`).
pub fn normalize_prior(key: &str, prior: &[f64]) -> (Vec<f64>, Option<String>) {
    let sum: f64 = prior.iter().sum();
    let normalized: Vec<f64> = prior.iter().map(|p| p / sum).collect();
    let warning = ((sum - 1.0).abs() > RENORMALIZE_NOTE_THRESHOLD).then(|| {
        format!("`{key}` sums to {sum}; it was divided by its sum to make a distribution")
    });
    (normalized, warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prior_that_does_not_sum_to_one_names_the_sum() {
        let e = Domain::sized(2)
            .unwrap()
            .with_prior(vec![0.5, 0.6])
            .unwrap_err();
        assert!(e.to_string().contains("sum to 1.1"), "{e}");
    }

    #[test]
    fn prior_with_wrong_length_or_negative_entry_is_rejected() {
        assert!(Domain::sized(3)
            .unwrap()
            .with_prior(vec![0.5, 0.5])
            .is_err());
        let e = Domain::sized(2)
            .unwrap()
            .with_prior(vec![1.5, -0.5])
            .unwrap_err();
        assert!(e.to_string().contains("domain.prior[1]"), "{e}");
    }

    #[test]
    fn grid_coordinates_and_distances() {
        let g = Domain::grid(2, 3).unwrap();
        assert_eq!(g.size(), 6);
        assert_eq!(g.coordinates()[4], [1.0, 1.0]);
        assert!((g.natural_distances()[0][5] - 5f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn duplicate_labels_are_rejected() {
        assert!(Domain::labeled(vec!["a".into(), "a".into()]).is_err());
    }
}
