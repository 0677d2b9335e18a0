//! A channel as a heatmap: one cell per (input, output), darker for larger probabilities,
//! with row and column labels.

use super::CurveError;
use plotters::prelude::*;

/// Cell size in pixels.
const CELL: i32 = 36;
/// Space for labels on the left and at the top.
const LABEL_SPACE: i32 = 90;
/// Channels with at most this many outputs get each cell's value written in it.
const MAX_ANNOTATED_OUTPUTS: usize = 16;
/// A cell counts as dark (white text) above this fraction of the largest entry.
const DARK_FRACTION: f64 = 0.55;

fn plot_err(e: impl std::fmt::Display) -> CurveError {
    CurveError::Plot {
        what: "channel heatmap".into(),
        reason: e.to_string(),
    }
}

fn shade(fraction: f64) -> RGBColor {
    let f = fraction.clamp(0.0, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    RGBColor(mix(255.0, 8.0), mix(255.0, 48.0), mix(255.0, 107.0))
}

/// The channel `rows` (inputs x outputs) as an SVG heatmap with `row_labels` (inputs, P(Y|X)
/// rows) and `column_labels` (outputs); shading is relative to the largest entry.
pub fn channel_svg(
    rows: &[Vec<f64>],
    row_labels: &[String],
    column_labels: &[String],
    title: &str,
) -> Result<String, CurveError> {
    let n = rows.len();
    let m = rows.first().map_or(0, Vec::len);
    if n == 0
        || m == 0
        || rows.iter().any(|r| r.len() != m)
        || row_labels.len() != n
        || column_labels.len() != m
    {
        return Err(CurveError::Plot {
            what: "channel heatmap".into(),
            reason: "the channel and its labels disagree in shape".into(),
        });
    }
    let max = rows
        .iter()
        .flatten()
        .copied()
        .fold(0.0, f64::max)
        .max(f64::MIN_POSITIVE);
    let width = (LABEL_SPACE + CELL * m as i32 + 20) as u32;
    let height = (LABEL_SPACE + CELL * n as i32 + 40) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width.max(320), height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        root.draw(&Text::new(title.to_string(), (10, 10), ("sans-serif", 16)))
            .map_err(plot_err)?;
        root.draw(&Text::new(
            "rows: input x; columns: output y; cell: P(Y = y | X = x)".to_string(),
            (10, 32),
            ("sans-serif", 12),
        ))
        .map_err(plot_err)?;
        let label_style = ("sans-serif", 11).into_font();
        for (j, l) in column_labels.iter().enumerate() {
            let x = LABEL_SPACE + CELL * j as i32 + 4;
            root.draw(&Text::new(
                l.clone(),
                (x, LABEL_SPACE - 16),
                label_style.clone(),
            ))
            .map_err(plot_err)?;
        }
        for (i, row) in rows.iter().enumerate() {
            let y = LABEL_SPACE + CELL * i as i32;
            root.draw(&Text::new(
                row_labels[i].clone(),
                (8, y + CELL / 2 - 6),
                label_style.clone(),
            ))
            .map_err(plot_err)?;
            for (j, &v) in row.iter().enumerate() {
                let x = LABEL_SPACE + CELL * j as i32;
                let f = v / max;
                root.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    shade(f).filled(),
                ))
                .map_err(plot_err)?;
                root.draw(&Rectangle::new(
                    [(x, y), (x + CELL, y + CELL)],
                    RGBColor(200, 200, 200).stroke_width(1),
                ))
                .map_err(plot_err)?;
                if m <= MAX_ANNOTATED_OUTPUTS {
                    let color = if f > DARK_FRACTION { WHITE } else { BLACK };
                    let text = format!("{:.2}", v);
                    root.draw(&Text::new(
                        text,
                        (x + 4, y + CELL / 2 - 5),
                        ("sans-serif", 10).into_font().color(&color),
                    ))
                    .map_err(plot_err)?;
                }
            }
        }
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}
