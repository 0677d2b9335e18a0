//! A small SVG writer for the curve plots and channel heatmaps: every element written with
//! fixed-precision coordinates (the same input gives the same bytes), text in the bundled font
//! family [`FONT_FAMILY`], and text widths measured with that font's advance widths so that
//! layouts can keep labels apart.

use std::fmt::Write as _;

/// The font family every SVG names (DejaVu Sans, bundled in `assets/fonts/` and embedded for
/// PNG rendering), with the generic `sans-serif` as the viewer's fallback.
pub const FONT_FAMILY: &str = "DejaVu Sans, sans-serif";

/// The font's units per em (DejaVu Sans).
const UNITS_PER_EM: f64 = 2048.0;

/// DejaVu Sans' advance widths of the printable ASCII characters (space to tilde), in font
/// units, read from the font's `hmtx` table through its `cmap`.
const ASCII_ADVANCE: [u16; 95] = [
    651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303,
    1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048,
    1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235,
    1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024,
    1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300,
    1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716,
];

/// Advance widths of the non-ASCII characters the plots write (superscripts, signs), in font
/// units; any other character counts as [`WIDE_ADVANCE`].
const OTHER_ADVANCE: [(char, u16); 16] = [
    ('⁰', 821),
    ('¹', 821),
    ('²', 821),
    ('³', 821),
    ('⁴', 821),
    ('⁵', 821),
    ('⁶', 821),
    ('⁷', 821),
    ('⁸', 821),
    ('⁹', 821),
    ('⁻', 1081),
    ('×', 1716),
    ('–', 1024),
    ('…', 2048),
    ('≤', 1716),
    ('≥', 1716),
];

/// The width counted for a character the tables do not hold (a full em).
const WIDE_ADVANCE: u16 = 2048;

/// The width in pixels of `text` at `size` pixels in the bundled font (no kerning: an
/// upper bound within a few percent).
pub fn text_width(text: &str, size: f64) -> f64 {
    let units: u32 = text
        .chars()
        .map(|c| {
            let code = c as u32;
            if (32..127).contains(&code) {
                u32::from(ASCII_ADVANCE[(code - 32) as usize])
            } else {
                u32::from(
                    OTHER_ADVANCE
                        .iter()
                        .find(|(o, _)| *o == c)
                        .map_or(WIDE_ADVANCE, |(_, w)| *w),
                )
            }
        })
        .sum();
    f64::from(units) / UNITS_PER_EM * size
}

/// How a text is placed horizontally at its x coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Anchor {
    Start,
    Middle,
    End,
}

/// An SVG document being written.
pub(super) struct Svg {
    width: f64,
    height: f64,
    body: String,
}

/// A coordinate with one decimal (`-0.0` written as `0`).
fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
}

/// `text` with the XML special characters escaped.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The line style of a stroke: colour, width and dash pattern (`None`: solid).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Stroke {
    pub colour: String,
    pub width: f64,
    pub dash: Option<&'static str>,
    /// Where the dash pattern starts (`stroke-dashoffset`), in pixels.
    pub dash_offset: f64,
}

impl Stroke {
    /// A solid stroke.
    pub fn solid(colour: &str, width: f64) -> Stroke {
        Stroke {
            colour: colour.into(),
            width,
            dash: None,
            dash_offset: 0.0,
        }
    }

    fn attributes(&self) -> String {
        let mut s = format!(
            r#"stroke="{}" stroke-width="{}""#,
            self.colour,
            num(self.width)
        );
        if let Some(d) = self.dash {
            let _ = write!(s, r#" stroke-dasharray="{d}""#);
            if self.dash_offset != 0.0 {
                let _ = write!(s, r#" stroke-dashoffset="{}""#, num(self.dash_offset));
            }
        }
        s
    }
}

impl Svg {
    /// An empty white canvas of `width` x `height` pixels.
    pub fn new(width: f64, height: f64) -> Svg {
        let mut svg = Svg {
            width: width.ceil(),
            height: height.ceil(),
            body: String::new(),
        };
        svg.rect(0.0, 0.0, svg.width, svg.height, "#FFFFFF", None, "");
        svg
    }

    /// Append raw markup (an opening or closing `<g>`).
    pub fn raw(&mut self, markup: &str) {
        self.body.push_str(markup);
        self.body.push('\n');
    }

    /// A text at (x, y) (y is the baseline), `size` pixels, in `fill`; `extra` attributes
    /// (e.g. a rotation) are written as given.
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        anchor: Anchor,
        fill: &str,
        extra: &str,
        text: &str,
    ) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" fill="{fill}"{}{}>{}</text>"#,
            num(x),
            num(y),
            num(size),
            if extra.is_empty() { "" } else { " " },
            extra,
            escape(text)
        );
    }

    /// A rectangle filled with `fill` (`none` for none), optionally stroked; `extra`
    /// attributes are written as given.
    #[allow(clippy::too_many_arguments)]
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        stroke: Option<&Stroke>,
        extra: &str,
    ) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"{}{}{}/>"#,
            num(x),
            num(y),
            num(w),
            num(h),
            stroke
                .map(|s| format!(" {}", s.attributes()))
                .unwrap_or_default(),
            if extra.is_empty() { "" } else { " " },
            extra
        );
    }

    /// A straight line.
    pub fn line(&mut self, (x1, y1): (f64, f64), (x2, y2): (f64, f64), stroke: &Stroke) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {}/>"#,
            num(x1),
            num(y1),
            num(x2),
            num(y2),
            stroke.attributes()
        );
    }

    /// An open polyline (no fill); `extra` attributes (a class, a data attribute) as given.
    pub fn polyline(&mut self, points: &[(f64, f64)], stroke: &Stroke, extra: &str) {
        let pts: Vec<String> = points
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
            .collect();
        let _ = writeln!(
            self.body,
            r#"<polyline fill="none" stroke-linejoin="round" {} {extra} points="{}"/>"#,
            stroke.attributes(),
            pts.join(" ")
        );
    }

    /// A path (`d` in absolute coordinates) filled with `fill` and stroked.
    pub fn path(&mut self, d: &str, fill: &str, stroke: &Stroke) {
        let _ = writeln!(
            self.body,
            r#"<path d="{d}" fill="{fill}" {}/>"#,
            stroke.attributes()
        );
    }

    /// A circle filled with `fill` and stroked.
    pub fn circle(&mut self, (x, y): (f64, f64), r: f64, fill: &str, stroke: &Stroke) {
        let _ = writeln!(
            self.body,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}" {}/>"#,
            num(x),
            num(y),
            num(r),
            stroke.attributes()
        );
    }

    /// The document's text.
    pub fn finish(self) -> String {
        format!(
            "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"{FONT_FAMILY}\">\n{}</svg>\n",
            self.body,
            w = self.width,
            h = self.height,
        )
    }
}

/// A path `d` string through `points`, closed.
pub(super) fn closed_path(points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(
            d,
            "{}{},{} ",
            if i == 0 { "M" } else { "L" },
            num(*x),
            num(*y)
        );
    }
    d.push('Z');
    d
}
