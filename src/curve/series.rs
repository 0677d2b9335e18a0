//! What is drawn at each grid point: one small trait for a source of series, with the
//! certified optimum (under the file's notion or another one) and the registry's closed forms.

use super::CurveError;
use crate::problem::{Problem, ProblemSpec};
use crate::solve::{solve, SolveOptions};
use crate::synthesis::Status;
use crate::verify::{candidates, check_candidate};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The status of one point of one series.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointStatus {
    /// A certified channel within the gap tolerance of a rigorous bound.
    Optimal,
    /// A channel that satisfies every constraint (certified optimum not proven, or a closed
    /// form that is feasible).
    Feasible,
    /// The best local optimum of a method without a global guarantee.
    LocalOptimum,
    /// A closed form that violates a constraint of the problem.
    ViolatesConstraint,
    /// A closed form whose numbers do not form a channel at this point.
    InfeasibleClosedForm,
    /// No channel: the backend's status (e.g. `infeasible`, `time-limit`).
    NoChannel(String),
    /// A computed quantity with no channel status (a leakage, a bound, a noise level: the
    /// `--sweep` of `continuous`, `compose` and `transfer`).
    Computed,
}

impl PointStatus {
    /// Whether the point is a channel that meets the constraints.
    pub fn is_feasible(&self) -> bool {
        matches!(
            self,
            PointStatus::Optimal | PointStatus::Feasible | PointStatus::LocalOptimum
        )
    }

    /// Parse the CSV spelling (anything unknown is a backend status).
    pub fn parse(s: &str) -> PointStatus {
        match s {
            "optimal" => PointStatus::Optimal,
            "feasible" => PointStatus::Feasible,
            "local-optimum" => PointStatus::LocalOptimum,
            "violates-constraint" => PointStatus::ViolatesConstraint,
            "infeasible-closed-form" => PointStatus::InfeasibleClosedForm,
            "computed" => PointStatus::Computed,
            other => PointStatus::NoChannel(
                other
                    .strip_prefix("no-channel:")
                    .unwrap_or(other)
                    .to_string(),
            ),
        }
    }
}

impl fmt::Display for PointStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointStatus::Optimal => f.write_str("optimal"),
            PointStatus::Feasible => f.write_str("feasible"),
            PointStatus::LocalOptimum => f.write_str("local-optimum"),
            PointStatus::ViolatesConstraint => f.write_str("violates-constraint"),
            PointStatus::InfeasibleClosedForm => f.write_str("infeasible-closed-form"),
            PointStatus::Computed => f.write_str("computed"),
            PointStatus::NoChannel(s) => write!(f, "no-channel:{s}"),
        }
    }
}

/// One point of one series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The series' name.
    pub series: String,
    /// The grid value.
    pub x: f64,
    /// The objective value (absent without a channel or when the objective does not apply).
    pub value: Option<f64>,
    /// What the point is.
    pub status: PointStatus,
    /// A rigorous bound on the optimum, for optimum series.
    pub bound: Option<f64>,
    /// The achieved (outward-rounded) parameter of the first privacy constraint.
    pub leakage: Option<f64>,
    /// Free text: failures, constraint names.
    pub notes: String,
}

/// A source of one or more series, evaluated at one problem (one grid point).
pub trait Series: Send + Sync {
    /// The rows this source contributes at `spec` (already set to the grid point); `x` is the
    /// grid value written in each row.
    fn rows(
        &self,
        spec: &ProblemSpec,
        x: f64,
        options: &SolveOptions,
    ) -> Result<Vec<Row>, CurveError>;
}

/// The optimum under another notion: `ldp`, `lip`, ... optionally at a multiple of epsilon
/// (`ldp*2`: LDP at twice the file's epsilon).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Compare {
    /// The notion (as in problem files; one that needs only `epsilon`).
    pub notion: String,
    /// The factor on epsilon.
    pub factor: f64,
}

impl Compare {
    /// Parse `NOTION` or `NOTION*FACTOR`; `key` names the flag in errors.
    pub fn parse(key: &str, s: &str) -> Result<Compare, CurveError> {
        let (notion, factor) = match s.split_once('*') {
            Some((n, f)) => {
                let f: f64 = f.trim().parse().map_err(|_| {
                    CurveError::invalid(key, s, format!("factor `{}` is not a number", f.trim()))
                })?;
                (n.trim(), f)
            }
            None => (s.trim(), 1.0),
        };
        if !(factor.is_finite() && factor > 0.0) {
            return Err(CurveError::invalid(
                key,
                s,
                "the factor on epsilon must be positive",
            ));
        }
        let simple = crate::privacy::registry::comparable_notions();
        if !simple.contains(&notion) {
            return Err(CurveError::invalid(
                key,
                s,
                format!(
                    "compare with one of {} (optionally NOTION*FACTOR)",
                    simple.join(", ")
                ),
            ));
        }
        Ok(Compare {
            notion: notion.to_string(),
            factor,
        })
    }

    fn name(&self) -> String {
        if self.factor == 1.0 {
            format!("optimum {}", self.notion)
        } else {
            format!("optimum {} at {}x eps", self.notion, self.factor)
        }
    }
}

/// The sources a curve can draw, as written in `[curve] series = [...]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SeriesSource {
    /// The certified optimum of the problem as given.
    Optimum,
    /// The certified optimum with the privacy constraints replaced by one other notion.
    Compare(Compare),
    /// Every registry mechanism that applies (one series per mechanism).
    Registry,
}

