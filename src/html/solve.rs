//! The page of `solve`: status and certificate, objective, bound and gap, leakage, the channel
//! as a heatmap, the problem.

use super::page::Page;
use super::parts::{channel_table, check_rows, labels, leakage, objectives, summary};
use super::{Cell, Provenance, Source};
use crate::objective::Goal;
use crate::report::Report;
use crate::synthesis::Status;

/// Whether a solve's status reads as good (`Some(true)`), bad (`Some(false)`) or neither.
fn verdict(status: &Status) -> Option<bool> {
    match status {
        Status::Optimal => Some(true),
        Status::Feasible | Status::LocalOptimum => None,
        Status::Solver(_) => Some(false),
    }
}

/// Draw `rows` as the heatmap `solve --svg` and `audit --svg` write, into `page`.
pub(super) fn heatmap(
    page: &mut Page,
    rows: &[Vec<f64>],
    inputs: &[String],
    outputs: &[String],
    title: &str,
) {
    match crate::curve::channel_svg(rows, inputs, outputs, title) {
        Ok(svg) => page.figure(
            &svg,
            "Q[x][y] = P(Y = y | X = x): rows are inputs x, columns outputs y; darker is larger.",
        ),
        Err(e) => page.paragraph(&format!("(the heatmap could not be drawn: {e})")),
    }
}

/// The page of a solve: `report` as `solve --format json` writes it, `problem` the problem
/// file as given, `provenance` the command.
pub fn solve_page(report: &Report, problem: &Source, provenance: &Provenance) -> String {
    let mut page = Page::new(&format!("mechsynth solve: {}", report.name));
    let certified = match &report.certificate {
        Some(c) if c.repair.is_some() => " (certified after repair)",
        Some(_) => " (certified)",
        None => "",
    };
    page.status(
        &format!("{}{certified}", report.status),
        verdict(&report.status),
    );
    let (goal, side) = match report.goal {
        Goal::Minimize => ("minimize", "lower"),
        Goal::Maximize => ("maximize", "upper"),
    };
    page.section("Result");
    let mut facts = vec![
        ("status", Cell::text(report.status.to_string())),
        ("method", Cell::text(report.method.to_string())),
        (
            "objective",
            Cell::text(format!("{goal} {}", report.objective_description)),
        ),
        ("objective value", Cell::opt(report.objective)),
        ("bound", Cell::opt(report.bound)),
    ];
    if let Some(g) = &report.gap {
        facts.extend([
            ("gap (absolute)", Cell::num(g.absolute)),
            ("gap (relative)", Cell::num(g.relative)),
            ("gap tolerance (absolute)", Cell::num(g.tolerance.absolute)),
            ("gap tolerance (relative)", Cell::num(g.tolerance.relative)),
            ("gap closed", Cell::flag(g.closed)),
        ]);
    }
    if let Some(e) = &report.expected {
        facts.push(("expected optimum", Cell::num(e.objective)));
        facts.push(("matches the expected optimum", Cell::flag(e.matches)));
    }
    facts.push((
        "solver",
        Cell::text(format!(
            "{} ({} iterations, {} ms in all)",
            report.solver.name,
            report.solver.iterations,
            crate::html::json_number(report.timings.total_ms)
        )),
    ));
    page.facts(&facts);
    page.paragraph(&match (report.bound, &report.gap) {
        (Some(_), Some(g)) => format!(
            "The bound is a rigorous {side} bound on the optimum (from the duals, with directed rounding): the optimum lies within the absolute gap of the channel's objective, which is {} the tolerance.",
            if g.closed { "within" } else { "NOT within" }
        ),
        _ => "No rigorous bound on the optimum is known for this run.".into(),
    });

    page.section("Certificate");
    match &report.certificate {
        Some(c) => {
            page.paragraph("Each constraint's leakage was recomputed from the emitted numbers with outward rounding (rounded up): the achieved value bounds the channel's true leakage.");
            let rows = check_rows(&c.checks, |k| {
                if k.holds() { "holds" } else { "VIOLATED" }.into()
            });
            page.table(&["constraint", "requested", "achieved", "verdict"], &rows);
            let mut notes = vec![format!(
                "largest change to a solver entry when cleaning up: {}",
                crate::html::json_number(c.cleanup_correction)
            )];
            for g in &c.tied_rows {
                let names: Vec<String> = g
                    .iter()
                    .map(|&x| {
                        report
                            .labels
                            .get(x)
                            .cloned()
                            .unwrap_or_else(|| x.to_string())
                    })
                    .collect();
                notes.push(format!(
                    "rows {} are forced equal by the constraints and were set to their average",
                    names.join(", ")
                ));
            }
            if let Some(r) = &c.repair {
                notes.push(format!(
                    "repaired: mixed with a constant-row channel at weight {}; objective {} -> {}",
                    crate::html::json_number(r.weight),
                    crate::html::json_number(r.objective_before),
                    crate::html::json_number(r.objective_after)
                ));
            }
            page.list(&notes);
        }
        None => page.paragraph("No channel was certified."),
    }

    leakage(
        &mut page,
        &report.leakage,
        "The emitted channel's leakage under every notion that applies to the domain (outward rounded).",
    );
    objectives(&mut page, &report.objectives);

    page.section("Channel");
    match &report.channel {
        Some(ch) => {
            heatmap(
                &mut page,
                ch.rows(),
                &report.labels,
                &report.output_labels,
                &report.name,
            );
            channel_table(&mut page, ch.rows(), &report.labels, &report.output_labels);
        }
        None => page.paragraph(&format!("No channel (status {}).", report.status)),
    }

    let notes: Vec<String> = report
        .encoding
        .iter()
        .map(|e| format!("encoding: {e}"))
        .chain(report.method_notes.iter().map(|n| format!("note: {n}")))
        .chain(
            report
                .methods_considered
                .iter()
                .map(|c| format!("considered {}: {}", c.method, c.verdict)),
        )
        .chain(report.warnings.iter().map(|w| format!("warning: {w}")))
        .collect();
    if !notes.is_empty() {
        page.section("How it was found");
        page.list(&notes);
    }

    page.section("Problem");
    let spec = &report.problem;
    let mut facts = vec![("name", Cell::text(&report.name))];
    if let Some(d) = &spec.description {
        facts.push(("description", Cell::text(d)));
    }
    facts.extend([
        (
            "inputs",
            Cell::text(format!(
                "{} ({})",
                report.labels.len(),
                labels(&report.labels, 20)
            )),
        ),
        (
            "prior",
            Cell::text(spec.domain.prior.as_ref().map_or("uniform".into(), |p| {
                let shown: Vec<String> = p.iter().map(|v| crate::html::json_number(*v)).collect();
                shown.join(", ")
            })),
        ),
        (
            "outputs",
            Cell::text(report.output_labels.len().to_string()),
        ),
        ("objective", Cell::text(summary(&spec.objective))),
    ]);
    for p in &spec.privacy {
        facts.push(("privacy", Cell::text(summary(p))));
    }
    page.facts(&facts);
    page.source(problem);
    page.finish(provenance)
}
