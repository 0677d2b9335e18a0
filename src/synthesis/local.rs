//! Local optimization for objectives without a global method: the inversion-estimator MSE
//! (neither convex nor concave) and column-convex objectives under mutual-information privacy
//! (which breaks the column-cone structure). Frank-Wolfe from several starts: the linear
//! oracle is the problem's own LP (or conic program) with the gradient as cost, and the step is
//! chosen by Brent's method (argmin) on the segment towards the oracle's vertex. Every iterate is
//! feasible; the result is a local optimum, reported as such.

use super::{Method, Outcome, Run, Status};
use crate::channel::Channel;
use crate::formulation::ChannelLp;
use crate::objective::{Goal, Objective};
use crate::privacy::PrivacyNotion;
use argmin::core::{CostFunction, Executor};
use argmin::solver::brent::BrentOpt;
use mechsynth_solvers::{BackendError, LpStatus};
use rand::{Rng, SeedableRng};

/// Number of starts: the Hamming-loss optimum and this many random linear costs' optima.
pub const LOCAL_RANDOM_STARTS: usize = 7;
/// Frank-Wolfe iterations per start.
const FW_ITERATIONS: usize = 60;
/// Stop a start when the Frank-Wolfe gap is below this, relative to the objective.
const FW_GAP_TOLERANCE: f64 = 1e-9;
/// Brent iterations per line search.
const LINE_SEARCH_ITERATIONS: u64 = 60;
/// Stand-in for `+inf` (a singular channel) inside the line search.
const LINE_SEARCH_CEILING: f64 = 1e300;
/// Seed of the random starts, so that runs are reproducible.
const START_SEED: u64 = 0x6d65_6368;

/// The feasible set as an LP over an n x n channel.
fn feasible(privacy: &[Box<dyn PrivacyNotion>], n: usize) -> ChannelLp {
    let mut lp = ChannelLp::new(n, n);
    for p in privacy {
        p.encode(&mut lp);
    }
    lp
}

/// The feasible point minimizing `sum cost[x][y] Q[x][y]`, or the backend's status.
fn oracle(
    base: &ChannelLp,
    cost: &[Vec<f64>],
    run: &Run,
) -> Result<Result<Channel, LpStatus>, BackendError> {
    let mut lp = base.clone();
    for (x, row) in cost.iter().enumerate() {
        for (y, c) in row.iter().enumerate() {
            lp.set_entry_cost(x, y, if c.is_finite() { *c } else { 0.0 });
        }
    }
    let s = run.backend.solve(lp.program(), &run.backend_options())?;
    if !s.status.has_point() {
        return Ok(Err(s.status));
    }
    Ok(Ok(Channel::from_solver_point(lp.channel_rows(&s.x)).0))
}

struct Segment<'a> {
    objective: &'a dyn Objective,
    from: &'a Channel,
    to: &'a Channel,
    sign: f64,
}

impl Segment<'_> {
    fn at(&self, gamma: f64) -> Channel {
        let rows = self
            .from
            .rows()
            .iter()
            .zip(self.to.rows())
            .map(|(a, b)| {
                a.iter()
                    .zip(b)
                    .map(|(u, v)| (1.0 - gamma) * u + gamma * v)
                    .collect()
            })
            .collect();
        Channel::from_solver_point(rows).0
    }
}

impl CostFunction for Segment<'_> {
    type Param = f64;
    type Output = f64;
    fn cost(&self, gamma: &f64) -> Result<f64, argmin::core::Error> {
        let v = self.sign * self.objective.evaluate(&self.at(*gamma));
        Ok(if v.is_finite() {
            v
        } else {
            LINE_SEARCH_CEILING
        })
    }
}

