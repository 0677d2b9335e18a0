//! Curves: a problem solved over a grid of one parameter (epsilon, the domain size, the prior
//! of a binary domain, or the number of users), with several series per point (the certified
//! optimum under the file's notion and under other notions, and the registry's closed forms),
//! each point carrying its status; written as CSV, drawn as SVG and rendered as PNG.

mod axis;
mod colour_scale;
mod csv;
mod figures;
mod grid;
mod heatmap;
mod legend;
mod plot;
mod png;
mod run;
mod series;
mod shard;
mod spec;
mod style;
mod svg;
mod ticks;

pub use axis::LOG_SCALE_DECADES;
pub use colour_scale::LOG_COLOUR_DECADES;
pub use csv::{csv_line, csv_number, parse_csv, to_csv, CSV_HEADER};
pub use figures::{figure_manifests, retain_mechanisms, run_figure, FigureOutput, FIGURE_SIZE};
pub use grid::{Axis, Grid, MAX_GRID_POINTS};
pub use heatmap::{channel_svg, AGGREGATE_ABOVE_OUTPUTS};
pub use plot::{curve_svg, PlotOptions};
pub use png::{svg_to_png, FONT_NAME, MAX_PNG_PIXELS};
pub use run::{apply_axis, check_reproduces, run_curve, CurveOptions, CurveResult, PointSink};
pub use series::{
    check_resumable, Compare, PointStatus, Row, Series, SeriesSource, TIME_LIMIT_NOTE,
};
pub use shard::{
    curve_fingerprint, merge_shards, parse_shard_csv, shard_csv, Shard, ShardHeader, SHARD_PREFIX,
};
pub use spec::{load_curve_file, CurveFile, CurveSpec, GridValue};
pub use style::{
    assign_styles, series_style, SeriesKind, SeriesStyle, Shape, DISTINCT_SERIES, PALETTE,
    PRIMARY_DASHES, PRIMARY_WIDTH, REFERENCE_DASHES, REFERENCE_WIDTH, SHAPES,
};
pub use svg::{text_width, FONT_FAMILY};
pub use ticks::{log_label, PLAIN_EXPONENTS};

/// Everything that can go wrong when building, running or drawing a curve.
#[derive(Debug, thiserror::Error)]
pub enum CurveError {
    /// A grid, axis or series specification is malformed; `key` names the flag or file key.
    #[error("invalid `{key}` = {value}: {reason}")]
    Invalid {
        /// The flag or key.
        key: String,
        /// The offending value.
        value: String,
        /// Why it is rejected.
        reason: String,
    },
    /// The problem file (or the problem at one grid point) is invalid.
    #[error(transparent)]
    Problem(#[from] crate::ProblemError),
    /// A CSV to resume from cannot be read.
    #[error("cannot resume from {path}: {reason}")]
    Resume {
        /// The CSV.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// Drawing failed.
    #[error("cannot draw {what}: {reason}")]
    Plot {
        /// What was drawn.
        what: String,
        /// The drawing backend's message.
        reason: String,
    },
}

impl CurveError {
    /// An [`CurveError::Invalid`] naming `key`, `value` and the reason.
    pub fn invalid(
        key: impl Into<String>,
        value: impl ToString,
        reason: impl Into<String>,
    ) -> Self {
        CurveError::Invalid {
            key: key.into(),
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}
