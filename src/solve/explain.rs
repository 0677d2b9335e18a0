//! What `solve` considered for a problem (`solve --explain`, and `methods_considered` in the
//! JSON report): each method of `auto`'s order with what came of it.

use crate::policy::{MethodChoice, AUTO_ORDER};
use crate::report::Consideration;
use crate::synthesis::{Method, Outcome};

/// The verdicts recorded so far.
pub(super) struct Explain {
    choice: MethodChoice,
    verdicts: Vec<(MethodChoice, String)>,
    kept: Option<MethodChoice>,
}

impl Explain {
    /// For a solve with `--method choice`.
    pub fn new(choice: MethodChoice) -> Self {
        Explain {
            choice,
            verdicts: Vec::new(),
            kept: None,
        }
    }

    /// Record `verdict` for `method` (appended to what it already has).
    pub fn note(&mut self, method: MethodChoice, verdict: impl Into<String>) {
        let verdict = verdict.into();
        match self.verdicts.iter_mut().find(|(m, _)| *m == method) {
            Some((_, v)) => {
                v.push_str("; ");
                v.push_str(&verdict);
            }
            None => self.verdicts.push((method, verdict)),
        }
    }

    /// `method` was not run: `why`.
    pub fn skipped(&mut self, method: MethodChoice, why: impl Into<String>) {
        self.note(method, format!("not run: {}", why.into()));
    }

    /// `method`'s result is kept.
    pub fn kept(&mut self, method: MethodChoice) {
        self.note(method, "kept: it settled the problem");
        self.kept = Some(method);
    }

    /// `method`'s result, passed over earlier, is kept after all (no other method did better).
    pub fn kept_after_all(&mut self, method: MethodChoice) {
        self.note(method, "kept after all: no method after it could run");
        self.kept = Some(method);
    }

    /// Every method not yet recorded gets `verdict`.
    pub fn rest(&mut self, verdict: impl Into<String>) {
        let verdict = verdict.into();
        for m in AUTO_ORDER {
            if !self.verdicts.iter().any(|(r, _)| *r == m) {
                self.verdicts.push((m, verdict.clone()));
            }
        }
    }

    /// The lone-LDP sequence ran (decomposition's first round, the LDP interior point, one
    /// LP where small): which of them the outcome came from.
    pub fn ldp_handover(&mut self, outcome: &Outcome) {
        let from = match outcome.method {
            Method::LdpInteriorPoint => MethodChoice::LdpInteriorPoint,
            Method::Lp => MethodChoice::Lp,
            _ => MethodChoice::Decomposition,
        };
        self.note(
            MethodChoice::Decomposition,
            "ran its first round (a lone ldp constraint: the LDP interior point and, up to LP_FALLBACK_INPUTS inputs, one LP follow while the gap stays open; the best certified result is kept)",
        );
        self.kept(from);
    }

    /// The verdicts in `auto`'s order (only the method asked for, with `--method`).
    pub fn finish(mut self) -> Vec<Consideration> {
        if self.choice == MethodChoice::Auto {
            let settled = self
                .kept
                .map(|k| format!("not needed: {} settled the problem first", k.name()));
            if let Some(settled) = settled {
                self.rest(settled);
            }
            self.verdicts
                .sort_by_key(|(m, _)| AUTO_ORDER.iter().position(|o| o == m).unwrap_or(usize::MAX));
        }
        self.verdicts
            .into_iter()
            .map(|(m, verdict)| Consideration {
                method: m.name().to_string(),
                verdict,
            })
            .collect()
    }
}
