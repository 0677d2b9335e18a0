//! The page of `audit`: the channel's source, the verdict on each stated constraint, the
//! leakage under every notion, the channel as a heatmap.

use super::page::Page;
use super::parts::{channel_table, check_rows, leakage, objectives};
use super::solve::heatmap;
use super::{Cell, Provenance, Source};
use crate::audit::{AuditReport, Verdict};

/// The page of an audit: `report` as `audit --format json` writes it, `channel` the channel
/// file as given, `output_labels` the channel's output labels (one per column), `provenance`
/// the command.
pub fn audit_page(
    report: &AuditReport,
    channel: &Source,
    output_labels: &[String],
    provenance: &Provenance,
) -> String {
    let mut page = Page::new(&format!("mechsynth audit: {}", channel.name));
    let (text, good) = if report.checks.is_empty() {
        ("no constraint stated".to_string(), None)
    } else if report.all_certified {
        ("every constraint holds (certified)".into(), Some(true))
    } else if report.all_hold {
        (
            "every constraint holds, some only up to rounding".into(),
            None,
        )
    } else {
        ("a constraint is violated".into(), Some(false))
    };
    page.status(&text, good);
    page.section("Result");
    page.facts(&[
        ("all hold", Cell::flag(report.all_hold)),
        ("all certified", Cell::flag(report.all_certified)),
        ("inputs", Cell::text(report.channel.inputs().to_string())),
        ("outputs", Cell::text(report.channel.outputs().to_string())),
    ]);

    page.section("Stated constraints");
    if report.checks.is_empty() {
        page.paragraph("The channel file states no constraint to check.");
    } else {
        page.paragraph("Each constraint's leakage was recomputed from the channel's numbers with outward rounding (rounded up): the achieved value bounds the channel's true leakage.");
        let checks: Vec<_> = report.checks.iter().map(|c| c.check.clone()).collect();
        let mut rows = check_rows(&checks, |_| String::new());
        for (row, c) in rows.iter_mut().zip(&report.checks) {
            row[3] = Cell::text(match c.verdict {
                Verdict::Holds => "holds",
                Verdict::HoldsUpToRounding => "holds up to rounding",
                Verdict::Violated => "VIOLATED",
            });
            row.push(Cell::num(c.excess));
        }
        page.table(
            &["constraint", "requested", "achieved", "verdict", "excess"],
            &rows,
        );
    }

    leakage(
        &mut page,
        &report.leakage,
        "The channel's leakage under every notion that applies to the domain (outward rounded).",
    );
    objectives(&mut page, &report.objectives);

    page.section("Channel");
    heatmap(
        &mut page,
        report.channel.rows(),
        &report.labels,
        output_labels,
        &format!("audited channel: {}", channel.name),
    );
    channel_table(
        &mut page,
        report.channel.rows(),
        &report.labels,
        output_labels,
    );
    if !report.warnings.is_empty() {
        page.section("Warnings");
        page.list(&report.warnings);
    }

    page.section("Channel file");
    page.source(channel);
    page.finish(provenance)
}
