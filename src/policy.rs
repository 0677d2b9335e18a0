//! Which synthesis method solves which problem: `auto`'s order and every size threshold that
//! chooses or refuses a method, each with the measurement that chose it.
//!
//! `auto` tries the methods of [`AUTO_ORDER`] in turn for a linear objective; each runs when
//! it applies to the problem and its size rule below holds, and the first whose result
//! settles the problem (a closed gap, or no method left that could do better in the time
//! left) is kept. `mechsynth solve --explain` prints, for a problem, which methods were
//! considered and why each was skipped. Objectives that are not linear have one method
//! each (extreme rays, optimal design, or the local method; see the synthesis module).
//!
//! Representation limits that no choice can move (bit masks of 62 or 63 inputs) stay next
//! to the code they limit.

use serde::{Deserialize, Serialize};

/// Which method solves a linear objective (`--method`; other objectives have one method
/// each). The help of each value is its doc comment's first line.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum MethodChoice {
    /// The faster method for the problem, tried in order: line, tiled, first-order, decomposition, ldp-interior-point, lip-interior-point, ratio-interior-point, lazy-rows, lp (`--explain` says why each was kept or not run)
    ///
    /// In short: the line method under a lone d-privacy constraint on an equally spaced line;
    /// the tiled method above [`LP_MAX_INPUTS`] points on a full grid, else the first-order
    /// method under d-privacy above [`LP_MAX_INPUTS`] points; decomposition under a
    /// lone LDP constraint from [`DECOMPOSITION_MIN_INPUTS`] inputs (the LDP interior point
    /// taking over when its first round leaves the gap open); the LIP interior point under a
    /// lone LIP constraint from [`LIP_INTERIOR_MIN_INPUTS`] inputs; the interior point by output
    /// column for notions made only of ratio rows from [`RATIO_INTERIOR_MIN_INPUTS`] inputs,
    /// then lazy rows from [`LAZY_MIN_INPUTS`] (fewer with symmetry or a warm-starting
    /// backend) when its gap stays open; one LP otherwise.
    #[default]
    Auto,
    /// One LP with every constraint
    Lp,
    /// One LP with ratio rows added as violated (notions made only of ratio rows: d-privacy, context-ldp)
    LazyRows,
    /// Decomposition over outputs, by column generation (polyhedral notions without coupling rows)
    Decomposition,
    /// A structured interior-point method over the LDP envelope form (a lone LDP constraint)
    LdpInteriorPoint,
    /// A structured interior-point method by output column (notions made only of ratio rows: d-privacy, context-ldp without zero entries, ldp)
    RatioInteriorPoint,
    /// A structured interior-point method over the LIP top form (a lone LIP constraint, one prior with every entry positive)
    LipInteriorPoint,
    /// The remapped geometric mechanism, certified by exact pricing (a lone d-privacy constraint on an equally spaced line)
    Line,
    /// A template's optimum carried to a large grid, with a certified gap (d-privacy on a full grid of more than 1,000 points, uniform prior)
    Tiled,
    /// A first-order primal-dual method by output column over the rows locality says matter, every pair scanned, with a rigorous bound (d-privacy over irregular places, up to 5,000)
    FirstOrder,
}

impl MethodChoice {
    /// The value of `--method` and of the problem file (kebab-case).
    pub fn name(self) -> &'static str {
        match self {
            MethodChoice::Auto => "auto",
            MethodChoice::Lp => "lp",
            MethodChoice::LazyRows => "lazy-rows",
            MethodChoice::Decomposition => "decomposition",
            MethodChoice::LdpInteriorPoint => "ldp-interior-point",
            MethodChoice::RatioInteriorPoint => "ratio-interior-point",
            MethodChoice::LipInteriorPoint => "lip-interior-point",
            MethodChoice::Line => "line",
            MethodChoice::Tiled => "tiled",
            MethodChoice::FirstOrder => "first-order",
        }
    }
}

/// `auto`'s order for a linear objective (see the module docs and each threshold below).
pub const AUTO_ORDER: [MethodChoice; 9] = [
    MethodChoice::Line,
    MethodChoice::Tiled,
    MethodChoice::FirstOrder,
    MethodChoice::Decomposition,
    MethodChoice::LdpInteriorPoint,
    MethodChoice::LipInteriorPoint,
    MethodChoice::RatioInteriorPoint,
    MethodChoice::LazyRows,
    MethodChoice::Lp,
];

