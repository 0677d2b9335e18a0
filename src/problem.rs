//! Problem files: the declarative TOML format and its validation into a [`Problem`].

use crate::domain::Domain;
use crate::error::{nearest, ProblemError};
use crate::objective::{Objective, ObjectiveSpec};
use crate::privacy::{PrivacyNotion, PrivacySpec};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `[domain]`: exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`; optional
/// `prior` (not together with a `points` weight column).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainSpec {
    /// `n` symbols `0..n-1`.
    #[serde(default, skip_serializing_if = "Option::is_none", alias = "n")]
    pub size: Option<usize>,
    /// Named symbols.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<String>>,
    /// Numeric symbols (points on a line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<f64>>,
    /// Points `0..n-1` on a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Cells of a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grid: Option<GridSpec>,
    /// Points from a CSV file of coordinates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<crate::geo::PointsSpec>,
    /// Prior over the symbols (default uniform).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<Vec<f64>>,
}

/// `grid = { rows = r, cols = c }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

impl DomainSpec {
    /// Take a relative `points.file` relative to `dir`, the folder of the file this domain was
    /// read from (as every file that embeds a `[domain]` does).
    pub fn resolve_relative_to(&mut self, dir: &Path) {
        if let Some(points) = &mut self.points {
            points.resolve_relative_to(dir);
        }
    }

    /// Validate and build the domain.
    pub fn build(&self) -> Result<Domain, ProblemError> {
        let given: Vec<&str> = [
            ("size", self.size.is_some()),
            ("labels", self.labels.is_some()),
            ("values", self.values.is_some()),
            ("line", self.line.is_some()),
            ("grid", self.grid.is_some()),
            ("points", self.points.is_some()),
        ]
        .iter()
        .filter(|(_, g)| *g)
        .map(|(k, _)| *k)
        .collect();
        if given.len() != 1 {
            let reason = if given.is_empty() {
                "give exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`"
                    .to_string()
            } else {
                format!(
                    "give exactly one of `size`, `labels`, `values`, `line`, `grid`, `points`; found {}",
                    given.join(" and ")
                )
            };
            return Err(ProblemError::structure("domain", reason));
        }
        let domain = if let Some(points) = &self.points {
            let loaded = points.load()?;
            let domain = Domain::points(loaded.labels, loaded.coordinates, points.coordinates)?;
            match (loaded.prior, &self.prior) {
                (Some(_), Some(_)) => {
                    return Err(ProblemError::structure(
                        "domain",
                        "give either `domain.points.weight` or `domain.prior`, not both: the weight column is the prior",
                    ))
                }
                (Some(weights), None) => return domain.with_prior(weights),
                (None, _) => domain,
            }
        } else if let Some(n) = self.size {
            Domain::sized(n)?
        } else if let Some(labels) = &self.labels {
            Domain::labeled(labels.clone())?
        } else if let Some(values) = &self.values {
            Domain::values(values.clone())?
        } else if let Some(n) = self.line {
            Domain::line(n)?
        } else {
            let g = self.grid.expect("exactly one domain key is set");
            Domain::grid(g.rows, g.cols)?
        };
        match &self.prior {
            Some(p) => domain.with_prior(p.clone()),
            None => Ok(domain),
        }
    }
}

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
        let text = std::fs::read_to_string(path).map_err(|error| ProblemError::Io {
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
        let mut warnings = Vec::new();
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

    /// Read, parse and validate a problem file.
    pub fn load(path: &Path) -> Result<Self, ProblemError> {
        Self::from_spec(ProblemSpec::load(path)?)
    }

    /// The problem's title (its `name`, else "unnamed problem").
    pub fn name(&self) -> &str {
        self.spec.name.as_deref().unwrap_or("unnamed problem")
    }
}

/// Keys whose value must be a number, in `[[privacy]]` entries and `[objective]`.
const NUMERIC_KEYS: [&str; 8] = [
    "epsilon",
    "eps",
    "epsilon_across",
    "weight",
    "offset",
    "users",
    "objective",
    "tolerance",
];

/// Mistakes that serde reports without naming the key (inside tagged tables): `[privacy]`
/// written for `[[privacy]]`, and a number given as a string or a boolean.
fn check_shape(value: &toml::Table) -> Result<(), ProblemError> {
    let numeric = |key: String, v: &toml::Value| -> Result<(), ProblemError> {
        match v {
            toml::Value::Integer(_) | toml::Value::Float(_) => Ok(()),
            toml::Value::String(s) => Err(ProblemError::invalid(
                key,
                format!("{s:?}"),
                "must be a number, not a string (write it without quotes)",
            )),
            other => Err(ProblemError::invalid(
                key,
                other.to_string(),
                format!("must be a number, not a {}", other.type_str()),
            )),
        }
    };
    let check_table = |prefix: &str, t: &toml::Table| -> Result<(), ProblemError> {
        for (k, v) in t {
            if NUMERIC_KEYS.contains(&k.as_str()) {
                numeric(format!("{prefix}.{k}"), v)?;
            }
        }
        Ok(())
    };
    match value.get("privacy") {
        Some(toml::Value::Table(_)) => {
            return Err(ProblemError::structure(
                "privacy",
                "write each constraint as an array entry `[[privacy]]` (double brackets), not as a single `[privacy]` table",
            ))
        }
        Some(toml::Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if let toml::Value::Table(t) = item {
                    check_table(&format!("privacy[{i}]"), t)?;
                }
            }
        }
        _ => {}
    }
    if let Some(toml::Value::Array(_)) = value.get("objective") {
        return Err(ProblemError::structure(
            "objective",
            "a problem has one objective: write `[objective]` (single brackets), not `[[objective]]`",
        ));
    }
    if let Some(toml::Value::Table(t)) = value.get("objective") {
        check_table("objective", t)?;
        check_objective_keys(t)?;
    }
    if let Some(toml::Value::Table(t)) = value.get("expected") {
        check_table("expected", t)?;
    }
    Ok(())
}

