//! Curves as SVG (plotters' SVG backend, no font library): one line per series, one marker per
//! point whose shape tells its status, log scales for data spanning more than
//! [`LOG_SCALE_DECADES`] decades.

use super::{CurveError, PointStatus, Row};
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// An axis is drawn on a log scale when its positive data span more than this many decades.
pub const LOG_SCALE_DECADES: f64 = 2.0;
/// Padding around the data, as a fraction of the plotted range.
const MARGIN_FRACTION: f64 = 0.05;
/// Marker radius in pixels.
const MARKER_SIZE: i32 = 4;

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Titles and size of a curve plot.
#[derive(Debug, Clone)]
pub struct PlotOptions {
    /// The caption.
    pub title: String,
    /// The x axis label, with units.
    pub x_label: String,
    /// The y axis label.
    pub y_label: String,
    /// Width and height in pixels.
    pub size: (u32, u32),
}

/// Whether positive values spanning more than [`LOG_SCALE_DECADES`] get a log axis.
fn wants_log(values: &[f64]) -> bool {
    let (lo, hi) = min_max(values);
    values.iter().all(|v| *v > 0.0) && lo > 0.0 && (hi / lo).log10() > LOG_SCALE_DECADES
}

fn min_max(values: &[f64]) -> (f64, f64) {
    values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(*v), b.max(*v))
        })
}

fn padded(values: &[f64]) -> std::ops::Range<f64> {
    let (lo, hi) = min_max(values);
    if !(lo.is_finite() && hi.is_finite()) {
        return 0.0..1.0;
    }
    let pad = if hi > lo {
        (hi - lo) * MARGIN_FRACTION
    } else {
        0.5f64.max(lo.abs() * MARGIN_FRACTION)
    };
    (lo - pad)..(hi + pad)
}

fn tick(v: f64, log: bool) -> String {
    let v = if log { 10f64.powf(v) } else { v };
    if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e4) {
        format!("{v:.1e}")
    } else {
        format!("{}", (v * 1e4).round() / 1e4)
    }
}

fn plot_err(e: impl std::fmt::Display) -> CurveError {
    CurveError::Plot {
        what: "curve".into(),
        reason: e.to_string(),
    }
}

/// The series names in order of first appearance.
pub(super) fn series_names(rows: &[Row]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for r in rows {
        if !names.contains(&r.series) {
            names.push(r.series.clone());
        }
    }
    names
}

