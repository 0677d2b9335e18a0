//! `audit`: the leakage of a given channel under every notion that applies.

use crate::channel::Channel;
use crate::domain::Domain;
use crate::error::ProblemError;
use crate::objective::objective_profile;
use crate::privacy::{leakage_profile, matrix_leakage, Check, MetricSpec, PrivacySpec};
use crate::problem::{DomainSpec, ProblemSpec};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// `[channel]` of an audit file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSpec {
    /// The rows of Q.
    pub rows: Vec<Vec<f64>>,
}

/// An audit file: a channel with optional domain, prior, metric and requested constraints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSpec {
    /// The channel.
    pub channel: ChannelSpec,
    /// The input domain (default: `size` = number of rows, uniform prior).
    #[serde(default)]
    pub domain: Option<DomainSpec>,
    /// The prior (alternative to `domain.prior`).
    #[serde(default)]
    pub prior: Option<Vec<f64>>,
    /// Metric for d-privacy (default: the domain's natural distance, if it has positions).
    #[serde(default)]
    pub metric: Option<MetricSpec>,
    /// Constraints to check the channel against.
    #[serde(default)]
    pub privacy: Vec<PrivacySpec>,
}

/// The part of a `solve --format json` report that `audit` reads.
#[derive(Deserialize)]
struct SolveOutput {
    status: serde_json::Value,
    channel: Option<Vec<Vec<f64>>>,
    problem: ProblemSpec,
}

impl AuditSpec {
    /// Read a TOML audit file or a `solve --format json` report.
    pub fn load(path: &Path) -> Result<Self, ProblemError> {
        let text = crate::source::read_text(path).map_err(|error| ProblemError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Self::parse(&text, path)
    }

    /// Parse text: JSON (a solve report) when it starts with `{`, TOML otherwise. In TOML, a
    /// relative `domain.points.file` is taken relative to the directory of `origin` (as in a
    /// problem file); a solve report's domain is kept as the report states it.
    pub fn parse(text: &str, origin: &Path) -> Result<Self, ProblemError> {
        let parse_error = |message: String| ProblemError::Parse {
            path: origin.to_path_buf(),
            message,
        };
        if text.trim_start().starts_with('{') {
            let out: SolveOutput =
                serde_json::from_str(text).map_err(|e| parse_error(e.to_string()))?;
            let rows = out.channel.ok_or_else(|| {
                ProblemError::structure(
                    "channel",
                    format!("the report holds no channel (status {})", out.status),
                )
            })?;
            Ok(AuditSpec {
                channel: ChannelSpec { rows },
                domain: Some(out.problem.domain),
                prior: None,
                metric: None,
                privacy: out.problem.privacy,
            })
        } else {
            let mut spec: Self = toml::from_str(text).map_err(|e| parse_error(e.to_string()))?;
            if let Some(domain) = &mut spec.domain {
                domain.resolve_relative_to(origin.parent().unwrap_or(Path::new("")));
            }
            Ok(spec)
        }
    }
}

/// Excess of an achieved leakage over the request that audit attributes to floating-point
/// rounding of the channel's entries (a closed form written to 17 digits, e.g. k-RR, meets its
/// epsilon only up to a few units in the last place): `1e-12 * max(1, requested)` nats.
pub const ROUNDING_EXCESS: f64 = 1e-12;

/// Audit's verdict on one stated constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Certified: the outward-rounded leakage of the numbers is within the request.
    Holds,
    /// Exceeded by no more than [`ROUNDING_EXCESS`]: holds up to floating-point rounding.
    HoldsUpToRounding,
    /// Exceeded by more.
    Violated,
}

/// One stated constraint with audit's verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditCheck {
    /// Requested versus achieved.
    #[serde(flatten)]
    pub check: Check,
    /// The verdict.
    pub verdict: Verdict,
    /// `achieved - requested` when positive, else 0.
    pub excess: f64,
}

impl AuditCheck {
    /// Judge `check`.
    pub fn new(check: Check) -> Self {
        let excess = (check.achieved - check.requested).max(0.0);
        let verdict = if check.holds() {
            Verdict::Holds
        } else if excess <= ROUNDING_EXCESS * check.requested.abs().max(1.0) {
            Verdict::HoldsUpToRounding
        } else {
            Verdict::Violated
        };
        AuditCheck {
            check,
            verdict,
            excess,
        }
    }
}

/// What `audit` found.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// The channel audited.
    pub channel: Channel,
    /// Input labels.
    pub labels: Vec<String>,
    /// Leakage under every notion that applies (outward rounded).
    #[serde(serialize_with = "crate::float_serde::serialize_number_map")]
    pub leakage: BTreeMap<String, f64>,
    /// Every objective that applies, evaluated for the channel (`mmse-sum` of the domain's
    /// values unless the domain is `labels`, `mmse-histogram`, `mutual-information`, and
    /// `inversion-mse` and `frequency-mse` when finite; see [`objective_profile`]).
    pub objectives: BTreeMap<String, f64>,
    /// The stated constraints, requested vs achieved, with verdicts.
    pub checks: Vec<AuditCheck>,
    /// Whether no stated constraint is violated (each holds, or holds up to rounding).
    pub all_hold: bool,
    /// Whether every stated constraint holds exactly (certified).
    pub all_certified: bool,
    /// Non-fatal findings.
    pub warnings: Vec<String>,
}

