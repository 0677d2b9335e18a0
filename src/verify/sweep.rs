//! `verify --sweep`: the registry over a grid of epsilons and priors: where each entry's claims
//! hold, and the smallest counterexample (smallest epsilon first) where they do not.

use super::{verify, EntryCheck};
use crate::error::ProblemError;
use crate::problem::{Problem, ProblemSpec, SweepSpec};
use crate::solve::{SolveError, SolveOptions};
use serde::Serialize;
use std::collections::BTreeMap;

/// Default epsilon grid.
pub const DEFAULT_EPSILONS: [f64; 6] = [0.1, 0.5, 1.0, 2.0, 3.0, 5.0];
/// Default `P(X = 1)` grid for binary domains.
pub const DEFAULT_BINARY_P1: [f64; 6] = [0.01, 0.05, 0.1, 0.2, 0.35, 0.5];

/// Failures of a sweep.
#[derive(Debug, thiserror::Error)]
pub enum SweepError {
    /// A grid point is not a valid problem.
    #[error(transparent)]
    Problem(#[from] ProblemError),
    /// A solve failed.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The time limit (the options' backend time limit, for the whole sweep) ran out.
    #[error("the time limit of {limit} s ran out after {done} of {total} grid points")]
    TimeLimit {
        /// The time limit, in seconds.
        limit: f64,
        /// Grid points finished.
        done: usize,
        /// Grid points in all.
        total: usize,
    },
}

/// The first grid point (smallest epsilon, then prior order) where a claim fails.
#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    /// Epsilon at the point.
    pub epsilon: f64,
    /// Prior at the point.
    pub prior: Vec<f64>,
    /// What fails there.
    pub failures: Vec<String>,
    /// The mechanism there.
    pub channel: Vec<Vec<f64>>,
}

/// One entry over the grid.
#[derive(Debug, Clone, Serialize)]
pub struct EntrySweep {
    /// Registry name.
    pub name: &'static str,
    /// Citation.
    pub citation: &'static str,
    /// Grid points where the entry applies.
    pub points: usize,
    /// Points where it is feasible.
    pub feasible: usize,
    /// Points where every claim holds.
    pub claim_holds: usize,
    /// Where it fails first, if anywhere.
    pub counterexample: Option<Counterexample>,
}

/// The sweep's result.
#[derive(Debug, Clone, Serialize)]
pub struct SweepReport {
    /// The problem's title.
    pub problem: String,
    /// The epsilons tried.
    pub epsilons: Vec<f64>,
    /// The priors tried.
    pub priors: Vec<Vec<f64>>,
    /// One summary per entry that applied somewhere.
    pub entries: Vec<EntrySweep>,
    /// Whether every claim held at every point.
    pub all_hold: bool,
}

fn default_priors(spec: &ProblemSpec, n: usize) -> Vec<Vec<f64>> {
    if n == 2 {
        return DEFAULT_BINARY_P1
            .iter()
            .map(|&p| vec![1.0 - p, p])
            .collect();
    }
    let mut out = vec![vec![1.0 / n as f64; n]];
    if let Some(p) = &spec.domain.prior {
        out.push(p.clone());
    }
    let geometric: Vec<f64> = (0..n).map(|i| 0.5f64.powi(i as i32)).collect();
    let s: f64 = geometric.iter().sum();
    out.push(geometric.iter().map(|v| v / s).collect());
    let mut rare = vec![(1.0 - 0.01) / (n - 1) as f64; n];
    rare[0] = 0.01;
    out.push(rare);
    out
}

