//! The table of objective kinds: one entry per kind, one line each, in the order problem files
//! and error messages list them. The lists of kinds outside a kind's own file derive from it:
//! [`OBJECTIVE_NAMES`](super::OBJECTIVE_NAMES), the kinds that take no key besides `kind`
//! ([`kinds_without_keys`]) and the reports' objective profile
//! ([`objective_profile`](super::objective_profile)).
//!
//! Each kind's file defines its [`ObjectiveEntry`]; [`OBJECTIVES`] only names the entries.

use crate::channel::Channel;
use crate::domain::Domain;

/// One objective kind as every list of kinds sees it.
#[derive(Debug, Clone, Copy)]
pub struct ObjectiveEntry {
    /// The kind's name as in problem files (`kind = "..."`).
    pub kind: &'static str,
    /// Whether the kind takes keys besides `kind` (a unit variant does not, and serde would
    /// accept and drop any key given with it, so problem files are checked for them).
    pub takes_keys: bool,
    /// Its entry in the reports' objective profile, if it has one.
    pub profile: Option<ObjectiveProfile>,
}

impl ObjectiveEntry {
    /// An entry that takes keys and has no profile (fields are then set with struct update
    /// syntax).
    pub const fn new(kind: &'static str) -> Self {
        ObjectiveEntry {
            kind,
            takes_keys: true,
            profile: None,
        }
    }
}

/// How the objective profile evaluates a kind with default parameters.
#[derive(Debug, Clone, Copy)]
pub struct ObjectiveProfile {
    /// The value of a channel over the domain (as many inputs as symbols), or `None` when the
    /// kind does not apply to it or the value is not finite where that is left out.
    pub value: fn(&Channel, &Domain) -> Option<f64>,
    /// Whether the value costs O(n^3) (left out above the profile's cubic limit).
    pub cubic: bool,
}

/// Every objective kind, in the order of [`super::ObjectiveSpec`]'s variants.
pub const OBJECTIVES: &[ObjectiveEntry] = &[
    super::loss::ENTRY,
    super::CO_LOCATION_ENTRY,
    super::column::MMSE_SUM_ENTRY,
    super::column::MMSE_HISTOGRAM_ENTRY,
    super::column::MUTUAL_INFORMATION_ENTRY,
    super::inversion::ENTRY,
    super::frequency::ENTRY,
];

/// The kinds of [`OBJECTIVES`], in order (a `const` array, for
/// [`OBJECTIVE_NAMES`](super::OBJECTIVE_NAMES)).
pub(super) const fn kinds<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = OBJECTIVES[i].kind;
        i += 1;
    }
    out
}

/// The kinds that take no key besides `kind`, in table order.
pub fn kinds_without_keys() -> Vec<&'static str> {
    OBJECTIVES
        .iter()
        .filter(|o| !o.takes_keys)
        .map(|o| o.kind)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{objective_profile_up_to, ObjectiveSpec, OBJECTIVE_NAMES};
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn kinds_are_unique() {
        let kinds: BTreeSet<&str> = OBJECTIVES.iter().map(|o| o.kind).collect();
        assert_eq!(kinds.len(), OBJECTIVES.len());
    }

    /// The kinds serde accepts, as its error for an unknown one lists them, are the table's.
    #[test]
    fn the_table_is_the_spec_enum() {
        let e = toml::from_str::<ObjectiveSpec>("kind = \"no-such-kind\"\n")
            .unwrap_err()
            .to_string();
        let list = e.split("expected one of").nth(1).expect(&e);
        let variants: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
        assert_eq!(variants, OBJECTIVE_NAMES, "{e}");
    }

    #[test]
    fn the_derived_lists_are_the_documented_ones() {
        assert_eq!(
            OBJECTIVE_NAMES,
            [
                "expected-loss",
                "co-location",
                "mmse-sum",
                "mmse-histogram",
                "mutual-information",
                "inversion-mse",
                "frequency-mse",
            ]
        );
        assert_eq!(
            kinds_without_keys(),
            ["co-location", "mmse-histogram", "mutual-information"]
        );
        let profiled: Vec<(&str, bool)> = OBJECTIVES
            .iter()
            .filter_map(|o| Some((o.kind, o.profile?.cubic)))
            .collect();
        assert_eq!(
            profiled,
            [
                ("mmse-sum", false),
                ("mmse-histogram", false),
                ("mutual-information", false),
                ("inversion-mse", true),
                ("frequency-mse", true),
            ]
        );
    }

    /// A kind without keys is a unit variant: serde accepts a stray key with it (which is why
    /// problem files are checked), and refuses one with every other kind.
    #[test]
    fn kinds_without_keys_are_the_unit_variants() {
        for o in OBJECTIVES {
            let text = format!("kind = \"{}\"\nbogus_key = 1\n", o.kind);
            let accepted = toml::from_str::<ObjectiveSpec>(&text).is_ok();
            assert_eq!(!o.takes_keys, accepted, "{}", o.kind);
        }
    }

    /// The profile of a square invertible channel over a sized domain has every profiled
    /// kind; above the cubic limit only the others.
    #[test]
    fn the_profile_has_a_row_per_profiled_kind() {
        let channel = Channel::new(vec![vec![0.7, 0.3], vec![0.2, 0.8]]).unwrap();
        let domain = Domain::sized(2).unwrap();
        let keys = |limit| -> Vec<String> {
            objective_profile_up_to(&channel, &domain, limit)
                .into_keys()
                .collect()
        };
        assert_eq!(
            keys(10),
            [
                "frequency-mse",
                "inversion-mse",
                "mmse-histogram",
                "mmse-sum",
                "mutual-information"
            ]
        );
        assert_eq!(
            keys(1),
            ["mmse-histogram", "mmse-sum", "mutual-information"]
        );
    }
}
