//! One run of the primal-dual interior-point method (Mehrotra's predictor-corrector; Wright,
//! "Primal-Dual Interior-Point Methods", SIAM 1997, Ch. 10) over the rows encoded so far.

use super::newton::Point;
use super::step::Target;
use super::structure::Structure;
use crate::synthesis::Run;

/// Fraction of the step to the boundary.
const STEP_TO_BOUNDARY: f64 = 0.995;
/// A checkpoint is kept each time the complementarity level falls by this factor.
const CHECKPOINT_FACTOR: f64 = 10.0;
/// Iterations before giving up.
const MAX_ITERATIONS: usize = 200;
/// The method stops when its gap has not shrunk by [`STALL_PROGRESS`] in this many iterations.
const STALL_ITERATIONS: usize = 15;
/// See [`STALL_ITERATIONS`].
const STALL_PROGRESS: f64 = 0.99;
/// Floating-point operations per second of an iteration's dense block work (each block's
/// Cholesky factorization, `size^3 / 3`, and its forward solve against the row sums,
/// `size^2 sums`), to judge whether a run's first iteration ends before the deadline.
/// Measured: 500 irregular places (500 blocks of 500 entries, 500 row sums, 8.3e10 operations)
/// took 14 s an iteration on 2 cores shared with other work, 6e9 per second; taken lower.
const ITERATION_FLOPS_PER_SECOND: f64 = 3e9;

/// What one run found (scaled units).
pub(super) struct Solved {
    /// The best point (lowest objective), stacked; every iterate keeps the encoded rows and,
    /// up to rounding, the row sums.
    pub q: Vec<f64>,
    pub objective: f64,
    /// The best rigorous bound over the iterations (for the encoded rows: a relaxation).
    pub bound: f64,
    pub iterations: usize,
    /// Whether the gap closed to `tolerance`.
    pub closed: bool,
    /// Why it stopped early, when it did.
    pub stopped: Option<String>,
    /// Whether the time limit stopped it (or would have, during the next iteration).
    pub out_of_time: bool,
    /// The last iterate, to continue from with the same rows.
    pub last: Point,
    /// Earlier iterates with their complementarity level, one per [`CHECKPOINT_FACTOR`] of
    /// decrease, oldest first (to warm-start the next round, see [`super::warm`]).
    pub checkpoints: Vec<(f64, Point)>,
}

impl Solved {
    /// A run that starts at `p`.
    pub fn at(s: &Structure, p: Point, checkpoints: Vec<(f64, Point)>) -> Self {
        Solved {
            objective: s.objective(&p.q),
            q: p.q.clone(),
            bound: f64::NEG_INFINITY,
            iterations: 0,
            closed: false,
            stopped: None,
            out_of_time: false,
            last: p,
            checkpoints,
        }
    }
}

/// Run the method from `from` (a previous run over the same rows) or from the uniform
/// channel until the gap is at most `tolerance(objective)`; `report(solved so far, mu)` is
/// called after every iteration.
pub(super) fn interior_point(
    s: &Structure,
    run: &Run,
    from: Option<Solved>,
    tolerance: impl Fn(f64) -> f64,
    mut report: impl FnMut(&Solved, f64),
) -> Solved {
    let pairs = (s.active_rows() + s.variables) as f64;
    let mut out = from.unwrap_or_else(|| Solved::at(s, s.start(), Vec::new()));
    out.closed = false;
    out.stopped = None;
    out.out_of_time = false;
    let mut p = std::mem::replace(&mut out.last, Point::empty());
    let first = out.iterations + 1;
    let (mut best_gap, mut last_progress) = (f64::INFINITY, 0);
    // The last factorization's storage, reused by the next.
    let mut spare = None;
    let mut started = std::time::Instant::now();
    for iteration in first..first + MAX_ITERATIONS {
        out.iterations = iteration;
        // One more iteration would end past the deadline: stop now (iterations cost up to a
        // second on large grids, so checking only after each one overran short limits).
        let last = if iteration > first {
            started.elapsed()
        } else {
            s.iteration_estimate()
        };
        started = std::time::Instant::now();
        if started + last > run.deadline() {
            out.stopped = Some("the time limit ended the interior-point method".into());
            out.out_of_time = true;
            out.iterations = iteration - 1;
            run.spend();
            break;
        }
        let factored = s.factor(&p, spare.take());
        let Some(factored) = factored else {
            out.stopped = Some("the Newton system lost positive definiteness at the end of the path; the best point so far is kept".into());
            break;
        };
        let mu = s.complementarity(&p) / pairs;
        if out
            .checkpoints
            .last()
            .is_none_or(|c| mu <= c.0 / CHECKPOINT_FACTOR)
        {
            out.checkpoints.push((mu, p.clone()));
        }
        // Predictor (affine scaling), then the centred corrector.
        let (dqa, _) = s.direction(&p, &factored, &Target::AFFINE);
        let (ap, ad) = s.step_lengths(&p, &dqa, &Target::AFFINE, 1.0);
        let mu_affine = s.complementarity_after(&p, &dqa, ap, ad) / pairs;
        let target = Target {
            centre: (mu_affine / mu).clamp(0.0, 1.0).powi(3) * mu,
            affine: Some(&dqa),
        };
        let (dq, dmu) = s.direction(&p, &factored, &target);
        spare = Some(factored);
        let (ap, ad) = s.step_lengths(&p, &dq, &target, STEP_TO_BOUNDARY);
        s.advance(&mut p, &dq, &dmu, &target, ap, ad);
        let objective = s.objective(&p.q);
        out.bound = out.bound.max(s.bound(&p));
        if objective < out.objective || iteration == first {
            out.objective = objective;
            out.q.clone_from(&p.q);
        }
        report(&out, mu);
        let gap = out.objective - out.bound;
        if gap <= tolerance(out.objective) {
            out.closed = true;
            break;
        }
        if gap < STALL_PROGRESS * best_gap {
            (best_gap, last_progress) = (gap, iteration);
        } else if iteration >= last_progress + STALL_ITERATIONS {
            out.stopped = Some(format!("the interior-point method stalled: its gap did not shrink in {STALL_ITERATIONS} iterations"));
            break;
        }
        if run.expired() {
            out.stopped = Some("the time limit ended the interior-point method".into());
            out.out_of_time = true;
            break;
        }
        if iteration + 1 == first + MAX_ITERATIONS {
            out.stopped = Some(format!(
                "the interior-point method stopped at its cap of {MAX_ITERATIONS} iterations"
            ));
        }
    }
    out.last = p;
    out
}

