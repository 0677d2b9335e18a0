//! `mechsynth compose`: the exact leakage of the joint release against the stated bounds.

use super::bounds::advanced_composition;
use super::{check_deadline, product_until, ComposeError};
use crate::channel::Channel;
use crate::privacy::registry::composition_rules;
use crate::privacy::{ldp_delta, ldp_leakage, lip_leakage, smallest_epsilon};
use serde::Serialize;
use std::cell::Cell;
use std::time::Instant;

/// One notion: the exact leakage of the joint release and a bound from the single releases.
#[derive(Debug, Clone, Serialize)]
pub struct ComposeRow {
    /// The notion (`ldp`, `lip`, ...).
    pub notion: String,
    /// Exact leakage of the product channel, outward rounded.
    #[serde(serialize_with = "crate::float_serde::serialize_number")]
    pub exact: f64,
    /// The bound computed from the single releases' exact leakages, if one is stated.
    #[serde(serialize_with = "optional_number")]
    pub bound: Option<f64>,
    /// Where the bound comes from.
    pub bound_source: Option<String>,
    /// `bound / exact` (how loose the bound is).
    #[serde(serialize_with = "optional_number")]
    pub ratio: Option<f64>,
    /// `bound - exact` (negative: the bound fails).
    #[serde(serialize_with = "optional_number")]
    pub gap: Option<f64>,
}

/// Options of [`compose`].
#[derive(Debug, Clone, Default)]
pub struct ComposeOptions {
    /// Vertices of a prior set for BP-LIP (Cor. 4), if any.
    pub bp_priors: Option<Vec<Vec<f64>>>,
    /// delta' for advanced composition, if any.
    pub delta_prime: Option<f64>,
    /// Stop with [`ComposeError::TimeLimit`] once this has passed (checked before each input's
    /// row of the product, before each notion and before each step of the delta' bisection).
    pub deadline: Option<Instant>,
}

/// The leakage of a joint release.
#[derive(Debug, Clone, Serialize)]
pub struct ComposeReport {
    /// Number of releases.
    pub releases: usize,
    /// Inputs.
    pub inputs: usize,
    /// Outputs of the product channel.
    pub outputs: usize,
    /// The prior (LIP, max-leakage, mutual information, identifiability).
    pub prior: Vec<f64>,
    /// Exact LDP leakage of each single release.
    #[serde(serialize_with = "number_list")]
    pub single_ldp: Vec<f64>,
    /// Exact LIP leakage of each single release under the prior.
    #[serde(serialize_with = "number_list")]
    pub single_lip: Vec<f64>,
    /// One row per notion.
    pub rows: Vec<ComposeRow>,
}

/// A list of numbers written as [`crate::float_serde::serialize_number`] writes one (`"inf"` for an
/// infinite leakage, as in the rows, where JSON would otherwise get `null`).
fn number_list<S: serde::Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    struct Number(f64);
    impl Serialize for Number {
        fn serialize<S2: serde::Serializer>(&self, s: S2) -> Result<S2::Ok, S2::Error> {
            crate::float_serde::serialize_number(&self.0, s)
        }
    }
    let mut seq = s.serialize_seq(Some(v.len()))?;
    for &x in v {
        seq.serialize_element(&Number(x))?;
    }
    seq.end()
}

fn optional_number<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => crate::float_serde::serialize_number(v, s),
        None => s.serialize_none(),
    }
}

fn row(notion: &str, exact: f64, bound: Option<(f64, &str)>) -> ComposeRow {
    ComposeRow {
        notion: notion.into(),
        exact,
        bound: bound.map(|b| b.0),
        bound_source: bound.map(|b| b.1.to_string()),
        // Equal values (0 and 0, inf and inf) have ratio 1 and gap 0, not NaN.
        ratio: bound.map(|b| if b.0 == exact { 1.0 } else { b.0 / exact }),
        gap: bound.map(|b| if b.0 == exact { 0.0 } else { b.0 - exact }),
    }
}

/// The notions whose single releases' leakages the report carries (`single_ldp`,
/// `single_lip`): one deadline check comes before all of them.
const CARRIED: [&str; 2] = ["ldp", "lip"];

/// The row after which the `ldp eps at delta'` row goes.
const DELTA_PRIME_AFTER: &str = "lip";

