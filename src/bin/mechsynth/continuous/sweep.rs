//! `continuous --sweep`: the flags a sweep may vary and one point's series.

use super::*;

/// The flags `--sweep` and `--series-over` may vary.
pub const KEYS: [&str; 8] = [
    "noise",
    "epsilon",
    "delta",
    "at",
    "sensitivity",
    "prior",
    "notion",
    "mechanism",
];

pub fn set(args: &mut ContinuousArgs, key: &str, value: &str) -> Result<()> {
    use crate::numbers;
    let flag = format!("--{key}");
    match key {
        "noise" => args.noise = Some(numbers::non_negative().parse_as(&flag, value)?),
        "epsilon" => {
            let max = mechsynth::continuous::request::MAX_EPSILON;
            args.epsilon = Some(numbers::positive_at_most(max).parse_as(&flag, value)?)
        }
        "delta" => args.delta = Some(numbers::unit_half_open().parse_as(&flag, value)?),
        "at" if value == "none" => args.at = None,
        "at" => args.at = Some(numbers::finite().parse_as(&flag, value)?),
        "sensitivity" => args.sensitivity = Some(numbers::positive().parse_as(&flag, value)?),
        "prior" => args.prior = Some(value.to_string()),
        "notion" => args.notion = Some(value.to_string()),
        _ => args.mechanism = Some(value.to_string()),
    }
    Ok(())
}

/// One point of a sweep: every method's `--plot` column (none when no noise meets the target).
pub fn point(args: &ContinuousArgs) -> Result<Vec<crate::sweep::Value>> {
    let req = request(args)?;
    if let Some(noise) = args.noise {
        let rows = super::noise::at_noise(&req, noise)?;
        return Ok(rows
            .into_iter()
            .map(|(series, v)| crate::sweep::Value {
                series,
                value: Some(v),
            })
            .collect());
    }
    let limits = Limits {
        deadline: None,
        progress: None,
    };
    let report = match calibrate_within(&req, &limits) {
        Ok(r) => r,
        Err(ContinuousError::Infeasible(m)) => {
            log_line!("note: no noise level meets the target: {m}");
            return Ok(Vec::new());
        }
        Err(e) => return Err(bad(e)),
    };
    let mut out = Vec::new();
    for r in &report.rows {
        let value = match args.plot.as_deref().unwrap_or("parameter") {
            "parameter" => r.parameter,
            "achieved" => r.achieved,
            "release-mse" => r.release_mse,
            "posterior-mse" => r.posterior_mse,
            other => bail!(UsageError(format!(
                "invalid `--plot` = {other}: parameter, achieved, release-mse or posterior-mse"
            ))),
        };
        out.push(crate::sweep::Value {
            series: r.method.clone(),
            value: Some(value),
        });
    }
    Ok(out)
}

/// Every file `continuous` reads at `args`: the problem file, the `csv` data files its prior
/// names (relative to it, also inside mixture components), and `--data`.
pub fn inputs(args: &ContinuousArgs) -> Vec<PathBuf> {
    fn data_files(prior: &toml::Value, base: &std::path::Path, files: &mut Vec<PathBuf>) {
        if let Some(file) = prior.get("csv").and_then(|v| v.as_str()) {
            files.push(base.join(file));
        }
        let components = prior.get("components").and_then(|v| v.as_array());
        for component in components.into_iter().flatten() {
            data_files(component, base, files);
        }
    }
    let mut files: Vec<PathBuf> = args.data.iter().cloned().collect();
    if let Some(path) = &args.file {
        files.push(path.clone());
        let base = path.parent().unwrap_or(std::path::Path::new("."));
        let prior = mechsynth::source::read_text(path)
            .ok()
            .and_then(|text| text.parse::<toml::Table>().ok())
            .and_then(|t| t.get("continuous")?.get("prior").cloned());
        if let Some(prior) = prior {
            data_files(&prior, base, &mut files);
        }
    }
    files
}