/// Run the registry over the grid of `grid` (defaults where it is silent).
///
/// The options' backend time limit bounds the whole sweep; each point gets what is left.
pub fn sweep(
    spec: &ProblemSpec,
    grid: &SweepSpec,
    options: &SolveOptions,
) -> Result<SweepReport, SweepError> {
    let n = Problem::from_spec(spec.clone())?.domain.size();
    let epsilons = grid
        .epsilons
        .clone()
        .unwrap_or_else(|| DEFAULT_EPSILONS.to_vec());
    let priors = grid
        .priors
        .clone()
        .unwrap_or_else(|| default_priors(spec, n));
    for (i, &e) in epsilons.iter().enumerate() {
        crate::privacy::check_epsilon(&format!("sweep.epsilons[{i}]"), e)?;
    }
    for (k, p) in priors.iter().enumerate() {
        crate::domain::validate_prior(&format!("sweep.priors[{k}]"), p, n)?;
    }
    let mut entries: BTreeMap<&'static str, (usize, EntrySweep)> = BTreeMap::new();
    let start = std::time::Instant::now();
    let limit = options.backend_options.time_limit_seconds;
    let total = epsilons.len() * priors.len();
    let mut done = 0;
    for &eps in &epsilons {
        for prior in &priors {
            let left = limit - start.elapsed().as_secs_f64();
            if left <= 0.0 {
                return Err(SweepError::TimeLimit { limit, done, total });
            }
            if let Some(progress) = &options.progress {
                progress(&format!("sweep point {} of {total}: eps {eps}", done + 1));
            }
            let mut options = options.clone();
            options.backend_options.time_limit_seconds = left;
            let options = &options;
            let mut point = spec.clone();
            point.set_epsilon(eps);
            point.domain.prior = Some(prior.clone());
            point.expected = None;
            let problem = Problem::from_spec(point)?;
            let report = verify(&problem, options)?;
            for (order, check) in report.checks.into_iter().enumerate() {
                record(&mut entries, order, check, eps, prior);
            }
            done += 1;
        }
    }
    let mut entries: Vec<(usize, EntrySweep)> = entries.into_values().collect();
    entries.sort_by_key(|e| e.0);
    let entries: Vec<EntrySweep> = entries.into_iter().map(|e| e.1).collect();
    Ok(SweepReport {
        problem: spec
            .name
            .clone()
            .unwrap_or_else(|| "unnamed problem".into()),
        all_hold: entries.iter().all(|e| e.counterexample.is_none()),
        epsilons,
        priors,
        entries,
    })
}

fn record(
    entries: &mut BTreeMap<&'static str, (usize, EntrySweep)>,
    order: usize,
    check: EntryCheck,
    eps: f64,
    prior: &[f64],
) {
    let e = entries.entry(check.name).or_insert((
        order,
        EntrySweep {
            name: check.name,
            citation: check.citation,
            points: 0,
            feasible: 0,
            claim_holds: 0,
            counterexample: None,
        },
    ));
    let s = &mut e.1;
    s.points += 1;
    s.feasible += usize::from(check.feasible);
    s.claim_holds += usize::from(check.claim_holds);
    if !check.claim_holds && s.counterexample.is_none() {
        s.counterexample = Some(Counterexample {
            epsilon: eps,
            prior: prior.to_vec(),
            failures: check.failures,
            channel: check.channel,
        });
    }
}

impl SweepReport {
    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(s, "problem    {}", self.problem);
        let _ = writeln!(
            s,
            "grid       {} epsilons x {} priors",
            self.epsilons.len(),
            self.priors.len()
        );
        let grid = self.epsilons.len() * self.priors.len();
        for e in &self.entries {
            let _ = writeln!(
                s,
                "\n{:<22} holds at {}/{} points (feasible at {})   {}",
                e.name, e.claim_holds, e.points, e.feasible, e.citation
            );
            if e.points < grid {
                let _ = writeln!(
                    s,
                    "  applies at {} of the {grid} grid points (the entry gives no mechanism for the others)",
                    e.points
                );
            }
            if let Some(c) = &e.counterexample {
                let _ = writeln!(
                    s,
                    "  smallest counterexample: epsilon {}, prior {:?}",
                    c.epsilon, c.prior
                );
                for f in &c.failures {
                    let _ = writeln!(s, "    {f}");
                }
            }
        }
        s
    }
}
