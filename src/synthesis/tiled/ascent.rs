//! Tightening the tiled method's bound by column generation on the large problem itself
//! (Dantzig-Wolfe decomposition over outputs, with the Lasdon bound).
//!
//! **Bound.** For any row prices `nu` (one per input), every channel `Q` has
//! `sum c Q = sum_x nu_x + sum_y (c_y - nu) . Q_y >= sum_x nu_x + n min(0, min_y rho_y)`, where
//! `rho_y` is the least `(c_y - nu) . q` over the columns `q` of the cone with unit mass: the
//! columns' masses are nonnegative and sum to `n`, since every row sums to 1 (Lasdon,
//! "Optimization Theory for Large Systems", Macmillan 1970, Ch. 3). A window around each output
//! bounds `rho_y` from below ([`super::window`]), and the sum is rounded down with its error
//! bounded (Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., Sec. 3.1), so the
//! bound holds whatever `nu` is. With prices kept by the symmetry group, `rho` is the same on
//! each orbit of outputs and one output per orbit is priced.
//!
//! **Prices.** The master program's row duals over the columns found so far (the carried
//! columns first), smoothed towards the prices of the best bound so far (Wentges, Int. Trans.
//! Oper. Res. 4, 1997), which damps the swings of the duals of this degenerate program. Each
//! round adds the priced columns of negative reduced cost, extended to the whole lattice.

use super::lattice::Lattice;
use super::master::{solve_master, Candidate, Group};
use super::shapes::{extend, Factors};
use super::window::Window;
use crate::synthesis::{RoundTrace, Run};
use mechsynth_solvers::ClarabelBackend;
use rayon::prelude::*;
use std::time::Instant;

/// Weight of the best bound's prices in the prices of the next round.
const SMOOTHING: f64 = 0.5;
/// Half-width of the box on the master's duals around the best prices, relative to their mean.
const BOX_WIDTH: f64 = 0.1;
/// The box shrinks by this factor after a round that did not improve the bound.
const SHRINK: f64 = 0.7;
/// The rounds stop when the best bound gained at most `STALL_GAIN` (relative to the channel's
/// objective) over the last `STALL_ROUNDS` rounds: the windows' relaxation then limits it (on
/// grids of 30 x 30 and 50 x 50 the bound levels off 0.3% below the optimum and 0.6% below the
/// channel after 6 rounds, and gains less than 0.01% in the next 3).
const STALL_ROUNDS: usize = 1;
/// See [`STALL_ROUNDS`].
const STALL_GAIN: f64 = 1e-3;
/// Rounds of column generation, at most.
const MAX_ROUNDS: usize = 40;
/// The rounds stop once the gap to the channel's objective is at most this, relative.
pub const ASCENT_GAP: f64 = 1e-3;

/// The tightened bound and the trace of its rounds.
pub(crate) struct Tightened {
    /// The best bound found (at least the one it started from).
    pub bound: f64,
    /// One entry per round.
    pub trace: Vec<RoundTrace>,
    /// Rounds run.
    pub rounds: usize,
}

/// The problem the rounds work on.
pub(crate) struct Ascent<'a> {
    /// Costs `c[x][y]`, kept by the group.
    pub costs: &'a [Vec<f64>],
    /// The large lattice.
    pub lattice: &'a Lattice,
    /// Its factors.
    pub factors: &'a Factors,
    /// Its symmetries.
    pub group: &'a Group,
    /// The channel's objective (the gap is measured to it).
    pub objective: f64,
    /// When the method started (for the trace).
    pub start: Instant,
}