// One program over the whole channel.

/// Largest domain for the methods that build one program over the whole channel (every method
/// but the decomposition under a lone LDP constraint): n^2 variables and, measured, about 2.8
/// KB of solver memory per variable.
pub const LP_MAX_INPUTS: usize = 1000;

// The line method (first, where it applies).

/// Most points for which d-privacy on an equally spaced line is accepted (the channel and the
/// distance matrix have n^2 entries each: 400 MB at this size).
pub const LINE_MAX_INPUTS: usize = 5000;

/// The line method's channel counts as optimal for the dispatcher (no fallback) when its gap
/// is at most this, relative to `max(1, |objective|)` (well inside the report's default 1e-6; the primal's budget margin alone costs about 1e-11 relative).
pub const LINE_GAP_TOLERANCE: f64 = 1e-8;

// The tiled method (above LP_MAX_INPUTS points on a full grid).

/// The method applies from this many inputs on (below it the interior point by output column
/// solves the whole problem exactly).
pub const TILED_MIN_INPUTS: usize = 1001;

/// The method refuses lattices above this many points: the channel, the costs, the factors
/// and the rows of the large problem are `n x n` arrays each (about 0.3 GB at 2,500 points),
/// and certification scans `n^3` triples. At 3,600 points the master program came back from
/// Clarabel at reduced accuracy after 187 s; 2,500 is the largest size measured to work.
pub const TILED_MAX_INPUTS: usize = 2500;

/// The template's side, at most (cells along each axis): a 20 x 20 template is solved in
/// about 10 s.
pub const TEMPLATE_SIDE: usize = 20;

// The first-order method (irregular places, after the tiled method).

/// `auto` tries the first-order method from this many inputs on, and above [`LP_MAX_INPUTS`]
/// with symmetry too. Measured on French towns with a population prior (eps 0.05 per km): at
/// 500 places the interior point by output column did not close its gap in 240 s, and at
/// 1,000 its first iteration did not fit in 300 s (it emitted a channel without a bound). With
/// a symmetry group of order [`LAZY_SYMMETRY_ORDER`] or more (grids) the interior point stays
/// in charge up to [`LP_MAX_INPUTS`] (30 x 30 exactly in 230 s).
pub const FIRST_ORDER_MIN_INPUTS: usize = 500;

/// Whether `auto` tries the first-order method at `n` inputs, with or without a symmetry group
/// of order [`LAZY_SYMMETRY_ORDER`] or more.
pub fn auto_tries_first_order(n: usize, symmetric: bool) -> Result<(), String> {
    if n > LP_MAX_INPUTS || (n >= FIRST_ORDER_MIN_INPUTS && !symmetric) {
        Ok(())
    } else if n < FIRST_ORDER_MIN_INPUTS {
        Err(format!(
            "{n} inputs, below FIRST_ORDER_MIN_INPUTS = {FIRST_ORDER_MIN_INPUTS} (the interior point by output column closes the gap)"
        ))
    } else {
        Err(format!(
            "{n} inputs with a symmetry group of order {LAZY_SYMMETRY_ORDER} or more, up to LP_MAX_INPUTS = {LP_MAX_INPUTS}: the interior point by output column closes the gap"
        ))
    }
}

/// The first-order method stops when the emitted channel is within this of its bound,
/// relative to the channel's objective (inside the report's default 1e-6, with room for the
/// certification's repair).
pub const FIRST_ORDER_GAP_TOLERANCE: f64 = 5e-7;

// Decomposition over outputs, and under a lone LDP constraint the LDP interior point.

/// Linear objectives over at least this many inputs are solved by decomposition over outputs
/// when it applies (below, one LP is faster).
pub const DECOMPOSITION_MIN_INPUTS: usize = 24;

/// Rounds `auto` gives the decomposition before the LDP interior-point method takes over.
/// Under other losses than Hamming the decomposition does not converge (absolute loss on a
/// line, eps 1: gap open after 120 s at 100 inputs) and each round at 1,000 inputs costs
/// seconds the interior-point method needs for all of its work.
pub const AUTO_DECOMPOSITION_ROUNDS: usize = 1;

