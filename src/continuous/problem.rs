//! The `[continuous]` problem family (TOML) and the compact prior syntax of the command line.
//!
//! ```toml
//! [continuous]
//! mechanism = "gaussian"     # gaussian | laplace | sampling
//! notion = "lip"             # lip | ldp
//! epsilon = 1.0
//! delta = 1e-4
//! range = [-10.0, 10.0]      # data range: LIP's worst input is searched over it; LDP's
//!                            # sensitivity is its width unless `sensitivity` is given
//! # at = 2.0                 # one data point: instance-dependent calibration (Cor. 10)
//! # criterion = "definition" # definition (Def. 5) | corollary-9
//! [continuous.prior]
//! kind = "normal"            # normal | uniform | laplace | mixture | histogram | discrete
//! mean = 0.0
//! sd = 5.0
//! ```

use super::error::ContinuousError;
use super::lip::Criterion;
use super::prior::Prior;
use super::request::{MechanismKind, Notion, Request};
use serde::Deserialize;
use std::path::Path;

pub use super::prior_syntax::parse_prior;

/// A `[continuous.prior]` table (or one mixture component).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriorSpec {
    /// normal | uniform | laplace | mixture | histogram | discrete.
    pub kind: String,
    /// Mixture weight (components only).
    pub weight: Option<f64>,
    /// Normal mean.
    pub mean: Option<f64>,
    /// Normal standard deviation.
    pub sd: Option<f64>,
    /// Uniform lower end.
    pub low: Option<f64>,
    /// Uniform upper end.
    pub high: Option<f64>,
    /// Laplace location.
    pub location: Option<f64>,
    /// Laplace scale.
    pub scale: Option<f64>,
    /// Mixture components.
    pub components: Option<Vec<PriorSpec>>,
    /// Histogram bin edges.
    pub edges: Option<Vec<f64>>,
    /// Histogram counts per bin (or read from `csv`).
    pub counts: Option<Vec<f64>>,
    /// Histogram data file (CSV with a header), relative to the problem file.
    pub csv: Option<String>,
    /// The CSV column.
    pub column: Option<String>,
    /// Discrete support points.
    pub points: Option<Vec<f64>>,
    /// Discrete probabilities.
    pub probs: Option<Vec<f64>>,
}

fn need<T: Clone>(v: &Option<T>, key: &str, kind: &str) -> Result<T, ContinuousError> {
    v.clone().ok_or_else(|| {
        ContinuousError::invalid(
            &format!("prior.{key}"),
            "missing",
            format!("a {kind} prior needs `{key}`"),
        )
    })
}

impl PriorSpec {
    /// Build the prior; `base` is the directory relative paths start from.
    pub fn build(&self, base: &Path) -> Result<Prior, ContinuousError> {
        let k = self.kind.as_str();
        match k {
            "normal" => Prior::normal(need(&self.mean, "mean", k)?, need(&self.sd, "sd", k)?),
            "uniform" => Prior::uniform(need(&self.low, "low", k)?, need(&self.high, "high", k)?),
            "laplace" => Prior::laplace(
                need(&self.location, "location", k)?,
                need(&self.scale, "scale", k)?,
            ),
            "mixture" => {
                let parts = need(&self.components, "components", k)?
                    .iter()
                    .map(|c| {
                        Ok((
                            need(&c.weight, "weight", "mixture component")?,
                            c.build(base)?,
                        ))
                    })
                    .collect::<Result<Vec<_>, ContinuousError>>()?;
                Prior::mixture(parts)
            }
            "histogram" => {
                let edges = need(&self.edges, "edges", k)?;
                let counts = match (&self.counts, &self.csv) {
                    (Some(c), None) => c.clone(),
                    (None, Some(file)) => {
                        let column = need(&self.column, "column", k)?;
                        let data = read_column(&base.join(file), &column)?;
                        bin_counts(&data, &edges)?
                    }
                    _ => {
                        return Err(ContinuousError::invalid(
                            "prior.counts",
                            "missing or doubled",
                            "a histogram needs exactly one of `counts` and `csv`",
                        ))
                    }
                };
                Prior::histogram(&edges, &counts)
            }
            "discrete" => Prior::discrete(
                need(&self.points, "points", k)?,
                need(&self.probs, "probs", k)?,
            ),
            other => Err(ContinuousError::invalid(
                "prior.kind",
                other,
                "expected one of: normal, uniform, laplace, mixture, histogram, discrete",
            )),
        }
    }
}

