//! `mechsynth transfer`: the LIP a channel guarantees for the true prior when it was designed
//! for an estimated one (context-aware-lip Lemma 3, (12), Cor. 6, 7, 8).

use crate::common::{emit, Format, UsageError};
use anyhow::{bail, Context, Result};
use mechsynth::collect::Model;
use mechsynth::continuous::transfer as tr;
use mechsynth::continuous::transfer_sim::Discrepancy;
use mechsynth::privacy::lip_leakage;
use std::path::PathBuf;

mod simulate;
mod sweep;

#[derive(clap::Args, Clone)]
pub struct TransferArgs {
    /// The channel (a solve JSON report or a TOML `[channel]` file); not needed with --simulate.
    channel: Option<PathBuf>,
    /// The estimated prior, comma-separated (default: the channel file's domain prior).
    #[arg(long)]
    prior: Option<String>,
    /// Number of samples the prior was estimated from.
    #[arg(long, value_parser = crate::numbers::count(1, mechsynth::continuous::transfer_sim::MAX_SAMPLES))]
    samples: Option<u64>,
    /// Estimate the prior from this CSV instead (values are the domain's labels).
    #[arg(long)]
    data: Option<PathBuf>,
    /// The CSV column of --data.
    #[arg(long)]
    column: Option<String>,
    /// A true prior to compare against (exact leakage and Lemma 3 / Cor. 8).
    #[arg(long)]
    true_prior: Option<String>,
    /// A family of priors for Cor. 8, `;`-separated.
    #[arg(long)]
    family: Option<String>,
    /// Confidence: the bounds hold with probability 1 - beta.
    #[arg(long, default_value_t = 0.05, value_parser = crate::numbers::probability_open())]
    beta: f64,
    /// Write a bp-lip problem over the confidence set, at this eps, to --emit-problem.
    #[arg(long, value_parser = crate::numbers::positive_at_most(mechsynth::privacy::MAX_EPSILON))]
    design_epsilon: Option<f64>,
    /// Where to write the bp-lip problem file.
    #[arg(long)]
    emit_problem: Option<PathBuf>,
    /// Simulate Fig. 6(c) with this many trials per n (1 to 10^7): eq. (19) designed for the
    /// empirical prior of n samples from --true-prior, at --sim-epsilon; n from --sim-samples.
    #[arg(long, value_parser = crate::numbers::count(1, mechsynth::continuous::transfer_sim::MAX_TRIALS))]
    simulate: Option<u32>,
    /// eps of the simulated eq. (19) mechanism.
    #[arg(long, default_value_t = 1.0, value_parser = crate::numbers::positive_at_most(mechsynth::privacy::MAX_EPSILON))]
    sim_epsilon: f64,
    /// Sample sizes of the simulation, comma-separated (each 1 to 10^9).
    #[arg(long, default_value = "10,100,1000,10000")]
    sim_samples: String,
    /// With --simulate: stop after this many seconds (exit 4); with --sweep, for the whole
    /// sweep (points not computed by then have no value and status `no-channel:time-limit`).
    #[arg(
        long = "time-limit",
        value_name = "SECONDS",
        allow_hyphen_values = true
    , value_parser = crate::numbers::seconds())]
    time_limit: Option<f64>,
    /// The deadline `--time-limit` sets, fixed when the run starts.
    #[arg(skip)]
    deadline: Option<std::time::Instant>,
    /// Output format.
    #[arg(long, value_enum)]
    format: Option<Format>,
    #[command(flatten)]
    sweep: crate::sweep::SweepArgs,
}

fn pmf(key: &str, text: &str, size: usize) -> Result<Vec<f64>> {
    let v: Vec<f64> = text
        .split(',')
        .map(|t| t.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| UsageError(format!("invalid `{key}` = {text}: not numbers")))?;
    let sum: f64 = v.iter().sum();
    if v.len() != size || v.iter().any(|p| !(p.is_finite() && *p > 0.0)) || (sum - 1.0).abs() > 1e-9
    {
        bail!(UsageError(format!(
            "invalid `{key}` = {text}: needs {size} positive probabilities summing to 1 (sum {sum})"
        )));
    }
    Ok(v)
}

#[derive(serde::Serialize)]
struct Out {
    estimated_prior: Vec<f64>,
    samples: Option<u64>,
    beta: f64,
    leakage_estimated: f64,
    lemma3_eta: Option<f64>,
    leakage_true: Option<f64>,
    bound12: Option<f64>,
    corollary6_threshold: Option<f64>,
    corollary6_threshold_with_log: Option<f64>,
    corollary7_radius: Option<f64>,
    corollary7_eta_true_c: Option<f64>,
    corollary7_eta_data_c: Option<f64>,
    corollary7_bound: Option<f64>,
    corollary7_bound12: Option<f64>,
    bound12_twice_leakage: f64,
    bound12_ldp_term: f64,
    corollary8_eta: Option<f64>,
}

