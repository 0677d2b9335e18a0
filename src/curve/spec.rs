//! The `[curve]` section of a problem file (or figure manifest).

use super::{Axis, Compare, CurveError, Grid, SeriesSource};
use crate::problem::ProblemSpec;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// A grid as written: a spec string (`0.1:5:25`, `log:0.1:10:20`, `1,2,3`) or a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum GridValue {
    /// A spec string.
    Spec(String),
    /// Explicit values.
    List(Vec<f64>),
}

/// `[curve]`: what to sweep and what to draw.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurveSpec {
    /// The axis (default `epsilon`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub axis: Option<Axis>,
    /// The grid along the axis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridValue>,
    /// Other notions to draw the optimum under (`ldp`, `lip`, `ldp*2`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<String>,
    /// Whether to draw the registry's closed forms (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub registry: Option<bool>,
    /// Only these registry mechanisms (default: all that apply).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mechanisms: Vec<String>,
    /// The plot's title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The published figure this reproduces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation: Option<String>,
    /// The y axis label (default: the objective's description).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_label: Option<String>,
}

impl CurveSpec {
    /// The grid, validated; `prefix` is the key prefix in errors (`curve`).
    pub fn grid(&self, prefix: &str) -> Result<Option<Grid>, CurveError> {
        let axis = self.axis.unwrap_or(Axis::Epsilon);
        let key = format!("{prefix}.grid");
        match &self.grid {
            None => Ok(None),
            Some(GridValue::Spec(s)) => Grid::parse(axis, &key, s).map(Some),
            Some(GridValue::List(v)) => Grid::new(axis, &key, v.clone()).map(Some),
        }
    }

    /// The series sources: the optimum, each comparison, the registry.
    pub fn sources(&self, prefix: &str) -> Result<Vec<SeriesSource>, CurveError> {
        let mut out = vec![SeriesSource::Optimum];
        for c in &self.compare {
            out.push(SeriesSource::Compare(Compare::parse(
                &format!("{prefix}.compare"),
                c,
            )?));
        }
        if self.registry.unwrap_or(true) {
            out.push(SeriesSource::Registry);
        }
        Ok(out)
    }
}

/// A problem file with its optional `[curve]` section.
#[derive(Debug, Clone)]
pub struct CurveFile {
    /// The problem.
    pub problem: ProblemSpec,
    /// The `[curve]` section, if any.
    pub curve: Option<CurveSpec>,
}

/// Read a problem file that may carry a `[curve]` section.
pub fn load_curve_file(path: &Path) -> Result<CurveFile, CurveError> {
    let text = crate::source::read_text(path).map_err(|source| CurveError::Io {
        path: path.display().to_string(),
        source,
    })?;
    let mut table: toml::Table = match toml::from_str(&text) {
        Ok(t) => t,
        // Let the problem parser report the syntax error with its own message.
        Err(_) => {
            return Err(ProblemSpec::from_toml(&text, path)
                .err()
                .map(Into::into)
                .unwrap_or_else(|| CurveError::invalid("file", path.display(), "not TOML")))
        }
    };
    let Some(curve) = table.remove("curve") else {
        return Ok(CurveFile {
            problem: ProblemSpec::from_toml(&text, path)?,
            curve: None,
        });
    };
    let curve: CurveSpec = curve.try_into().map_err(|e: toml::de::Error| {
        CurveError::invalid("curve", path.display(), e.message().to_string())
    })?;
    let rest = toml::to_string(&table)
        .map_err(|e| CurveError::invalid("file", path.display(), e.to_string()))?;
    Ok(CurveFile {
        problem: ProblemSpec::from_toml(&rest, path)?,
        curve: Some(curve),
    })
}
