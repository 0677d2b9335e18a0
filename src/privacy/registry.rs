//! The table of notions: one entry per notion, one line each, in the order problem files and
//! error messages list them. Every list of notions outside the notion's own file derives from
//! it: [`NOTION_NAMES`](super::NOTION_NAMES), the leakage profile of the reports
//! ([`leakage_profile`](super::leakage_profile)), the notions a curve can compare with
//! ([`comparable_notions`]) and the rows of `mechsynth compose` ([`composition_rules`]).
//!
//! Each notion's file defines its [`NotionEntry`] (its key, how its leakage is profiled, how
//! releases compose under it); [`NOTIONS`] only names the entries.

use crate::channel::Channel;
use crate::domain::Domain;

/// Leakage of a channel under a notion, measured against a domain and its prior (outward
/// rounded; `inf` when unbounded), or `None` when the notion does not apply to the domain.
pub type ProfileFn = fn(&Channel, &Domain) -> Option<f64>;

/// One notion as every list of notions sees it.
#[derive(Debug, Clone, Copy)]
pub struct NotionEntry {
    /// The notion's name as in problem files (`notion = "..."`).
    pub key: &'static str,
    /// Its leakage in the reports' leakage profile, if it has a row there.
    pub profile: Option<ProfileFn>,
    /// Whether that leakage costs more than O(n^2) for a channel over a domain (`n` inputs and
    /// as many outputs), so that a quick profile leaves it out; `None`: it never does.
    pub profile_costly: Option<fn(&Channel, &Domain) -> bool>,
    /// Whether a curve can compare with the optimum under it (`--compare`): the notion needs
    /// no parameter besides `epsilon`.
    pub compare: bool,
    /// Its row in `mechsynth compose`, if it has one.
    pub composition: Option<CompositionRule>,
}

impl NotionEntry {
    /// An entry with no profile, no comparison and no composition row (fields are then set
    /// with struct update syntax).
    pub const fn new(key: &'static str) -> Self {
        NotionEntry {
            key,
            profile: None,
            profile_costly: None,
            compare: false,
            composition: None,
        }
    }
}

/// How `mechsynth compose` reports a notion: the exact leakage of the joint release and a
/// bound on it from the single releases' leakages.
#[derive(Debug, Clone, Copy)]
pub struct CompositionRule {
    /// Position among the compose rows (rows are listed by increasing rank).
    pub rank: u8,
    /// Whether the notion is measured against the prior set given with the compose options
    /// (bounded-prior LIP): its row is reported only when one is given.
    pub prior_set: bool,
    /// The exact leakage of one channel (a single release or the product), outward rounded,
    /// against `priors`: the compose prior alone, or the prior set when
    /// [`CompositionRule::prior_set`] holds.
    pub leakage: fn(&Channel, &[Vec<f64>]) -> f64,
    /// The stated bound on the joint leakage, if there is one.
    pub bound: Option<CompositionBound>,
}

/// A bound on the leakage of a joint release from the leakages of its single releases.
#[derive(Debug, Clone, Copy)]
pub struct CompositionBound {
    /// The bound from the single releases' leakages and the priors they were measured with.
    pub from_singles: fn(&[f64], &[Vec<f64>]) -> f64,
    /// Where the bound comes from, as the compose report prints it.
    pub source: &'static str,
}

/// Every notion, in the order of [`super::PrivacySpec`]'s variants.
pub const NOTIONS: &[NotionEntry] = &[
    super::ldp::ENTRY,
    super::context::ENTRY,
    super::high_low::ENTRY,
    super::block::ENTRY,
    super::dprivacy::ENTRY,
    super::lip::ENTRY,
    super::lip::BP_ENTRY,
    super::max_leakage::ENTRY,
    super::identifiability::ENTRY,
    super::mutual_information::ENTRY,
];

/// The keys of [`NOTIONS`], in order (a `const` array, for
/// [`NOTION_NAMES`](super::NOTION_NAMES)).
pub(super) const fn keys<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = NOTIONS[i].key;
        i += 1;
    }
    out
}

