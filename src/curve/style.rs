//! How series look: a colour-blind-safe palette (Okabe and Ito's eight colours) crossed with
//! two dash patterns, so that up to [`DISTINCT_SERIES`] series get distinct (colour, dash)
//! pairs; a marker shape per series, so a line lying under another still shows its markers;
//! and a kind per series, so that bounds and closed forms (thin, dashed, hollow markers) never
//! look like certified optima or exact values (thick, solid, filled markers).

use super::Row;

/// Okabe and Ito's colour-blind-safe palette, yellow last (the palest on white).
pub const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442",
];

/// Dash patterns of certified optima and exact values: solid, then long dashes with dots.
pub const PRIMARY_DASHES: [Option<&str>; 2] = [None, Some("12,3,2,3")];

/// Dash patterns of bounds and closed forms: dashes, then dots.
pub const REFERENCE_DASHES: [Option<&str>; 2] = [Some("7,4"), Some("2,3")];

/// How many series get distinct (colour, dash) pairs; further series repeat them.
pub const DISTINCT_SERIES: usize = PALETTE.len() * PRIMARY_DASHES.len();

/// Line width of certified optima and exact values, in pixels.
pub const PRIMARY_WIDTH: f64 = 2.5;

/// Line width of bounds and closed forms, in pixels.
pub const REFERENCE_WIDTH: f64 = 1.5;

/// What a series is, which sets its style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeriesKind {
    /// A certified optimum (`optimum ...`).
    Certified,
    /// An exact computed value (a sweep's series that is not a bound).
    Exact,
    /// A bound (a series whose name contains `bound`).
    Bound,
    /// A closed form (a registry mechanism).
    ClosedForm,
}

impl SeriesKind {
    /// The kind of the series `name` whose rows are `rows`.
    pub fn of(name: &str, rows: &[&Row]) -> SeriesKind {
        if name.starts_with("optimum") {
            SeriesKind::Certified
        } else if name.to_lowercase().contains("bound") {
            SeriesKind::Bound
        } else if !rows.is_empty()
            && rows
                .iter()
                .all(|r| r.status == super::PointStatus::Computed)
        {
            SeriesKind::Exact
        } else {
            SeriesKind::ClosedForm
        }
    }

    /// Whether the series is drawn in the primary style (thick, solid, filled markers).
    pub fn is_primary(self) -> bool {
        matches!(self, SeriesKind::Certified | SeriesKind::Exact)
    }
}

/// A marker shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A circle.
    Circle,
    /// A square.
    Square,
    /// A diamond.
    Diamond,
    /// A triangle pointing up.
    TriangleUp,
    /// A triangle pointing down.
    TriangleDown,
    /// A triangle pointing right.
    TriangleRight,
    /// A triangle pointing left.
    TriangleLeft,
}

/// The marker shapes, in the order series take them.
pub const SHAPES: [Shape; 7] = [
    Shape::Circle,
    Shape::Square,
    Shape::Diamond,
    Shape::TriangleUp,
    Shape::TriangleDown,
    Shape::TriangleRight,
    Shape::TriangleLeft,
];

/// The look of one series.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesStyle {
    /// The stroke colour (`#RRGGBB`).
    pub colour: &'static str,
    /// The SVG dash pattern (`None`: solid).
    pub dash: Option<&'static str>,
    /// The line width in pixels.
    pub width: f64,
    /// The marker shape.
    pub shape: Shape,
    /// The series' kind.
    pub kind: SeriesKind,
}

/// The style of the `index`-th series (in order of first appearance) of kind `kind`: colour
/// `index mod 8`, dash pattern `index / 8 mod 2` of the kind's two, shape `index mod 7`.
pub fn series_style(index: usize, kind: SeriesKind) -> SeriesStyle {
    let variant = (index / PALETTE.len()) % PRIMARY_DASHES.len();
    let (dash, width) = if kind.is_primary() {
        (PRIMARY_DASHES[variant], PRIMARY_WIDTH)
    } else {
        (REFERENCE_DASHES[variant], REFERENCE_WIDTH)
    };
    SeriesStyle {
        colour: PALETTE[index % PALETTE.len()],
        dash,
        width,
        shape: SHAPES[index % SHAPES.len()],
        kind,
    }
}

/// The group of a series for its colour: the text before its last `": "` (a sweep's
/// `--series-over` label, so that `P1: lip exact` and `P1: lip bound` share a colour), else
/// the whole name.
fn group_of(name: &str) -> &str {
    name.rsplit_once(": ").map_or(name, |(g, _)| g)
}

/// The styles of `series` (name and kind, in order of first appearance). Series of one group
/// (the text before the last `": "` of their names) share a colour and differ by dash pattern, when that keeps every (colour,
/// dash) pair distinct; otherwise, and past the palette, each series takes
/// [`series_style`] of its index. Marker shapes go by index.
pub fn assign_styles(series: &[(String, SeriesKind)]) -> Vec<SeriesStyle> {
    let by_index: Vec<SeriesStyle> = series
        .iter()
        .enumerate()
        .map(|(i, (_, k))| series_style(i, *k))
        .collect();
    let mut groups: Vec<&str> = Vec::new();
    let mut grouped = Vec::with_capacity(series.len());
    for (i, (name, kind)) in series.iter().enumerate() {
        let g = group_of(name);
        let gi = groups.iter().position(|x| *x == g).unwrap_or_else(|| {
            groups.push(g);
            groups.len() - 1
        });
        // The how-many-th series of this kind in its group.
        let k = series[..i]
            .iter()
            .filter(|(n, k2)| group_of(n) == g && k2.is_primary() == kind.is_primary())
            .count();
        let mut style = series_style(gi, *kind);
        let dashes = if kind.is_primary() {
            PRIMARY_DASHES
        } else {
            REFERENCE_DASHES
        };
        style.dash = dashes[k % dashes.len()];
        style.shape = SHAPES[i % SHAPES.len()];
        grouped.push(style);
    }
    let pairs: Vec<(&str, Option<&str>)> = grouped.iter().map(|s| (s.colour, s.dash)).collect();
    let distinct = pairs
        .iter()
        .enumerate()
        .all(|(i, p)| !pairs[..i].contains(p));
    if groups.len() <= PALETTE.len() && distinct && groups.len() < series.len() {
        grouped
    } else {
        by_index
    }
}
