//! `verify --theorems`: the relations between notions stated in [CA-LIP] and
//! [LIP-agg], checked on random channels and on tight (adversarial) ones, each
//! reported as holding over every case tried or failing with a counterexample.

mod approximate;
mod notions;
mod properties;
mod support;

pub use approximate::{cor3_tight_case, per_output_lip_delta};
pub use support::{exact_lip_to_ldp, ldp_to_lip_bound, prop1_bound};

use crate::channel::Channel;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::cell::Cell;
use std::time::Instant;

/// A bound holds when `value <= bound + THEOREM_TOLERANCE` (leakages are outward rounded).
pub const THEOREM_TOLERANCE: f64 = 1e-9;
/// Random cases per theorem.
pub const DEFAULT_CASES: usize = 200;
/// Most random cases per theorem: a billion cases take days; `--time-limit` ends any run
/// earlier with the cases done so far.
pub const MAX_CASES: usize = 1_000_000_000;

/// A case where a claimed bound fails.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremCounterexample {
    /// The prior(s) involved.
    pub priors: Vec<Vec<f64>>,
    /// The channel(s) involved.
    pub channels: Vec<Vec<Vec<f64>>>,
    /// The quantity the theorem bounds.
    pub value: f64,
    /// The theorem's bound.
    pub bound: f64,
}

/// One theorem's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremCheck {
    /// Short identifier.
    pub name: &'static str,
    /// Paper and statement number.
    pub citation: &'static str,
    /// The claim checked.
    pub statement: &'static str,
    /// Whether it held in every case.
    pub holds: bool,
    /// Cases tried.
    pub cases: usize,
    /// The smallest `bound - value` seen (negative when it fails).
    pub worst_margin: f64,
    /// The worst failing case.
    pub counterexample: Option<TheoremCounterexample>,
    /// Extra findings (exact constants).
    pub notes: Vec<String>,
}

/// All theorem checks.
#[derive(Debug, Clone, Serialize)]
pub struct TheoremReport {
    /// One per theorem.
    pub checks: Vec<TheoremCheck>,
    /// Whether all hold (in the cases tried).
    pub all_hold: bool,
    /// False when the deadline stopped the checks: some have fewer cases than asked (or none).
    pub complete: bool,
}

pub(super) struct Tally {
    check: TheoremCheck,
}

impl Tally {
    pub(super) fn new(name: &'static str, citation: &'static str, statement: &'static str) -> Self {
        Tally {
            check: TheoremCheck {
                name,
                citation,
                statement,
                holds: true,
                cases: 0,
                worst_margin: f64::INFINITY,
                counterexample: None,
                notes: Vec::new(),
            },
        }
    }

    /// Record `value <= bound` for one case.
    pub(super) fn case(
        &mut self,
        value: f64,
        bound: f64,
        priors: &[&[f64]],
        channels: &[&Channel],
    ) {
        self.check.cases += 1;
        let margin = if value.is_infinite() && bound.is_infinite() && value > 0.0 {
            0.0
        } else {
            bound - value
        };
        if margin < self.check.worst_margin {
            self.check.worst_margin = margin;
            if margin < -THEOREM_TOLERANCE {
                self.check.holds = false;
                self.check.counterexample = Some(TheoremCounterexample {
                    priors: priors.iter().map(|p| p.to_vec()).collect(),
                    channels: channels.iter().map(|c| c.rows().to_vec()).collect(),
                    value,
                    bound,
                });
            }
        }
    }

    pub(super) fn done(self) -> TheoremCheck {
        self.check
    }
}

/// Run every theorem check with `cases` random cases each (reproducible from `seed`).
pub fn check_theorems(seed: u64, cases: usize) -> TheoremReport {
    check_theorems_within(seed, cases, &TheoremLimits::default())
}

/// When [`check_theorems_within`] stops, and where it reports progress.
#[derive(Default)]
pub struct TheoremLimits {
    /// No case starts after this instant; the report is then partial (`complete` false).
    pub deadline: Option<Instant>,
    /// Called before each case with `theorem cases: K done`.
    pub progress: Option<crate::synthesis::ProgressSink>,
}

/// [`check_theorems`] that stops at the deadline of `limits`: the checks report the cases
/// done by then (none for the theorems not reached).
pub fn check_theorems_within(seed: u64, cases: usize, limits: &TheoremLimits) -> TheoremReport {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let clock = Clock {
        limits,
        stopped: Cell::new(false),
        done: Cell::new(0),
    };
    let mut checks = notions::check(&mut rng, cases, &clock);
    checks.extend(properties::check(&mut rng, cases, &clock));
    checks.extend(approximate::check(&mut rng, cases, &clock));
    TheoremReport {
        all_hold: checks.iter().all(|c| c.holds),
        complete: !clock.stopped.get(),
        checks,
    }
}

/// The deadline and progress of one run, shared by every case loop.
pub(super) struct Clock<'a> {
    limits: &'a TheoremLimits,
    stopped: Cell<bool>,
    done: Cell<usize>,
}

impl Clock<'_> {
    /// `0..cases`, ending early once the deadline has passed (and for every later loop).
    pub(super) fn range(&self, cases: usize) -> impl Iterator<Item = usize> + '_ {
        (0..cases).take_while(move |_| self.go_on())
    }

    fn go_on(&self) -> bool {
        if self.stopped.get() {
            return false;
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped.set(true);
            return false;
        }
        self.done.set(self.done.get() + 1);
        if let Some(p) = &self.limits.progress {
            p(&format!("theorem cases: {} done", self.done.get()));
        }
        true
    }
}

impl TheoremReport {
    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        for c in &self.checks {
            let verdict = match (c.holds, c.cases) {
                (false, _) => "FAILS",
                (true, 0) => "NOT RUN",
                (true, _) => "HOLDS",
            };
            let _ = writeln!(
                s,
                "{:<28} {verdict}  {} cases, worst margin {:.3e}   {}",
                c.name, c.cases, c.worst_margin, c.citation
            );
            let _ = writeln!(s, "  {}", c.statement);
            if let Some(x) = &c.counterexample {
                let _ = writeln!(
                    s,
                    "  counterexample: value {} > bound {}; priors {:?}; channels {:?}",
                    x.value, x.bound, x.priors, x.channels
                );
            }
            for n in &c.notes {
                let _ = writeln!(s, "  {n}");
            }
        }
        s
    }
}
