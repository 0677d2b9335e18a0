//! When a certified channel counts as optimal.

use serde::Serialize;

/// When a certified channel counts as optimal: its objective is within
/// `absolute + relative * max(|objective|, |bound|)` of a rigorous bound on the optimum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GapTolerance {
    /// Absolute part.
    pub absolute: f64,
    /// Relative part.
    pub relative: f64,
}

impl GapTolerance {
    /// The default: 1e-9 absolute plus 1e-6 relative.
    pub const DEFAULT: GapTolerance = GapTolerance {
        absolute: 1e-9,
        relative: 1e-6,
    };

    /// The magnitude below which the absolute part of the tolerance dominates
    /// (`absolute / relative`, 1e-3 by default; 1 when `relative` is 0): the report's relative
    /// gap divides by at least this, so objectives and bounds near 0 do not show a relative
    /// gap of 100% for a difference far inside the tolerance.
    pub fn relative_floor(&self) -> f64 {
        if self.relative > 0.0 && self.absolute.is_finite() {
            self.absolute / self.relative
        } else {
            1.0
        }
    }

    /// The accepted gap at these values.
    pub fn allowed(&self, objective: f64, bound: f64) -> f64 {
        self.absolute + self.relative * objective.abs().max(bound.abs())
    }
}

impl Default for GapTolerance {
    fn default() -> Self {
        Self::DEFAULT
    }
}
