//! Markers and the legend of a curve plot: the legend lies right of the plot area (it never
//! covers data), one entry per series drawn with its line, dash and marker, long names
//! wrapped, and a note on a series whose points all coincide with an earlier one's.

use super::style::{SeriesStyle, Shape};
use super::svg::{closed_path, text_width, Anchor, Stroke, Svg};

/// Marker radius in pixels.
pub(super) const MARKER_RADIUS: f64 = 4.5;
/// Legend text size in pixels.
const LEGEND_SIZE: f64 = 12.0;
/// Height of one legend text line in pixels.
const LEGEND_LINE: f64 = 15.0;
/// Width of a legend entry's line sample in pixels.
const SWATCH: f64 = 40.0;
/// Widest legend text in pixels before it wraps.
const LEGEND_TEXT_MAX: f64 = 300.0;
/// Padding inside the legend box in pixels.
const PAD: f64 = 8.0;
/// Two series coincide when every point of the later lies within this many pixels of the
/// earlier one's point at the same x.
pub(super) const COINCIDE_PIXELS: f64 = 1.0;

/// How a marker is filled: it tells the point's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill {
    /// Filled: a certified optimum or an exact value.
    Filled,
    /// Hollow: feasible, or a bound.
    Hollow,
    /// Hollow with a dot: a local optimum.
    Dot,
    /// Hollow and crossed: violates a constraint, or no channel.
    Cross,
}

/// Draw a marker of `shape` at `at`.
pub(super) fn marker(svg: &mut Svg, at: (f64, f64), shape: Shape, colour: &str, fill: Fill) {
    let (x, y) = at;
    let r = MARKER_RADIUS;
    let stroke = Stroke::solid(colour, 1.5);
    let inside = if fill == Fill::Filled {
        colour
    } else {
        "#FFFFFF"
    };
    let t = r * 1.25;
    let points: Vec<(f64, f64)> = match shape {
        Shape::Circle => Vec::new(),
        Shape::Square => {
            let s = r * 0.9;
            vec![
                (x - s, y - s),
                (x + s, y - s),
                (x + s, y + s),
                (x - s, y + s),
            ]
        }
        Shape::Diamond => vec![(x, y - t), (x + t, y), (x, y + t), (x - t, y)],
        Shape::TriangleUp => vec![(x, y - t), (x + t, y + r * 0.8), (x - t, y + r * 0.8)],
        Shape::TriangleDown => vec![(x, y + t), (x + t, y - r * 0.8), (x - t, y - r * 0.8)],
        Shape::TriangleRight => vec![(x + t, y), (x - r * 0.8, y - t), (x - r * 0.8, y + t)],
        Shape::TriangleLeft => vec![(x - t, y), (x + r * 0.8, y - t), (x + r * 0.8, y + t)],
    };
    if points.is_empty() {
        svg.circle(at, r, inside, &stroke);
    } else {
        svg.path(&closed_path(&points), inside, &stroke);
    }
    match fill {
        Fill::Dot => svg.circle(at, 1.5, colour, &Stroke::solid(colour, 0.5)),
        Fill::Cross => {
            let c = r * 1.4;
            let s = Stroke::solid(colour, 1.5);
            svg.line((x - c, y - c), (x + c, y + c), &s);
            svg.line((x - c, y + c), (x + c, y - c), &s);
        }
        _ => {}
    }
}

/// One legend entry: a series (its style) or a marker explanation (shape and fill in black).
pub(super) enum Entry {
    /// A series with its name (and note).
    Series(SeriesStyle, String),
    /// A marker meaning.
    Marker(Fill, String),
}

/// `text` split into lines of at most `max` pixels at `size` (a longer word stays whole).
pub(super) fn wrap(text: &str, max: f64, size: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && text_width(&candidate, size) > max {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The legend's entries laid out: its size and each entry's lines.
pub(super) struct Legend {
    entries: Vec<(Entry, Vec<String>)>,
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
}

impl Legend {
    /// Lay out `entries` (an empty legend has size zero).
    pub fn new(entries: Vec<Entry>) -> Legend {
        let entries: Vec<(Entry, Vec<String>)> = entries
            .into_iter()
            .map(|e| {
                let text = match &e {
                    Entry::Series(_, t) | Entry::Marker(_, t) => t.clone(),
                };
                let lines = wrap(&text, LEGEND_TEXT_MAX, LEGEND_SIZE);
                (e, lines)
            })
            .collect();
        if entries.is_empty() {
            return Legend {
                entries,
                width: 0.0,
                height: 0.0,
            };
        }
        let text = entries
            .iter()
            .flat_map(|(_, lines)| lines.iter())
            .map(|l| text_width(l, LEGEND_SIZE))
            .fold(0.0, f64::max);
        let lines: usize = entries.iter().map(|(_, l)| l.len()).sum();
        Legend {
            width: 2.0 * PAD + SWATCH + 8.0 + text,
            height: 2.0 * PAD + lines as f64 * LEGEND_LINE + 4.0 * (entries.len() - 1) as f64,
            entries,
        }
    }

    /// Draw the legend with its top left corner at (x, y).
    pub fn draw(&self, svg: &mut Svg, x: f64, y: f64) {
        if self.entries.is_empty() {
            return;
        }
        svg.raw(r#"<g class="legend">"#);
        svg.rect(
            x,
            y,
            self.width,
            self.height,
            "#FFFFFF",
            Some(&Stroke::solid("#808080", 1.0)),
            "",
        );
        let mut top = y + PAD;
        for (entry, lines) in &self.entries {
            let mid = top + LEGEND_LINE / 2.0;
            let (sx, tx) = (x + PAD, x + PAD + SWATCH + 8.0);
            match entry {
                Entry::Series(style, _) => {
                    let stroke = Stroke {
                        colour: style.colour.into(),
                        width: style.width,
                        dash: style.dash,
                        dash_offset: 0.0,
                    };
                    svg.line((sx, mid), (sx + SWATCH, mid), &stroke);
                    let fill = if style.kind.is_primary() {
                        Fill::Filled
                    } else {
                        Fill::Hollow
                    };
                    marker(
                        svg,
                        (sx + SWATCH / 2.0, mid),
                        style.shape,
                        style.colour,
                        fill,
                    );
                }
                Entry::Marker(fill, _) => {
                    marker(
                        svg,
                        (sx + SWATCH / 2.0, mid),
                        Shape::Circle,
                        "#000000",
                        *fill,
                    );
                }
            }
            for (i, line) in lines.iter().enumerate() {
                let base = top + LEGEND_LINE * (i as f64) + LEGEND_LINE * 0.75;
                svg.text(tx, base, LEGEND_SIZE, Anchor::Start, "#000000", "", line);
            }
            top += LEGEND_LINE * lines.len() as f64 + 4.0;
        }
        svg.raw("</g>");
    }
}