/// Above this many inputs the LDP interior-point method is not used: it keeps about 22
/// arrays of `n^2` numbers (measured: 1.6 GB peak at this size, 149 s for absolute loss).
pub const LDP_INTERIOR_MAX_INPUTS: usize = 3000;

/// Up to this many inputs one LP takes over when the interior-point method does not close
/// its gap (one LP takes 0.2 s at 100 inputs and 3.3 s at 300; at very large eps the
/// interior-point method can stop at a gap of 1e-6 to 1e-4 where rounding takes over).
pub const LP_FALLBACK_INPUTS: usize = 300;

// The LIP interior point (a lone LIP constraint under one prior with every entry positive).

/// `auto` tries the LIP interior point from this many inputs on (absolute loss, prior ~ x + 1,
/// eps 1, solve times of CLI runs on a loaded machine: 8 inputs 0.40 ms against 0.84 ms for one
/// LP, 12 0.55 ms against 2.2 ms, 24 1.5 ms against 50 ms, 200 0.4 to 0.9 s against 5.4 s).
/// Below, both take a few milliseconds and one LP's vertex closes the gap exactly, where the
/// interior point stops near 1e-8 relative.
pub const LIP_INTERIOR_MIN_INPUTS: usize = 16;

/// `auto` keeps the LIP interior point when its own gap is within this relative to its
/// objective: the report's default tolerance (1e-6) less room for rounding. The method aims
/// for 1e-9; at the end of the path the blocks of unused outputs cost the Schur complement its
/// accuracy, and it stops between about 1e-8 and 1e-7 (absolute loss at 200 inputs, eps 1:
/// 3.4e-8 with a uniform prior).
pub const LIP_INTERIOR_CLOSED_GAP: f64 = 8e-7;

/// Whether the LIP interior point settles the problem for `auto`: its own gap within
/// [`LIP_INTERIOR_CLOSED_GAP`] relative to its objective.
pub fn lip_interior_settles(objective: Option<f64>, bound: Option<f64>) -> bool {
    match (objective, bound) {
        (Some(objective), Some(bound)) => {
            (objective - bound).abs() <= LIP_INTERIOR_CLOSED_GAP * objective.abs().max(1e-300)
        }
        _ => false,
    }
}

/// Whether `auto` tries the LIP interior point at `n` inputs.
pub fn auto_tries_lip_interior(n: usize) -> Result<(), String> {
    if n >= LIP_INTERIOR_MIN_INPUTS {
        Ok(())
    } else {
        Err(format!(
            "{n} inputs, below LIP_INTERIOR_MIN_INPUTS = {LIP_INTERIOR_MIN_INPUTS} (one LP is as fast)"
        ))
    }
}

// The interior point by output column, then lazy rows, then one LP.

/// `auto` tries the method first from this many inputs on, with or without symmetry (Euclidean
/// grids, eps 0.5, distance loss, a random prior without symmetry, CLI runs: 6 x 6 0.2 s
/// against 0.4 s for one LP, 7 x 7 0.3 s against 24 s, 8 x 8 0.5 s against 6.6 s; 5 x 5 0.1 s
/// either way).
pub const RATIO_INTERIOR_MIN_INPUTS: usize = 25;

/// `auto` keeps the interior point by output column when its own gap is within this relative
/// to its objective: the report's default tolerance (1e-6) less room for the repair of
/// rounding (which cost under 2e-8 relative in every grid measured). The method aims for 1e-8
/// and ends between 1e-9 and 2e-7 on grids up to 30 x 30 (its last rounds stop where a
/// block's Cholesky fails); lazy rows take minutes from 20 x 20 on, so they are kept for a
/// method that clearly failed.
pub const RATIO_INTERIOR_CLOSED_GAP: f64 = 8e-7;

/// `auto`'s fallback after the interior point by output column from this many inputs on, one
/// LP below (measured on Euclidean grids: at 8 x 8 one LP
/// with every row takes 4.7 s and this method 6.2 s; at 10 x 10 one LP does not finish in
/// 600 s and this method takes 40 s).
pub const LAZY_MIN_INPUTS: usize = 80;

