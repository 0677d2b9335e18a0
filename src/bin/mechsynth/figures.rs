//! `mechsynth figures`: regenerate every figure manifest's CSV and SVG (and, with `--png`, a
//! PNG beside each SVG).

use crate::common::{check_outputs, domain_files, Output, UsageError};
use anyhow::{bail, Context, Result};
use mechsynth::curve::{figure_manifests, run_figure, CurveOptions};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct FiguresArgs {
    /// The folder of figure manifests (problem files with a `[curve]` section).
    #[arg(default_value = "figures")]
    dir: PathBuf,
    /// Where the CSV and SVG files go (created if missing).
    #[arg(long, default_value = "figures/out")]
    out: PathBuf,
    /// Allow replacing existing CSV, SVG and PNG files in --out (never a manifest or a file it
    /// reads).
    #[arg(long)]
    force: bool,
    /// Also write `<stem>.png` beside each `<stem>.svg` (the SVG rendered with the bundled
    /// font).
    #[arg(long)]
    png: bool,
    /// Time limit of each point in seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::numbers::seconds())]
    point_time_limit: f64,
}

/// Run `figures`: 0 when every figure was written.
pub fn run(args: FiguresArgs) -> Result<u8> {
    if !(args.point_time_limit.is_finite() && args.point_time_limit > 0.0) {
        bail!(UsageError(format!(
            "invalid `--point-time-limit` = {}: must be a positive number of seconds",
            args.point_time_limit
        )));
    }
    crate::common::refuse_stdio("DIR", &args.dir, "it names a folder of manifests")?;
    crate::common::refuse_stdio("--out", &args.out, "it names a folder of figures")?;
    if !args.dir.is_dir() {
        bail!(UsageError(format!(
            "invalid `DIR` = {}: not a folder",
            args.dir.display()
        )));
    }
    let manifests = figure_manifests(&args.dir)?;
    if manifests.is_empty() {
        bail!(UsageError(format!(
            "invalid `DIR` = {}: no *.toml manifests in it",
            args.dir.display()
        )));
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    // Every manifest writes `<stem>.csv` and `<stem>.svg` (and `<stem>.png`) into --out; none
    // may be a manifest
    // or a file a manifest reads, and an existing one is replaced only with --force.
    let mut inputs = manifests.clone();
    let mut paths = Vec::new();
    for m in &manifests {
        if let Ok(file) = mechsynth::curve::load_curve_file(m) {
            inputs.extend(domain_files(&file.problem.domain));
        }
        let stem = m
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let extensions: &[&str] = if args.png {
            &["csv", "svg", "png"]
        } else {
            &["csv", "svg"]
        };
        for ext in extensions {
            paths.push(args.out.join(format!("{stem}.{ext}")));
        }
    }
    let outputs: Vec<Output> = paths
        .iter()
        .map(|path| Output {
            flag: "--out",
            path,
        })
        .collect();
    check_outputs(&outputs, &inputs, args.force)?;
    let options = CurveOptions {
        point_time_limit: Some(args.point_time_limit),
        ..CurveOptions::default()
    };
    for m in &manifests {
        let out = run_figure(m, &args.out, &options)
            .with_context(|| format!("figure {}", m.display()))?;
        let png = if args.png {
            let path = out.svg.with_extension("png");
            let svg = std::fs::read_to_string(&out.svg)
                .with_context(|| format!("cannot read {}", out.svg.display()))?;
            let bytes = mechsynth::curve::svg_to_png(&svg, crate::common::PNG_SCALE)?;
            std::fs::write(&path, bytes)
                .with_context(|| format!("cannot write {}", path.display()))?;
            format!(", {}", path.display())
        } else {
            String::new()
        };
        log_line!(
            "{}: {} rows -> {}, {}{png}",
            m.display(),
            out.rows.len(),
            out.csv.display(),
            out.svg.display()
        );
    }
    Ok(0)
}