/// Frank-Wolfe from `start`; returns the final channel.
fn descend(
    objective: &dyn Objective,
    base: &ChannelLp,
    start: Channel,
    run: &Run,
) -> Result<Channel, BackendError> {
    let sign = match objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let mut current = start;
    for _ in 0..FW_ITERATIONS {
        if run.expired() {
            break;
        }
        let Some(grad) = objective.gradient(&current) else {
            break;
        };
        let cost: Vec<Vec<f64>> = grad
            .iter()
            .map(|r| r.iter().map(|g| sign * g).collect())
            .collect();
        let Ok(vertex) = oracle(base, &cost, run)? else {
            break;
        };
        let gap: f64 = cost
            .iter()
            .zip(current.rows().iter().zip(vertex.rows()))
            .map(|(c, (q, s))| {
                c.iter()
                    .zip(q.iter().zip(s))
                    .map(|(g, (a, b))| g * (a - b))
                    .sum::<f64>()
            })
            .sum();
        let value = sign * objective.evaluate(&current);
        // A NaN gap (a degenerate gradient) also stops.
        if gap.is_nan() || gap <= FW_GAP_TOLERANCE * (value.abs() + 1.0) {
            break;
        }
        let segment = Segment {
            objective,
            from: &current,
            to: &vertex,
            sign,
        };
        let best = Executor::new(segment, BrentOpt::new(0.0, 1.0))
            .configure(|s| s.max_iters(LINE_SEARCH_ITERATIONS))
            .run()
            .ok()
            .and_then(|r| r.state().best_param.map(|g| (g, r.state().get_best_cost())));
        let Some((gamma, cost)) = best else {
            break;
        };
        // Brent may miss the end point, where a convex maximization's best step often is.
        let segment = Segment {
            objective,
            from: &current,
            to: &vertex,
            sign,
        };
        let full = segment.cost(&1.0).unwrap_or(LINE_SEARCH_CEILING);
        let (gamma, cost) = if full < cost {
            (1.0, full)
        } else {
            (gamma, cost)
        };
        if cost.is_nan() || cost >= value {
            break;
        }
        current = segment.at(gamma);
    }
    Ok(current)
}

/// The best local optimum over several starts: the given `seeds` (known mechanisms that meet
/// the constraints, e.g. k-RR and the problem's closed forms, already certified by the
/// caller), the Hamming-loss optimum, and random vertices of the feasible set.
pub fn solve_locally(
    privacy: &[Box<dyn PrivacyNotion>],
    objective: &dyn Objective,
    prior: &[f64],
    seeds: Vec<(String, Channel)>,
    run: &Run,
) -> Result<Outcome, BackendError> {
    let n = prior.len();
    let base = feasible(privacy, n);
    let hamming: Vec<Vec<f64>> = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| if x == y { 0.0 } else { prior[x] })
                .collect()
        })
        .collect();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(START_SEED);
    let mut costs = vec![hamming];
    for _ in 0..LOCAL_RANDOM_STARTS {
        costs.push(
            (0..n)
                .map(|_| (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect())
                .collect(),
        );
    }
    let sign = match objective.goal() {
        Goal::Minimize => 1.0,
        Goal::Maximize => -1.0,
    };
    let mut starts: Vec<(String, Channel)> = seeds
        .into_iter()
        .filter(|(_, c)| c.inputs() == n && c.outputs() == n)
        .collect();
    for (i, cost) in costs.iter().enumerate() {
        if run.expired() && !starts.is_empty() {
            break;
        }
        match oracle(&base, cost, run)? {
            Ok(c) => starts.push((
                if i == 0 {
                    "Hamming-loss optimum".into()
                } else {
                    format!("random vertex {i}")
                },
                c,
            )),
            Err(status) => {
                return Ok(Outcome {
                    method: Method::Local,
                    status: Status::Solver(status),
                    iterations: 0,
                    rows: None,
                    bound: None,
                    notes: vec!["the feasible set could not be sampled".into()],
                    solver_objective: None,
                    trace: Vec::new(),
                })
            }
        }
    }
    let mut best: Option<(f64, String, Channel)> = None;
    let total = starts.len();
    let mut done = 0;
    for (k, (name, start)) in starts.into_iter().enumerate() {
        if run.expired() && best.is_some() {
            break;
        }
        run.progress(&format!(
            "local search: start {} of {total} ({name})",
            k + 1
        ));
        let end = descend(objective, &base, start, run)?;
        done += 1;
        let value = sign * objective.evaluate(&end);
        let better = match &best {
            None => true,
            Some((v, _, _)) => value < *v || (v.is_nan() && !value.is_nan()),
        };
        if better {
            best = Some((value, name, end));
        }
    }
    let (_, from, channel) = best.expect("at least one start");
    let mut notes = vec![format!(
        "Frank-Wolfe from {done} of {total} starts (known mechanisms, the Hamming-loss optimum, random vertices), Brent line search; the best started from {from}"
    )];
    if run.expired() {
        notes.push("the time limit cut the local search short".into());
    }
    Ok(Outcome {
        method: Method::Local,
        status: Status::LocalOptimum,
        iterations: done as u64,
        rows: Some(channel.rows().to_vec()),
        bound: None,
        notes,
        solver_objective: None,
        trace: Vec::new(),
    })
}
