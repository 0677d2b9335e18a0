//! The page of `verify`: the verdict on each published claim, the sweep's tally and the
//! theorem checks.

use super::page::Page;
use super::{json_number, Cell, Provenance, Source};
use crate::verify::theorems::TheoremReport;
use crate::verify::SweepReport;
use crate::verify::VerifyReport;

/// What one `verify` run found: any of the three parts, and the overall verdict.
#[derive(Debug, Clone, Copy)]
pub struct VerifyParts<'a> {
    /// The registry's claims against a problem, with the problem file as given.
    pub problem: Option<(&'a VerifyReport, &'a Source)>,
    /// The sweep over epsilons and priors.
    pub sweep: Option<&'a SweepReport>,
    /// The theorem checks.
    pub theorems: Option<&'a TheoremReport>,
    /// Whether every claim held (the JSON's top-level `all_hold`).
    pub all_hold: bool,
}

fn holds(v: bool) -> Cell {
    Cell::text(if v { "holds" } else { "FAILS" })
}

fn claims(page: &mut Page, report: &VerifyReport) {
    page.section("Published mechanisms");
    page.facts(&[
        ("problem", Cell::text(&report.problem)),
        ("certified optimum", Cell::opt(report.optimum)),
        ("status of the optimum", Cell::text(&report.optimum_status)),
        ("every claim holds", Cell::flag(report.all_hold)),
    ]);
    page.list(&report.notes);
    let rows: Vec<Vec<Cell>> = report
        .checks
        .iter()
        .map(|c| {
            vec![
                Cell::text(c.name),
                holds(c.claim_holds),
                Cell::flag(c.feasible),
                Cell::opt(c.objective),
                Cell::opt(c.claimed_value),
                Cell::opt(c.optimum),
                Cell::opt(c.gap),
                c.value_matches.map_or(Cell::Empty, Cell::flag),
                Cell::flag(c.claims_optimal),
                Cell::flag(c.valid_channel),
                Cell::text(c.failures.join("; ")),
            ]
        })
        .collect();
    page.table(
        &[
            "mechanism",
            "verdict",
            "feasible",
            "objective",
            "claimed value",
            "optimum",
            "gap",
            "value matches",
            "claims optimal",
            "valid channel",
            "failures",
        ],
        &rows,
    );
    let leakage: Vec<Vec<Cell>> = report
        .checks
        .iter()
        .flat_map(|c| {
            c.leakage.iter().map(|k| {
                vec![
                    Cell::text(c.name),
                    Cell::text(&k.constraint),
                    Cell::num(k.requested),
                    Cell::num(k.achieved),
                ]
            })
        })
        .collect();
    if !leakage.is_empty() {
        page.paragraph(
            "Leakage of each mechanism against the problem's constraints (outward rounded):",
        );
        page.table(
            &["mechanism", "constraint", "requested", "achieved"],
            &leakage,
        );
    }
    let sources: Vec<String> = report
        .checks
        .iter()
        .map(|c| match c.note {
            Some(n) => format!("{}: {} (note: {n})", c.name, c.citation),
            None => format!("{}: {}", c.name, c.citation),
        })
        .collect();
    page.list(&sources);
}

fn sweep(page: &mut Page, s: &SweepReport) {
    page.section("Sweep over epsilons and priors");
    let eps: Vec<String> = s.epsilons.iter().map(|e| json_number(*e)).collect();
    page.facts(&[
        ("epsilons", Cell::text(eps.join(", "))),
        ("priors", Cell::text(s.priors.len().to_string())),
        ("every claim holds", Cell::flag(s.all_hold)),
    ]);
    let rows: Vec<Vec<Cell>> = s
        .entries
        .iter()
        .map(|e| {
            let (at, what) = match &e.counterexample {
                Some(c) => {
                    let prior: Vec<String> = c.prior.iter().map(|p| json_number(*p)).collect();
                    (
                        Cell::text(format!(
                            "epsilon {}, prior ({})",
                            json_number(c.epsilon),
                            prior.join(", ")
                        )),
                        Cell::text(c.failures.join("; ")),
                    )
                }
                None => (Cell::Empty, Cell::Empty),
            };
            vec![
                Cell::text(e.name),
                Cell::text(e.points.to_string()),
                Cell::text(e.feasible.to_string()),
                Cell::text(e.claim_holds.to_string()),
                holds(e.counterexample.is_none()),
                at,
                what,
            ]
        })
        .collect();
    page.table(
        &[
            "mechanism",
            "points",
            "feasible",
            "claims hold",
            "verdict",
            "first counterexample",
            "failures",
        ],
        &rows,
    );
}

fn theorems(page: &mut Page, t: &TheoremReport) {
    page.section("Theorems");
    if !t.complete {
        page.paragraph(
            "The time limit stopped the checks: some theorems have fewer cases than asked.",
        );
    }
    let rows: Vec<Vec<Cell>> = t
        .checks
        .iter()
        .map(|c| {
            vec![
                Cell::text(c.name),
                Cell::text(format!("{} ({})", c.statement, c.citation)),
                Cell::text(c.cases.to_string()),
                Cell::num(c.worst_margin),
                holds(c.holds),
            ]
        })
        .collect();
    page.table(
        &["theorem", "statement", "cases", "worst margin", "verdict"],
        &rows,
    );
}

/// The page of a verify run, `provenance` the command.
pub fn verify_page(parts: &VerifyParts, provenance: &Provenance) -> String {
    let title = match parts.problem {
        Some((r, _)) => format!("mechsynth verify: {}", r.problem),
        None => "mechsynth verify: theorems".into(),
    };
    let mut page = Page::new(&title);
    page.status(
        if parts.all_hold {
            "every claim holds"
        } else {
            "a claim fails"
        },
        Some(parts.all_hold),
    );
    if let Some((report, _)) = parts.problem {
        claims(&mut page, report);
    }
    if let Some(s) = parts.sweep {
        sweep(&mut page, s);
    }
    if let Some(t) = parts.theorems {
        theorems(&mut page, t);
    }
    if let Some((_, source)) = parts.problem {
        page.section("Problem file");
        page.source(source);
    }
    page.finish(provenance)
}
