//! Grids of parameter values: `a:b:n` (n points from a to b, linear), `log:a:b:n` (log-spaced),
//! or a comma list.

use super::CurveError;
use serde::{Deserialize, Serialize};

/// The most points one grid may have.
pub const MAX_GRID_POINTS: usize = 10_000;

/// The parameter a curve varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Axis {
    /// The epsilon of every privacy constraint (nats).
    Epsilon,
    /// The number of symbols (`domain.size` or `domain.line`; the prior becomes uniform).
    DomainSize,
    /// `P(X = 1)` of a binary domain (the prior becomes `[1 - x, x]`).
    Prior,
    /// The number of users of a frequency objective (`objective.users`).
    Users,
}

impl Axis {
    /// The flag that sets this axis's grid.
    pub fn flag(self) -> &'static str {
        match self {
            Axis::Epsilon => "--epsilons",
            Axis::DomainSize => "--sizes",
            Axis::Prior => "--priors",
            Axis::Users => "--users",
        }
    }

    /// The axis label with units.
    pub fn label(self) -> &'static str {
        match self {
            Axis::Epsilon => "epsilon (nats)",
            Axis::DomainSize => "domain size (symbols)",
            Axis::Prior => "prior P(X = 1)",
            Axis::Users => "users",
        }
    }

    fn check(self, key: &str, v: f64) -> Result<(), CurveError> {
        let ok = match self {
            Axis::Epsilon => v.is_finite() && (0.0..=crate::privacy::MAX_EPSILON).contains(&v),
            Axis::DomainSize => v.is_finite() && v >= 2.0 && v.fract() == 0.0,
            Axis::Prior => v > 0.0 && v < 1.0,
            Axis::Users => v.is_finite() && v > 0.0,
        };
        if ok {
            return Ok(());
        }
        let reason = match self {
            Axis::Epsilon => format!(
                "every epsilon must be a finite number in [0, {}]",
                crate::privacy::MAX_EPSILON
            ),
            Axis::DomainSize => "every domain size must be a whole number >= 2".into(),
            Axis::Prior => "every prior probability must lie strictly between 0 and 1".into(),
            Axis::Users => "every value must be a positive finite number".into(),
        };
        Err(CurveError::invalid(key, v, reason))
    }
}

/// A validated, non-empty list of values along one axis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    /// The axis.
    pub axis: Axis,
    /// The values, in the order given.
    pub values: Vec<f64>,
}

fn number(key: &str, whole: &str, part: &str) -> Result<f64, CurveError> {
    part.trim().parse::<f64>().map_err(|_| {
        CurveError::invalid(
            key,
            whole,
            format!(
                "`{}` is not a number; write FROM:TO:COUNT, log:FROM:TO:COUNT or a comma list",
                part.trim()
            ),
        )
    })
}

impl Grid {
    /// Parse a grid spec for `axis`; `key` (a flag or file key) names it in errors.
    pub fn parse(axis: Axis, key: &str, spec: &str) -> Result<Grid, CurveError> {
        let s = spec.trim();
        let (log, body) = match s.strip_prefix("log:") {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let values = if body.contains(':') {
            let parts: Vec<&str> = body.split(':').collect();
            let [a, b, n] = parts.as_slice() else {
                return Err(CurveError::invalid(
                    key,
                    spec,
                    "a range is FROM:TO:COUNT (or log:FROM:TO:COUNT)",
                ));
            };
            let (a, b) = (number(key, spec, a)?, number(key, spec, b)?);
            let n: usize = n.trim().parse().map_err(|_| {
                CurveError::invalid(
                    key,
                    spec,
                    format!("COUNT `{}` is not a whole number", n.trim()),
                )
            })?;
            if n == 0 || n > MAX_GRID_POINTS {
                return Err(CurveError::invalid(
                    key,
                    spec,
                    format!("COUNT must be between 1 and {MAX_GRID_POINTS}"),
                ));
            }
            if log && !(a > 0.0 && b > 0.0) {
                return Err(CurveError::invalid(
                    key,
                    spec,
                    "a log-spaced range needs FROM > 0 and TO > 0",
                ));
            }
            if !(a.is_finite() && b.is_finite()) {
                return Err(CurveError::invalid(key, spec, "FROM and TO must be finite"));
            }
            Self::range(a, b, n, log)
        } else if log {
            return Err(CurveError::invalid(
                key,
                spec,
                "`log:` needs a range FROM:TO:COUNT",
            ));
        } else {
            body.split(',')
                .map(|p| number(key, spec, p))
                .collect::<Result<Vec<_>, _>>()?
        };
        Self::new(axis, key, values)
    }

    /// Validate explicit values.
    pub fn new(axis: Axis, key: &str, values: Vec<f64>) -> Result<Grid, CurveError> {
        if values.is_empty() || values.len() > MAX_GRID_POINTS {
            return Err(CurveError::invalid(
                key,
                "[]",
                format!("a grid needs between 1 and {MAX_GRID_POINTS} values"),
            ));
        }
        for &v in &values {
            axis.check(key, v)?;
        }
        Ok(Grid { axis, values })
    }

    fn range(a: f64, b: f64, n: usize, log: bool) -> Vec<f64> {
        if n == 1 {
            return vec![a];
        }
        let step = |i: usize| i as f64 / (n - 1) as f64;
        (0..n)
            .map(|i| {
                if i == 0 {
                    a
                } else if i == n - 1 {
                    b
                } else if log {
                    (a.ln() + (b.ln() - a.ln()) * step(i)).exp()
                } else {
                    a + (b - a) * step(i)
                }
            })
            .collect()
    }
}
