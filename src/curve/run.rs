//! Running a curve: every grid point in parallel, reproducibly, within the time limits,
//! skipping points already done.

use super::{Axis, CurveError, Grid, PointStatus, Row, Series, SeriesSource, Shard};
use crate::problem::{Problem, ProblemSpec};
use crate::solve::SolveOptions;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Instant;

/// A callback per finished point: its rows (in source order).
pub type PointSink = Arc<dyn Fn(&[Row]) + Send + Sync>;

/// How to run a curve.
#[derive(Clone, Default)]
pub struct CurveOptions {
    /// Options of every solve (its backend time limit is replaced by the per-point limit).
    pub solve: SolveOptions,
    /// Time limit of one point's solves, in seconds (`None`: only the overall limit).
    pub point_time_limit: Option<f64>,
    /// Overall time limit in seconds: points not started by then are left out.
    pub time_limit: Option<f64>,
    /// Grid values already done (compared exactly): they are skipped.
    pub done: BTreeSet<u64>,
    /// Called once per finished point, from the worker thread.
    pub on_point: Option<PointSink>,
    /// Only this share of the grid's points (round-robin by grid index, see [`Shard`]); the
    /// other points are neither computed nor counted as resumed.
    pub shard: Option<Shard>,
}

/// What a curve run produced.
#[derive(Debug, Clone)]
pub struct CurveResult {
    /// The new rows, in grid order, then source order.
    pub rows: Vec<Row>,
    /// Grid values skipped because they were done.
    pub resumed: Vec<f64>,
    /// Grid values left out because the overall time limit passed.
    pub timed_out: Vec<f64>,
}

/// The problem spec at grid value `x` of `axis`.
pub fn apply_axis(base: &ProblemSpec, axis: Axis, x: f64) -> Result<ProblemSpec, CurveError> {
    let key = axis.flag();
    if axis == Axis::Epsilon {
        let mut spec = base.clone();
        spec.set_epsilon(x);
        return Ok(spec);
    }
    let mut value = toml::Value::try_from(base)
        .map_err(|e| CurveError::invalid(key, x, format!("cannot rewrite the problem: {e}")))?;
    let table = value
        .as_table_mut()
        .expect("a problem spec serializes to a table");
    match axis {
        Axis::Epsilon => unreachable!("handled above"),
        Axis::DomainSize => {
            let domain = table.get_mut("domain").and_then(|d| d.as_table_mut());
            let Some(domain) = domain.filter(|d| d.contains_key("size") || d.contains_key("line"))
            else {
                return Err(CurveError::invalid(
                    key,
                    x,
                    "varying the domain size needs `domain.size` or `domain.line` in the file",
                ));
            };
            let k = if domain.contains_key("size") {
                "size"
            } else {
                "line"
            };
            domain.insert(k.into(), toml::Value::Integer(x as i64));
            domain.remove("prior");
        }
        Axis::Prior => {
            let prior = toml::Value::Array(vec![(1.0 - x).into(), x.into()]);
            if let Some(d) = table.get_mut("domain").and_then(|d| d.as_table_mut()) {
                d.insert("prior".into(), prior.clone());
            }
            if let Some(list) = table.get_mut("privacy").and_then(|p| p.as_array_mut()) {
                for p in list.iter_mut().filter_map(|p| p.as_table_mut()) {
                    if p.contains_key("prior") {
                        p.insert("prior".into(), prior.clone());
                    }
                }
            }
        }
        Axis::Users => {
            let Some(objective) = table.get_mut("objective").and_then(|o| o.as_table_mut()) else {
                return Err(CurveError::invalid(key, x, "the file has no [objective]"));
            };
            objective.insert("users".into(), x.into());
        }
    }
    table.remove("expected");
    let spec: ProblemSpec = value
        .try_into()
        .map_err(|e: toml::de::Error| CurveError::invalid(key, x, e.to_string()))?;
    Ok(spec)
}