impl Ascent<'_> {
    /// Run the rounds over `candidates` from the prices `start_prices` (one per input, kept by
    /// the group), starting at `bound`.
    pub fn tighten(
        &self,
        bound: f64,
        mut candidates: Vec<Candidate>,
        start_prices: &[f64],
        run: &Run,
    ) -> Tightened {
        let n = self.costs.len();
        let reps = self.group.representatives();
        let mut slot = vec![usize::MAX; n];
        reps.iter().enumerate().for_each(|(k, &r)| slot[r] = k);
        let orbit_of: Vec<usize> = (0..n).map(|x| slot[self.group.representative(x)]).collect();
        let size: Vec<f64> = reps
            .iter()
            .map(|&r| self.group.orbit_size(r) as f64)
            .collect();
        let mut windows: Vec<Window> = reps
            .par_iter()
            .map(|&y| Window::new(y, self.lattice, self.factors))
            .collect();
        // Prices above the least cost outside a window would leave its outside unbounded.
        let cap = windows
            .iter()
            .map(|w| {
                let mut inside = vec![false; n];
                w.members.iter().for_each(|&x| inside[x] = true);
                (0..n)
                    .filter(|&x| !inside[x])
                    .map(|x| self.costs[x][w.output])
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(f64::INFINITY, f64::min)
            * (1.0 - 1e-9);
        let mut best = bound;
        let mut center: Vec<f64> = start_prices.iter().map(|p| p.min(cap)).collect();
        let mut prices = center.clone();
        let mut width = BOX_WIDTH * center.iter().map(|p| p.abs()).sum::<f64>() / n as f64;
        let mut trace = Vec::new();
        let mut rounds = 0;
        let mut history: Vec<f64> = Vec::new();
        for round in 1..=MAX_ROUNDS {
            if run.expired() {
                break;
            }
            rounds = round;
            let options = run.backend_options();
            let pricing = Instant::now();
            run.progress(&format!(
                "tiled: bound round {round}: pricing {} windows (best bound {best:.9e})",
                windows.len()
            ));
            // Clarabel prices the windows in either build: HiGHS took 172 s and 107 s for the
            // first two rounds on a 50 x 50 grid, against 68 s and 54 s (the bound is rigorous
            // whichever solver's duals it starts from).
            let priced: Vec<_> = windows
                .par_iter_mut()
                .map(|w| {
                    let y = w.output;
                    let p = w.price(
                        |x| self.costs[x][y],
                        &prices,
                        self.factors,
                        &ClarabelBackend,
                        &options,
                    );
                    (y, p)
                })
                .collect();
            let mut rho = f64::INFINITY;
            let mut found = Vec::new();
            for (y, p) in priced {
                let Ok(p) = p else {
                    rho = f64::NEG_INFINITY;
                    continue;
                };
                rho = rho.min(p.lower);
                if let (true, Some(q)) = (p.lower < 0.0, p.column) {
                    found.push((y, q));
                }
            }
            let value = lasdon_bound(&prices, rho);
            if value > best {
                best = value;
                center = prices.clone();
            } else {
                width *= SHRINK;
            }
            let gap = (self.objective - best) / self.objective.abs().max(f64::MIN_POSITIVE);
            run.progress(&format!(
                "tiled: bound round {round}: {value:.9e} (best {best:.9e}, gap {:.3}%), {} new columns, {} windows priced in {:.1} s",
                100.0 * gap,
                found.len(),
                windows.len(),
                pricing.elapsed().as_secs_f64()
            ));
            trace.push(RoundTrace {
                round: round + 1,
                columns: candidates.len(),
                rows: None,
                objective: self.objective,
                bound: best,
                gap: (self.objective - best).abs(),
                seconds: self.start.elapsed().as_secs_f64(),
            });
            let stalled = history.len() >= STALL_ROUNDS
                && best - history[history.len() - STALL_ROUNDS]
                    <= STALL_GAIN * self.objective.abs();
            history.push(best);
            if found.is_empty() || gap <= ASCENT_GAP || stalled || run.expired() {
                break;
            }
            let index: Vec<usize> = windows.iter().map(|w| w.output).collect();
            let added: Vec<Candidate> = found
                .into_par_iter()
                .map(|(y, q)| {
                    let w = &windows[index.iter().position(|&o| o == y).unwrap_or(0)];
                    let known: Vec<(usize, f64)> = w.members.iter().copied().zip(q).collect();
                    let column = extend(n, &known, self.factors);
                    Candidate {
                        output: y,
                        column: self.group.symmetrize(y, &column),
                    }
                })
                .collect();
            candidates.extend(added);
            let dual_box: Vec<(f64, f64)> = reps
                .iter()
                .zip(&size)
                .map(|(&r, &s)| (s * (center[r] - width), s * (center[r] + width)))
                .collect();
            let duals = match solve_master(
                self.group,
                &candidates,
                self.costs,
                false,
                Some(&dual_box),
                run,
            ) {
                Ok(solved) if solved.duals.len() == reps.len() => solved.duals,
                Ok(_) => break,
                Err(why) => {
                    run.progress(&format!("tiled: bound rounds stop: {why}"));
                    break;
                }
            };
            prices = (0..n)
                .map(|x| {
                    let master = duals[orbit_of[x]] / size[orbit_of[x]];
                    (SMOOTHING * center[x] + (1.0 - SMOOTHING) * master).min(cap)
                })
                .collect();
        }
        Tightened {
            bound: best,
            trace,
            rounds,
        }
    }
}

/// `sum_x nu_x + n min(0, rho)` rounded down with its error bounded (a sum of `n + 1` terms).
fn lasdon_bound(prices: &[f64], rho: f64) -> f64 {
    if !rho.is_finite() {
        return f64::NEG_INFINITY;
    }
    let n = prices.len() as f64;
    let tail = n * rho.min(0.0);
    let total = prices.iter().sum::<f64>() + tail;
    let magnitude = prices.iter().map(|v| v.abs()).sum::<f64>() + tail.abs();
    let error = (n + 4.0) * f64::EPSILON * magnitude;
    (total - error).next_down()
}