/// Run `transfer`.
pub fn run(mut args: TransferArgs) -> Result<u8> {
    if !(args.beta > 0.0 && args.beta < 1.0) {
        bail!(UsageError(format!(
            "invalid `--beta` = {}: must be in (0, 1)",
            args.beta
        )));
    }
    args.deadline = simulate::check_limits(&args)?;
    if args.samples == Some(0) {
        bail!(UsageError(
            "invalid `--samples` = 0: a prior estimated from no samples has no guarantee".into()
        ));
    }
    if args.family.is_some() && args.true_prior.is_none() {
        bail!(UsageError(
            "`--family` needs `--true-prior` (Cor. 8 bounds the discrepancy to the true prior)"
                .into()
        ));
    }
    // Every file the run writes, checked together before anything is computed (so that
    // `--emit-problem` and `--csv` naming one file are refused as such).
    let mut outputs = args.sweep.outputs();
    if let Some(path) = &args.emit_problem {
        outputs.push(crate::common::Output {
            flag: "--emit-problem",
            path,
        });
    }
    crate::common::check_outputs(&outputs, &input_files(&args), args.sweep.force)?;
    args.sweep.check_needed_with_format(args.format)?;
    let emit_problem = args.emit_problem.as_ref().map(|p| p.display().to_string());
    let design_epsilon = args.design_epsilon.map(|e| e.to_string());
    let why = "they go together: the design's epsilon and the file it is written to";
    if args.design_epsilon.is_none() {
        crate::sweep::needs(
            "--design-epsilon",
            why,
            &[("--emit-problem", emit_problem.clone())],
        )?;
    }
    if args.emit_problem.is_none() {
        crate::sweep::needs(
            "--emit-problem",
            why,
            &[("--design-epsilon", design_epsilon)],
        )?;
    }
    if let Some(path) = emit_problem {
        let other = if args.sweep.sweep.is_some() {
            Some("--sweep")
        } else if args.simulate.is_some() {
            Some("--simulate")
        } else {
            None
        };
        if let Some(other) = other {
            bail!(UsageError(format!(
                "invalid `--emit-problem` = {path}: cannot be combined with `{other}`; it writes the problem of one channel run (drop `{other}`)"
            )));
        }
        if args.samples.is_none() && args.data.is_none() {
            bail!(UsageError(format!(
                "invalid `--emit-problem` = {path}: needs `--samples` or `--data` (the confidence set's radius depends on the sample size)"
            )));
        }
    }
    if args.sweep.sweep.is_some() {
        return crate::sweep::run(
            &args.sweep,
            &args,
            &sweep::KEYS,
            sweep::set,
            sweep::point,
            input_files,
        );
    }
    if let Some(trials) = args.simulate {
        return simulate::simulate(&args, trials);
    }
    let (out, model, _) = compute(&args)?;
    let (phat, radius) = (&out.estimated_prior, out.corollary7_radius);
    if let (Some(eps), Some(path)) = (args.design_epsilon, &args.emit_problem) {
        let r =
            radius.ok_or_else(|| UsageError("--emit-problem needs --samples or --data".into()))?;
        let text = tr::bp_lip_problem(model.domain.labels(), phat, r, eps)?;
        emit(&text, Some(path))?;
    }
    print(&out, args.format.unwrap_or(Format::Table))
}

/// Every file `transfer` reads at `args`: the channel file (and its domain's files) and --data.
fn input_files(args: &TransferArgs) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = args.data.iter().cloned().collect();
    if let Some(channel) = &args.channel {
        files.extend(crate::common::channel_files(channel));
    }
    files
}

