//! A channel as a heatmap: one cell per (input, output) in a sequential colour-blind-safe
//! scale, linear or logarithmic by the data's span ([`super::LOG_COLOUR_DECADES`]), a colour bar with
//! labelled ticks, row and column labels thinned to what fits, and, above
//! [`AGGREGATE_ABOVE_OUTPUTS`] outputs, blocks of consecutive outputs instead of single ones.

use super::colour_scale::{draw_bar, ColourScale, BAR_HEIGHT, BAR_WIDTH};
use super::legend::wrap;
use super::svg::{text_width, Anchor, Stroke, Svg};
use super::CurveError;

/// Channels with more outputs than this are drawn by blocks of consecutive outputs.
pub const AGGREGATE_ABOVE_OUTPUTS: usize = 40;
/// The number of blocks an aggregated channel is drawn with (at most).
const AGGREGATED_COLUMNS: usize = 30;
/// Channels with at most this many outputs get each cell's value written in it.
const MAX_ANNOTATED_OUTPUTS: usize = 16;
/// Largest cell side, and the grid's largest width and height, in pixels.
const MAX_CELL: f64 = 36.0;
const MAX_GRID: f64 = 900.0;
/// Smallest cell side in pixels.
const MIN_CELL: f64 = 3.0;
/// Label text size in pixels.
const LABEL_SIZE: f64 = 11.0;
/// Smallest gap between two labels in pixels.
const LABEL_GAP: f64 = 4.0;
/// Widest row label in pixels (longer ones end with `…`).
const ROW_LABEL_MAX: f64 = 240.0;
/// A cell counts as dark (white text) above this fraction of the scale.
const DARK_FRACTION: f64 = 0.55;
/// Space around the drawing in pixels.
const MARGIN: f64 = 10.0;
fn plot_err(reason: &str) -> CurveError {
    CurveError::Plot {
        what: "channel heatmap".into(),
        reason: reason.into(),
    }
}

/// The smallest step k such that every k-th label, `room` pixels apart per step, fits.
fn label_step(labels: &[String], room: f64, need: impl Fn(&str) -> f64) -> usize {
    let widest = labels.iter().map(|l| need(l)).fold(0.0, f64::max);
    ((widest + LABEL_GAP) / room).ceil().max(1.0) as usize
}

/// `label` shortened with `…` to at most `max` pixels.
fn fit_label(label: &str, max: f64) -> String {
    if text_width(label, LABEL_SIZE) <= max {
        return label.to_string();
    }
    let mut s: String = label.to_string();
    while !s.is_empty() && text_width(&format!("{s}…"), LABEL_SIZE) > max {
        s.pop();
    }
    format!("{s}…")
}

