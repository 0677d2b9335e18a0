//! Curves as SVG: one line per series in a colour-blind-safe (colour, dash) pair and a marker
//! shape of its own ([`super::style`]), markers filled by status, log scales for data spanning
//! more than [`super::LOG_SCALE_DECADES`] decades with 1-2-5 ticks ([`super::axis`]), and the legend
//! right of the plot area ([`super::legend`]).

use super::axis::Scale;
use super::legend::{marker, wrap, Entry, Fill, Legend, COINCIDE_PIXELS};
use super::style::{assign_styles, SeriesKind};
use super::svg::{text_width, Anchor, Stroke, Svg};
use super::{CurveError, PointStatus, Row};

/// Space around the drawing in pixels.
const MARGIN: f64 = 12.0;
/// Title text size in pixels.
const TITLE_SIZE: f64 = 17.0;
/// Axis title text size in pixels.
const LABEL_SIZE: f64 = 14.0;
/// Tick label text size in pixels.
const TICK_SIZE: f64 = 12.0;
/// Smallest gap between two tick labels in pixels.
const TICK_GAP: f64 = 10.0;
/// Gap between the plot area and the legend in pixels.
const LEGEND_GAP: f64 = 16.0;

/// Titles and size of a curve plot.
#[derive(Debug, Clone)]
pub struct PlotOptions {
    /// The caption (wrapped to the width).
    pub title: String,
    /// The x axis label, with units.
    pub x_label: String,
    /// The y axis label.
    pub y_label: String,
    /// Width and height in pixels of the chart (title, axes, plot area); the legend is added
    /// on its right, and the height grows when the legend is taller.
    pub size: (u32, u32),
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

/// The length of one repeat of a dash pattern (`7,4`: 11), 0 for a solid line.
fn dash_length(dash: Option<&str>) -> f64 {
    dash.map_or(0.0, |d| {
        d.split(',')
            .filter_map(|p| p.trim().parse::<f64>().ok())
            .sum()
    })
}

/// The marker fill of a point of a series of kind `kind`.
fn fill_of(status: &PointStatus, kind: SeriesKind) -> Fill {
    match status {
        PointStatus::Optimal => Fill::Filled,
        PointStatus::Computed if kind.is_primary() => Fill::Filled,
        PointStatus::Computed | PointStatus::Feasible => Fill::Hollow,
        PointStatus::LocalOptimum => Fill::Dot,
        _ => Fill::Cross,
    }
}

/// Draw `rows` as an SVG document: a line per series (thick and solid or dash-dotted for
/// certified optima and exact values; thin, dashed or dotted for bounds and closed forms), a
/// marker shape per series filled by status (filled: optimal or an exact value; hollow:
/// feasible or a bound; with a dot: local optimum; crossed: violates a constraint or no
/// channel), and the legend right of the plot area, noting series that coincide.
pub fn curve_svg(rows: &[Row], options: &PlotOptions) -> Result<String, CurveError> {
    let plotted: Vec<&Row> = rows
        .iter()
        .filter(|r| r.value.is_some_and(f64::is_finite))
        .filter(|r| r.x.is_finite())
        .collect();
    let xs: Vec<f64> = plotted.iter().map(|r| r.x).collect();
    let ys: Vec<f64> = plotted.iter().filter_map(|r| r.value).collect();
    let (sx, sy) = (Scale::new(&xs), Scale::new(&ys));
    let (w, h) = (f64::from(options.size.0), f64::from(options.size.1));
    if !(w >= 200.0 && h >= 150.0) {
        return Err(CurveError::invalid(
            "size",
            format!("{}x{}", options.size.0, options.size.1),
            "a plot needs at least 200 x 150 pixels",
        ));
    }
    let title = wrap(&options.title, w - 2.0 * MARGIN, TITLE_SIZE);
    let title_lines = if options.title.trim().is_empty() {
        0
    } else {
        title.len()
    };
    let top = MARGIN + title_lines as f64 * (TITLE_SIZE * 1.3) + 10.0;
    let bottom = h - MARGIN - LABEL_SIZE - 8.0 - TICK_SIZE - 8.0;
    let y_ticks = sy.ticks((bottom, top), |_, _| TICK_SIZE + 4.0);
    let y_tick_width = y_ticks
        .iter()
        .map(|(_, l)| text_width(l, TICK_SIZE))
        .fold(0.0, f64::max);
    let left = MARGIN + LABEL_SIZE + 10.0 + y_tick_width + 8.0;
    let right = w - MARGIN;
    let x_ticks = sx.ticks((left, right), |a, b| {
        (text_width(a, TICK_SIZE) + text_width(b, TICK_SIZE)) / 2.0 + TICK_GAP
    });

    // Series, styles and the legend.
    let names = series_names(rows);
    let kinds: Vec<(String, SeriesKind)> = names
        .iter()
        .map(|name| {
            let all: Vec<&Row> = rows.iter().filter(|r| &r.series == name).collect();
            (name.clone(), SeriesKind::of(name, &all))
        })
        .collect();
    let styles = assign_styles(&kinds);
    let mut series = Vec::new();
    for (name, style) in names.iter().zip(styles) {
        let own: Vec<&Row> = plotted
            .iter()
            .copied()
            .filter(|r| &r.series == name)
            .collect();
        let points: Vec<(f64, f64, Fill)> = own
            .iter()
            .map(|r| {
                (
                    sx.pixel(r.x, (left, right)),
                    sy.pixel(r.value.unwrap_or_default(), (bottom, top)),
                    fill_of(&r.status, style.kind),
                )
            })
            .collect();
        series.push((name, style, points));
    }
    let mut entries = Vec::new();
    let mut coincides = vec![false; series.len()];
    for (i, (name, style, points)) in series.iter().enumerate() {
        let same = |other: &Vec<(f64, f64, Fill)>| {
            !points.is_empty()
                && other.len() == points.len()
                && points.iter().zip(other).all(|(a, b)| {
                    (a.0 - b.0).abs() <= COINCIDE_PIXELS && (a.1 - b.1).abs() <= COINCIDE_PIXELS
                })
        };
        let note = series[..i]
            .iter()
            .find(|(_, _, other)| same(other))
            .map(|(other, _, _)| format!(" (coincides with {other})"))
            .unwrap_or_default();
        coincides[i] = !note.is_empty();
        entries.push(Entry::Series(style.clone(), format!("{name}{note}")));
    }
    for (label, status) in [
        ("filled marker: optimal (certified)", PointStatus::Optimal),
        ("hollow marker: feasible", PointStatus::Feasible),
        ("dotted marker: local optimum", PointStatus::LocalOptimum),
        (
            "crossed marker: violates a constraint",
            PointStatus::ViolatesConstraint,
        ),
    ] {
        if plotted.iter().any(|r| r.status == status) {
            entries.push(Entry::Marker(
                fill_of(&status, SeriesKind::Certified),
                label.into(),
            ));
        }
    }
    let legend = Legend::new(entries);
    let canvas_w = if legend.width > 0.0 {
        w + LEGEND_GAP + legend.width
    } else {
        w
    };
    let canvas_h = h.max(top + legend.height + MARGIN);
    let mut svg = Svg::new(canvas_w, canvas_h);

    for (i, line) in title.iter().enumerate().take(title_lines) {
        let y = MARGIN + TITLE_SIZE + i as f64 * TITLE_SIZE * 1.3;
        svg.text(
            w / 2.0,
            y,
            TITLE_SIZE,
            Anchor::Middle,
            "#000000",
            r#"class="title""#,
            line,
        );
    }
    // Grid, frame, ticks.
    let grid = Stroke::solid("#E4E4E4", 1.0);
    let axis = Stroke::solid("#000000", 1.0);
    for (v, label) in &y_ticks {
        let y = sy.pixel(*v, (bottom, top));
        svg.line((left, y), (right, y), &grid);
        svg.line((left - 5.0, y), (left, y), &axis);
        let extra = r#"class="tick-y""#;
        svg.text(
            left - 8.0,
            y + TICK_SIZE * 0.35,
            TICK_SIZE,
            Anchor::End,
            "#000000",
            extra,
            label,
        );
    }
    for (v, label) in &x_ticks {
        let x = sx.pixel(*v, (left, right));
        svg.line((x, top), (x, bottom), &grid);
        svg.line((x, bottom), (x, bottom + 5.0), &axis);
        let extra = r#"class="tick-x""#;
        svg.text(
            x,
            bottom + 8.0 + TICK_SIZE,
            TICK_SIZE,
            Anchor::Middle,
            "#000000",
            extra,
            label,
        );
    }
    svg.rect(
        left,
        top,
        right - left,
        bottom - top,
        "none",
        Some(&axis),
        "",
    );
    let with_scale = |label: &str, log: bool| {
        if log {
            format!("{label} (log scale)")
        } else {
            label.to_string()
        }
    };
    let x_title = with_scale(&options.x_label, sx.log);
    svg.text(
        (left + right) / 2.0,
        h - MARGIN,
        LABEL_SIZE,
        Anchor::Middle,
        "#000000",
        "",
        &x_title,
    );
    let (cx, cy) = (MARGIN + LABEL_SIZE, (top + bottom) / 2.0);
    let rotate = format!(r#"transform="rotate(-90 {cx} {cy})""#);
    let y_title = with_scale(&options.y_label, sy.log);
    svg.text(
        cx,
        cy,
        LABEL_SIZE,
        Anchor::Middle,
        "#000000",
        &rotate,
        &y_title,
    );

    // Lines: certified optima and exact values first, bounds and closed forms over them (a
    // thin dashed line on a thick solid one leaves both visible); then the markers.
    let mut order: Vec<usize> = (0..series.len()).collect();
    order.sort_by_key(|i| !series[*i].1.kind.is_primary());
    for &i in &order {
        let (name, style, points) = &series[i];
        if points.len() < 2 {
            continue;
        }
        // A line lying on an earlier one: dashes shifted by half their pattern (the two
        // colours alternate), a solid line half as wide (the earlier one borders it).
        let stroke = Stroke {
            colour: style.colour.into(),
            width: if coincides[i] && style.dash.is_none() {
                style.width / 2.0
            } else {
                style.width
            },
            dash: style.dash,
            dash_offset: if coincides[i] {
                dash_length(style.dash) / 2.0
            } else {
                0.0
            },
        };
        let kind = match style.kind {
            SeriesKind::Certified => "certified",
            SeriesKind::Exact => "exact",
            SeriesKind::Bound => "bound",
            SeriesKind::ClosedForm => "closed-form",
        };
        let extra = format!(
            r#"class="series" data-kind="{kind}" data-series="{}""#,
            super::svg::escape(name)
        );
        let xy: Vec<(f64, f64)> = points.iter().map(|(x, y, _)| (*x, *y)).collect();
        svg.polyline(&xy, &stroke, &extra);
    }
    for &i in &order {
        let (name, style, points) = &series[i];
        svg.raw(&format!(
            r#"<g class="markers" data-series="{}">"#,
            super::svg::escape(name)
        ));
        for (x, y, fill) in points {
            marker(&mut svg, (*x, *y), style.shape, style.colour, *fill);
        }
        svg.raw("</g>");
    }
    legend.draw(&mut svg, w + LEGEND_GAP - MARGIN, top);
    Ok(svg.finish())
}