/// Draw `rows` as an SVG document: a line per series (solid for certified optima, dashed for
/// closed forms), markers by status (filled circle: optimal; hollow circle: feasible; hollow
/// triangle: local optimum; cross: violates a constraint or is no channel; a small filled
/// circle, without a legend entry, for a computed value), and a legend.
pub fn curve_svg(rows: &[Row], options: &PlotOptions) -> Result<String, CurveError> {
    let plotted: Vec<&Row> = rows
        .iter()
        .filter(|r| r.value.is_some_and(f64::is_finite))
        .collect();
    let xs: Vec<f64> = plotted.iter().map(|r| r.x).collect();
    let ys: Vec<f64> = plotted.iter().filter_map(|r| r.value).collect();
    let (log_x, log_y) = (wants_log(&xs), wants_log(&ys));
    let tx = |v: f64| if log_x { v.log10() } else { v };
    let ty = |v: f64| if log_y { v.log10() } else { v };
    let x_range = padded(&xs.iter().map(|v| tx(*v)).collect::<Vec<_>>());
    let y_range = padded(&ys.iter().map(|v| ty(*v)).collect::<Vec<_>>());
    let corner = emptiest_corner(
        &plotted
            .iter()
            .map(|r| (tx(r.x), ty(r.value.unwrap_or_default())))
            .collect::<Vec<_>>(),
        (&x_range, &y_range),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, options.size).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&options.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(75)
            .build_cartesian_2d(x_range, y_range)
            .map_err(plot_err)?;
        let x_desc = if log_x {
            format!("{} [log scale]", options.x_label)
        } else {
            options.x_label.clone()
        };
        let y_desc = if log_y {
            format!("{} [log scale]", options.y_label)
        } else {
            options.y_label.clone()
        };
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc(y_desc)
            .x_label_formatter(&|v| tick(*v, log_x))
            .y_label_formatter(&|v| tick(*v, log_y))
            .max_light_lines(0)
            .draw()
            .map_err(plot_err)?;
        for (i, name) in series_names(rows).iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            let points: Vec<(f64, f64, PointStatus)> = plotted
                .iter()
                .filter(|r| &r.series == name)
                .map(|r| (tx(r.x), ty(r.value.unwrap_or_default()), r.status.clone()))
                .collect();
            let coords: Vec<(f64, f64)> = points.iter().map(|(x, y, _)| (*x, *y)).collect();
            let certified = name.starts_with("optimum");
            let style = color.stroke_width(if certified { 2 } else { 1 });
            let legend_style = style;
            let anno = if certified {
                chart
                    .draw_series(LineSeries::new(coords, style))
                    .map_err(plot_err)?
            } else {
                chart
                    .draw_series(DashedLineSeries::new(coords, 6, 4, style))
                    .map_err(plot_err)?
            };
            anno.label(name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], legend_style));
            chart
                .draw_series(points.iter().map(|(x, y, s)| marker((*x, *y), s, color)))
                .map_err(plot_err)?;
        }
        for (label, status) in [
            ("marker: optimal (certified)", PointStatus::Optimal),
            ("marker: feasible", PointStatus::Feasible),
            ("marker: local optimum", PointStatus::LocalOptimum),
            (
                "marker: violates constraint",
                PointStatus::ViolatesConstraint,
            ),
        ] {
            if !plotted.iter().any(|r| r.status == status) {
                continue;
            }
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(plot_err)?
                .label(label)
                .legend(move |(x, y)| marker((x + 10, y), &status, BLACK));
        }
        chart
            .configure_series_labels()
            .position(corner)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

/// The corner of the plot with the fewest points (upper-right on ties), for the legend.
fn emptiest_corner(
    points: &[(f64, f64)],
    (xr, yr): (&std::ops::Range<f64>, &std::ops::Range<f64>),
) -> SeriesLabelPosition {
    let mid_x = (xr.start + xr.end) / 2.0;
    let mid_y = (yr.start + yr.end) / 2.0;
    let count = |right: bool, upper: bool| {
        points
            .iter()
            .filter(|(x, y)| (*x >= mid_x) == right && (*y >= mid_y) == upper)
            .count()
    };
    [
        (count(true, true), SeriesLabelPosition::UpperRight),
        (count(false, true), SeriesLabelPosition::UpperLeft),
        (count(true, false), SeriesLabelPosition::LowerRight),
        (count(false, false), SeriesLabelPosition::LowerLeft),
    ]
    .into_iter()
    .min_by_key(|(c, _)| *c)
    .map(|(_, p)| p)
    .unwrap_or(SeriesLabelPosition::UpperRight)
}

/// A hollow triangle marker (plotters' `TriangleMarker` is always filled).
struct HollowTriangle<C> {
    at: C,
    style: ShapeStyle,
}

impl<'a, C> PointCollection<'a, C> for &'a HollowTriangle<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<C, DB: DrawingBackend> Drawable<DB> for HollowTriangle<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        if let Some((x, y)) = points.next() {
            let r = MARKER_SIZE + 1;
            backend.draw_path(
                vec![(x, y - r), (x + r, y + r), (x - r, y + r), (x, y - r)],
                &self.style,
            )?;
        }
        Ok(())
    }
}

fn marker<DB: DrawingBackend, C: Clone + 'static>(
    at: C,
    status: &PointStatus,
    color: RGBColor,
) -> DynElement<'static, DB, C> {
    match status {
        PointStatus::Optimal | PointStatus::Computed => {
            Circle::new(at, MARKER_SIZE, color.filled()).into_dyn()
        }
        PointStatus::Feasible => Circle::new(at, MARKER_SIZE, color.stroke_width(1)).into_dyn(),
        PointStatus::LocalOptimum => HollowTriangle {
            at,
            style: color.stroke_width(2),
        }
        .into_dyn(),
        _ => Cross::new(at, MARKER_SIZE, color.stroke_width(2)).into_dyn(),
    }
}
