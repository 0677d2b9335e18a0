//! The colour scale of a heatmap: ColorBrewer's sequential `Blues` (colour-blind safe),
//! linear from 0 or logarithmic over the entries' top decades, and its colour bar.

use super::svg::{Anchor, Stroke, Svg};
use super::ticks::{linear_candidates, linear_label, log_candidates, log_label};

/// The colour scale is logarithmic when the positive entries span more than this many
/// decades (largest over smallest positive entry above 10^3); zeros stay white.
pub const LOG_COLOUR_DECADES: f64 = 3.0;
/// A log colour scale covers at most this many decades below the largest entry; smaller
/// positive entries get its lightest colour.
const LOG_COLOUR_FLOOR_DECADES: f64 = 6.0;
/// Label text size in pixels.
const LABEL_SIZE: f64 = 11.0;
/// Smallest gap between two labels in pixels.
const LABEL_GAP: f64 = 4.0;
/// The colour bar's width, height and number of bands.
pub(super) const BAR_WIDTH: f64 = 16.0;
pub(super) const BAR_HEIGHT: f64 = 200.0;
const BAR_STEPS: usize = 64;

/// ColorBrewer's sequential `Blues` (colour-blind safe), light to dark.
const BLUES: [(u8, u8, u8); 9] = [
    (247, 251, 255),
    (222, 235, 247),
    (198, 219, 239),
    (158, 202, 225),
    (107, 174, 214),
    (66, 146, 198),
    (33, 113, 181),
    (8, 81, 156),
    (8, 48, 107),
];

/// The colour of `fraction` (0: lightest, 1: darkest) of the scale.
fn shade(fraction: f64) -> String {
    let f = fraction.clamp(0.0, 1.0) * (BLUES.len() - 1) as f64;
    let i = (f.floor() as usize).min(BLUES.len() - 2);
    let t = f - i as f64;
    let (a, b) = (BLUES[i], BLUES[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * t).round() as u8;
    format!(
        "#{:02X}{:02X}{:02X}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// The colour scale: linear from 0 to the largest entry, or logarithmic over its top decades.
pub(super) struct ColourScale {
    /// Whether the scale is logarithmic.
    pub log: bool,
    lo: f64,
    hi: f64,
}

impl ColourScale {
    pub fn of(values: &[f64]) -> ColourScale {
        let hi = values
            .iter()
            .copied()
            .fold(0.0, f64::max)
            .max(f64::MIN_POSITIVE);
        let min_pos = values
            .iter()
            .copied()
            .filter(|v| *v > 0.0)
            .fold(hi, f64::min);
        if (hi / min_pos).log10() > LOG_COLOUR_DECADES {
            let lo = min_pos.max(hi * 10f64.powf(-LOG_COLOUR_FLOOR_DECADES));
            ColourScale { log: true, lo, hi }
        } else {
            ColourScale {
                log: false,
                lo: 0.0,
                hi,
            }
        }
    }

    /// Where `v` lies on the scale (0 to 1).
    pub fn fraction(&self, v: f64) -> f64 {
        if self.log {
            ((v.max(self.lo) / self.lo).log10() / (self.hi / self.lo).log10()).clamp(0.0, 1.0)
        } else {
            (v / self.hi).clamp(0.0, 1.0)
        }
    }

    pub fn colour(&self, v: f64) -> String {
        if v <= 0.0 {
            "#FFFFFF".into()
        } else {
            shade(self.fraction(v))
        }
    }

    /// The labelled ticks of the bar, as many as fit in `height` pixels.
    pub fn ticks(&self, height: f64) -> Vec<(f64, String)> {
        let sets: Vec<Vec<(f64, String)>> = if self.log {
            log_candidates(self.lo, self.hi)
                .into_iter()
                .map(|t| t.into_iter().map(|v| (v, log_label(v))).collect())
                .collect()
        } else {
            linear_candidates(0.0, self.hi)
                .into_iter()
                .map(|(t, s)| t.into_iter().map(|v| (v, linear_label(v, s))).collect())
                .collect()
        };
        let fits = |t: &Vec<(f64, String)>| {
            t.windows(2).all(|w| {
                (self.fraction(w[1].0) - self.fraction(w[0].0)) * height >= LABEL_SIZE + LABEL_GAP
            })
        };
        sets.iter()
            .find(|t| fits(t) && t.len() >= 2)
            .or(sets.last())
            .cloned()
            .unwrap_or_default()
    }
}

/// The colour bar: bands from the lightest (bottom) to the darkest (top), labelled ticks on
/// its right, its caption above it and, on a log scale, the white swatch of zero below it.
pub(super) fn draw_bar(svg: &mut Svg, scale: &ColourScale, (x, top): (f64, f64), caption: &str) {
    let kind = if scale.log { "log" } else { "linear" };
    svg.raw(&format!(
        r#"<g id="colour-scale" class="colour-scale" data-scale="{kind}">"#
    ));
    svg.text(
        x,
        top - 8.0,
        LABEL_SIZE,
        Anchor::Start,
        "#000000",
        "",
        caption,
    );
    let band = BAR_HEIGHT / BAR_STEPS as f64;
    for k in 0..BAR_STEPS {
        let f = (k as f64 + 0.5) / BAR_STEPS as f64;
        let y = top + BAR_HEIGHT - band * (k as f64 + 1.0);
        svg.rect(x, y, BAR_WIDTH, band + 0.2, &shade(f), None, "");
    }
    let frame = Stroke::solid("#000000", 1.0);
    svg.rect(x, top, BAR_WIDTH, BAR_HEIGHT, "none", Some(&frame), "");
    for (v, label) in scale.ticks(BAR_HEIGHT) {
        let y = top + BAR_HEIGHT * (1.0 - scale.fraction(v));
        svg.line((x + BAR_WIDTH, y), (x + BAR_WIDTH + 4.0, y), &frame);
        let base = y + LABEL_SIZE * 0.35;
        svg.text(
            x + BAR_WIDTH + 6.0,
            base,
            LABEL_SIZE,
            Anchor::Start,
            "#000000",
            r#"class="scale-label""#,
            &label,
        );
    }
    if scale.log {
        let y = top + BAR_HEIGHT + 12.0;
        svg.rect(x, y, BAR_WIDTH, 12.0, "#FFFFFF", Some(&frame), "");
        svg.text(
            x + BAR_WIDTH + 6.0,
            y + 6.0 + LABEL_SIZE * 0.35,
            LABEL_SIZE,
            Anchor::Start,
            "#000000",
            r#"class="scale-label""#,
            "0",
        );
    }
    svg.raw("</g>");
}