impl AuditSpec {
    /// The validated channel and its domain (default: `size` = number of rows, uniform prior).
    pub fn channel_and_domain(&self) -> Result<(Channel, Domain), ProblemError> {
        let spec = self;
        let channel = Channel::new(spec.channel.rows.clone())?;
        let mut domain_spec = spec.domain.clone().unwrap_or(DomainSpec {
            size: Some(channel.inputs()),
            ..DomainSpec::default()
        });
        if let Some(p) = &spec.prior {
            if domain_spec.prior.is_some() {
                return Err(ProblemError::structure(
                    "prior",
                    "the prior is given twice (`prior` and `domain.prior`); keep one",
                ));
            }
            domain_spec.prior = Some(p.clone());
        }
        let domain: Domain = domain_spec.build()?;
        if domain.size() != channel.inputs() {
            return Err(ProblemError::invalid(
                "channel.rows",
                format!("{} rows", channel.inputs()),
                format!(
                    "the domain has {} symbols; the channel needs one row per symbol",
                    domain.size()
                ),
            ));
        }
        Ok((channel, domain))
    }
}

/// Audit a channel.
pub fn audit(spec: &AuditSpec) -> Result<AuditReport, ProblemError> {
    let (channel, domain) = spec.channel_and_domain()?;
    let mut warnings = Vec::new();
    let mut leakage = leakage_profile(&channel, &domain);
    if let Some(metric) = &spec.metric {
        let d = metric.distances("metric", &domain, &mut warnings)?;
        leakage.insert("d-privacy".into(), matrix_leakage(&channel, &d));
    }
    let mut checks = Vec::new();
    for (i, p) in spec.privacy.iter().enumerate() {
        // No program is solved: epsilon above MAX_EPSILON is only checked against.
        let notion = p.resolve_to_check(&format!("privacy[{i}]"), &domain, &mut warnings)?;
        checks.extend(notion.check(&channel).into_iter().map(AuditCheck::new));
    }
    let all_hold = checks.iter().all(|c| c.verdict != Verdict::Violated);
    let all_certified = checks.iter().all(|c| c.verdict == Verdict::Holds);
    Ok(AuditReport {
        objectives: objective_profile(&channel, &domain),
        labels: domain.labels().to_vec(),
        channel,
        leakage,
        checks,
        all_hold,
        all_certified,
        warnings,
    })
}

impl AuditReport {
    /// A human-readable rendering.
    pub fn to_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "channel: {} inputs x {} outputs",
            self.channel.inputs(),
            self.channel.outputs()
        );
        let _ = writeln!(
            s,
            "leakage (outward rounded; smallest parameter for which each notion holds)"
        );
        for (k, v) in &self.leakage {
            let _ = writeln!(s, "  {k:<24} {}", crate::numeric::fixed_up(*v, 9));
        }
        if !self.objectives.is_empty() {
            let _ = writeln!(s, "objectives (under the domain prior)");
            for (k, v) in &self.objectives {
                let _ = writeln!(s, "  {k:<24} {v:.9}");
            }
        }
        if !self.checks.is_empty() {
            let _ = writeln!(s, "stated constraints");
            for a in &self.checks {
                let c = &a.check;
                let mark = match a.verdict {
                    Verdict::Holds => "holds (certified)".to_string(),
                    Verdict::HoldsUpToRounding => {
                        format!("holds up to rounding (excess {:.1e})", a.excess)
                    }
                    Verdict::Violated => format!("VIOLATED (excess {:.3e})", a.excess),
                };
                let _ = writeln!(
                    s,
                    "  {:<24} requested {:<10} achieved {:<12} {mark}",
                    c.constraint,
                    crate::error::show_number(c.requested),
                    crate::numeric::fixed_up(c.achieved, 9)
                );
            }
        }
        for w in &self.warnings {
            let _ = writeln!(s, "warning: {w}");
        }
        s
    }
}

impl AuditReport {
    /// CSV with the header `kind,name,requested,achieved,verdict,excess`: one row per stated
    /// constraint (`constraint`), then one per leakage (`leakage`, the value under `achieved`),
    /// then one per objective (`objective`, the value under `achieved`), full precision; fields
    /// are quoted where they hold a comma.
    pub fn to_csv(&self) -> String {
        let mut writer = csv::Writer::from_writer(Vec::new());
        let mut row = |fields: [&str; 6]| {
            writer
                .write_record(fields)
                .expect("writing CSV to memory cannot fail");
        };
        row(["kind", "name", "requested", "achieved", "verdict", "excess"]);
        for a in &self.checks {
            let verdict = match a.verdict {
                Verdict::Holds => "holds",
                Verdict::HoldsUpToRounding => "holds-up-to-rounding",
                Verdict::Violated => "violated",
            };
            row([
                "constraint",
                &a.check.constraint,
                &format!("{:?}", a.check.requested),
                &format!("{:?}", a.check.achieved),
                verdict,
                &format!("{:?}", a.excess),
            ]);
        }
        for (kind, values) in [("leakage", &self.leakage), ("objective", &self.objectives)] {
            for (name, value) in values {
                row([kind, name, "", &format!("{value:?}"), "", ""]);
            }
        }
        let bytes = writer
            .into_inner()
            .expect("flushing CSV to memory cannot fail");
        String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8")
    }
}
