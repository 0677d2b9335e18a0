//! The page of `estimate`: the inputs and estimators, then each estimate with its standard
//! error and interval, and the counts of the reports.

use super::page::Page;
use super::{Cell, Provenance};
use crate::collect::estimate::EstimateReport;

/// The interval kind as the JSON names it (empty when there is none).
fn kind_name(kind: Option<impl serde::Serialize>) -> String {
    kind.and_then(|k| serde_json::to_value(k).ok())
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default()
}

/// The page of an estimate: `report` as `estimate --format json` writes it, `inputs` what
/// the run read and how (the mechanism, the reports, the estimators: `(name, value)` pairs
/// shown as given), `provenance` the command.
pub fn estimate_page(
    report: &EstimateReport,
    inputs: &[(String, String)],
    provenance: &Provenance,
) -> String {
    let mut page = Page::new("mechsynth estimate");
    page.status(
        &format!("{} reports", report.users),
        report.warnings.is_empty().then_some(true),
    );
    page.section("Inputs");
    let mut facts: Vec<(&str, Cell)> = inputs
        .iter()
        .map(|(k, v)| (k.as_str(), Cell::text(v)))
        .collect();
    facts.extend([
        ("reports", Cell::text(report.users.to_string())),
        ("confidence level", Cell::num(report.level)),
        ("estimand", Cell::text(report.estimand.name())),
    ]);
    page.facts(&facts);

    page.section("Estimates");
    page.paragraph(&format!(
        "Each estimate with its standard error and {}% interval.",
        crate::html::json_number(100.0 * report.level)
    ));
    let rows: Vec<Vec<Cell>> = report
        .estimates
        .iter()
        .map(|e| {
            let mut row = vec![Cell::text(e.estimator), Cell::text(&e.quantity)];
            match &e.estimate {
                Some(i) => row.extend([
                    Cell::num(i.value),
                    Cell::num(i.std_error),
                    Cell::num(i.low),
                    Cell::num(i.high),
                ]),
                None => row.extend([Cell::text("n/a"), Cell::Empty, Cell::Empty, Cell::Empty]),
            }
            row.push(Cell::text(kind_name(e.interval)));
            row.push(e.estimand.map_or(Cell::Empty, |x| Cell::text(x.name())));
            row
        })
        .collect();
    page.table(
        &[
            "estimator",
            "quantity",
            "estimate",
            "std error",
            "low",
            "high",
            "interval",
            "estimand",
        ],
        &rows,
    );
    if !report.warnings.is_empty() {
        page.section("Warnings");
        page.list(&report.warnings);
    }

    page.section("Counts");
    page.paragraph("Reports per output (for a frequency oracle: reports supporting each symbol).");
    let counts: Vec<Vec<Cell>> = report
        .output_labels
        .iter()
        .zip(&report.counts)
        .map(|(l, c)| vec![Cell::text(l), Cell::Number(c.to_string())])
        .collect();
    page.table(&["output", "count"], &counts);
    page.finish(provenance)
}
