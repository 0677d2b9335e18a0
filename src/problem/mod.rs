//! Problem files: the declarative TOML format and its validation into a [`Problem`].

mod builder;
mod domain_spec;
mod keys;

pub use builder::ProblemBuilder;
pub use domain_spec::{DomainSpec, GridSpec};

use crate::domain::Domain;
use crate::error::ProblemError;
use crate::objective::{Objective, ObjectiveSpec};
use crate::privacy::{PrivacyNotion, PrivacySpec};
use keys::{check_shape, with_suggestion};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `[expected]`: the known optimum of a problem, with its independent derivation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedSpec {
    /// The optimal objective value.
    pub objective: f64,
    /// Accepted absolute difference (default 1e-6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    /// Where the value comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A problem file as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemSpec {
    /// A title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The input domain and prior.
    pub domain: DomainSpec,
    /// Privacy constraints; all must hold.
    pub privacy: Vec<PrivacySpec>,
    /// The utility objective.
    pub objective: ObjectiveSpec,
    /// The known optimum, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<ExpectedSpec>,
    /// The grid for `verify --sweep`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepSpec>,
}

impl ProblemSpec {
    /// Parse TOML text; `origin` names the source in messages, and a relative
    /// `domain.points.file` is taken relative to its directory.
    pub fn from_toml(text: &str, origin: &Path) -> Result<Self, ProblemError> {
        let parse_error = |e: toml::de::Error| ProblemError::Parse {
            path: origin.to_path_buf(),
            message: with_suggestion(e.to_string()),
        };
        let value: toml::Table = toml::from_str(text).map_err(parse_error)?;
        if value.contains_key("continuous") {
            return Err(ProblemError::Parse {
                path: origin.to_path_buf(),
                message: "this file has a `[continuous]` section: it describes a continuous mechanism, for `mechsynth continuous FILE`, not a channel design problem".into(),
            });
        }
        check_shape(&value)?;
        let mut spec: Self = toml::from_str(text).map_err(parse_error)?;
        spec.domain
            .resolve_relative_to(origin.parent().unwrap_or(Path::new("")));
        Ok(spec)
    }

    /// Read and parse a problem file.
    pub fn load(path: &Path) -> Result<Self, ProblemError> {
        let text = crate::source::read_text(path).map_err(|error| ProblemError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Self::from_toml(&text, path)
    }

    /// Replace the epsilon of every privacy constraint (`--epsilon`).
    pub fn set_epsilon(&mut self, epsilon: f64) {
        for p in &mut self.privacy {
            p.set_epsilon(epsilon);
        }
    }
}

/// A validated problem: domain, privacy constraints and objective.
#[derive(Debug)]
pub struct Problem {
    /// The spec it was built from.
    pub spec: ProblemSpec,
    /// The domain.
    pub domain: Domain,
    /// The privacy constraints, all of which must hold.
    pub privacy: Vec<Box<dyn PrivacyNotion>>,
    /// The objective.
    pub objective: Box<dyn Objective>,
    /// Non-fatal findings (e.g. a metric that breaks the triangle inequality).
    pub warnings: Vec<String>,
}

impl Problem {
    /// Validate `spec` and resolve its parts against the domain.
    pub fn from_spec(spec: ProblemSpec) -> Result<Self, ProblemError> {
        let domain = spec.domain.build()?;
        if spec.privacy.is_empty() {
            return Err(ProblemError::structure(
                "privacy",
                "a problem needs at least one [[privacy]] entry",
            ));
        }
        let mut warnings = coincident_points(&domain);
        if let Some(p) = &spec.domain.prior {
            warnings.extend(crate::domain::normalize_prior("domain.prior", p).1);
        }
        let privacy = spec
            .privacy
            .iter()
            .enumerate()
            .map(|(i, p)| p.resolve(&format!("privacy[{i}]"), &domain, &mut warnings))
            .collect::<Result<Vec<_>, _>>()?;
        let objective = spec.objective.resolve(&domain)?;
        if let Some(e) = &spec.expected {
            if let Some(t) = e.tolerance {
                if !(t.is_finite() && t >= 0.0) {
                    return Err(ProblemError::invalid(
                        "expected.tolerance",
                        t,
                        "must be a finite number >= 0",
                    ));
                }
            }
        }
        Ok(Problem {
            spec,
            domain,
            privacy,
            objective,
            warnings,
        })
    }

    /// Read, parse and validate a problem file (through [`ProblemBuilder`], as a problem built
    /// in code is).
    pub fn load(path: &Path) -> Result<Self, ProblemError> {
        ProblemBuilder::from_spec(ProblemSpec::load(path)?).build()
    }