impl Structure {
    /// How long one iteration takes, estimated from its dense block work (see
    /// [`ITERATION_FLOPS_PER_SECOND`]).
    fn iteration_estimate(&self) -> std::time::Duration {
        let sums = self.sums as f64;
        let flops: f64 = self
            .blocks
            .iter()
            .map(|b| {
                let size = b.size as f64;
                size.powi(3) / 3.0 + size * size * sums
            })
            .sum();
        std::time::Duration::from_secs_f64(flops / ITERATION_FLOPS_PER_SECOND)
    }

    /// The uniform channel, with duals that put every complementarity product at the same
    /// level.
    pub(super) fn start(&self) -> Point {
        let outputs = self.outputs as f64;
        let q = vec![1.0 / outputs; self.variables];
        let objective: f64 = self.objective(&q).abs().max(1e-3);
        let pairs = (self.active_rows() + self.variables) as f64;
        let level = objective / pairs;
        let z = self
            .blocks
            .iter()
            .map(|block| {
                self.rows_of(block)
                    .map(|(r, _, _)| level / ((r.factor - 1.0) / outputs))
                    .collect()
            })
            .collect();
        Point {
            w: q.iter().map(|v| level / v).collect(),
            q,
            z,
            mu: vec![0.0; self.sums],
        }
    }

    /// `c . q` (scaled units).
    pub(super) fn objective(&self, q: &[f64]) -> f64 {
        self.blocks
            .iter()
            .map(|b| {
                b.cost
                    .iter()
                    .zip(self.part(b, q))
                    .map(|(c, v)| c * v)
                    .sum::<f64>()
            })
            .sum()
    }

    /// `sum s z + sum q w`.
    pub(super) fn complementarity(&self, p: &Point) -> f64 {
        let zero = vec![0.0; self.variables];
        self.fold_pairs(
            p,
            &zero,
            &Target::AFFINE,
            0.0,
            |acc, s, _, z, _| acc + s * z,
            |acc, q, _, w, _| acc + q * w,
            |a, b| a + b,
        )
    }

    /// `sum (s + ap ds)(z + ad dz) + sum (q + ap dq)(w + ad dw)` for the affine step.
    fn complementarity_after(&self, p: &Point, dq: &[f64], ap: f64, ad: f64) -> f64 {
        let product =
            move |acc: f64, s: f64, ds: f64, z: f64, dz: f64| acc + (s + ap * ds) * (z + ad * dz);
        self.fold_pairs(p, dq, &Target::AFFINE, 0.0, product, product, |a, b| a + b)
    }

    /// The longest primal and dual steps (at most 1) that keep every slack, variable and dual
    /// positive, times `fraction`.
    fn step_lengths(&self, p: &Point, dq: &[f64], target: &Target, fraction: f64) -> (f64, f64) {
        let limit = |(ap, ad): (f64, f64), s: f64, ds: f64, z: f64, dz: f64| {
            (
                if ds < 0.0 { ap.min(-s / ds) } else { ap },
                if dz < 0.0 { ad.min(-z / dz) } else { ad },
            )
        };
        let (ap, ad) = self.fold_pairs(p, dq, target, (1.0, 1.0), limit, limit, |a, b| {
            (a.0.min(b.0), a.1.min(b.1))
        });
        if fraction >= 1.0 {
            (ap, ad)
        } else {
            ((fraction * ap).min(1.0), (fraction * ad).min(1.0))
        }
    }
}
