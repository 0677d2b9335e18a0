//! The mechanism a collection subcommand works with: a channel file, a named baseline or a
//! frequency oracle, with the domain of the baselines.

use crate::common::UsageError;
use anyhow::{bail, Context, Result};
use clap::ValueEnum;
use mechsynth::collect::baseline::oracle::{FrequencyOracle, OracleSpec};
use mechsynth::collect::baseline::{BaselineSpec, Structure};
use mechsynth::collect::estimate::EstimatorSpec;
use mechsynth::collect::Model;
use mechsynth::problem::DomainSpec;
use mechsynth::Domain;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Clone)]
pub struct MechanismArgs {
    /// The channel: a `solve --format json` report or a TOML file with `[channel] rows`.
    #[arg(long, value_name = "FILE")]
    pub channel: Option<PathBuf>,
    /// A named baseline mechanism instead of a channel file (needs --epsilon and a domain).
    #[arg(long, value_enum, conflicts_with = "channel")]
    pub baseline: Option<BaselineSpec>,
    /// A frequency oracle (unary encoding or local hashing) instead of a channel.
    #[arg(long, value_enum, conflicts_with_all = ["channel", "baseline"])]
    pub oracle: Option<OracleSpec>,
    /// Privacy parameter of the baseline or oracle.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::numbers::in_zero_to(mechsynth::privacy::MAX_EPSILON))]
    pub epsilon: Option<f64>,
    /// Domain of a baseline or oracle: a TOML file with a `[domain]` table (a problem file).
    #[arg(long, value_name = "FILE", conflicts_with = "channel")]
    pub domain: Option<PathBuf>,
    /// Domain of a baseline or oracle: the symbols 0..N-1 with a uniform prior.
    #[arg(long, value_name = "N", conflicts_with_all = ["channel", "domain"], value_parser = crate::numbers::count(2, mechsynth::domain::MAX_DOMAIN_SIZE))]
    pub size: Option<usize>,
    /// The prior of the domain: comma-separated probabilities, one per symbol, checked as a
    /// problem file's `prior` (non-negative, summing to 1 within 1e-6); it replaces the prior
    /// of `--domain`, of `--size` (uniform) or of the channel file.
    #[arg(long, value_name = "P,P,...")]
    pub prior: Option<String>,
    /// Sensitive symbols of `--baseline hadamard-high-low`: labels or indices, comma-separated.
    #[arg(long, value_name = "LIST")]
    pub sensitive: Option<String>,
    /// Blocks of `--baseline hadamard-block`: labels or indices, comma-separated within a
    /// block, blocks separated by `/` (e.g. `0,1,2/3,4`).
    #[arg(long, value_name = "SPEC")]
    pub blocks: Option<String>,
}

/// A comma-separated list of symbols (labels or indices) of `domain`, for `flag`.
fn symbols(flag: &str, text: &str, domain: &Domain) -> Result<Vec<usize>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            domain
                .index_of(s)
                .or_else(|| s.parse::<usize>().ok().filter(|&i| i < domain.size()))
                .ok_or_else(|| {
                    UsageError(format!(
                        "invalid `{flag}` = {text:?}: `{s}` is not a symbol of the domain (a label, or an index below {})",
                        domain.size()
                    ))
                    .into()
                })
        })
        .collect()
}

/// Refuse a domain of fewer than two symbols given with `flag` = `value`.
pub fn check_symbols(flag: &str, value: &str, symbols: usize) -> Result<()> {
    if symbols < 2 {
        bail!(UsageError(format!(
            "invalid `{flag}` = {value}: the domain has {symbols} symbol{}; a mechanism needs at least 2 (with one symbol every user's value is known and there is nothing to privatize or estimate)",
            if symbols == 1 { "" } else { "s" }
        )));
    }
    Ok(())
}

