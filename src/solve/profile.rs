//! The report's profiles of the emitted channel (its leakage under every notion, every
//! objective), computed to the extent [`ProfileLevel`] asks and timed.
//!
//! Every entry of the quick profile is one pass over the channel, O(n^2) for `n` inputs and
//! as many outputs; the O(n^3) entries (`inversion-mse` and `frequency-mse`, which invert an
//! n x n matrix, and `d-privacy` on points that are not a line lattice) are computed by the
//! default level only on small channels, and by [`ProfileLevel::Full`] at any size.

use crate::channel::Channel;
use crate::objective::{objective_profile_for, profile_accuracy_warning, OBJECTIVES};
use crate::privacy::leakage_profile_within;
use crate::problem::Problem;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Instant;

/// How much of the profiles the report computes (`solve --profile`, `profile=` in Python).
/// The value of every entry that is computed is the same at every level.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum ProfileLevel {
    /// Every entry that costs O(n^2); the O(n^3) ones up to 100 inputs (and the problem's own
    /// objective at any size).
    #[default]
    Auto,
    /// Every entry at any size (the O(n^3) ones take seconds from 1,000 inputs on; past the
    /// time limit they are left out).
    Full,
    /// No profile: the report's leakage and objectives are empty.
    None,
}

/// Up to this many inputs the O(n^3) entries take milliseconds, and [`ProfileLevel::Auto`]
/// computes them.
pub const PROFILE_QUICK_INPUTS: usize = 100;

/// The O(n^3) entries of [`ProfileLevel::Full`] are estimated at this many seconds per n^3
/// (measured: 5 s at 1,000 inputs on one core), to skip them when they would run past the
/// time limit.
const CUBIC_SECONDS_PER_INPUT_CUBED: f64 = 5e-9;

/// The profiles, what they left out, and what they cost.
#[derive(Debug, Default)]
pub(super) struct Profiles {
    /// Leakage under every notion that applies (computed ones).
    pub leakage: BTreeMap<String, f64>,
    /// Every objective that applies (computed ones).
    pub objectives: BTreeMap<String, f64>,
    /// Milliseconds spent on the leakage profile.
    pub leakage_ms: f64,
    /// Milliseconds spent on the objective profile (with its accuracy check).
    pub objective_ms: f64,
    /// What was left out and how to get it.
    pub notes: Vec<String>,
    /// Findings about the values (an ill-conditioned Fisher information; the time limit cut
    /// a full profile).
    pub warnings: Vec<String>,
}

/// The profiles of `channel` at `level`; `deadline` is the solve's.
pub(super) fn profiles(
    channel: &Channel,
    problem: &Problem,
    level: ProfileLevel,
    deadline: Instant,
) -> Profiles {
    let mut out = Profiles::default();
    let n = channel.inputs();
    let costly = match level {
        ProfileLevel::None => {
            out.notes.push(
                "no leakage or objective profile was computed (--profile none; `profile=\"none\"` in Python); `--profile auto` computes the quick one, `--profile full` every entry".into(),
            );
            return out;
        }
        ProfileLevel::Auto => n <= PROFILE_QUICK_INPUTS,
        ProfileLevel::Full => {
            let estimate = CUBIC_SECONDS_PER_INPUT_CUBED * (n as f64).powi(3);
            let left = deadline.saturating_duration_since(Instant::now());
            let fits = left.as_secs_f64() >= estimate;
            if !fits && n > PROFILE_QUICK_INPUTS {
                out.warnings.push(format!(
                    "the time limit leaves {:.1} s, so the profile leaves out its O(n^3) entries (about {estimate:.1} s at {n} inputs): inversion-mse and frequency-mse of the channel unless the problem's objective is one, and d-privacy on points that are not a line; `mechsynth audit` computes them",
                    left.as_secs_f64()
                ));
            }
            fits || n <= PROFILE_QUICK_INPUTS
        }
    };
    let start = Instant::now();
    let (leakage, leakage_left_out) = leakage_profile_within(channel, &problem.domain, costly);
    out.leakage = leakage;
    out.leakage_ms = ms(start);

    let start = Instant::now();
    let cubic_limit = if costly {
        usize::MAX
    } else {
        PROFILE_QUICK_INPUTS
    };
    out.objectives = objective_profile_for(
        channel,
        &problem.domain,
        &problem.spec.objective,
        cubic_limit,
    );
    if let Some(w) = profile_accuracy_warning(channel, &problem.domain, &out.objectives) {
        out.warnings.push(w);
    }
    out.objective_ms = ms(start);

    let mut left_out: Vec<&str> = leakage_left_out;
    if n > cubic_limit && channel.inputs() == problem.domain.size() {
        left_out.extend(
            OBJECTIVES
                .iter()
                .filter(|o| o.profile.is_some_and(|p| p.cubic))
                .map(|o| o.kind)
                .filter(|k| !out.objectives.contains_key(*k))
                // Where they apply: a square channel for the inversion, a positive prior for
                // the efficient estimator.
                .filter(|&k| match k {
                    "inversion-mse" => channel.outputs() == n,
                    "frequency-mse" => problem.domain.prior().iter().all(|&p| p > 0.0),
                    _ => true,
                }),
        );
    }
    if level == ProfileLevel::Auto && !left_out.is_empty() {
        out.notes.push(format!(
            "the profile leaves out {} (O(n^3) at {n} inputs); `--profile full` (`profile=\"full\"` in Python) computes them",
            left_out.join(", ")
        ));
    }
    out
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}
