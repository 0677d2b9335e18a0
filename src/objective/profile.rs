//! Every applicable objective evaluated at one channel (the reports' objective profiles).

use super::{FrequencyMse, ObjectiveSpec, QuerySpec, Sampling};
use crate::channel::Channel;
use crate::domain::Domain;
use std::collections::BTreeMap;

/// As [`objective_profile`], with the parameters of `spec` where it is one of the profiled
/// objectives (the `weight` of `mmse-sum`; the `users` and `distribution` of `inversion-mse`
/// and `frequency-mse`, which also apply to the other of the two), so that the profile agrees
/// with the problem's own objective. The O(n^3) entries are left out above `cubic_limit`
/// inputs, except the problem's own objective and its twin.
pub fn objective_profile_for(
    channel: &Channel,
    domain: &Domain,
    spec: &ObjectiveSpec,
    cubic_limit: usize,
) -> BTreeMap<String, f64> {
    let mut out = objective_profile_up_to(channel, domain, cubic_limit);
    if channel.inputs() != domain.size() {
        return out;
    }
    match spec {
        ObjectiveSpec::MmseSum { .. }
        | ObjectiveSpec::InversionMse { .. }
        | ObjectiveSpec::FrequencyMse { .. } => {
            if let Ok(objective) = spec.resolve(domain) {
                let key = match spec {
                    ObjectiveSpec::MmseSum { .. } => "mmse-sum",
                    ObjectiveSpec::FrequencyMse { .. } => "frequency-mse",
                    _ => "inversion-mse",
                };
                let v = objective.evaluate(channel);
                if v.is_finite() {
                    out.insert(key.into(), v);
                } else {
                    out.remove(key);
                }
            }
        }
        _ => {}
    }
    // The two frequency MSEs are profiled with the same users and distribution, so that on a
    // square channel they agree (the efficient estimator is then the inversion).
    let twin = match spec {
        ObjectiveSpec::InversionMse {
            distribution,
            users,
        } => Some((
            "frequency-mse",
            ObjectiveSpec::FrequencyMse {
                queries: None,
                sampling: None,
                distribution: distribution.clone(),
                users: *users,
            },
        )),
        ObjectiveSpec::FrequencyMse {
            distribution,
            users,
            ..
        } => Some((
            "inversion-mse",
            ObjectiveSpec::InversionMse {
                distribution: distribution.clone(),
                users: *users,
            },
        )),
        _ => None,
    };
    if let Some((key, twin)) = twin {
        match twin.resolve(domain).map(|o| o.evaluate(channel)) {
            Ok(v) if v.is_finite() => {
                out.insert(key.into(), v);
            }
            _ => {
                out.remove(key);
            }
        }
    }
    out
}

/// Channels with more inputs than this leave out the profile's O(n^3) entries (inversion and
/// frequency MSE; about two minutes at 3,000 symbols) unless the problem's objective is one.
pub const PROFILE_CUBIC_LIMIT: usize = 1000;

/// Every objective of [`super::OBJECTIVES`] with a profile that applies to the channel over
/// `domain`, evaluated: `mmse-sum` (of the domain's values, weight 1; not for a `labels`
/// domain, whose symbols have no values), `mmse-histogram`, `mutual-information` (nats), and
/// `inversion-mse` (one user, true distribution = the prior) when the channel is square and
/// invertible, and `frequency-mse` (every frequency, fixed counts, one user) when it is finite
/// (these two only up to [`PROFILE_CUBIC_LIMIT`] inputs).
pub fn objective_profile(channel: &Channel, domain: &Domain) -> BTreeMap<String, f64> {
    objective_profile_up_to(channel, domain, PROFILE_CUBIC_LIMIT)
}

/// As [`objective_profile`], leaving out the O(n^3) entries above `cubic_limit` inputs.
pub fn objective_profile_up_to(
    channel: &Channel,
    domain: &Domain,
    cubic_limit: usize,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if channel.inputs() != domain.size() {
        return out;
    }
    for entry in super::OBJECTIVES {
        let Some(profile) = entry.profile else {
            continue;
        };
        if profile.cubic && channel.inputs() > cubic_limit {
            continue;
        }
        if let Some(value) = (profile.value)(channel, domain) {
            out.insert(entry.kind.to_string(), value);
        }
    }
    out
}

/// The Fisher information's condition number above which the profile's frequency MSEs get a
/// warning: from there on they are accurate to about 1e-8 relative or worse.
pub const FISHER_CONDITION_WARNING: f64 = 1e8;

/// A warning when `profile` holds a frequency MSE computed from an ill-conditioned Fisher
/// information (nearly dependent rows, as a spanner's or a tight channel's can be), with the
/// accuracy its digits have: the reports print more digits than such a value carries.
pub fn profile_accuracy_warning(
    channel: &Channel,
    domain: &Domain,
    profile: &BTreeMap<String, f64>,
) -> Option<String> {
    let prior = domain.prior();
    let profiled = ["frequency-mse", "inversion-mse"]
        .iter()
        .any(|k| profile.contains_key(*k));
    if !profiled || channel.inputs() != prior.len() {
        return None;
    }
    let identity = QuerySpec::Identity.matrix(prior.len());
    let condition =
        FrequencyMse::new(&identity, prior, Sampling::FixedCounts, 1.0).fisher_condition(channel);
    (condition.is_finite() && condition > FISHER_CONDITION_WARNING).then(|| {
        format!(
            "the channel's Fisher information has condition number about {condition:.1e}: its frequency-mse and inversion-mse are accurate to about {:.0e} relative only",
            condition * f64::EPSILON
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows `delta` apart make `J` nearly singular: its condition number grows like
    /// `1 / delta^2`, and the two frequency MSEs, computed two ways, drift apart with it.
    #[test]
    fn nearly_dependent_rows_get_an_accuracy_warning_and_krr_does_not() {
        let domain = Domain::sized(3).unwrap();
        let delta = 1e-5;
        let tight = Channel::new(vec![
            vec![0.5, 0.3, 0.2],
            vec![0.5 + delta, 0.3 - delta, 0.2],
            vec![0.2, 0.3, 0.5],
        ])
        .unwrap();
        let profile = objective_profile(&tight, &domain);
        assert!(profile.contains_key("frequency-mse"), "{profile:?}");
        let warning = profile_accuracy_warning(&tight, &domain, &profile).expect("a warning");
        assert!(warning.contains("condition number"), "{warning}");
        let e = 1f64.exp();
        let krr = Channel::new(
            (0..3)
                .map(|x| {
                    (0..3)
                        .map(|y| if x == y { e } else { 1.0 } / (e + 2.0))
                        .collect()
                })
                .collect(),
        )
        .unwrap();
        let profile = objective_profile(&krr, &domain);
        assert!(profile.contains_key("frequency-mse"));
        assert_eq!(profile_accuracy_warning(&krr, &domain, &profile), None);
    }
}
