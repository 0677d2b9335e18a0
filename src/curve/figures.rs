//! Figure manifests: problem files with a `[curve]` section (grid, comparisons, title and the
//! published figure they reproduce), regenerated as CSV and SVG in one go.

use super::{
    curve_svg, load_curve_file, run_curve, to_csv, CurveError, CurveOptions, PlotOptions, Row,
};
use std::path::{Path, PathBuf};

/// The figure's plot size in pixels.
pub const FIGURE_SIZE: (u32, u32) = (900, 560);

/// What regenerating one figure produced.
#[derive(Debug, Clone)]
pub struct FigureOutput {
    /// The manifest.
    pub manifest: PathBuf,
    /// The CSV written.
    pub csv: PathBuf,
    /// The SVG written.
    pub svg: PathBuf,
    /// The rows.
    pub rows: Vec<Row>,
}

/// The manifests in `dir` (`*.toml`), sorted by name.
pub fn figure_manifests(dir: &Path) -> Result<Vec<PathBuf>, CurveError> {
    let io = |source| CurveError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    out.sort();
    Ok(out)
}

/// Run the figure `manifest` and write `<stem>.csv` and `<stem>.svg` into `out_dir`.
pub fn run_figure(
    manifest: &Path,
    out_dir: &Path,
    options: &CurveOptions,
) -> Result<FigureOutput, CurveError> {
    let file = load_curve_file(manifest)?;
    let key = manifest.display().to_string();
    let curve = file.curve.ok_or_else(|| {
        CurveError::invalid("curve", &key, "a figure manifest needs a [curve] section")
    })?;
    let grid = curve
        .grid("curve")?
        .ok_or_else(|| CurveError::invalid("curve.grid", &key, "a figure manifest needs a grid"))?;
    let sources = curve.sources("curve")?;
    let mut rows = run_curve(&file.problem, &grid, &sources, options)?.rows;
    retain_mechanisms(&mut rows, &curve.mechanisms);
    let stem = manifest
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "figure".into());
    let title = match (&curve.title, &curve.citation) {
        (Some(t), Some(c)) => format!("{t} ({c})"),
        (Some(t), None) => t.clone(),
        (None, _) => file.problem.name.clone().unwrap_or_else(|| stem.clone()),
    };
    let plot = PlotOptions {
        title,
        x_label: grid.axis.label().to_string(),
        y_label: curve.y_label.clone().unwrap_or_else(|| "objective".into()),
        size: FIGURE_SIZE,
    };
    let svg = curve_svg(&rows, &plot)?;
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|source| CurveError::Io {
            path: path.display().to_string(),
            source,
        })
    };
    let csv_path = out_dir.join(format!("{stem}.csv"));
    let svg_path = out_dir.join(format!("{stem}.svg"));
    write(&csv_path, &to_csv(&rows))?;
    write(&svg_path, &svg)?;
    Ok(FigureOutput {
        manifest: manifest.to_path_buf(),
        csv: csv_path,
        svg: svg_path,
        rows,
    })
}

/// Keep the optimum series and, when `mechanisms` is not empty, only those registry series.
pub fn retain_mechanisms(rows: &mut Vec<Row>, mechanisms: &[String]) {
    if !mechanisms.is_empty() {
        rows.retain(|r| r.series.starts_with("optimum") || mechanisms.contains(&r.series));
    }
}