    /// The problem's title (its `name`, else "unnamed problem").
    pub fn name(&self) -> &str {
        self.spec.name.as_deref().unwrap_or("unnamed problem")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Problem, ProblemError> {
        Problem::from_spec(ProblemSpec::from_toml(text, Path::new("test.toml"))?)
    }

    const BASE: &str =
        "[domain]\nsize = 3\n[objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";

    #[test]
    fn unknown_notion_suggests_the_nearest() {
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"max-leakge\"\nepsilon = 1.0\n"
        ))
        .unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("max-leakge") && text.contains("did you mean `max-leakage`"),
            "{text}"
        );
    }

    #[test]
    fn unknown_key_suggests_the_nearest() {
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"ldp\"\nepsilom = 1.0\n"
        ))
        .unwrap_err();
        assert!(e.to_string().contains("did you mean `epsilon`"), "{e}");
    }

    #[test]
    fn negative_and_nan_epsilon_are_rejected_with_the_key() {
        for v in ["-1.0", "nan"] {
            let e = parse(&format!(
                "{BASE}[[privacy]]\nnotion = \"ldp\"\nepsilon = {v}\n"
            ))
            .unwrap_err();
            assert!(e.to_string().contains("privacy[0].epsilon"), "{e}");
        }
    }

    #[test]
    fn two_domain_kinds_conflict() {
        let e = parse("[domain]\nsize = 3\nline = 3\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"co-location\"\n").unwrap_err();
        assert!(e.to_string().contains("size and line"), "{e}");
    }

    #[test]
    fn mutual_information_privacy_is_accepted_and_its_epsilon_checked() {
        assert!(parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"mutual-information\"\nepsilon = 0.5\n"
        ))
        .is_ok());
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"mutual-information\"\nepsilon = -0.5\n"
        ))
        .unwrap_err();
        assert!(e.to_string().contains("privacy[0].epsilon"), "{e}");
    }

    #[test]
    fn inversion_mse_users_and_distribution_are_validated() {
        let e = parse("[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"inversion-mse\"\nusers = 0\n").unwrap_err();
        assert!(e.to_string().contains("objective.users"), "{e}");
        let e = parse("[domain]\nsize = 2\n[[privacy]]\nnotion = \"ldp\"\nepsilon = 1.0\n[objective]\nkind = \"inversion-mse\"\ndistribution = [0.5, 0.6]\n").unwrap_err();
        assert!(e.to_string().contains("objective.distribution"), "{e}");
    }

    #[test]
    fn zero_prior_under_lip_is_explained() {
        let e = parse("[domain]\nsize = 2\nprior = [1.0, 0.0]\n[[privacy]]\nnotion = \"lip\"\nepsilon = 1.0\n[objective]\nkind = \"co-location\"\n").unwrap_err();
        assert!(e.to_string().contains("entry 1 is 0"), "{e}");
    }

    #[test]
    fn out_of_range_and_unknown_symbols_are_rejected() {
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"high-low\"\nepsilon = 1.0\nsensitive = [5]\n"
        ))
        .unwrap_err();
        assert!(e.to_string().contains("privacy[0].sensitive[0]"), "{e}");
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"high-low\"\nepsilon = 1.0\nsensitive = [-1]\n"
        ))
        .unwrap_err();
        assert!(e.to_string().contains("negative"), "{e}");
    }

    #[test]
    fn context_matrix_shape_is_checked() {
        let e = parse(&format!(
            "{BASE}[[privacy]]\nnotion = \"context-ldp\"\nmatrix = [[0.0, 1.0], [1.0, 0.0]]\n"
        ))
        .unwrap_err();
        assert!(
            e.to_string().contains("privacy[0].matrix") && e.to_string().contains("3 x 3"),
            "{e}"
        );
    }
}

/// `[sweep]` in a problem file (both keys optional): the grid that `verify --sweep` runs over.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepSpec {
    /// Epsilons to try.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epsilons: Option<Vec<f64>>,
    /// Priors to try (each over the domain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priors: Option<Vec<Vec<f64>>>,
}

/// Most coincident pairs a warning names.
const COINCIDENT_SHOWN: usize = 5;

/// A warning for points of a `points` domain that lie at the same place (natural distance 0):
/// any distance-based notion then forces their rows of the channel to be equal, which a user
/// who listed two places at one address may not expect.
fn coincident_points(domain: &Domain) -> Vec<String> {
    if !matches!(domain.positions(), crate::domain::Positions::Points { .. }) {
        return Vec::new();
    }
    let d = domain.natural_distances();
    let labels = domain.labels();
    let pairs: Vec<String> = (0..d.len())
        .flat_map(|a| ((a + 1)..d.len()).map(move |b| (a, b)))
        .filter(|&(a, b)| d[a][b] == 0.0)
        .map(|(a, b)| format!("{:?} and {:?}", labels[a], labels[b]))
        .collect();
    if pairs.is_empty() {
        return Vec::new();
    }
    let more = pairs.len().saturating_sub(COINCIDENT_SHOWN);
    vec![format!(
        "domain.points: {} pair{} of points lie at the same place ({}{}): a distance-based notion forces their rows of the channel to be equal",
        pairs.len(),
        if pairs.len() == 1 { "" } else { "s" },
        pairs[..pairs.len().min(COINCIDENT_SHOWN)].join(", "),
        if more > 0 { format!(", and {more} more") } else { String::new() }
    )]
}