/// Read a numeric CSV column (with a header row).
pub fn read_column(path: &Path, column: &str) -> Result<Vec<f64>, ContinuousError> {
    let read_err = |message: String| ContinuousError::Read {
        path: path.display().to_string(),
        message,
    };
    let text = crate::source::read_text(path).map_err(|e| read_err(e.to_string()))?;
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| read_err(e.to_string()))?
        .clone();
    let idx = headers.iter().position(|h| h == column).ok_or_else(|| {
        ContinuousError::invalid(
            "column",
            column,
            format!(
                "not a column of {} (columns: {})",
                path.display(),
                headers.iter().collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    let mut out = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| read_err(e.to_string()))?;
        let cell = rec.get(idx).unwrap_or("").trim();
        let v: f64 = cell.parse().map_err(|_| {
            ContinuousError::invalid(&format!("{column} (row {})", i + 2), cell, "not a number")
        })?;
        out.push(v);
    }
    Ok(out)
}

/// Counts of `data` in the bins `[edges[i], edges[i+1])` (the last bin closed); values outside
/// the edges are an error (not silently dropped).
pub fn bin_counts(data: &[f64], edges: &[f64]) -> Result<Vec<f64>, ContinuousError> {
    if edges.len() < 2
        || edges
            .windows(2)
            .any(|w| w[0].partial_cmp(&w[1]) != Some(std::cmp::Ordering::Less))
    {
        return Err(ContinuousError::invalid(
            "prior.edges",
            format!("{edges:?}"),
            "needs at least two strictly increasing edges",
        ));
    }
    let mut counts = vec![0.0; edges.len() - 1];
    let last = edges[edges.len() - 1];
    for &v in data {
        if !(v >= edges[0] && v <= last) {
            return Err(ContinuousError::invalid(
                "data",
                v,
                format!("outside the bin edges [{}, {last}]", edges[0]),
            ));
        }
        let i = edges
            .partition_point(|&e| e <= v)
            .saturating_sub(1)
            .min(counts.len() - 1);
        counts[i] += 1.0;
    }
    Ok(counts)
}

/// The `[continuous]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContinuousSpec {
    /// gaussian | laplace | sampling.
    pub mechanism: String,
    /// lip | ldp.
    pub notion: String,
    /// Target eps.
    pub epsilon: f64,
    /// Target delta (default 0).
    #[serde(default)]
    pub delta: f64,
    /// Data range.
    pub range: Option<[f64; 2]>,
    /// LDP sensitivity.
    pub sensitivity: Option<f64>,
    /// One data point.
    pub at: Option<f64>,
    /// definition | corollary-9.
    pub criterion: Option<String>,
    /// The prior.
    pub prior: PriorSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[allow(dead_code)]
    name: Option<String>,
    continuous: ContinuousSpec,
}

/// Parse a mechanism name.
pub fn mechanism(name: &str) -> Result<MechanismKind, ContinuousError> {
    match name {
        "gaussian" => Ok(MechanismKind::Gaussian),
        "laplace" => Ok(MechanismKind::Laplace),
        "sampling" => Ok(MechanismKind::Sampling),
        other => Err(ContinuousError::invalid(
            "mechanism",
            other,
            "expected gaussian, laplace or sampling",
        )),
    }
}

/// Parse a notion name.
pub fn notion(name: &str) -> Result<Notion, ContinuousError> {
    match name {
        "lip" => Ok(Notion::Lip),
        "ldp" => Ok(Notion::Ldp),
        other => Err(ContinuousError::invalid(
            "notion",
            other,
            "expected lip or ldp",
        )),
    }
}

/// Parse a criterion name.
pub fn criterion(name: &str) -> Result<Criterion, ContinuousError> {
    match name {
        "definition" => Ok(Criterion::Definition),
        "corollary-9" => Ok(Criterion::Corollary9),
        other => Err(ContinuousError::invalid(
            "criterion",
            other,
            "expected definition or corollary-9",
        )),
    }
}

/// Read a `[continuous]` problem file into a request.
pub fn load(path: &Path) -> Result<Request, ContinuousError> {
    let text = crate::source::read_text(path).map_err(|e| ContinuousError::Read {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let file: File = toml::from_str(&text).map_err(|e| ContinuousError::Read {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let spec = file.continuous;
    let base = path.parent().unwrap_or(Path::new("."));
    let request = Request {
        prior: spec.prior.build(base)?,
        mechanism: mechanism(&spec.mechanism)?,
        notion: notion(&spec.notion)?,
        epsilon: spec.epsilon,
        delta: spec.delta,
        range: spec.range.map(|[a, b]| (a, b)),
        sensitivity: spec.sensitivity,
        at: spec.at,
        criterion: spec
            .criterion
            .as_deref()
            .map(criterion)
            .transpose()?
            .unwrap_or(Criterion::Definition),
    };
    request.validate()?;
    Ok(request)
}