/// Build the product of `channels` (refused above the size limit) and report its exact leakage
/// under every notion with a composition rule in [`crate::privacy::NOTIONS`] (LDP, LIP with
/// `prior`, BP-LIP with `options.bp_priors`, maximal leakage, mutual information and
/// identifiability), each with the bound from the single releases.
/// [`ComposeError::TimeLimit`] when `options.deadline` passes first.
pub fn compose(
    channels: &[&Channel],
    prior: &[f64],
    options: &ComposeOptions,
) -> Result<ComposeReport, ComposeError> {
    let deadline = options.deadline;
    let joint = product_until(channels, deadline)?;
    let before = |notion: &str| {
        check_deadline(
            deadline,
            &format!("computing the {notion} leakage of the product"),
        )
    };
    before("ldp and lip")?;
    let priors = [prior.to_vec()];
    let single_ldp: Vec<f64> = channels.iter().map(|c| ldp_leakage(c)).collect();
    let single_lip: Vec<f64> = channels.iter().map(|c| lip_leakage(c, &priors)).collect();
    let mut rows = Vec::new();
    for (key, rule) in composition_rules() {
        let priors: &[Vec<f64>] = if rule.prior_set {
            match &options.bp_priors {
                Some(set) => set,
                None => continue,
            }
        } else {
            &priors
        };
        if !CARRIED.contains(&key) {
            before(key)?;
        }
        let exact = (rule.leakage)(&joint, priors);
        let bound = rule.bound.map(|b| {
            let singles: Vec<f64> = channels.iter().map(|c| (rule.leakage)(c, priors)).collect();
            ((b.from_singles)(&singles, priors), b.source)
        });
        rows.push(row(key, exact, bound));
        if key == DELTA_PRIME_AFTER {
            if let Some(delta) = options.delta_prime {
                rows.push(delta_prime_row(
                    channels,
                    &joint,
                    &single_ldp,
                    delta,
                    deadline,
                )?);
            }
        }
    }
    Ok(ComposeReport {
        releases: channels.len(),
        inputs: joint.inputs(),
        outputs: joint.outputs(),
        prior: prior.to_vec(),
        single_ldp,
        single_lip,
        rows,
    })
}

/// The row of the smallest eps of the product at `delta`, against advanced composition.
fn delta_prime_row(
    channels: &[&Channel],
    joint: &Channel,
    single_ldp: &[f64],
    delta: f64,
    deadline: Option<Instant>,
) -> Result<ComposeRow, ComposeError> {
    // Each step of the bisection is one pass over the product; once the deadline passes
    // the remaining steps return at once and the (unfinished) value is discarded below.
    let stopped = Cell::new(false);
    let delta_at = |e| {
        if stopped.get() || deadline.is_some_and(|d| Instant::now() >= d) {
            stopped.set(true);
            return 0.0;
        }
        ldp_delta(joint, e)
    };
    let exact = smallest_epsilon(delta_at, ldp_leakage(joint), delta);
    if stopped.get() {
        return Err(ComposeError::TimeLimit(format!(
            "computing the smallest eps at delta' = {delta} of the product"
        )));
    }
    let eps = single_ldp.iter().copied().fold(0.0, f64::max);
    Ok(row(
        &format!("ldp eps at delta' = {delta}"),
        exact,
        Some((
            advanced_composition(eps, channels.len(), delta),
            "advanced composition (Dwork-Rothblum-Vadhan) at max eps_k",
        )),
    ))
}

impl ComposeReport {
    /// A human-readable table.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{} releases: product channel {} inputs x {} outputs",
            self.releases, self.inputs, self.outputs
        );
        let show = |v: &[f64]| match v {
            [first, ..] if v.iter().all(|x| x == first) => format!("{first:.9} each"),
            _ => format!("{v:?}"),
        };
        let _ = writeln!(
            s,
            "single releases: ldp {}, lip {}",
            show(&self.single_ldp),
            show(&self.single_lip)
        );
        let _ = writeln!(
            s,
            "{:<28} {:>12} {:>12} {:>9} {:>10}  bound from",
            "notion", "exact", "bound", "ratio", "gap"
        );
        let opt = |v: Option<f64>, w: usize, p: usize| match v {
            Some(v) => format!("{v:>w$.p$}"),
            None => format!("{:>w$}", "-"),
        };
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{:<28} {:>12.6} {} {} {}  {}",
                r.notion,
                r.exact,
                opt(r.bound, 12, 6),
                opt(r.ratio, 9, 3),
                opt(r.gap, 10, 4),
                r.bound_source.as_deref().unwrap_or("-")
            );
        }
        s
    }

    /// CSV: `notion,exact,bound,ratio,gap,bound_source`, full precision.
    pub fn to_csv(&self) -> String {
        use std::fmt::Write;
        let mut s = String::from("notion,exact,bound,ratio,gap,bound_source\n");
        let opt = |v: Option<f64>| v.map(|v| format!("{v:?}")).unwrap_or_default();
        for r in &self.rows {
            let _ = writeln!(
                s,
                "{},{:?},{},{},{},\"{}\"",
                r.notion,
                r.exact,
                opt(r.bound),
                opt(r.ratio),
                opt(r.gap),
                r.bound_source.as_deref().unwrap_or("")
            );
        }
        s
    }
}