/// What the flags name.
pub enum Mechanism {
    /// A channel (from a file or a matrix baseline).
    Channel(Model),
    /// A frequency oracle over a domain.
    Oracle(Box<dyn FrequencyOracle>, Domain),
}

impl Mechanism {
    /// Refuse estimators a frequency oracle does not have: an oracle has one estimator, its
    /// unbiased estimate, which stands for `inversion` (the default); `projected`, `em` and
    /// `posterior-mean` are for channels.
    pub fn check_estimators(&self, estimators: &[EstimatorSpec]) -> Result<()> {
        let Mechanism::Oracle(oracle, _) = self else {
            return Ok(());
        };
        if estimators.iter().all(|e| *e == EstimatorSpec::Inversion) {
            return Ok(());
        }
        let names: Vec<String> = estimators
            .iter()
            .filter_map(|e| e.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        bail!(UsageError(format!(
            "invalid `--estimator` = {}: a frequency oracle (`--oracle {}`) has one estimator, its unbiased estimate; give `--estimator inversion` or leave the flag out (`projected`, `em` and `posterior-mean` are for channels)",
            names.join(","),
            oracle.name()
        )))
    }

    /// The input domain.
    pub fn domain(&self) -> &Domain {
        match self {
            Mechanism::Channel(m) => &m.domain,
            Mechanism::Oracle(_, d) => d,
        }
    }
}

/// The `[domain]` table of a `--domain` file, its points file taken relative to the file's
/// folder (as a problem file's).
fn domain_spec(path: &Path) -> Result<DomainSpec> {
    let text = mechsynth::source::read_text(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let value: toml::Table = toml::from_str(&text)
        .map_err(|e| UsageError(format!("cannot parse {}: {e}", path.display())))?;
    let Some(domain) = value.get("domain") else {
        bail!(UsageError(format!(
            "invalid `--domain` = {}: the file has no [domain] table",
            path.display()
        )));
    };
    let mut spec: DomainSpec = domain
        .clone()
        .try_into()
        .map_err(|e| UsageError(format!("{}: `domain`: {e}", path.display())))?;
    spec.resolve_relative_to(path.parent().unwrap_or(Path::new("")));
    Ok(spec)
}

/// `domain` with the prior of `--prior` = `text` (when given), checked as a problem file's
/// `prior` and divided by its sum.
pub fn with_prior(domain: Domain, text: Option<&str>) -> Result<Domain> {
    let Some(text) = text else {
        return Ok(domain);
    };
    let prior: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            UsageError(format!(
                "invalid `--prior` = {text}: must be comma-separated probabilities, one per symbol (e.g. 0.5,0.3,0.2)"
            ))
        })?;
    mechsynth::domain::validate_prior("--prior", &prior, domain.size())?;
    if let (_, Some(note)) = mechsynth::domain::normalize_prior("--prior", &prior) {
        log_line!("note: {note}");
    }
    // Divided by its sum once, there, as a problem file's prior is.
    Ok(domain.with_prior(prior)?)
}

fn load_domain(path: &Path) -> Result<Domain> {
    Ok(domain_spec(path)?.build()?)
}

impl MechanismArgs {
    /// Every file the flags make the run read: the channel file or the `--domain` file, and
    /// the files their domain reads (for the output check).
    pub fn input_files(&self) -> Vec<PathBuf> {
        let mut files = Vec::new();
        if let Some(path) = &self.channel {
            files.extend(crate::common::channel_files(path));
        }
        if let Some(path) = &self.domain {
            files.push(path.clone());
            if let Ok(spec) = domain_spec(path) {
                files.extend(crate::common::domain_files(&spec));
            }
        }
        files
    }

