//! A channel ready for collection: the matrix, its input domain and its output labels.

use super::baseline::{BaselineSpec, Structure};
use super::CollectError;
use crate::audit::AuditSpec;
use crate::channel::Channel;
use crate::domain::Domain;
use crate::error::ProblemError;
use std::path::Path;

/// A channel with the domain of its inputs (labels, values, prior) and the labels of its
/// outputs.
#[derive(Debug, Clone)]
pub struct Model {
    /// The channel `Q[x][y]`.
    pub channel: Channel,
    /// The input domain; its prior is the planning and Bayesian prior.
    pub domain: Domain,
    /// One label per output (the input labels when the channel is square, else `y0, y1, ...`,
    /// unless the source names them).
    pub output_labels: Vec<String>,
    /// Where the channel came from (a file, or a baseline with its parameter).
    pub source: String,
}

impl Model {
    /// Wrap a channel over `domain`; output labels follow `solve`'s rule.
    pub fn new(channel: Channel, domain: Domain, source: String) -> Result<Self, CollectError> {
        if channel.inputs() != domain.size() {
            return Err(ProblemError::invalid(
                "channel.rows",
                format!("{} rows", channel.inputs()),
                format!("the domain has {} symbols", domain.size()),
            )
            .into());
        }
        let output_labels = default_output_labels(domain.labels(), channel.outputs());
        Ok(Model {
            channel,
            domain,
            output_labels,
            source,
        })
    }

    /// Read a `solve --format json` report or a TOML file with `[channel] rows = ...` (the
    /// inputs `audit` reads).
    pub fn load(path: &Path) -> Result<Self, CollectError> {
        let text = crate::source::read_text(path).map_err(|error| ProblemError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        let spec = AuditSpec::parse(&text, path)?;
        // A file whose channel no longer meets the privacy it states (edited by hand, say) is
        // refused: reports collected with it would not have the privacy the file claims.
        let report = crate::audit::audit(&spec)?;
        if !report.all_hold {
            let violated: Vec<String> = report
                .checks
                .iter()
                .filter(|c| c.verdict == crate::audit::Verdict::Violated)
                .map(|c| {
                    format!(
                        "{} (stated {}, achieved {})",
                        c.check.constraint, c.check.requested, c.check.achieved
                    )
                })
                .collect();
            return Err(CollectError::invalid(
                "--channel",
                path.display(),
                format!(
                    "the channel does not meet the privacy the file states: {}; `mechsynth audit` shows the details",
                    violated.join(", ")
                ),
            ));
        }
        let (channel, domain) = spec.channel_and_domain()?;
        let mut model = Model::new(channel, domain, path.display().to_string())?;
        if text.trim_start().starts_with('{') {
            if let Ok(serde_json::Value::Object(map)) = serde_json::from_str(&text) {
                if let Some(labels) = map.get("output_labels").and_then(|v| v.as_array()) {
                    let labels: Vec<String> = labels
                        .iter()
                        .filter_map(|l| l.as_str().map(str::to_string))
                        .collect();
                    if labels.len() == model.channel.outputs() {
                        model.output_labels = labels;
                    }
                }
            }
        }
        Ok(model)
    }

    /// A named matrix baseline at `epsilon` over `domain`.
    pub fn baseline(
        spec: BaselineSpec,
        domain: Domain,
        epsilon: f64,
    ) -> Result<Self, CollectError> {
        Self::structured_baseline(spec, domain, epsilon, &Structure::default())
    }

    /// As [`Model::baseline`], with the sensitive set or partition a structured baseline needs.
    pub fn structured_baseline(
        spec: BaselineSpec,
        domain: Domain,
        epsilon: f64,
        structure: &Structure,
    ) -> Result<Self, CollectError> {
        let mech = spec.build_with(&domain, epsilon, structure)?;
        let channel = mech.channel;
        let mut model = Model::new(
            channel,
            domain,
            format!("{} at eps = {epsilon}", spec.name()),
        )?;
        if let Some(labels) = mech.output_labels {
            model.output_labels = labels;
        }
        Ok(model)
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.channel.inputs()
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.channel.outputs()
    }

    /// The values of the inputs used for sums and means (the domain's numeric values).
    pub fn values(&self) -> Vec<f64> {
        self.domain.numeric_values()
    }
}

/// The input labels when there are as many outputs as inputs, else `y0, y1, ...`.
pub fn default_output_labels(inputs: &[String], outputs: usize) -> Vec<String> {
    if outputs == inputs.len() {
        inputs.to_vec()
    } else {
        (0..outputs).map(|y| format!("y{y}")).collect()
    }
}
