//! Rendering of a [`Report`] as a table and as CSV.

use super::Report;
use crate::objective::Goal;
use std::fmt::Write;

fn fmt_num(v: f64) -> String {
    if v.is_infinite() {
        if v > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{v:.6}")
    }
}

/// A probability with six significant digits: fixed point from 1e-4 up, scientific below (so
/// that a 1e-12 entry is not shown as 0), and `0` only for an exact zero.
fn fmt_prob(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v >= 1e-4 {
        format!("{v:.6}")
    } else {
        format!("{v:.5e}")
    }
}

/// A CSV field: quoted when it holds a comma, a quote or a newline.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Report {
    /// The channel as CSV at full precision (shortest round-trip decimal of each entry): a
    /// header `input,<output labels>`, then one row per input. Without a channel, a single
    /// `status` line.
    pub fn to_csv(&self) -> String {
        let mut s = String::new();
        let Some(ch) = &self.channel else {
            let _ = writeln!(s, "status\n{}", self.status);
            return s;
        };
        let _ = write!(s, "input");
        for l in &self.output_labels {
            let _ = write!(s, ",{}", csv_field(l));
        }
        s.push('\n');
        for (l, row) in self.labels.iter().zip(ch.rows()) {
            let _ = write!(s, "{}", csv_field(l));
            for v in row {
                let _ = write!(s, ",{v:?}");
            }
            s.push('\n');
        }
        s
    }

    /// The methods considered and what came of each, one per line (`solve --explain`).
    pub fn explain(&self) -> String {
        let mut out = String::from("methods considered:\n");
        for c in &self.methods_considered {
            out.push_str(&format!("  {}: {}\n", c.method, c.verdict));
        }
        out
    }

    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "problem    {}", self.name);
        let certified = match &self.certificate {
            Some(c) if c.repair.is_some() => " (certified after repair)",
            Some(_) => " (certified)",
            None => "",
        };
        let _ = writeln!(s, "status     {}{certified}", self.status);
        let _ = writeln!(s, "method     {}", self.method);
        if let Some(v) = self.objective {
            let goal = match self.goal {
                Goal::Minimize => "minimize",
                Goal::Maximize => "maximize",
            };
            let _ = writeln!(
                s,
                "objective  {} ({goal} {})",
                fmt_num(v),
                self.objective_description
            );
        }
        if let Some(b) = self.bound {
            let side = match self.goal {
                Goal::Minimize => "lower",
                Goal::Maximize => "upper",
            };
            let _ = writeln!(
                s,
                "bound      {} (rigorous {side} bound on the optimum)",
                fmt_num(b)
            );
        }
        if let Some(g) = &self.gap {
            let verdict = if g.closed { "within" } else { "NOT within" };
            let _ = writeln!(
                s,
                "gap        {:.3e} ({:.3e} relative; {verdict} the tolerance {:e} + {:e} relative)",
                g.absolute, g.relative, g.tolerance.absolute, g.tolerance.relative
            );
        }
        if let Some(e) = &self.expected {
            let verdict = if e.matches {
                "matches"
            } else {
                "DOES NOT MATCH"
            };
            let _ = writeln!(
                s,
                "expected   {} ({verdict}, tolerance {:e})",
                fmt_num(e.objective),
                e.tolerance
            );
        }
        let t = &self.timings;
        let phases = format!(
            "{:.1} ms total: solve {:.1}, certify {:.1}, leakage profile {:.1}, objective profile {:.1}",
            t.total_ms, t.solve_ms, t.certify_ms, t.leakage_profile_ms, t.objective_profile_ms
        );
        if self.solver.name == "none" {
            let _ = writeln!(s, "solver     none (no program is solved; {phases})");
        } else {
            let _ = writeln!(
                s,
                "solver     {} ({} iterations, {phases})",
                self.solver.name, self.solver.iterations
            );
        }
        for e in &self.encoding {
            let _ = writeln!(s, "encoding   {e}");
        }
        for note in &self.method_notes {
            let _ = writeln!(s, "note       {note}");
        }
        if let Some(ch) = &self.channel {
            let _ = writeln!(
                s,
                "\nchannel Q[x][y] (rows: input x, columns: output y; 6 significant digits shown,\nthe certified channel is the full-precision one in --format json or csv)"
            );
            let width = self
                .labels
                .iter()
                .chain(&self.output_labels)
                .map(String::len)
                .max()
                .unwrap_or(1)
                .max(8);
            let _ = write!(s, "{:>width$}", "");
            for l in &self.output_labels {
                let _ = write!(s, " {l:>width$}");
            }
            s.push('\n');
            for (l, row) in self.labels.iter().zip(ch.rows()) {
                let _ = write!(s, "{l:>width$}");
                for v in row {
                    let _ = write!(s, " {:>width$}", fmt_prob(*v));
                }
                s.push('\n');
            }
            let unused = ch.unused_outputs();
            if !unused.is_empty() {
                let names: Vec<&str> = unused
                    .iter()
                    .map(|&y| self.output_labels[y].as_str())
                    .collect();
                let _ = writeln!(s, "outputs never used: {}", names.join(", "));
            }
        }
        if let Some(c) = &self.certificate {
            let _ = writeln!(s, "\ncertificate (requested vs achieved, outward rounded)");
            for check in &c.checks {
                let mark = if check.holds() { "ok" } else { "VIOLATED" };
                let _ = writeln!(
                    s,
                    "  {:<24} requested {:<10} achieved {:<12} {mark}",
                    check.constraint,
                    crate::error::show_number(check.requested),
                    crate::numeric::fixed_up(check.achieved, 6)
                );
            }
            for g in &c.tied_rows {
                let names: Vec<&str> = g.iter().map(|&x| self.labels[x].as_str()).collect();
                let _ = writeln!(
                    s,
                    "  rows {} are forced equal by the constraints and were set to their average",
                    names.join(", ")
                );
            }
            if let Some(r) = &c.repair {
                let _ = writeln!(
                    s,
                    "  repaired: mixed with a constant-row channel at weight {:e}; objective {} -> {}",
                    r.weight,
                    fmt_num(r.objective_before),
                    fmt_num(r.objective_after)
                );
            }
        }
        if !self.leakage.is_empty() {
            let _ = writeln!(
                s,
                "\nleakage of the emitted channel under every applicable notion (rounded up)"
            );
            for (k, v) in &self.leakage {
                let _ = writeln!(s, "  {k:<24} {}", crate::numeric::fixed_up(*v, 6));
            }
        }
        if !self.objectives.is_empty() {
            let _ = writeln!(s, "\nobjectives of the emitted channel");
            for (k, v) in &self.objectives {
                let _ = writeln!(s, "  {k:<24} {}", fmt_num(*v));
            }
        }
        for note in &self.profile_notes {
            let _ = writeln!(s, "\nnote: {note}");
        }
        for w in &self.warnings {
            let _ = writeln!(s, "\nwarning: {w}");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_probabilities_are_not_shown_as_zero() {
        assert_eq!(fmt_prob(0.0), "0");
        assert_eq!(fmt_prob(1e-12), "1.00000e-12");
        assert_eq!(fmt_prob(0.25), "0.250000");
    }
}
