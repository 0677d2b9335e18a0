//! Sections more than one page shows: leakage and objective tables, the certificate's checks,
//! a channel at full precision, a summary of a specification.

use super::{Cell, Page};
use crate::privacy::Check;
use std::collections::BTreeMap;

/// Channels with at most this many entries are also shown as a table at full precision.
pub(super) const MAX_TABLE_ENTRIES: usize = 1024;

/// The leakage under every notion, as the JSON's `leakage` map.
pub(super) fn leakage(page: &mut Page, leakage: &BTreeMap<String, f64>, what: &str) {
    page.section("Leakage");
    if leakage.is_empty() {
        page.paragraph("No notion applies to this domain.");
        return;
    }
    page.paragraph(what);
    let rows: Vec<Vec<Cell>> = leakage
        .iter()
        .map(|(k, v)| vec![Cell::text(k), Cell::num(*v)])
        .collect();
    page.table(&["notion", "leakage"], &rows);
}

/// Every objective evaluated for the channel, as the JSON's `objectives` map.
pub(super) fn objectives(page: &mut Page, objectives: &BTreeMap<String, f64>) {
    if objectives.is_empty() {
        return;
    }
    page.section("Objectives of the channel");
    let rows: Vec<Vec<Cell>> = objectives
        .iter()
        .map(|(k, v)| vec![Cell::text(k), Cell::num(*v)])
        .collect();
    page.table(&["objective", "value"], &rows);
}

/// Requested versus achieved, with a verdict per constraint.
pub(super) fn check_rows(checks: &[Check], verdict: impl Fn(&Check) -> String) -> Vec<Vec<Cell>> {
    checks
        .iter()
        .map(|c| {
            vec![
                Cell::text(&c.constraint),
                Cell::num(c.requested),
                Cell::num(c.achieved),
                Cell::text(verdict(c)),
            ]
        })
        .collect()
}

/// The channel's rows at full precision (when it is small enough to read as a table).
pub(super) fn channel_table(
    page: &mut Page,
    rows: &[Vec<f64>],
    inputs: &[String],
    outputs: &[String],
) {
    let entries = rows.len() * rows.first().map_or(0, Vec::len);
    if entries > MAX_TABLE_ENTRIES {
        page.paragraph(&format!(
            "The channel has {entries} entries; its full-precision numbers are in the JSON report."
        ));
        return;
    }
    let mut header = vec!["Q[x][y]"];
    header.extend(outputs.iter().map(String::as_str));
    let table: Vec<Vec<Cell>> = rows
        .iter()
        .enumerate()
        .map(|(x, row)| {
            let label = inputs.get(x).cloned().unwrap_or_else(|| x.to_string());
            std::iter::once(Cell::text(label))
                .chain(row.iter().map(|v| Cell::num(*v)))
                .collect()
        })
        .collect();
    page.table(&header, &table);
}

/// A serializable value in one line, `key = value, ...` for a table (as JSON otherwise).
pub(super) fn summary(value: &impl serde::Serialize) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(map)) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            // The tag that names the variant first (`notion = ldp, epsilon = 1.0`).
            .filter(|(k, _)| *k == "notion" || *k == "kind")
            .chain(
                map.iter()
                    .filter(|(k, v)| !v.is_null() && *k != "notion" && *k != "kind"),
            )
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k} = {s}"),
                v => format!("{k} = {v}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Ok(v) => v.to_string(),
        Err(e) => format!("({e})"),
    }
}

/// Up to `max` labels, comma-separated, with the count of the others.
pub(super) fn labels(labels: &[String], max: usize) -> String {
    let shown = labels
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if labels.len() > max {
        format!("{shown}, ... ({} in all)", labels.len())
    } else {
        shown
    }
}