/// The channel `rows` (inputs x outputs) as an SVG heatmap with `row_labels` (inputs, P(Y|X)
/// rows) and `column_labels` (outputs). Above [`AGGREGATE_ABOVE_OUTPUTS`] outputs each column
/// is a block of consecutive outputs and its cell their total probability (the picture says
/// so). The colour bar's scale is logarithmic when the positive entries span more than
/// [`super::LOG_COLOUR_DECADES`] decades, else linear from 0.
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
        return Err(plot_err("the channel and its labels disagree in shape"));
    }
    if rows.iter().flatten().any(|v| !v.is_finite()) {
        return Err(plot_err(
            "the channel has an entry that is not a finite number",
        ));
    }
    // Columns: single outputs, or blocks of `block` consecutive outputs.
    let block = if m > AGGREGATE_ABOVE_OUTPUTS {
        m.div_ceil(AGGREGATED_COLUMNS)
    } else {
        1
    };
    let cols = m.div_ceil(block);
    let cells: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| r.chunks(block).map(|c| c.iter().sum()).collect())
        .collect();
    let labels: Vec<String> = column_labels
        .chunks(block)
        .map(|c| match c {
            [one] => one.clone(),
            _ => format!("{}–{}", c[0], c[c.len() - 1]),
        })
        .collect();
    let scale = ColourScale::of(&cells.iter().flatten().copied().collect::<Vec<_>>());
    let cell_w = (MAX_GRID / cols as f64).clamp(MIN_CELL, MAX_CELL);
    let cell_h = (MAX_GRID / n as f64).clamp(MIN_CELL, MAX_CELL);
    let col_step = label_step(&labels, cell_w, |l| text_width(l, LABEL_SIZE));
    let row_step = ((LABEL_SIZE + LABEL_GAP) / cell_h).ceil().max(1.0) as usize;
    let shown_rows: Vec<String> = row_labels
        .iter()
        .map(|l| fit_label(l, ROW_LABEL_MAX))
        .collect();
    let row_space = shown_rows
        .iter()
        .step_by(row_step)
        .map(|l| text_width(l, LABEL_SIZE))
        .fold(0.0, f64::max);
    let caption = if block == 1 {
        "rows: input x; columns: output y; cell: P(Y = y | X = x)".to_string()
    } else {
        format!(
            "rows: input x; columns: blocks of {block} consecutive outputs ({m} outputs in {cols} blocks); cell: P(Y in block | X = x), the block's total"
        )
    };
    // Horizontal layout.
    let grid_left = MARGIN + row_space + 8.0;
    let grid_right = grid_left + cell_w * cols as f64;
    let overhang = labels
        .iter()
        .step_by(col_step)
        .next_back()
        .map_or(0.0, |l| (text_width(l, LABEL_SIZE) - cell_w).max(0.0) / 2.0);
    let bar_x = grid_right + overhang + 24.0;
    let bar_ticks_w = scale
        .ticks(BAR_HEIGHT)
        .iter()
        .map(|(_, l)| text_width(l, LABEL_SIZE))
        .fold(0.0, f64::max);
    let bar_caption = if scale.log { "P (log scale)" } else { "P" };
    let min_width = bar_x
        + (BAR_WIDTH + 6.0 + bar_ticks_w).max(text_width(bar_caption, LABEL_SIZE))
        + 2.0 * MARGIN;
    let width = min_width.max(text_width(&caption, 12.0).min(900.0) + 2.0 * MARGIN);
    // Vertical layout.
    let title_lines = wrap(title, width - 2.0 * MARGIN, 16.0);
    let caption_lines = wrap(&caption, width - 2.0 * MARGIN, 12.0);
    let mut y = MARGIN;
    let mut svg_texts: Vec<(f64, f64, f64, String)> = Vec::new();
    for l in &title_lines {
        y += 19.0;
        svg_texts.push((MARGIN, y, 16.0, l.clone()));
    }
    for l in &caption_lines {
        y += 15.0;
        svg_texts.push((MARGIN, y, 12.0, l.clone()));
    }
    let col_label_y = y + 8.0 + LABEL_SIZE;
    let grid_top = col_label_y + 8.0;
    let grid_bottom = grid_top + cell_h * n as f64;
    let bar_h = BAR_HEIGHT;
    let height = grid_bottom.max(grid_top + bar_h + if scale.log { 40.0 } else { 10.0 }) + MARGIN;

    let mut svg = Svg::new(width, height);
    for (x, y, size, text) in &svg_texts {
        svg.text(*x, *y, *size, Anchor::Start, "#000000", "", text);
    }
    for (j, l) in labels.iter().enumerate().step_by(col_step) {
        let x = grid_left + cell_w * (j as f64 + 0.5);
        svg.text(
            x,
            col_label_y,
            LABEL_SIZE,
            Anchor::Middle,
            "#000000",
            r#"class="column-label""#,
            l,
        );
    }
    let annotate = m <= MAX_ANNOTATED_OUTPUTS && cell_w >= 28.0 && cell_h >= 16.0;
    let border = Stroke::solid("#C8C8C8", 0.5);
    for (i, row) in cells.iter().enumerate() {
        let top = grid_top + cell_h * i as f64;
        if i % row_step == 0 {
            let base = top + cell_h / 2.0 + LABEL_SIZE * 0.35;
            svg.text(
                grid_left - 6.0,
                base,
                LABEL_SIZE,
                Anchor::End,
                "#000000",
                r#"class="row-label""#,
                &shown_rows[i],
            );
        }
        for (j, &v) in row.iter().enumerate() {
            let x = grid_left + cell_w * j as f64;
            let edge = (cell_w >= 8.0 && cell_h >= 8.0).then_some(&border);
            svg.rect(x, top, cell_w, cell_h, &scale.colour(v), edge, "");
            if annotate {
                let colour = if v > 0.0 && scale.fraction(v) > DARK_FRACTION {
                    "#FFFFFF"
                } else {
                    "#000000"
                };
                let (cx, cy) = (x + cell_w / 2.0, top + cell_h / 2.0 + 3.5);
                svg.text(cx, cy, 10.0, Anchor::Middle, colour, "", &format!("{v:.2}"));
            }
        }
    }
    svg.rect(
        grid_left,
        grid_top,
        grid_right - grid_left,
        grid_bottom - grid_top,
        "none",
        Some(&Stroke::solid("#000000", 1.0)),
        "",
    );
    draw_bar(&mut svg, &scale, (bar_x, grid_top), bar_caption);
    Ok(svg.finish())
}
