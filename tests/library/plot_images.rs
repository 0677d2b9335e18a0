//! Heatmaps and PNG images: a colour scale, linear or log by the data's span, labels that do
//! not overprint or leave the canvas (34 and 225 outputs), the aggregated view said in the
//! picture; PNG rendering against a stored reference image, byte for byte reproducible.

use super::plots::{attr, elements, row};
use crate::bin::root;
use mechsynth::curve::{channel_svg, curve_svg, svg_to_png, PlotOptions, PointStatus};

/// Width of a character as a fraction of the font size, to estimate text boxes (DejaVu Sans'
/// digits are 0.636 em, its lower-case letters at most about 0.65 but for `m` and `w`).
const CHAR_EM: f64 = 0.6;
/// Height of a text box above its baseline, and below it, as fractions of the font size.
const ASCENT_EM: f64 = 0.75;
const DESCENT_EM: f64 = 0.2;
/// Pixels two text boxes may share before they count as overlapping (rounding of coordinates).
const OVERLAP_SLACK: f64 = 0.5;
/// A pixel of the rendered PNG differs from the reference when a channel differs by more.
const PIXEL_TOLERANCE: u8 = 32;
/// The largest fraction of pixels that may differ from the reference image.
const MAX_DIFFERING_FRACTION: f64 = 0.002;

/// Estimated text boxes (left, top, right, bottom) of the texts of an SVG.
fn text_boxes(svg: &str) -> Vec<(String, [f64; 4])> {
    elements(svg)
        .into_iter()
        .filter(|e| e.tag == "text")
        .map(|e| {
            let (x, y, size) = (attr(&e, "x"), attr(&e, "y"), attr(&e, "font-size"));
            let w = e.text.chars().count() as f64 * CHAR_EM * size;
            let left = match e.attrs.get("text-anchor").map(String::as_str) {
                Some("middle") => x - w / 2.0,
                Some("end") => x - w,
                _ => x,
            };
            (
                e.text.clone(),
                [left, y - ASCENT_EM * size, left + w, y + DESCENT_EM * size],
            )
        })
        .collect()
}

fn heatmap(n: usize, m: usize, spread: f64) -> String {
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            let w: Vec<f64> = (0..m)
                .map(|j| spread.powf(-((i as f64 - j as f64).abs())))
                .collect();
            let s: f64 = w.iter().sum();
            w.into_iter().map(|v| v / s).collect()
        })
        .collect();
    let labels = |k: usize, p: &str| (0..k).map(|i| format!("{p}{i}")).collect::<Vec<_>>();
    channel_svg(
        &rows,
        &labels(n, "x"),
        &labels(m, "y"),
        "a channel of the test",
    )
    .unwrap()
}

