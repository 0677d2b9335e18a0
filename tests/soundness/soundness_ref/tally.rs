//! Counts of the soundness suite: coverage, statuses, comparisons and failures by kind.

use super::Case;
use std::collections::BTreeMap;
use std::fmt;

/// Failing cases reported in full (the rest are counted).
const REPORTED_FAILURES: usize = 12;
/// Anomalies of each kind reported in full (the rest are counted).
const NOTES_PER_KIND: u64 = 3;

/// What the suite saw.
#[derive(Debug, Default)]
pub struct Tally {
    /// Problems tried.
    pub tried: u64,
    /// Problems with an emitted (certified) channel.
    pub certified: u64,
    /// Problems whose answer was compared with a reliable reference optimum.
    pub compared: u64,
    /// `optimal` reports farther from the reference than the strict gap (within its slack).
    pub beyond_strict_gap: u64,
    /// No reference for the problem (e.g. column-convex objective under max-leakage, n > 5).
    pub reference_unavailable: u64,
    /// The reference's own primal and dual values disagree beyond its slack.
    pub reference_unreliable: u64,
    /// The reference solver ended without an answer, by reason.
    pub reference_failures: BTreeMap<String, u64>,
    /// No channel although the reference found the problem feasible.
    pub no_channel_but_feasible: u64,
    /// Reports by status (and solve errors).
    pub statuses: BTreeMap<String, u64>,
    /// Problems per notion label (a problem with two notions counts for both).
    pub notions: BTreeMap<String, u64>,
    /// Problems with two notions.
    pub intersections: u64,
    /// Problems per objective label.
    pub objectives: BTreeMap<String, u64>,
    /// Failures by kind (`privacy`, `optimal`, `bound`, ...).
    pub failure_counts: BTreeMap<String, u64>,
    /// The first failures, each with its problem as TOML.
    pub failures: Vec<String>,
    /// Bounds beyond the emitted channel's own objective by a rounding-level amount.
    pub bound_rounding: u64,
    /// The first anomalies that are not failures (solve errors, reference trouble, bounds off
    /// by rounding), each with its problem as TOML.
    pub notes: Vec<String>,
    /// Anomalies by kind.
    pub note_counts: BTreeMap<String, u64>,
    /// The last case counted in `bound_rounding` (a case counts once).
    pub last_rounding_case: Option<u64>,
}

impl Tally {
    /// Count `case` as tried, with its coverage labels.
    pub fn begin(&mut self, case: &Case) {
        self.tried += 1;
        for l in &case.notion_labels {
            *self.notions.entry(l.clone()).or_default() += 1;
        }
        if case.notion_labels.len() > 1 {
            self.intersections += 1;
        }
        *self
            .objectives
            .entry(case.objective_label.clone())
            .or_default() += 1;
    }

    /// Count a report's status.
    pub fn count_status(&mut self, status: &str) {
        *self.statuses.entry(status.to_string()).or_default() += 1;
    }

    /// Record a failure of `kind` on `case`.
    pub fn fail(&mut self, kind: &str, case: &Case, detail: String) {
        *self.failure_counts.entry(kind.to_string()).or_default() += 1;
        if self.failures.len() < REPORTED_FAILURES {
            self.failures.push(format!(
                "[{kind}] case {}: {detail}\n--- problem ---\n{}",
                case.index,
                case.toml()
            ));
        } else if self.failures.len() == REPORTED_FAILURES {
            self.failures.push("(further failures counted only)".into());
        }
    }

    /// Record an anomaly that is not a failure (the first few of each kind in full).
    pub fn note(&mut self, kind: &str, case: &Case, detail: String) {
        let seen = self.note_counts.entry(kind.to_string()).or_default();
        *seen += 1;
        if *seen <= NOTES_PER_KIND {
            self.notes.push(format!(
                "[{kind}] case {}: {detail}\n--- problem ---\n{}",
                case.index,
                case.toml()
            ));
        }
    }

    /// Count a bound beyond the optimum by rounding only, once per case.
    pub fn bound_rounding(&mut self, case: &Case, detail: String) {
        if self.last_rounding_case != Some(case.index) {
            self.last_rounding_case = Some(case.index);
            self.bound_rounding += 1;
        }
        self.note("bound rounding", case, detail);
    }

    /// Count a reference that could not answer.
    pub fn reference_failed(&mut self, why: &str) {
        *self.reference_failures.entry(why.to_string()).or_default() += 1;
    }

    /// Add `other`'s counts to `self`.
    pub fn merge(mut self, other: Tally) -> Tally {
        self.tried += other.tried;
        self.certified += other.certified;
        self.compared += other.compared;
        self.beyond_strict_gap += other.beyond_strict_gap;
        self.reference_unavailable += other.reference_unavailable;
        self.reference_unreliable += other.reference_unreliable;
        self.no_channel_but_feasible += other.no_channel_but_feasible;
        self.intersections += other.intersections;
        self.bound_rounding += other.bound_rounding;
        self.notes.extend(other.notes);
        for (mine, theirs) in [
            (&mut self.reference_failures, other.reference_failures),
            (&mut self.statuses, other.statuses),
            (&mut self.notions, other.notions),
            (&mut self.objectives, other.objectives),
            (&mut self.failure_counts, other.failure_counts),
            (&mut self.note_counts, other.note_counts),
        ] {
            for (k, v) in theirs {
                *mine.entry(k).or_default() += v;
            }
        }
        for f in other.failures {
            if self.failures.len() <= REPORTED_FAILURES {
                self.failures.push(f);
            }
        }
        self
    }
}

fn map(m: &BTreeMap<String, u64>) -> String {
    let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k} {v}")).collect();
    parts.join(", ")
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = |k: &str| self.failure_counts.get(k).copied().unwrap_or(0);
        writeln!(
            f,
            "soundness: {} problems, {} certified channels",
            self.tried, self.certified
        )?;
        writeln!(f, "  privacy violations          {}", count("privacy"))?;
        writeln!(f, "  leakage understated         {}", count("leakage"))?;
        writeln!(f, "  optimal beyond gap + slack  {}", count("optimal"))?;
        writeln!(f, "  bounds on the wrong side    {} (and {} beyond the channel's own value by rounding only)", count("bound"), self.bound_rounding)?;
        writeln!(
            f,
            "  better than reference bound {}",
            count("beyond-reference")
        )?;
        writeln!(f, "  objective mis-evaluated     {}", count("objective"))?;
        writeln!(f, "  wrongly infeasible          {}", count("infeasible"))?;
        writeln!(f, "  valid problems rejected     {}", count("rejected"))?;
        writeln!(f, "  compared with a reference   {} (optimal beyond the strict gap but within the reference slack: {})", self.compared, self.beyond_strict_gap)?;
        writeln!(
            f,
            "  no reference                {}; unreliable reference {}; reference failed: {}",
            self.reference_unavailable,
            self.reference_unreliable,
            map(&self.reference_failures)
        )?;
        writeln!(
            f,
            "  no channel although feasible {}",
            self.no_channel_but_feasible
        )?;
        writeln!(f, "  statuses: {}", map(&self.statuses))?;
        writeln!(
            f,
            "  notions ({} intersections): {}",
            self.intersections,
            map(&self.notions)
        )?;
        write!(f, "  objectives: {}", map(&self.objectives))
    }
}