    /// The flags of these arguments that name a file, with their paths (for
    /// [`crate::common::one_stdin`]).
    pub fn files(&self) -> [(&'static str, Option<&Path>); 2] {
        [
            ("--channel", self.channel.as_deref()),
            ("--domain", self.domain.as_deref()),
        ]
    }

    /// The mechanism as the flags name it, `(flag, value)` pairs for a page.
    pub fn describe(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        let mut push = |k: &str, v: Option<String>| {
            if let Some(v) = v {
                out.push((k.to_string(), v));
            }
        };
        push("channel", self.channel.as_deref().map(shown));
        push("baseline", self.baseline.as_ref().map(value_name));
        push("oracle", self.oracle.as_ref().map(value_name));
        push("epsilon", self.epsilon.map(mechsynth::html::json_number));
        push("domain", self.domain.as_deref().map(shown));
        push("domain size", self.size.map(|n| n.to_string()));
        push("prior", self.prior.clone());
        push("sensitive symbols", self.sensitive.clone());
        push("blocks", self.blocks.clone());
        out
    }

    /// The domain of a baseline or oracle (`--domain FILE` or `--size N`): at least two
    /// symbols, since a domain of one symbol reveals nothing and needs no mechanism.
    pub fn baseline_domain(&self) -> Result<Domain> {
        match (&self.domain, self.size) {
            (Some(path), _) => {
                let domain = load_domain(path)?;
                check_symbols("--domain", &path.display().to_string(), domain.size())?;
                with_prior(domain, self.prior.as_deref())
            }
            (None, Some(n)) => {
                check_symbols("--size", &n.to_string(), n)?;
                with_prior(Domain::sized(n)?, self.prior.as_deref())
            }
            (None, None) => bail!(UsageError(
                "a baseline or oracle needs a domain: --domain FILE or --size N".into()
            )),
        }
    }

    /// The sensitive set and blocks given for a structured baseline.
    pub fn structure(&self, domain: &Domain) -> Result<Structure> {
        let sensitive = match &self.sensitive {
            Some(t) => symbols("--sensitive", t, domain)?,
            None => Vec::new(),
        };
        let blocks = match &self.blocks {
            Some(t) => t
                .split('/')
                .map(|b| symbols("--blocks", b, domain))
                .collect::<Result<Vec<_>>>()?,
            None => Vec::new(),
        };
        Ok(Structure { sensitive, blocks })
    }

    fn epsilon(&self) -> Result<f64> {
        match self.epsilon {
            Some(e) => Ok(mechsynth::collect::check_epsilon("--epsilon", e)?),
            None => bail!(UsageError("a baseline or oracle needs --epsilon".into())),
        }
    }

    /// Load the mechanism.
    pub fn load(&self) -> Result<Mechanism> {
        if let Some(path) = &self.channel {
            if self.epsilon.is_some() {
                bail!(UsageError(
                    "invalid `--epsilon`: a channel file has its own parameters; --epsilon is for baselines and oracles".into()
                ));
            }
            let mut model = Model::load(path)?;
            model.domain = with_prior(model.domain, self.prior.as_deref())?;
            return Ok(Mechanism::Channel(model));
        }
        if let Some(spec) = self.baseline {
            let domain = self.baseline_domain()?;
            let structure = self.structure(&domain)?;
            return Ok(Mechanism::Channel(Model::structured_baseline(
                spec,
                domain,
                self.epsilon()?,
                &structure,
            )?));
        }
        if let Some(spec) = self.oracle {
            let domain = self.baseline_domain()?;
            let oracle = spec.build(domain.size(), self.epsilon()?)?;
            return Ok(Mechanism::Oracle(oracle, domain));
        }
        bail!(UsageError(
            "name a mechanism: --channel FILE, --baseline NAME or --oracle NAME".into()
        ))
    }
}

/// A file path as given, `standard input` for `-`.
pub fn shown(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard input".into()
    } else {
        path.display().to_string()
    }
}

/// A value of a `ValueEnum` flag as the command line spells it.
pub fn value_name(v: &impl ValueEnum) -> String {
    v.to_possible_value()
        .map_or_else(String::new, |p| p.get_name().to_string())
}
