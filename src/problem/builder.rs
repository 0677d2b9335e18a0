//! [`ProblemBuilder`]: a problem assembled in code, checked as a problem file is.
//!
//! A problem file is read into a [`ProblemSpec`] and validated by the builder; a problem built
//! in code (from Rust, or from Python's keyword arguments) goes through the same steps, so
//! both give the same errors, naming the keys of the file format (`domain.prior`,
//! `privacy[0].epsilon`, ...).

use super::{ExpectedSpec, Problem, ProblemSpec, SweepSpec};
use crate::error::ProblemError;
use crate::objective::ObjectiveSpec;
use crate::privacy::PrivacySpec;
use crate::problem::{DomainSpec, GridSpec};

/// A problem under construction: a domain, one or more privacy constraints and an objective.
///
/// ```
/// use mechsynth::objective::{LossSpec, ObjectiveSpec};
/// use mechsynth::privacy::PrivacySpec;
/// use mechsynth::problem::ProblemBuilder;
///
/// let problem = ProblemBuilder::new()
///     .size(5)
///     .privacy(PrivacySpec::Ldp { epsilon: 1.0, delta: None, releases: None })
///     .objective(ObjectiveSpec::ExpectedLoss { loss: LossSpec::hamming() })
///     .build()?;
/// assert_eq!(problem.domain.size(), 5);
/// # Ok::<(), mechsynth::ProblemError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProblemBuilder {
    name: Option<String>,
    description: Option<String>,
    domain: Option<DomainSpec>,
    prior: Option<Vec<f64>>,
    privacy: Vec<PrivacySpec>,
    objective: Option<ObjectiveSpec>,
    expected: Option<ExpectedSpec>,
    sweep: Option<SweepSpec>,
}

impl ProblemBuilder {
    /// An empty problem.
    pub fn new() -> Self {
        Self::default()
    }

    /// The builder holding every part of `spec` (a problem file as read).
    pub fn from_spec(spec: ProblemSpec) -> Self {
        ProblemBuilder {
            name: spec.name,
            description: spec.description,
            domain: Some(spec.domain),
            prior: None,
            privacy: spec.privacy,
            objective: Some(spec.objective),
            expected: spec.expected,
            sweep: spec.sweep,
        }
    }

    /// A title.
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Free text.
    pub fn description(mut self, text: impl Into<String>) -> Self {
        self.description = Some(text.into());
        self
    }

    /// The domain, as a problem file's `[domain]` table.
    pub fn domain(mut self, domain: DomainSpec) -> Self {
        self.domain = Some(domain);
        self
    }

    /// The domain of the `n` symbols `0..n-1` (`[domain] size = n`).
    pub fn size(self, n: usize) -> Self {
        self.domain(DomainSpec {
            size: Some(n),
            ..DomainSpec::default()
        })
    }

    /// Named symbols (`[domain] labels = [...]`).
    pub fn labels<S: Into<String>>(self, labels: impl IntoIterator<Item = S>) -> Self {
        self.domain(DomainSpec {
            labels: Some(labels.into_iter().map(Into::into).collect()),
            ..DomainSpec::default()
        })
    }

    /// Numeric symbols, points on a line (`[domain] values = [...]`).
    pub fn values(self, values: Vec<f64>) -> Self {
        self.domain(DomainSpec {
            values: Some(values),
            ..DomainSpec::default()
        })
    }

    /// The points `0..n-1` of a line (`[domain] line = n`).
    pub fn line(self, n: usize) -> Self {
        self.domain(DomainSpec {
            line: Some(n),
            ..DomainSpec::default()
        })
    }

    /// The cells of a `rows x cols` grid (`[domain] grid = { rows, cols }`).
    pub fn grid(self, rows: usize, cols: usize) -> Self {
        self.domain(DomainSpec {
            grid: Some(GridSpec { rows, cols }),
            ..DomainSpec::default()
        })
    }

    /// The prior over the symbols (`[domain] prior = [...]`; default uniform). It replaces a
    /// prior the domain was given with.
    pub fn prior(mut self, prior: Vec<f64>) -> Self {
        self.prior = Some(prior);
        self
    }

    /// One more privacy constraint (a `[[privacy]]` entry); all must hold.
    pub fn privacy(mut self, notion: PrivacySpec) -> Self {
        self.privacy.push(notion);
        self
    }

    /// The utility objective (`[objective]`).
    pub fn objective(mut self, objective: ObjectiveSpec) -> Self {
        self.objective = Some(objective);
        self
    }

    /// The known optimum, checked after solving (`[expected]`).
    pub fn expected(mut self, expected: ExpectedSpec) -> Self {
        self.expected = Some(expected);
        self
    }

