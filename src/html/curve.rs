//! The page of `curve`: the drawing, the data table (numbers as the CSV writes them), the
//! statuses, and the problem.

use super::page::Page;
use super::{Cell, Provenance, Source};
use crate::curve::{csv_number, PointStatus, Row};
use std::collections::BTreeMap;

/// What one `curve` run made, for its page.
#[derive(Debug, Clone, Copy)]
pub struct CurveInputs<'a> {
    /// The plot's title.
    pub title: &'a str,
    /// The grid's axis, as the plot labels it.
    pub axis: &'a str,
    /// The problem file as given.
    pub problem: &'a Source,
    /// Every row of the CSV, in its order.
    pub rows: &'a [Row],
    /// The curve as [`crate::curve::curve_svg`] draws it (absent when it could not be drawn).
    pub svg: Option<&'a str>,
    /// Grid points the overall time limit left out.
    pub left_out: usize,
}

fn cell(v: Option<f64>) -> Cell {
    v.map_or(Cell::Empty, |v| Cell::Number(csv_number(Some(v))))
}

/// The page of a curve, `provenance` the command.
pub fn curve_page(curve: &CurveInputs, provenance: &Provenance) -> String {
    let mut page = Page::new(&format!("mechsynth curve: {}", curve.title));
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for r in curve.rows {
        *statuses.entry(r.status.to_string()).or_default() += 1;
    }
    let no_channel = curve
        .rows
        .iter()
        .any(|r| matches!(r.status, PointStatus::NoChannel(_)));
    let tally: Vec<String> = statuses.iter().map(|(s, n)| format!("{n} {s}")).collect();
    let good = if curve.left_out > 0 || no_channel {
        None
    } else {
        Some(true)
    };
    page.status(
        &format!("{} rows: {}", curve.rows.len(), tally.join(", ")),
        good,
    );
    if curve.left_out > 0 {
        page.paragraph(&format!(
            "The time limit left {} grid point(s) out.",
            curve.left_out
        ));
    }
    page.section("Curve");
    match curve.svg {
        Some(svg) => page.figure(svg, &format!("Each series' value over {}.", curve.axis)),
        None => page.paragraph("(no drawing)"),
    }
    page.section("Data");
    page.paragraph("The rows of the CSV, numbers as it writes them (full precision).");
    let rows: Vec<Vec<Cell>> = curve
        .rows
        .iter()
        .map(|r| {
            vec![
                Cell::text(&r.series),
                cell(Some(r.x)),
                cell(r.value),
                Cell::text(r.status.to_string()),
                cell(r.bound),
                cell(r.leakage),
                Cell::text(&r.notes),
            ]
        })
        .collect();
    page.table(
        &[
            "series", curve.axis, "value", "status", "bound", "leakage", "notes",
        ],
        &rows,
    );
    page.section("Problem file");
    page.source(curve.problem);
    page.finish(provenance)
}
