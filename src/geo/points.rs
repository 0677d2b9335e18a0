//! `[domain] points = { file = ..., x = ..., y = ... }`: a point set read from a CSV file.

use crate::error::{show_number, ProblemError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// How the two coordinate columns are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Geometry {
    /// Cartesian coordinates; the natural distance is Euclidean.
    #[default]
    Plane,
    /// `x` is longitude and `y` latitude, in degrees; the natural distance is the
    /// great-circle distance in km ([`crate::geo::haversine_km`]).
    Lonlat,
}

/// The `points` table of `[domain]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointsSpec {
    /// The CSV file (with a header row); relative paths are relative to the problem file.
    pub file: PathBuf,
    /// Column of the first coordinate (longitude when `coordinates = "lonlat"`).
    pub x: String,
    /// Column of the second coordinate (latitude when `coordinates = "lonlat"`).
    pub y: String,
    /// Column of the labels (default: the row numbers `0, 1, ...`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Column of non-negative weights or counts, normalized into the prior.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    /// `"plane"` (default) or `"lonlat"`.
    #[serde(default)]
    pub coordinates: Geometry,
}

/// The points of a CSV file: labels, `[x, y]` coordinates, and the normalized weights.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedPoints {
    /// One label per point.
    pub labels: Vec<String>,
    /// `[x, y]` per point (`[lon, lat]` for lon/lat data).
    pub coordinates: Vec<[f64; 2]>,
    /// The weights divided by their sum, when a weight column is named.
    pub prior: Option<Vec<f64>>,
}

const KEY: &str = "domain.points";

impl PointsSpec {
    /// Make a relative `file` relative to `dir` (the problem file's directory).
    pub fn resolve_relative_to(&mut self, dir: &Path) {
        if self.file.is_relative() {
            self.file = dir.join(&self.file);
        }
    }

    /// Read and validate the file. Errors name the key, the line and the column.
    pub fn load(&self) -> Result<LoadedPoints, ProblemError> {
        let shown = self.file.display().to_string();
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .from_path(&self.file)
            .map_err(|e| {
                ProblemError::invalid(format!("{KEY}.file"), &shown, format!("cannot read: {e}"))
            })?;
        let headers = reader
            .headers()
            .map_err(|e| bad_csv(&shown, e))?
            .iter()
            .map(str::to_string)
            .collect::<Vec<_>>();
        if headers.iter().all(|h| h.is_empty()) {
            return Err(ProblemError::invalid(
                format!("{KEY}.file"),
                &shown,
                "is empty: a points file needs a header row naming its columns, then one row per point",
            ));
        }
        let column = |key: &str, name: &str| -> Result<usize, ProblemError> {
            headers.iter().position(|h| h == name).ok_or_else(|| {
                ProblemError::invalid(
                    format!("{KEY}.{key}"),
                    format!("{name:?}"),
                    format!(
                        "{shown} has no such column; its columns are: {}",
                        headers.join(", ")
                    ),
                )
            })
        };
        let (cx, cy) = (column("x", &self.x)?, column("y", &self.y)?);
        let cl = self
            .label
            .as_deref()
            .map(|l| column("label", l))
            .transpose()?;
        let cw = self
            .weight
            .as_deref()
            .map(|w| column("weight", w))
            .transpose()?;
        let mut out = LoadedPoints {
            labels: Vec::new(),
            coordinates: Vec::new(),
            prior: None,
        };
        let mut weights = Vec::new();
        let mut lines = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| bad_csv(&shown, e))?;
            let line = record.position().map_or(0, |p| p.line());
            let cell = |c: usize| record.get(c).unwrap_or("");
            let number = |c: usize| -> Result<f64, ProblemError> {
                let text = cell(c);
                let v: f64 = text.parse().map_err(|_| {
                    at(
                        &shown,
                        line,
                        &headers[c],
                        format!("{text:?}"),
                        "not a number",
                    )
                })?;
                if !(v.is_finite() && v.abs() <= crate::numeric::MAX_MAGNITUDE) {
                    return Err(at(
                        &shown,
                        line,
                        &headers[c],
                        text,
                        "must be a finite number",
                    ));
                }
                Ok(v)
            };
            let (x, y) = (number(cx)?, number(cy)?);
            if self.coordinates == Geometry::Lonlat {
                if !(-180.0..=180.0).contains(&x) {
                    let r = "a longitude must be in [-180, 180] degrees";
                    return Err(at(&shown, line, &self.x, show_number(x), r));
                }
                if !(-90.0..=90.0).contains(&y) {
                    let r = "a latitude must be in [-90, 90] degrees";
                    return Err(at(&shown, line, &self.y, show_number(y), r));
                }
            }
            if let Some(c) = cw {
                let w = number(c)?;
                if w < 0.0 {
                    return Err(at(
                        &shown,
                        line,
                        &headers[c],
                        show_number(w),
                        "weights must be >= 0",
                    ));
                }
                weights.push(w);
            }
            let label = match cl {
                Some(c) => cell(c).to_string(),
                None => out.labels.len().to_string(),
            };
            if let Some(j) = out.labels.iter().position(|l| *l == label) {
                return Err(ProblemError::invalid(
                    format!("{KEY}.label"),
                    format!("{label:?}"),
                    format!("the label appears on lines {} and {line} of {shown}; labels must be distinct", lines[j]),
                ));
            }
            out.labels.push(label);
            out.coordinates.push([x, y]);
            lines.push(line);
        }
        if out.labels.len() < 2 {
            return Err(ProblemError::invalid(
                format!("{KEY}.file"),
                &shown,
                format!(
                    "has {} data rows; a points domain needs at least 2 points",
                    out.labels.len()
                ),
            ));
        }
        if cw.is_some() {
            let total: f64 = weights.iter().sum();
            if !(total > 0.0 && total.is_finite()) {
                return Err(ProblemError::invalid(
                    format!("{KEY}.weight"),
                    format!("{:?}", self.weight.as_deref().unwrap_or("")),
                    format!("the weights sum to {total}; they must have a positive finite sum"),
                ));
            }
            out.prior = Some(weights.iter().map(|w| w / total).collect());
        }
        Ok(out)
    }
}

fn at(file: &str, line: u64, column: &str, value: impl ToString, reason: &str) -> ProblemError {
    ProblemError::invalid(
        format!("{KEY} ({file} line {line}, column {column:?})"),
        value,
        reason,
    )
}

fn bad_csv(file: &str, e: csv::Error) -> ProblemError {
    ProblemError::invalid(format!("{KEY}.file"), file, format!("malformed CSV: {e}"))
}