#[test]
fn heatmaps_have_a_colour_scale_linear_or_log_by_span() {
    let narrow = heatmap(5, 5, 1.5);
    assert!(narrow.contains(r#"id="colour-scale""#) && narrow.contains(r#"data-scale="linear""#));
    let wide = heatmap(34, 34, 3.0);
    assert!(wide.contains(r#"id="colour-scale""#) && wide.contains(r#"data-scale="log""#));
    for svg in [&narrow, &wide] {
        let labels = elements(svg)
            .into_iter()
            .filter(|e| e.attrs.get("class").is_some_and(|c| c == "scale-label"))
            .count();
        assert!(labels >= 3, "the colour bar has labelled ticks");
    }
}

#[test]
fn heatmap_labels_never_overprint_or_leave_the_canvas() {
    for m in [34, 225] {
        let svg = heatmap(m, m, 1.2);
        let width = attr(&elements(&svg)[0], "width");
        let boxes = text_boxes(&svg);
        for (i, (a, ba)) in boxes.iter().enumerate() {
            assert!(
                ba[0] >= 0.0 && ba[2] <= width,
                "{m} outputs: `{a}` leaves the canvas"
            );
            for (b, bb) in &boxes[..i] {
                let apart = ba[2] <= bb[0] + OVERLAP_SLACK
                    || bb[2] <= ba[0] + OVERLAP_SLACK
                    || ba[3] <= bb[1] + OVERLAP_SLACK
                    || bb[3] <= ba[1] + OVERLAP_SLACK;
                assert!(apart, "{m} outputs: `{a}` {ba:?} overlaps `{b}` {bb:?}");
            }
        }
        let columns = elements(&svg)
            .into_iter()
            .filter(|e| e.attrs.get("class").is_some_and(|c| c == "column-label"))
            .count();
        assert!(columns >= 5, "{m} outputs: {columns} column labels");
        assert_eq!(
            svg.contains("blocks of"),
            m > mechsynth::curve::AGGREGATE_ABOVE_OUTPUTS,
            "{m} outputs: the picture says what was aggregated"
        );
    }
}

fn reference_plot() -> String {
    let mut rows = Vec::new();
    for k in 0..=6 {
        let x = f64::from(k) * 0.5 + 0.5;
        rows.push(row("optimum ldp", x, 1.0 / (1.0 + x), PointStatus::Optimal));
        rows.push(row("k-rr", x, 1.2 / (1.0 + x), PointStatus::Feasible));
        rows.push(row(
            "thm 2",
            x,
            0.6 / (1.0 + x),
            PointStatus::ViolatesConstraint,
        ));
    }
    let options = PlotOptions {
        title: "reference".into(),
        x_label: "epsilon".into(),
        y_label: "MSE".into(),
        size: (320, 220),
    };
    curve_svg(&rows, &options).unwrap()
}

/// The PNG of a small fixed plot is within [`MAX_DIFFERING_FRACTION`] of the stored reference
/// (`MECHSYNTH_UPDATE_REFERENCE=1` rewrites the reference after a deliberate change of style),
/// and two renders give the same bytes.
#[test]
fn png_matches_the_reference_and_is_reproducible() {
    let svg = reference_plot();
    let a = svg_to_png(&svg, 1.0).unwrap();
    let b = svg_to_png(&svg, 1.0).unwrap();
    assert!(a == b, "two renders give the same bytes");
    let path = root().join("tests").join("data").join("plot-reference.png");
    if std::env::var_os("MECHSYNTH_UPDATE_REFERENCE").is_some() {
        std::fs::write(&path, &a).unwrap();
    }
    let got = resvg::tiny_skia::Pixmap::decode_png(&a).unwrap();
    let want = resvg::tiny_skia::Pixmap::decode_png(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!((got.width(), got.height()), (want.width(), want.height()));
    let differing = got
        .pixels()
        .iter()
        .zip(want.pixels())
        .filter(|(p, q)| {
            let d = |a: u8, b: u8| a.abs_diff(b) > PIXEL_TOLERANCE;
            d(p.red(), q.red()) || d(p.green(), q.green()) || d(p.blue(), q.blue())
        })
        .count();
    let fraction = differing as f64 / got.pixels().len() as f64;
    assert!(
        fraction <= MAX_DIFFERING_FRACTION,
        "{differing} pixels differ ({fraction:.4})"
    );
    // Text is drawn (the bundled font): the reference plot has dark pixels in its title row.
    let dark_in_title = (0..got.width())
        .flat_map(|x| (0..40).map(move |y| (x, y)))
        .filter(|(x, y)| got.pixel(*x, *y).is_some_and(|p| p.red() < 100))
        .count();
    assert!(dark_in_title > 20, "the title is drawn");
    assert_eq!(
        svg_to_png(&svg, 2.0)
            .map(|p| resvg::tiny_skia::Pixmap::decode_png(&p).unwrap().width())
            .unwrap(),
        2 * got.width()
    );
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY, 1e6] {
        let e = svg_to_png(&svg, bad).unwrap_err().to_string();
        assert!(e.contains("scale"), "{e}");
    }
    assert!(svg_to_png("<svg", 1.0).is_err());
}

/// Writes the pictures of this file into `target/plot-tests/` to look at.
#[test]
fn pictures_to_look_at() {
    let dir = root().join("target").join("plot-tests");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, svg) in [
        ("reference", reference_plot()),
        ("heat-5", heatmap(5, 5, 1.5)),
        ("heat-34", heatmap(34, 34, 3.0)),
        ("heat-225", heatmap(225, 225, 1.2)),
    ] {
        std::fs::write(dir.join(format!("{name}.svg")), &svg).unwrap();
        std::fs::write(
            dir.join(format!("{name}.png")),
            svg_to_png(&svg, 1.0).unwrap(),
        )
        .unwrap();
    }
}