fn validate(
    base: &ProblemSpec,
    grid: &Grid,
    sources: &[SeriesSource],
) -> Result<Vec<ProblemSpec>, CurveError> {
    let mut specs = Vec::with_capacity(grid.values.len());
    for &x in &grid.values {
        let spec = apply_axis(base, grid.axis, x)?;
        Problem::from_spec(spec.clone()).map_err(|e| {
            CurveError::invalid(
                grid.axis.flag(),
                x,
                format!("the problem at this point is invalid: {e}"),
            )
        })?;
        for s in sources {
            if let SeriesSource::Compare(c) = s {
                Problem::from_spec(super::series::compared_spec(&spec, c)?).map_err(|e| {
                    CurveError::invalid("--compare", &c.notion, format!("at {x}: {e}"))
                })?;
            }
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// Run `sources` at every value of `grid` (in parallel over the points). Every point's problem
/// is validated before any solve, so bad input fails fast. Rows come back in grid order, so
/// the result does not depend on the number of threads.
pub fn run_curve(
    base: &ProblemSpec,
    grid: &Grid,
    sources: &[SeriesSource],
    options: &CurveOptions,
) -> Result<CurveResult, CurveError> {
    let start = Instant::now();
    let specs = validate(base, grid, sources)?;
    let owned = |j: usize| options.shard.is_none_or(|s| s.owns(j));
    let todo: Vec<(f64, &ProblemSpec)> = grid
        .values
        .iter()
        .copied()
        .zip(&specs)
        .enumerate()
        .filter(|(j, (x, _))| owned(*j) && !options.done.contains(&x.to_bits()))
        .map(|(_, point)| point)
        .collect();
    let resumed = grid
        .values
        .iter()
        .copied()
        .enumerate()
        .filter(|(j, x)| owned(*j) && options.done.contains(&x.to_bits()))
        .map(|(_, x)| x)
        .collect();
    let results: Vec<Result<Option<Vec<Row>>, CurveError>> = todo
        .par_iter()
        .map(|&(x, spec)| {
            let mut solve_options = options.solve.clone();
            let mut limit = options
                .point_time_limit
                .unwrap_or(solve_options.backend_options.time_limit_seconds);
            if let Some(total) = options.time_limit {
                let left = total - start.elapsed().as_secs_f64();
                if left <= 0.0 {
                    return Ok(None);
                }
                limit = limit.min(left);
            }
            solve_options.backend_options.time_limit_seconds = limit;
            let mut rows = Vec::new();
            for s in sources {
                rows.extend(s.rows(spec, x, &solve_options)?);
            }
            if let Some(sink) = &options.on_point {
                sink(&rows);
            }
            Ok(Some(rows))
        })
        .collect();
    let mut out = CurveResult {
        rows: Vec::new(),
        resumed,
        timed_out: Vec::new(),
    };
    for ((x, _), r) in todo.iter().zip(results) {
        match r? {
            Some(rows) => out.rows.extend(rows),
            None => out.timed_out.push(*x),
        }
    }
    Ok(out)
}

/// Before resuming: the first optimal point of the certified optimum in `previous` is solved
/// again and must reproduce its value (within the options' gap tolerance, twice over), so that
/// rows of another problem, axis or options are never mixed into this curve's CSV.
pub fn check_reproduces(
    previous: &[Row],
    base: &ProblemSpec,
    grid: &Grid,
    options: &CurveOptions,
    path: &str,
) -> Result<(), CurveError> {
    let Some(row) = previous
        .iter()
        .find(|r| r.series.starts_with("optimum") && r.status == PointStatus::Optimal)
    else {
        return Ok(());
    };
    let refuse = |reason: String| CurveError::Resume {
        path: path.into(),
        reason,
    };
    let Some(stored) = row.value else {
        return Ok(());
    };
    let spec = apply_axis(base, grid.axis, row.x).map_err(|e| {
        refuse(format!(
            "its point x = {} is not a point of this curve's axis ({e}); it was written for another axis or problem",
            row.x
        ))
    })?;
    let mut solve = options.solve.clone();
    if let Some(limit) = options.point_time_limit {
        solve.backend_options.time_limit_seconds = limit;
    }
    let again = SeriesSource::Optimum
        .rows(&spec, row.x, &solve)
        .map_err(|e| {
            refuse(format!(
                "its point x = {} is not a point of this curve ({e}); it was written for another axis or problem",
                row.x
            ))
        })?;
    let Some(value) = again.first().and_then(|r| r.value) else {
        return Ok(());
    };
    let tolerance = 2.0 * options.solve.gap.allowed(stored, value);
    if (value - stored).abs() > tolerance {
        return Err(refuse(format!(
            "its optimum at x = {} is {stored}, but this curve's problem gives {value}; it was written for another problem or other options",
            row.x
        )));
    }
    Ok(())
}