/// The entry of the notion named `key`, if there is one.
pub fn entry(key: &str) -> Option<&'static NotionEntry> {
    NOTIONS.iter().find(|n| n.key == key)
}

/// The notions a curve can compare with (those that need only `epsilon`), in table order.
pub fn comparable_notions() -> Vec<&'static str> {
    NOTIONS
        .iter()
        .filter(|n| n.compare)
        .map(|n| n.key)
        .collect()
}

/// The notions with a compose row and their rules, by increasing rank.
pub fn composition_rules() -> Vec<(&'static str, CompositionRule)> {
    let mut rules: Vec<_> = NOTIONS
        .iter()
        .filter_map(|n| Some((n.key, n.composition?)))
        .collect();
    rules.sort_by_key(|(_, r)| r.rank);
    rules
}

/// The smallest entry of a prior (`inf` for an empty one).
pub(super) fn smallest_entry(p: &[f64]) -> f64 {
    p.iter().copied().fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::super::{PrivacySpec, NOTION_NAMES};
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// The variant names serde accepts for `notion`, as its error for an unknown one lists them.
    fn serde_variants() -> Vec<String> {
        let e = toml::from_str::<PrivacySpec>("notion = \"no-such-notion\"\nepsilon = 1.0\n")
            .unwrap_err()
            .to_string();
        let list = e.split("expected one of").nth(1).expect(&e);
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect()
    }

    #[test]
    fn keys_are_unique() {
        let keys: BTreeSet<&str> = NOTIONS.iter().map(|n| n.key).collect();
        assert_eq!(keys.len(), NOTIONS.len());
    }

    /// A minimal entry of every notion, in table order (a new notion adds one here).
    const EXAMPLES: [(&str, &str); 10] = [
        ("ldp", "epsilon = 1.0"),
        ("context-ldp", "matrix = [[0.0, 1.0], [1.0, 0.0]]"),
        ("high-low", "epsilon = 1.0\nsensitive = [0]"),
        ("block", "epsilon = 1.0\nblocks = [[0, 1]]"),
        ("d-privacy", "epsilon = 1.0\nmetric = \"line\""),
        ("lip", "epsilon = 1.0"),
        ("bp-lip", "epsilon = 1.0\npriors = [[0.5, 0.5]]"),
        ("max-leakage", "epsilon = 1.0"),
        ("identifiability", "epsilon = 1.0"),
        ("mutual-information", "epsilon = 1.0"),
    ];

    fn parse(name: &str, body: &str) -> Option<PrivacySpec> {
        toml::from_str(&format!("notion = \"{name}\"\n{body}\n")).ok()
    }

    /// Every key of the table is a variant name serde accepts, and every name serde accepts
    /// (a variant's or an alias) selects a variant whose key is in the table.
    #[test]
    fn the_table_and_the_spec_enum_name_the_same_notions() {
        let variants = serde_variants();
        for key in NOTION_NAMES {
            assert!(variants.iter().any(|v| v == key), "{key} is not a variant");
        }
        for name in &variants {
            let parsed: Vec<&str> = EXAMPLES
                .iter()
                .filter_map(|(_, body)| parse(name, body))
                .map(|spec| spec.notion())
                .collect();
            assert!(!parsed.is_empty(), "no example parses as `{name}`");
            for key in parsed {
                assert!(
                    NOTION_NAMES.contains(&key),
                    "`{name}` is {key}, not in the table"
                );
            }
        }
    }

    /// One entry of every variant; `notion()` names each with its table key.
    #[test]
    fn every_variant_is_named_by_its_table_key() {
        let keys: Vec<&str> = EXAMPLES.iter().map(|e| e.0).collect();
        assert_eq!(keys, NOTION_NAMES);
        for (key, body) in EXAMPLES {
            let spec = parse(key, body).unwrap_or_else(|| panic!("{key}: {body}"));
            assert_eq!(spec.notion(), key);
            assert_eq!(entry(key).map(|e| e.key), Some(key));
        }
    }

    #[test]
    fn the_derived_lists_are_the_documented_ones() {
        assert_eq!(
            NOTION_NAMES,
            [
                "ldp",
                "context-ldp",
                "high-low",
                "block",
                "d-privacy",
                "lip",
                "bp-lip",
                "max-leakage",
                "identifiability",
                "mutual-information",
            ]
        );
        assert_eq!(
            comparable_notions(),
            [
                "ldp",
                "lip",
                "max-leakage",
                "identifiability",
                "mutual-information"
            ]
        );
        let profiled: Vec<&str> = NOTIONS
            .iter()
            .filter(|n| n.profile.is_some())
            .map(|n| n.key)
            .collect();
        assert_eq!(
            profiled,
            [
                "ldp",
                "d-privacy",
                "lip",
                "max-leakage",
                "identifiability",
                "mutual-information"
            ]
        );
        let rows: Vec<(&str, bool, Option<&str>)> = composition_rules()
            .into_iter()
            .map(|(k, r)| (k, r.prior_set, r.bound.map(|b| b.source)))
            .collect();
        assert_eq!(
            rows,
            [
                ("ldp", false, Some("basic composition: sum of eps_k")),
                ("lip", false, Some("context-aware-lip Thm 4")),
                ("bp-lip", true, Some("context-aware-lip Cor. 4")),
                (
                    "max-leakage",
                    false,
                    Some("sum of single releases (max of a product <= product of maxima)")
                ),
                (
                    "mutual-information",
                    false,
                    Some("sum of single releases (conditionally independent given X)")
                ),
                ("identifiability", false, None),
            ]
        );
    }

    /// A notion a curve compares with is one that `notion` and `epsilon` alone describe.
    #[test]
    fn comparable_notions_are_those_that_need_only_epsilon() {
        for n in NOTIONS {
            let text = format!("notion = \"{}\"\nepsilon = 1.0\n", n.key);
            let parses = toml::from_str::<PrivacySpec>(&text).is_ok();
            assert_eq!(n.compare, parses, "{}", n.key);
        }
    }

    /// The profile has one row per profiled notion that applies: d-privacy only with
    /// positions.
    #[test]
    fn the_profile_has_a_row_per_profiled_notion() {
        let channel = Channel::new(vec![vec![0.6, 0.4], vec![0.3, 0.7]]).unwrap();
        let sized = Domain::sized(2).unwrap();
        let keys: Vec<String> = super::super::leakage_profile(&channel, &sized)
            .into_keys()
            .collect();
        assert_eq!(
            keys,
            [
                "identifiability",
                "ldp",
                "lip",
                "max-leakage",
                "mutual-information"
            ]
        );
        // On a line, d-privacy joins with the natural distance; each value is the notion's own
        // leakage function.
        let channel = Channel::new(vec![
            vec![0.5, 0.3, 0.2],
            vec![0.3, 0.4, 0.3],
            vec![0.1, 0.3, 0.6],
        ])
        .unwrap();
        let line = Domain::line(3)
            .unwrap()
            .with_prior(vec![0.2, 0.3, 0.5])
            .unwrap();
        let prior = line.prior().to_vec();
        let unit = line.natural_distances();
        let expected: BTreeMap<String, f64> = [
            ("ldp", super::super::ldp_leakage(&channel)),
            (
                "lip",
                super::super::lip_leakage(&channel, std::slice::from_ref(&prior)),
            ),
            ("max-leakage", super::super::max_leakage(&channel, &prior)),
            (
                "mutual-information",
                super::super::mutual_information_up(&channel, &prior),
            ),
            (
                "identifiability",
                super::super::identifiability_leakage(&channel, &prior),
            ),
            ("d-privacy", super::super::matrix_leakage(&channel, &unit)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        assert_eq!(super::super::leakage_profile(&channel, &line), expected);
    }
}
