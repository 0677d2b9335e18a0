//! What `--time-limit` covers: the method, certification, the report's profiles and writing
//! the result. The method gets the limit less an estimate of the phases after it, so that a run
//! stopped by the limit still certifies and reports its channel in time; a phase that does not
//! fit in what is left is not started, and the report says so.

use crate::channel::Channel;
use crate::problem::Problem;
use crate::report::GapReport;
use crate::synthesis::{Outcome, Status};
use mechsynth_solvers::LpStatus;
use std::time::{Duration, Instant};

/// Pair-column checks `Q[a][y] <= f Q[b][y]` that certification recomputes per second with
/// outward rounding. Measured: 1.25e8 checks (500 irregular places under d-privacy) in 0.74 s,
/// 1.7e8 per second, on 2 cores shared with other work; taken lower so that a loaded machine
/// still fits in the reserve.
pub const CERTIFY_CHECKS_PER_SECOND: f64 = 1.0e8;

/// Channel entries written per second (JSON with shortest round-trip decimals, the table and
/// the CSV). Measured: the JSON report of a 500 x 500 channel took under 0.86 s after the
/// solve's own timings ended (process start and reading the problem included), at least 2.9e5
/// entries a second; taken lower.
pub const WRITTEN_ENTRIES_PER_SECOND: f64 = 2.5e5;

/// The method always gets at least this share of the limit, however large the estimate of the
/// phases after it (a phase that then does not fit is skipped, see [`Budget::fits`]).
const MIN_METHOD_SHARE: f64 = 0.25;

/// The time limit of one solve and how it is shared.
pub(super) struct Budget {
    start: Instant,
    limit: f64,
}

impl Budget {
    /// The budget of a solve that started at `start` with `limit` seconds.
    pub fn new(start: Instant, limit: f64) -> Self {
        Budget { start, limit }
    }

    /// Seconds the method may use: the limit less [`post_solve_seconds`] of `problem`, and at
    /// least [`MIN_METHOD_SHARE`] of the limit.
    pub fn method_seconds(&self, problem: &Problem) -> f64 {
        let n = problem.domain.size();
        let m = problem
            .objective
            .linear_coefficients()
            .and_then(|c| c.first().map(Vec::len))
            .unwrap_or(n);
        let reserve = post_solve_seconds(problem, n, m);
        (self.limit - reserve).max(MIN_METHOD_SHARE * self.limit)
    }

    /// Seconds left before the limit.
    pub fn left(&self) -> f64 {
        let limit = Duration::try_from_secs_f64(self.limit.max(0.0)).unwrap_or(Duration::MAX);
        limit.saturating_sub(self.start.elapsed()).as_secs_f64()
    }

    /// Whether a phase estimated at `seconds` ends in time: before the limit plus half of
    /// [`OVERRUN_SHARE`] of it (or of [`OVERRUN_SECONDS`], whichever is larger), the other half
    /// left for what follows it.
    pub fn fits(&self, seconds: f64) -> bool {
        seconds <= self.left() + 0.5 * (OVERRUN_SHARE * self.limit).max(OVERRUN_SECONDS)
    }
}

/// A run may end this share of its limit after it (estimates are estimates)...
pub const OVERRUN_SHARE: f64 = 0.05;
/// ... or this many seconds, whichever is larger.
pub const OVERRUN_SECONDS: f64 = 5.0;

/// Drop the method's point when certifying it cannot end in time (the channel would be emitted
/// late, or uncertified): the status becomes `time-limit` with no channel, and a warning says
/// why.
pub(super) fn keep_if_certifiable(
    outcome: &mut Outcome,
    problem: &Problem,
    budget: &Budget,
    warnings: &mut Vec<String>,
) {
    let Some(rows) = &outcome.rows else {
        return;
    };
    let (n, m) = (rows.len(), rows.first().map_or(0, Vec::len));
    let needed = certify_seconds(problem, n, m);
    if budget.fits(needed) {
        return;
    }
    outcome.rows = None;
    outcome.status = Status::Solver(LpStatus::TimeLimit);
    warnings.push(format!(
        "the time limit left {:.1} s, and certifying the channel ({n} x {m}, every pair of inputs in every column) takes about {needed:.1} s: no channel is emitted; give a larger --time-limit",
        budget.left()
    ));
}

/// Leakage scans of the k-RR-like mixture's search for its weight (an upward search by factors
/// of 4 from 1e-16, then a bisection to 1e-3 in the logarithm; see
/// `certify::repair_by_mixing`): about 26 and 10.
const MIXTURE_SCANS: f64 = 40.0;

/// Whether the k-RR-like mixture (the channel of a run that ended without a point) can be found
/// and certified in time; when it cannot, a warning says so.
pub(super) fn mixture_fits(problem: &Problem, budget: &Budget, warnings: &mut Vec<String>) -> bool {
    let n = problem.domain.size();
    let needed = MIXTURE_SCANS * certify_seconds(problem, n, n);
    let fits = budget.fits(needed);
    if !fits {
        warnings.push(format!(
            "the method ended without a point, and finding the k-RR-like mixture's weight takes about {needed:.1} s, more than the time limit left ({:.1} s): no channel is emitted",
            budget.left()
        ));
    }
    fits
}

/// The warning of a run whose method the time limit stopped before its gap closed.
pub(super) fn stopped_warning(limit: f64, gap: Option<&GapReport>) -> String {
    let gap = gap.map_or("no bound is known".to_string(), |g| {
        format!(
            "its gap to the best bound proven is {:e} ({:.2e} relative)",
            g.absolute, g.relative
        )
    });
    format!("the time limit ({limit} s, certification and the report included) stopped the method before its gap closed: the channel is the best certified one it had, and {gap}")
}

/// Whether the leakage profile's pair scan ends in time; when it does not, a warning says the
/// profile is left out.
pub(super) fn profile_fits(
    problem: &Problem,
    channel: &Channel,
    budget: &Budget,
    warnings: &mut Vec<String>,
) -> bool {
    let needed = profile_seconds(problem, channel.inputs(), channel.outputs());
    let fits = budget.fits(needed);
    if !fits {
        warnings.push(format!(
            "the time limit left {:.1} s, and the leakage profile takes about {needed:.1} s: it is left out (`mechsynth audit` computes it)",
            budget.left()
        ));
    }
    fits
}

/// Pair-column scans of a channel with `n` inputs and `m` outputs under `problem`'s notions:
/// one per notion (an upper estimate: ldp-like notions check per column in O(n m)).
pub(super) fn certify_seconds(problem: &Problem, n: usize, m: usize) -> f64 {
    scans(n, m) * problem.privacy.len() as f64
}

/// The leakage profile's pair-column scan (d-privacy under the domain's own distance), when the
/// domain has positions; its other entries are per-column and cheap.
pub(super) fn profile_seconds(problem: &Problem, n: usize, m: usize) -> f64 {
    if problem.domain.has_geometry() {
        scans(n, m)
    } else {
        0.0
    }
}

/// Certification, the profile and writing the channel, estimated.
fn post_solve_seconds(problem: &Problem, n: usize, m: usize) -> f64 {
    certify_seconds(problem, n, m)
        + profile_seconds(problem, n, m)
        + (n * m) as f64 / WRITTEN_ENTRIES_PER_SECOND
}

/// Seconds of one scan over every pair of inputs in every output column.
fn scans(n: usize, m: usize) -> f64 {
    (n as f64).powi(2) * m as f64 / CERTIFY_CHECKS_PER_SECOND
}