/// With a symmetry group of order at least [`LAZY_SYMMETRY_ORDER`], the fallback from this many
/// inputs on (Euclidean grids with a uniform prior, 8 symmetries: 6 x 6 0.74 s against
/// 0.97 s for one LP, 7 x 7 0.34 s against 36 s, 8 x 8 0.69 s against 2.6 s).
pub const LAZY_SYMMETRIC_MIN_INPUTS: usize = 36;

/// With a backend that re-optimizes from its last basis (HiGHS), the fallback from this many
/// inputs on, symmetric or not (Euclidean grids, skewed prior, HiGHS: 6 x 6 0.79 s against
/// 2.3 s for one LP, 7 x 7 2.9 s against 13 s, 8 x 8 10 s against 75 s).
pub const LAZY_WARM_MIN_INPUTS: usize = 36;

/// The group order from which [`LAZY_SYMMETRIC_MIN_INPUTS`] applies.
pub const LAZY_SYMMETRY_ORDER: usize = 4;

/// The lazy LP is used when the cone has more than this many ratio rows per input.
pub const LAZY_ROWS_PER_INPUT: usize = 16;

// Objectives that are not linear: extreme rays where they can be listed, else the local method.

/// Largest number of rays enumerated (LDP at n = 20 has 2^20 - 2; pricing scans them all, which
/// takes about 0.2 s per round and 0.4 GB there).
pub const ENUMERATION_LIMIT: usize = 1 << 20;

/// From this many inputs on, the optimal design under a lone LDP constraint finds its rays by
/// ascent and bounds them by a branch and bound over the staircase patterns instead of listing
/// all `2^n - 2` of them (always above [`ENUMERATION_LIMIT`] rays; docs/frequency.md). At
/// n = 8 (prior ~ i, eps = 1) the search took 0.08 s of CPU against 0.28 s for the list, whose
/// first master holds all 254 rays; below 8 inputs the list has at most 126 rays.
pub const DESIGN_STAIRCASE_MIN_INPUTS: usize = 8;

/// Most memory for extreme rays kept as tree codes, for the design and ray methods; a cone
/// with more falls back to the local method.
pub const COMPACT_MAX_BYTES: usize = 1 << 30;

/// Whether `auto` tries the tiled method at `n` inputs (`Err` says why not).
pub fn auto_tries_tiled(n: usize) -> Result<(), String> {
    if n > LP_MAX_INPUTS {
        Ok(())
    } else {
        Err(format!(
            "{n} inputs: auto tries it above LP_MAX_INPUTS = {LP_MAX_INPUTS}, where one program over the channel is refused"
        ))
    }
}

/// Whether `auto` tries the decomposition over outputs at `n` inputs, given whether it is
/// the faster method for the notions (closed-form pricing: a lone LDP constraint).
pub fn auto_tries_decomposition(n: usize, faster: bool) -> Result<(), String> {
    if !faster {
        Err("not the faster method for these notions (it is only with closed-form pricing, under a lone ldp constraint)".into())
    } else if n < DECOMPOSITION_MIN_INPUTS {
        Err(format!(
            "{n} inputs, below DECOMPOSITION_MIN_INPUTS = {DECOMPOSITION_MIN_INPUTS} (one LP is faster)"
        ))
    } else {
        Ok(())
    }
}

/// Whether lazy rows beat one LP at `n` inputs: with or without a backend that re-optimizes
/// from its last basis (`warm`), and the order of the problem's symmetry group (asked for
/// only when it decides).
pub fn lazy_rows_sized(n: usize, warm: bool, symmetry_order: impl FnOnce() -> usize) -> bool {
    n >= LAZY_MIN_INPUTS
        || (n >= LAZY_WARM_MIN_INPUTS && warm)
        || (n >= LAZY_SYMMETRIC_MIN_INPUTS && symmetry_order() >= LAZY_SYMMETRY_ORDER)
}

/// Whether `auto` tries the interior point by output column at `n` inputs.
pub fn auto_tries_ratio_interior(n: usize, lazy_sized: bool) -> Result<(), String> {
    if lazy_sized || n >= RATIO_INTERIOR_MIN_INPUTS {
        Ok(())
    } else {
        Err(format!(
            "{n} inputs, below RATIO_INTERIOR_MIN_INPUTS = {RATIO_INTERIOR_MIN_INPUTS} (one LP is as fast)"
        ))
    }
}

