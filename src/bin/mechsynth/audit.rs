//! `mechsynth audit`: what a given channel really guarantees.

use crate::common::{cut_table, emit, terminal_width, Format};
use anyhow::Result;
use mechsynth::{audit, AuditSpec};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct AuditArgs {
    /// The channel file.
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    format: Format,
    /// Exit 5 also when a constraint holds only up to floating-point rounding.
    #[arg(long)]
    strict: bool,
    /// Also draw the channel as an SVG heatmap into FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Also write a single-file HTML page of the audit into FILE: the verdicts, the leakage,
    /// the channel's heatmap and the channel file (inline CSS and SVG; no scripts, no
    /// external resources).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Also draw the channel as a PNG heatmap into FILE (the SVG rendered with the bundled
    /// font).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Allow --svg, --png and --html to replace existing files.
    #[arg(long)]
    force: bool,
    /// Also report the smallest delta of (eps, delta)-LDP and -LIP at this eps (repeatable).
    #[arg(long = "epsilon", value_name = "EPS", allow_negative_numbers = true, value_parser = crate::numbers::non_negative())]
    epsilons: Vec<f64>,
    /// Also report the smallest eps of (eps, delta)-LDP and -LIP at this delta (repeatable).
    #[arg(long = "delta", value_name = "DELTA", allow_negative_numbers = true, value_parser = crate::numbers::probability())]
    deltas: Vec<f64>,
}

/// Run `audit`; exit code 5 when a stated constraint is violated (with `--strict`, also when
/// it holds only up to rounding).
pub fn run(args: AuditArgs) -> Result<u8> {
    crate::html::check_flag(args.html.as_deref())?;
    crate::common::check_svg_path(args.svg.as_deref())?;
    let outputs: Vec<crate::common::Output> = [
        ("--svg", &args.svg),
        ("--png", &args.png),
        ("--html", &args.html),
    ]
    .into_iter()
    .filter_map(|(flag, p)| {
        p.as_deref()
            .map(|path| crate::common::Output { flag, path })
    })
    .collect();
    if !outputs.is_empty() {
        let inputs = crate::common::channel_files(&args.file);
        crate::common::check_outputs(&outputs, &inputs, args.force)?;
    }
    let spec = AuditSpec::load(&args.file)?;
    let mut report = audit(&spec)?;
    if !args.epsilons.is_empty() || !args.deltas.is_empty() {
        for &e in &args.epsilons {
            mechsynth::privacy::check_epsilon_finite("--epsilon", e)?;
        }
        for &d in &args.deltas {
            mechsynth::privacy::check_delta("--delta", Some(d))?;
        }
        let (channel, domain) = spec.channel_and_domain()?;
        report
            .leakage
            .extend(mechsynth::privacy::approximate_profile(
                &channel,
                domain.prior(),
                &args.epsilons,
                &args.deltas,
            ));
    }
    for w in &report.warnings {
        log_line!("warning: {w}");
    }
    let text = match args.format {
        Format::Json => serde_json::to_string_pretty(&report)? + "\n",
        Format::Table => cut_table(
            &report.to_table(),
            terminal_width(),
            "--format csv or --format json",
        ),
        Format::Csv => report.to_csv(),
    };
    emit(&text, None)?;
    // A solve report names its outputs; a TOML channel's square outputs are taken as the
    // input symbols (as `privatize` reads it), otherwise `y0, y1, ...`.
    let outputs = report_output_labels(&args.file, report.channel.outputs()).unwrap_or_else(|| {
        if report.channel.outputs() == report.labels.len() {
            report.labels.clone()
        } else {
            (0..report.channel.outputs())
                .map(|y| format!("y{y}"))
                .collect()
        }
    });
    if args.svg.is_some() || args.png.is_some() {
        let title = format!("audited channel: {}", args.file.display());
        crate::curve::write_channel_images(
            args.svg.as_deref(),
            args.png.as_deref(),
            report.channel.rows(),
            &report.labels,
            &outputs,
            &title,
        )?;
    }
    if let Some(path) = &args.html {
        let page = mechsynth::html::audit_page(
            &report,
            &crate::html::source(&args.file),
            &outputs,
            &crate::html::provenance(),
        );
        crate::html::write(path, &page)?;
    }
    let holds = if args.strict {
        report.all_certified
    } else {
        report.all_hold
    };
    Ok(if holds { 0 } else { 5 })
}

/// The `output_labels` of a `solve --format json` report (`y0, y1, ...` for an MMSE channel),
/// when `file` is one and they match the channel's outputs; `None` for a TOML channel file.
fn report_output_labels(file: &std::path::Path, outputs: usize) -> Option<Vec<String>> {
    let text = mechsynth::source::read_text(file).ok()?;
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    let labels: Vec<String> = value
        .get("output_labels")?
        .as_array()?
        .iter()
        .map(|l| l.as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    (labels.len() == outputs).then_some(labels)
}