    /// The grid of `verify --sweep` (`[sweep]`).
    pub fn sweep(mut self, sweep: SweepSpec) -> Self {
        self.sweep = Some(sweep);
        self
    }

    /// The problem as a problem file would hold it, checked: every part there, and the
    /// whole valid (as [`ProblemBuilder::build`] checks it).
    pub fn spec(&self) -> Result<ProblemSpec, ProblemError> {
        let spec = self.unchecked_spec()?;
        Problem::from_spec(spec.clone())?;
        Ok(spec)
    }

    /// Validate and resolve the problem: the same checks, in the same order and with the same
    /// messages, as a problem file's.
    pub fn build(self) -> Result<Problem, ProblemError> {
        Problem::from_spec(self.unchecked_spec()?)
    }

    /// The parts as a [`ProblemSpec`], refusing a missing domain or objective as a problem
    /// file without them is refused.
    fn unchecked_spec(&self) -> Result<ProblemSpec, ProblemError> {
        let mut domain = self.domain.clone().ok_or_else(|| {
            ProblemError::structure(
                "domain",
                "a problem needs a [domain] (size, labels, values, line, grid or points)",
            )
        })?;
        if let Some(prior) = &self.prior {
            domain.prior = Some(prior.clone());
        }
        let objective = self.objective.clone().ok_or_else(|| {
            ProblemError::structure("objective", "a problem needs an [objective]")
        })?;
        Ok(ProblemSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            domain,
            privacy: self.privacy.clone(),
            objective,
            expected: self.expected.clone(),
            sweep: self.sweep.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::LossSpec;
    use std::path::Path;

    fn ldp(epsilon: f64) -> PrivacySpec {
        PrivacySpec::Ldp {
            epsilon,
            delta: None,
            releases: None,
        }
    }

    fn hamming() -> ObjectiveSpec {
        ObjectiveSpec::ExpectedLoss {
            loss: LossSpec::hamming(),
        }
    }

    #[test]
    fn a_built_problem_equals_the_same_problem_read_from_toml() {
        let text = "[domain]\nlabels = [\"a\", \"b\", \"c\"]\nprior = [0.5, 0.3, 0.2]\n\n\
                    [[privacy]]\nnotion = \"ldp\"\nepsilon = 1.5\n\n\
                    [objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";
        let read = ProblemSpec::from_toml(text, Path::new("inline.toml")).unwrap();
        let built = ProblemBuilder::new()
            .labels(["a", "b", "c"])
            .prior(vec![0.5, 0.3, 0.2])
            .privacy(ldp(1.5))
            .objective(hamming())
            .spec()
            .unwrap();
        assert_eq!(read, built);
        assert_eq!(
            ProblemBuilder::from_spec(read.clone()).spec().unwrap(),
            read
        );
    }

    #[test]
    fn errors_name_the_keys_of_the_file_format() {
        let cases: Vec<(ProblemBuilder, &str)> = vec![
            (
                ProblemBuilder::new().privacy(ldp(1.0)).objective(hamming()),
                "domain",
            ),
            (ProblemBuilder::new().size(3).privacy(ldp(1.0)), "objective"),
            (
                ProblemBuilder::new().size(3).objective(hamming()),
                "privacy",
            ),
            (
                ProblemBuilder::new()
                    .size(3)
                    .prior(vec![0.5, 0.5])
                    .privacy(ldp(1.0))
                    .objective(hamming()),
                "domain.prior",
            ),
            (
                ProblemBuilder::new()
                    .size(3)
                    .privacy(ldp(f64::NAN))
                    .objective(hamming()),
                "privacy[0]",
            ),
            (
                ProblemBuilder::new()
                    .size(0)
                    .privacy(ldp(1.0))
                    .objective(hamming()),
                "domain",
            ),
        ];
        for (builder, key) in cases {
            let message = builder.build().unwrap_err().to_string();
            assert!(message.contains(key), "{key}: {message}");
        }
    }

    #[test]
    fn the_same_errors_as_the_file_reader() {
        let text = "[domain]\nsize = 3\nprior = [0.5, 0.5]\n\n\
                    [[privacy]]\nnotion = \"ldp\"\nepsilon = 1\n\n\
                    [objective]\nkind = \"expected-loss\"\nloss = \"hamming\"\n";
        let spec = ProblemSpec::from_toml(text, Path::new("inline.toml")).unwrap();
        let from_file = Problem::from_spec(spec).unwrap_err().to_string();
        let built = ProblemBuilder::new()
            .size(3)
            .prior(vec![0.5, 0.5])
            .privacy(ldp(1.0))
            .objective(hamming())
            .build()
            .unwrap_err()
            .to_string();
        assert_eq!(from_file, built);
    }
}