/// Whether `auto` tries lazy rows (after the interior point by output column) at `n` inputs.
pub fn auto_tries_lazy_rows(n: usize, lazy_sized: bool) -> Result<(), String> {
    if lazy_sized {
        Ok(())
    } else {
        Err(format!(
            "{n} inputs, below LAZY_MIN_INPUTS = {LAZY_MIN_INPUTS} (from {LAZY_WARM_MIN_INPUTS} with a warm-starting backend, from {LAZY_SYMMETRIC_MIN_INPUTS} with {LAZY_SYMMETRY_ORDER} symmetries or more): one LP is faster"
        ))
    }
}

/// Whether the interior point by output column settles the problem for `auto`: its own gap
/// within [`RATIO_INTERIOR_CLOSED_GAP`] relative to its objective.
pub fn ratio_interior_settles(objective: Option<f64>, bound: Option<f64>) -> bool {
    match (objective, bound) {
        (Some(objective), Some(bound)) => {
            (objective - bound).abs() <= RATIO_INTERIOR_CLOSED_GAP * objective.abs().max(1e-300)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_order_lists_every_method_once_and_not_auto() {
        use clap::ValueEnum;
        for choice in MethodChoice::value_variants() {
            let count = AUTO_ORDER.iter().filter(|c| *c == choice).count();
            assert_eq!(
                count,
                usize::from(*choice != MethodChoice::Auto),
                "{choice:?}"
            );
        }
    }

    #[test]
    fn size_rules_switch_at_their_thresholds() {
        // (rule, n below the threshold, n at it)
        assert!(auto_tries_tiled(LP_MAX_INPUTS).is_err());
        assert!(auto_tries_tiled(LP_MAX_INPUTS + 1).is_ok());
        assert!(auto_tries_decomposition(DECOMPOSITION_MIN_INPUTS - 1, true).is_err());
        assert!(auto_tries_decomposition(DECOMPOSITION_MIN_INPUTS, true).is_ok());
        assert!(auto_tries_decomposition(10 * DECOMPOSITION_MIN_INPUTS, false).is_err());
        assert!(auto_tries_ratio_interior(RATIO_INTERIOR_MIN_INPUTS - 1, false).is_err());
        assert!(auto_tries_ratio_interior(RATIO_INTERIOR_MIN_INPUTS, false).is_ok());
        assert!(auto_tries_ratio_interior(2, true).is_ok());
        assert!(!lazy_rows_sized(LAZY_MIN_INPUTS - 1, false, || 1));
        assert!(lazy_rows_sized(LAZY_MIN_INPUTS, false, || 1));
        assert!(lazy_rows_sized(LAZY_WARM_MIN_INPUTS, true, || 1));
        assert!(!lazy_rows_sized(LAZY_WARM_MIN_INPUTS - 1, true, || 8));
        assert!(lazy_rows_sized(LAZY_SYMMETRIC_MIN_INPUTS, false, || {
            LAZY_SYMMETRY_ORDER
        }));
        assert!(!lazy_rows_sized(
            LAZY_SYMMETRIC_MIN_INPUTS,
            false,
            || LAZY_SYMMETRY_ORDER - 1
        ));
        assert!(auto_tries_lazy_rows(5, false).is_err());
        assert!(auto_tries_lazy_rows(5, true).is_ok());
    }

    #[test]
    fn the_symmetry_order_is_computed_only_when_it_decides() {
        let asked = std::cell::Cell::new(false);
        assert!(lazy_rows_sized(LAZY_MIN_INPUTS, false, || {
            asked.set(true);
            1
        }));
        assert!(!asked.get());
    }

    #[test]
    fn the_ratio_interior_point_settles_within_its_closed_gap() {
        assert!(ratio_interior_settles(
            Some(1.0),
            Some(1.0 - 0.5 * RATIO_INTERIOR_CLOSED_GAP)
        ));
        assert!(!ratio_interior_settles(
            Some(1.0),
            Some(1.0 - 2.0 * RATIO_INTERIOR_CLOSED_GAP)
        ));
        assert!(!ratio_interior_settles(Some(1.0), None));
    }
}