fn compute(args: &TransferArgs) -> Result<(Out, Model, PathBuf)> {
    let channel_path = args
        .channel
        .clone()
        .ok_or_else(|| UsageError("give the channel file (or --simulate)".into()))?;
    let model = Model::load(&channel_path)?;
    let size = model.inputs();
    let (phat, n) = match (&args.prior, &args.data) {
        (Some(_), Some(_)) => bail!(UsageError("give --prior or --data, not both".into())),
        (Some(p), None) => (pmf("--prior", p, size)?, args.samples),
        (None, Some(path)) => {
            if let Some(samples) = args.samples {
                bail!(UsageError(format!(
                    "invalid `--samples` = {samples}: with `--data` the sample size is the number of records in {}",
                    path.display()
                )));
            }
            let column = args
                .column
                .as_deref()
                .ok_or_else(|| UsageError("--data needs --column".into()))?;
            let text = mechsynth::source::read_text(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut reader = csv::Reader::from_reader(text.as_bytes());
            let idx = reader
                .headers()?
                .iter()
                .position(|h| h == column)
                .ok_or_else(|| {
                    UsageError(format!(
                        "invalid `--column` = {column}: not a column of {}",
                        path.display()
                    ))
                })?;
            let labels = model.domain.labels();
            let mut counts = vec![0u64; size];
            for rec in reader.records() {
                let rec = rec?;
                let v = rec.get(idx).unwrap_or("").trim();
                let i = labels.iter().position(|l| l == v).ok_or_else(|| {
                    UsageError(format!(
                        "invalid value `{v}` in column {column}: not a domain label"
                    ))
                })?;
                counts[i] += 1;
            }
            let total: u64 = counts.iter().sum();
            if total == 0 || counts.contains(&0) {
                bail!(UsageError(
                    "the data must hold every domain label at least once".into()
                ));
            }
            (
                counts.iter().map(|&c| c as f64 / total as f64).collect(),
                Some(total),
            )
        }
        (None, None) => (model.domain.prior().to_vec(), args.samples),
    };
    let truth = args
        .true_prior
        .as_deref()
        .map(|t| pmf("--true-prior", t, size))
        .transpose()?;
    let channel = &model.channel;
    let leak_hat = lip_leakage(channel, std::slice::from_ref(&phat));
    let leak_true = truth
        .as_ref()
        .map(|t| lip_leakage(channel, std::slice::from_ref(t)));
    let eta3 = truth.as_ref().map(|t| tr::lemma3_eta(&phat, t));
    let radius = n.map(|n| tr::corollary7_radius(n, size, args.beta));
    let data_c = radius
        .map(|r| tr::p_min(&phat) - 0.5 * r)
        .filter(|c| *c > 0.0);
    let out = Out {
        estimated_prior: phat.clone(),
        samples: n,
        beta: args.beta,
        leakage_estimated: leak_hat,
        lemma3_eta: eta3,
        leakage_true: leak_true,
        bound12: eta3.map(|e| tr::bound12(leak_hat, e, tr::p_min(&phat))),
        corollary6_threshold: truth
            .as_ref()
            .map(|t| tr::corollary6_threshold(leak_hat, tr::p_min(&phat), tr::p_min(t))),
        corollary6_threshold_with_log: truth
            .as_ref()
            .map(|t| tr::corollary6_threshold_with_log(leak_hat, tr::p_min(&phat), tr::p_min(t))),
        corollary7_radius: radius,
        corollary7_eta_true_c: match (n, &truth) {
            (Some(n), Some(t)) => Some(tr::corollary7_eta(
                n,
                size,
                args.beta,
                tr::p_min(&phat).min(tr::p_min(t)),
            )),
            _ => None,
        },
        corollary7_eta_data_c: n
            .zip(data_c)
            .map(|(n, c)| tr::corollary7_eta(n, size, args.beta, c)),
        corollary7_bound: n
            .zip(data_c)
            .map(|(n, c)| leak_hat + tr::corollary7_eta(n, size, args.beta, c)),
        bound12_twice_leakage: 2.0 * leak_hat,
        bound12_ldp_term: ((leak_hat.exp() - 1.0 + tr::p_min(&phat)) / tr::p_min(&phat)).ln(),
        corollary7_bound12: n.zip(data_c).map(|(n, c)| {
            tr::bound12(
                leak_hat,
                tr::corollary7_eta(n, size, args.beta, c),
                tr::p_min(&phat),
            )
        }),
        corollary8_eta: match (&truth, &args.family) {
            (Some(t), Some(f)) => {
                let fam = f
                    .split(';')
                    .map(|p| pmf("--family", p, size))
                    .collect::<Result<Vec<_>>>()?;
                Some(tr::corollary8_eta(t, &fam))
            }
            _ => None,
        },
    };
    Ok((out, model, channel_path))
}

fn print(out: &Out, format: Format) -> Result<u8> {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(out)? + "\n",
        Format::Csv => {
            // Numbers bare, text as itself, lists as their JSON text (quoted by the writer
            // only where a comma or quote needs it).
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(["quantity", "value"])?;
            for (k, val) in serde_json::to_value(out)?.as_object().expect("struct") {
                let text = match val {
                    serde_json::Value::Null => continue,
                    serde_json::Value::String(t) => t.clone(),
                    other => other.to_string(),
                };
                w.write_record([k.as_str(), text.as_str()])?;
            }
            String::from_utf8(w.into_inner()?)?
        }
        Format::Table => {
            let mut s = String::new();
            for (k, val) in serde_json::to_value(out)?.as_object().expect("struct") {
                if !val.is_null() {
                    s += &format!("{k:<30} {val}\n");
                }
            }
            s
        }
    };
    emit(&text, None)?;
    Ok(0)
}