/// Objective kinds that take no key besides `kind`. Serde accepts any key next to the tag of a
/// unit variant and drops it, so these are checked here.
const KINDS_WITHOUT_KEYS: [&str; 3] = ["co-location", "mmse-histogram", "mutual-information"];

/// Keys of `[objective]` that serde would accept and then ignore: any key of a kind in
/// [`KINDS_WITHOUT_KEYS`], and a second or unknown key in a `loss = { ... }` table (an untagged
/// loss keeps the first variant that fits and drops the rest).
fn check_objective_keys(objective: &toml::Table) -> Result<(), ProblemError> {
    if let Some(toml::Value::String(kind)) = objective.get("kind") {
        if KINDS_WITHOUT_KEYS.contains(&kind.as_str()) {
            if let Some((key, v)) = objective.iter().find(|(k, _)| k.as_str() != "kind") {
                return Err(ProblemError::invalid(
                    format!("objective.{key}"),
                    v.to_string(),
                    format!("`kind = \"{kind}\"` takes no other keys, so this one would be ignored; remove it or choose a kind that uses it"),
                ));
            }
        }
    }
    if let Some(toml::Value::Table(loss)) = objective.get("loss") {
        const LOSS_KEYS: [&str; 2] = ["matrix", "range"];
        if let Some((key, v)) = loss.iter().find(|(k, _)| !LOSS_KEYS.contains(&k.as_str())) {
            let hint = nearest(key, &LOSS_KEYS)
                .map(|s| format!(" (did you mean `{s}`?)"))
                .unwrap_or_default();
            return Err(ProblemError::invalid(
                format!("objective.loss.{key}"),
                v.to_string(),
                format!(
                    "unknown key{hint}; a loss table is {{ matrix = [[...]] }} or {{ range = r }}"
                ),
            ));
        }
        if loss.len() > 1 {
            return Err(ProblemError::structure(
                "objective.loss",
                "give either `matrix` or `range`, not both: one of them would be ignored",
            ));
        }
    }
    Ok(())
}

/// Append "did you mean" to serde's unknown-variant and unknown-field messages.
fn with_suggestion(message: String) -> String {
    let Some(bad) = ["unknown variant `", "unknown field `"]
        .iter()
        .find_map(|marker| message.split(marker).nth(1))
        .and_then(|rest| rest.split('`').next())
    else {
        return message;
    };
    let Some(list) = message.split("expected ").nth(1) else {
        return message;
    };
    let candidates: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
    match nearest(bad, &candidates) {
        Some(s) => format!("{}\n(did you mean `{s}`?)", message.trim_end()),
        None => message,
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
