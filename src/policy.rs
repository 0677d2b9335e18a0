//! Which synthesis method solves which problem: `auto`'s order and every size threshold that
//! chooses or refuses a method, each with the measurement that chose it.
//!
//! `auto` tries the methods of [`AUTO_ORDER`] in turn for a linear objective; each runs when
//! it applies to the problem and its size rule below holds, and the first whose result
//! settles the problem (a closed gap, or no method left that could do better in the time
//! left) is kept. `mechsynth solve --explain` prints, for a problem, which methods were
//! considered and why each was skipped. Objectives that are not linear have one method
//! each (extreme rays, optimal design, or the local method; see [`crate::synthesis`]).
//!
//! Representation limits that no choice can move (bit masks of 62 or 63 inputs) stay next
//! to the code they limit.

use serde::{Deserialize, Serialize};

/// Which method solves a linear objective.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum MethodChoice {
    /// The faster method for the problem: the line method under a lone d-privacy constraint
    /// on an equally spaced line (falling back to the others if its gap does not close),
    /// decomposition under a lone LDP constraint (24 inputs or more; when a few rounds do not close its
    /// gap, the LDP interior-point method takes over), the interior point by output column when the
    /// notions are made only of ratio rows with factors above 1 (d-privacy on grids) from 80
    /// inputs on (from 36 with at least 4 symmetries or a warm-starting backend), with lazy rows
    /// when it does not apply or its gap stays open, the tiled method above 1,000 points on a
    /// full grid (d-privacy, costs and budgets that depend only on the displacement), otherwise
    /// one LP.
    #[default]
    Auto,
    /// One LP with every constraint.
    Lp,
    /// One LP with ratio rows added as violated.
    LazyRows,
    /// Decomposition over outputs (column generation).
    Decomposition,
    /// A structured interior-point method over the LDP envelope form (a linear objective
    /// under a lone LDP constraint).
    LdpInteriorPoint,
    /// A structured interior-point method by output column (a linear objective under notions
    /// made only of ratio rows with factors above 1: d-privacy, context-aware LDP, LDP).
    RatioInteriorPoint,
    /// The remapped geometric mechanism certified by exact pricing (a lone d-privacy
    /// constraint on an equally spaced line).
    Line,
    /// A template lattice's optimum carried to a large lattice, with a certified gap (a linear
    /// objective under d-privacy on a full grid of more than 1,000 points whose costs and
    /// factors depend only on the displacement; `auto` picks it there).
    Tiled,
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
            MethodChoice::Line => "line",
            MethodChoice::Tiled => "tiled",
        }
    }
}

/// `auto`'s order for a linear objective (see the module docs and each threshold below).
pub const AUTO_ORDER: [MethodChoice; 7] = [
    MethodChoice::Line,
    MethodChoice::Tiled,
    MethodChoice::Decomposition,
    MethodChoice::LdpInteriorPoint,
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
