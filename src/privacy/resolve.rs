//! Resolution of a `[[privacy]]` entry against a domain: validation of every key and the
//! notion's constraint set.

use super::checks::{
    check_delta, check_epsilon, check_epsilon_finite, check_releases, require_full_support,
    validate_square,
};
use super::context::checked_pairs;
use super::spec::{PrivacySpec, Purpose};
use super::symbol::{resolve_partition, resolve_set};
use super::{
    ApproximateLdp, ApproximateLip, BlockLdp, ContextLdp, DPrivacy, HighLowLdp, Identifiability,
    Ldp, Lip, MaxLeakage, MetricSpec, MutualInformationPrivacy, PrivacyNotion, SpannerEncoding,
};
use crate::domain::{normalize_prior, validate_prior, Domain};
use crate::error::{show_number, ProblemError};

impl PrivacySpec {
    /// The body of [`PrivacySpec::resolve`] and [`PrivacySpec::resolve_to_check`].
    pub(super) fn resolve_for(
        &self,
        purpose: Purpose,
        key: &str,
        domain: &Domain,
        warnings: &mut Vec<String>,
    ) -> Result<Box<dyn PrivacyNotion>, ProblemError> {
        let check_epsilon = match purpose {
            Purpose::Solve => check_epsilon,
            Purpose::Check => check_epsilon_finite,
        };
        let eps_key = format!("{key}.epsilon");
        let n = domain.size();
        Ok(match self {
            PrivacySpec::Ldp {
                epsilon,
                delta,
                releases,
            } => {
                let epsilon = check_epsilon(&eps_key, *epsilon)?;
                let delta = check_delta(&format!("{key}.delta"), *delta)?;
                let releases = check_releases(key, *releases, delta)?;
                if releases > 1 {
                    Box::new(super::composition::ComposedLdp::new(epsilon, releases))
                } else if delta == 0.0 {
                    Box::new(Ldp { epsilon })
                } else {
                    Box::new(ApproximateLdp { epsilon, delta })
                }
            }
            PrivacySpec::ContextLdp { epsilon, matrix } => {
                let epsilon = check_epsilon(&eps_key, epsilon.unwrap_or(1.0))?;
                let mkey = format!("{key}.matrix");
                validate_square(&mkey, matrix, n)?;
                Box::new(ContextLdp {
                    epsilon,
                    unit: matrix.clone(),
                    name: "context-ldp",
                    checked: checked_pairs(matrix, n),
                })
            }
            PrivacySpec::HighLow { epsilon, sensitive } => {
                let skey = format!("{key}.sensitive");
                let sensitive = resolve_set(&skey, sensitive, domain)?;
                if sensitive.is_empty() {
                    warnings.push(format!(
                        "`{skey}` is empty: high-low LDP then constrains nothing"
                    ));
                }
                Box::new(HighLowLdp {
                    epsilon: check_epsilon(&eps_key, *epsilon)?,
                    sensitive,
                })
            }
            PrivacySpec::Block {
                epsilon,
                blocks,
                epsilon_across,
            } => {
                let epsilon = check_epsilon(&eps_key, *epsilon)?;
                let epsilon_across = epsilon_across
                    .map(|e| check_epsilon(&format!("{key}.epsilon_across"), e))
                    .transpose()?;
                Box::new(BlockLdp {
                    epsilon,
                    blocks: resolve_partition(&format!("{key}.blocks"), blocks, domain)?,
                    epsilon_across,
                })
            }
            PrivacySpec::DPrivacy {
                epsilon,
                metric,
                approximate,
            } => {
                let line_method = approximate.is_none()
                    && *metric == MetricSpec::Named("line".into())
                    && crate::geo::line::equally_spaced(
                        &domain
                            .coordinates()
                            .iter()
                            .map(|c| c[0])
                            .collect::<Vec<_>>(),
                    );
                if purpose == Purpose::Solve && line_method && n > crate::policy::LINE_MAX_INPUTS {
                    return Err(ProblemError::invalid(
                        format!("{key}.notion"),
                        "\"d-privacy\"",
                        format!(
                            "{n} points: d-privacy on an equally spaced line is solved for at most {} points (the channel alone has n^2 entries)",
                            crate::policy::LINE_MAX_INPUTS
                        ),
                    ));
                }
                // Exact d-privacy is solved at every domain size (the first-order method
                // above LP_MAX_INPUTS); the spanner encoding builds one program.
                if purpose == Purpose::Solve
                    && n > crate::policy::LP_MAX_INPUTS
                    && approximate.is_some()
                    && !line_method
                {
                    return Err(ProblemError::invalid(
                        format!("{key}.approximate"),
                        "spanner",
                        format!(
                            "{n} points: the spanner encoding is one program over the channel, at most {} points; leave `approximate` out to solve the exact problem by the first-order method",
                            crate::policy::LP_MAX_INPUTS
                        ),
                    ));
                }
                let distances = metric.distances(&format!("{key}.metric"), domain, warnings)?;
                let spanner = approximate
                    .map(|a| {
                        let t = a.spanner;
                        if !(t.is_finite() && t >= 1.0) {
                            return Err(ProblemError::invalid(
                                format!("{key}.approximate.spanner"),
                                show_number(t),
                                "the dilation t must be a finite number >= 1 (1: exact)",
                            ));
                        }
                        Ok(SpannerEncoding::new(&distances, t))
                    })
                    .transpose()?;
                Box::new(DPrivacy {
                    epsilon: check_epsilon(&eps_key, *epsilon)?,
                    checked: super::lattice_pairs::checked_pairs_at(
                        &distances,
                        domain
                            .has_geometry()
                            .then(|| domain.coordinates())
                            .as_deref(),
                    ),
                    distances,
                    spanner,
                })
            }
            PrivacySpec::Lip {
                epsilon,
                prior,
                delta,
                releases,
            } => {
                let prior = match prior {
                    Some(p) => {
                        let k = format!("{key}.prior");
                        validate_prior(&k, p, n)?;
                        let (p, w) = normalize_prior(&k, p);
                        warnings.extend(w);
                        p
                    }
                    None => domain.prior().to_vec(),
                };
                let prior_key = if self_has_prior(self) {
                    format!("{key}.prior")
                } else {
                    "domain.prior".into()
                };
                require_full_support(&prior_key, &prior, "lip")?;
                let epsilon = check_epsilon(&eps_key, *epsilon)?;
                let delta = check_delta(&format!("{key}.delta"), *delta)?;
                let releases = check_releases(key, *releases, delta)?;
                if releases > 1 {
                    let notion = super::composition::ComposedLip::new(epsilon, releases, prior);
                    if purpose == Purpose::Solve {
                        warnings.push(format!(
                        "{key}.releases = {releases}: the program is the single-release relaxation (one release leaks no more than the {releases} together, by post-processing); certification mixes its channel with a constant one until the exact leakage of the {releases} releases together is within epsilon, so the result is optimal only if the gap closes (Thm 4 of context-aware-lip alone would design each release at eps1 = {})",
                        notion.theorem4_epsilon
                    ));
                    }
                    Box::new(notion)
                } else if delta == 0.0 {
                    Box::new(Lip {
                        epsilon,
                        priors: vec![prior],
                        name: "lip",
                    })
                } else {
                    Box::new(ApproximateLip {
                        epsilon,
                        delta,
                        prior,
                    })
                }
            }
            PrivacySpec::BpLip { epsilon, priors } => {
                let pkey = format!("{key}.priors");
                if priors.is_empty() {
                    return Err(ProblemError::invalid(
                        pkey,
                        "[]",
                        "list at least one prior (the vertices of the prior set)",
                    ));
                }
                let mut normalized = Vec::with_capacity(priors.len());
                for (i, p) in priors.iter().enumerate() {
                    let k = format!("{pkey}[{i}]");
                    validate_prior(&k, p, n)?;
                    let (p, w) = normalize_prior(&k, p);
                    warnings.extend(w);
                    normalized.push(p);
                }
                let priors = &normalized;
                let union: Vec<f64> = (0..n)
                    .map(|x| priors.iter().map(|p| p[x]).fold(0.0, f64::max))
                    .collect();
                require_full_support(&pkey, &union, "bp-lip")?;
                Box::new(Lip {
                    epsilon: check_epsilon(&eps_key, *epsilon)?,
                    priors: priors.clone(),
                    name: "bp-lip",
                })
            }
            PrivacySpec::MaxLeakage { epsilon } => Box::new(MaxLeakage {
                epsilon: check_epsilon(&eps_key, *epsilon)?,
                prior: domain.prior().to_vec(),
            }),
            PrivacySpec::Identifiability { epsilon } => {
                let epsilon = check_epsilon(&eps_key, *epsilon)?;
                require_full_support("domain.prior", domain.prior(), "identifiability")?;
                let p = domain.prior();
                let ratio = p.iter().fold(0.0, |a: f64, &b| a.max(b))
                    / p.iter().fold(1.0, |a: f64, &b| a.min(b));
                if ratio.ln() > epsilon {
                    warnings.push(format!(
                        "identifiability at epsilon {} is infeasible for this prior: it needs max p / min p <= e^epsilon, but the ratio is {ratio} (ln = {})",
                        crate::error::show_number(epsilon),
                        ratio.ln()
                    ));
                }
                Box::new(Identifiability {
                    epsilon,
                    prior: p.to_vec(),
                })
            }
            PrivacySpec::MutualInformation { epsilon } => Box::new(MutualInformationPrivacy {
                epsilon: check_epsilon(&eps_key, *epsilon)?,
                prior: domain.prior().to_vec(),
            }),
        })
    }
}

fn self_has_prior(spec: &PrivacySpec) -> bool {
    matches!(spec, PrivacySpec::Lip { prior: Some(_), .. })
}