/// The epsilon of a privacy entry as written (context-ldp's scale defaults to 1).
pub(super) fn epsilon_of(spec: &ProblemSpec) -> Option<f64> {
    let value = toml::Value::try_from(spec.privacy.first()?).ok()?;
    Some(
        value
            .get("epsilon")
            .and_then(|v| v.as_float())
            .unwrap_or(1.0),
    )
}

/// The spec with its privacy constraints replaced as `compare` says.
pub(super) fn compared_spec(
    spec: &ProblemSpec,
    compare: &Compare,
) -> Result<ProblemSpec, CurveError> {
    let eps = epsilon_of(spec).unwrap_or(1.0) * compare.factor;
    let mut table = toml::Table::new();
    table.insert("notion".into(), compare.notion.clone().into());
    table.insert("epsilon".into(), eps.into());
    let privacy = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            CurveError::invalid("--compare", &compare.notion, e.to_string())
        })?;
    let mut out = spec.clone();
    out.privacy = vec![privacy];
    out.expected = None;
    Ok(out)
}

/// The note of a point whose solve its time limit cut short (`--resume` computes it again).
pub const TIME_LIMIT_NOTE: &str = "stopped at the time limit";

/// A solve that is not optimal and used this share of its time limit was cut by it.
const TIME_LIMIT_SHARE: f64 = 0.95;

fn optimum_row(
    spec: ProblemSpec,
    name: String,
    x: f64,
    options: &SolveOptions,
) -> Result<Row, CurveError> {
    let problem = Problem::from_spec(spec)?;
    let (value, status, bound, leakage, notes) = match solve(&problem, options) {
        Ok(r) => {
            let status = match &r.status {
                Status::Optimal => PointStatus::Optimal,
                Status::Feasible => PointStatus::Feasible,
                Status::LocalOptimum => PointStatus::LocalOptimum,
                Status::Solver(s) => PointStatus::NoChannel(s.to_string()),
            };
            let first = r.certificate.as_ref().and_then(|c| c.checks.first());
            // A point that is not optimal and took its whole time limit was cut by it.
            let limit_ms = options.backend_options.time_limit_seconds * 1e3;
            let cut =
                r.status != Status::Optimal && r.timings.solve_ms >= TIME_LIMIT_SHARE * limit_ms;
            let notes = format!(
                "method {}{}{}",
                r.method,
                first
                    .map(|c| format!("; {}", c.constraint))
                    .unwrap_or_default(),
                if cut {
                    format!("; {TIME_LIMIT_NOTE}")
                } else {
                    String::new()
                }
            );
            (
                r.objective,
                status,
                r.bound,
                first.map(|c| c.achieved),
                notes,
            )
        }
        Err(e) => (
            None,
            PointStatus::NoChannel("failed".into()),
            None,
            None,
            e.to_string(),
        ),
    };
    Ok(Row {
        series: name,
        x,
        value,
        status,
        bound,
        leakage,
        notes,
    })
}

impl SeriesSource {
    /// The name of the certified series this source writes for `spec` (`None` for the
    /// registry, whose series are the mechanisms that apply).
    pub fn certified_name(&self, spec: &ProblemSpec) -> Option<String> {
        match self {
            SeriesSource::Optimum => {
                let notions: Vec<&str> = spec.privacy.iter().map(|p| p.notion()).collect();
                Some(format!("optimum {}", notions.join("+")))
            }
            SeriesSource::Compare(c) => Some(c.name()),
            SeriesSource::Registry => None,
        }
    }
}

/// Check that the rows of a CSV to resume were written by the same curve: every certified
/// series in it (named `optimum ...`) is one that `sources` write for `spec`.
pub fn check_resumable(
    previous: &[Row],
    sources: &[SeriesSource],
    spec: &ProblemSpec,
    path: &str,
) -> Result<(), CurveError> {
    let expected: Vec<String> = sources
        .iter()
        .filter_map(|s| s.certified_name(spec))
        .collect();
    match previous
        .iter()
        .find(|r| r.series.starts_with("optimum") && !expected.contains(&r.series))
    {
        Some(r) => Err(CurveError::Resume {
            path: path.into(),
            reason: format!(
                "it holds the series `{}`, which this curve does not write (it writes {}); it was written for another problem or other options",
                r.series,
                expected
                    .iter()
                    .map(|e| format!("`{e}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        None => Ok(()),
    }
}

impl Series for SeriesSource {
    fn rows(
        &self,
        spec: &ProblemSpec,
        x: f64,
        options: &SolveOptions,
    ) -> Result<Vec<Row>, CurveError> {
        match self {
            SeriesSource::Optimum => {
                let name = self.certified_name(spec).unwrap_or_default();
                Ok(vec![optimum_row(spec.clone(), name, x, options)?])
            }
            SeriesSource::Compare(c) => Ok(vec![optimum_row(
                compared_spec(spec, c)?,
                c.name(),
                x,
                options,
            )?]),
            SeriesSource::Registry => {
                let problem = Problem::from_spec(spec.clone())?;
                Ok(candidates(&problem)
                    .into_iter()
                    .map(|c| {
                        let check = check_candidate(&problem, c, None);
                        let status = if !check.valid_channel {
                            PointStatus::InfeasibleClosedForm
                        } else if !check.feasible {
                            PointStatus::ViolatesConstraint
                        } else {
                            PointStatus::Feasible
                        };
                        let notes = check
                            .failures
                            .iter()
                            .filter(|f| !f.starts_with("claimed optimal but no certified"))
                            .cloned()
                            .collect::<Vec<_>>()
                            .join("; ");
                        Row {
                            series: check.name.to_string(),
                            x,
                            value: check.objective,
                            status,
                            bound: None,
                            leakage: check.leakage.first().map(|l| l.achieved),
                            notes,
                        }
                    })
                    .collect())
            }
        }
    }
}
