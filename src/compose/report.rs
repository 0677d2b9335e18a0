//! `mechsynth compose`: the exact leakage of the joint release against the stated bounds.

use super::bounds::{advanced_composition, basic_composition, bp_theorem4_bound};
use super::{check_deadline, product_until, ComposeError};
use crate::channel::Channel;
use crate::privacy::{
    identifiability_leakage, ldp_delta, ldp_leakage, lip_leakage, max_leakage,
    mutual_information_up, smallest_epsilon,
};
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

fn smallest_entry(p: &[f64]) -> f64 {
    p.iter().copied().fold(f64::INFINITY, f64::min)
}

/// Build the product of `channels` (refused above the size limit) and report its exact leakage
/// under LDP, LIP with `prior`, BP-LIP with `options.bp_priors`, maximal leakage, mutual
/// information and identifiability, each with the bound from the single releases.
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
    let p_min = smallest_entry(prior);
    let mut rows = vec![
        row(
            "ldp",
            ldp_leakage(&joint),
            Some((
                basic_composition(&single_ldp),
                "basic composition: sum of eps_k",
            )),
        ),
        row(
            "lip",
            lip_leakage(&joint, &priors),
            Some((
                bp_theorem4_bound(&single_lip, p_min, p_min),
                "context-aware-lip Thm 4",
            )),
        ),
    ];
    if let Some(delta) = options.delta_prime {
        // Each step of the bisection is one pass over the product; once the deadline passes
        // the remaining steps return at once and the (unfinished) value is discarded below.
        let stopped = Cell::new(false);
        let delta_at = |e| {
            if stopped.get() || deadline.is_some_and(|d| Instant::now() >= d) {
                stopped.set(true);
                return 0.0;
            }
            ldp_delta(&joint, e)
        };
        let exact = smallest_epsilon(delta_at, ldp_leakage(&joint), delta);
        if stopped.get() {
            return Err(ComposeError::TimeLimit(format!(
                "computing the smallest eps at delta' = {delta} of the product"
            )));
        }
        let eps = single_ldp.iter().copied().fold(0.0, f64::max);
        rows.push(row(
            &format!("ldp eps at delta' = {delta}"),
            exact,
            Some((
                advanced_composition(eps, channels.len(), delta),
                "advanced composition (Dwork-Rothblum-Vadhan) at max eps_k",
            )),
        ));
    }
    if let Some(bp) = &options.bp_priors {
        before("bp-lip")?;
        let mins: Vec<f64> = bp.iter().map(|p| smallest_entry(p)).collect();
        let (min_bp, max_bp) = (
            mins.iter().copied().fold(f64::INFINITY, f64::min),
            mins.iter().copied().fold(0.0, f64::max),
        );
        let single: Vec<f64> = channels.iter().map(|c| lip_leakage(c, bp)).collect();
        rows.push(row(
            "bp-lip",
            lip_leakage(&joint, bp),
            Some((
                bp_theorem4_bound(&single, min_bp, max_bp),
                "context-aware-lip Cor. 4",
            )),
        ));
    }
    let sum_of = |f: &dyn Fn(&Channel) -> f64| channels.iter().map(|c| f(c)).sum::<f64>();
    before("max-leakage")?;
    rows.push(row(
        "max-leakage",
        max_leakage(&joint, prior),
        Some((
            sum_of(&|c| max_leakage(c, prior)),
            "sum of single releases (max of a product <= product of maxima)",
        )),
    ));
    before("mutual-information")?;
    rows.push(row(
        "mutual-information",
        mutual_information_up(&joint, prior),
        Some((
            sum_of(&|c| mutual_information_up(c, prior)),
            "sum of single releases (conditionally independent given X)",
        )),
    ));
    before("identifiability")?;
    rows.push(row(
        "identifiability",
        identifiability_leakage(&joint, prior),
        None,
    ));
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
