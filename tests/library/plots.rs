//! What the curve plots look like, read from the SVG text: distinct (colour, dash) pairs per
//! series, bounds and closed forms styled unlike certified optima, coinciding series noted,
//! plain 1-2-5 tick labels, the legend outside the data.

use mechsynth::curve::{curve_svg, PlotOptions, PointStatus, Row};
use std::collections::BTreeMap;

/// One SVG element: its tag, attributes and text content.
#[derive(Debug)]
pub(crate) struct Element {
    pub tag: String,
    pub attrs: BTreeMap<String, String>,
    pub text: String,
}

/// The elements of an SVG document, in order (a minimal reader for the writer's output).
pub(crate) fn elements(svg: &str) -> Vec<Element> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        if rest.starts_with('/') {
            continue;
        }
        let end = rest.find('>').expect("a closed tag");
        let inside = rest[..end].trim_end_matches('/');
        let (tag, mut attrs_text) = inside.split_once(' ').unwrap_or((inside, ""));
        let mut attrs = BTreeMap::new();
        while let Some(eq) = attrs_text.find("=\"") {
            let name = attrs_text[..eq].trim().to_string();
            let after = &attrs_text[eq + 2..];
            let close = after.find('"').expect("a closed attribute");
            attrs.insert(name, after[..close].to_string());
            attrs_text = &after[close + 1..];
        }
        let text = if tag == "text" {
            let body = &rest[end + 1..];
            body[..body.find("</text>").expect("a closed text")].to_string()
        } else {
            String::new()
        };
        out.push(Element {
            tag: tag.to_string(),
            attrs,
            text,
        });
        rest = &rest[end + 1..];
    }
    out
}

pub(crate) fn attr(e: &Element, name: &str) -> f64 {
    e.attrs
        .get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{} has no numeric {name}: {e:?}", e.tag))
}

pub(crate) fn row(series: &str, x: f64, value: f64, status: PointStatus) -> Row {
    Row {
        series: series.into(),
        x,
        value: Some(value),
        status,
        bound: None,
        leakage: None,
        notes: String::new(),
    }
}

fn options() -> PlotOptions {
    PlotOptions {
        title: "test".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        size: (900, 560),
    }
}

/// The series lines: (series, stroke, dash, width, kind).
fn lines(svg: &str) -> Vec<(String, String, String, f64, String)> {
    elements(svg)
        .into_iter()
        .filter(|e| e.tag == "polyline" && e.attrs.get("class").is_some_and(|c| c == "series"))
        .map(|e| {
            (
                e.attrs["data-series"].clone(),
                e.attrs["stroke"].clone(),
                e.attrs.get("stroke-dasharray").cloned().unwrap_or_default(),
                attr(&e, "stroke-width"),
                e.attrs["data-kind"].clone(),
            )
        })
        .collect()
}

fn assert_distinct_pairs(svg: &str, count: usize) {
    let lines = lines(svg);
    assert_eq!(lines.len(), count, "one line per series");
    for (i, a) in lines.iter().enumerate() {
        for b in &lines[..i] {
            assert!(
                (&a.1, &a.2) != (&b.1, &b.2),
                "{} and {} share colour {} and dash `{}`",
                a.0,
                b.0,
                a.1,
                a.2
            );
        }
    }
}

#[test]
fn twelve_and_sixteen_series_get_distinct_colour_and_dash_pairs() {
    for count in [12, 16] {
        let rows: Vec<Row> = (0..count)
            .flat_map(|s| {
                (0..5).map(move |x| {
                    let v = (s * 10 + x) as f64;
                    row(&format!("series {s}"), x as f64, v, PointStatus::Optimal)
                })
            })
            .collect();
        assert_distinct_pairs(&curve_svg(&rows, &options()).unwrap(), count);
    }
    // Six groups of an exact value and its bound (Fig. 5(a)'s shape): a colour per group.
    let rows: Vec<Row> = (0..6)
        .flat_map(|g| {
            ["lip exact", "lip bound"].into_iter().flat_map(move |s| {
                (1..=8).map(move |k| {
                    let v = (g + 1) as f64 * k as f64 + if s == "lip bound" { 1.0 } else { 0.0 };
                    row(&format!("P{g}: {s}"), k as f64, v, PointStatus::Computed)
                })
            })
        })
        .collect();
    let svg = curve_svg(&rows, &options()).unwrap();
    assert_distinct_pairs(&svg, 12);
    let lines = lines(&svg);
    let colour = |name: &str| lines.iter().find(|l| l.0 == name).unwrap().1.clone();
    assert_eq!(
        colour("P0: lip exact"),
        colour("P0: lip bound"),
        "a group shares a colour"
    );
    assert_ne!(colour("P0: lip exact"), colour("P1: lip exact"));
}

#[test]
fn bounds_and_closed_forms_look_unlike_certified_optima() {
    let mut rows = Vec::new();
    for x in 1..=4 {
        let x = f64::from(x);
        rows.push(row("optimum ldp", x, x, PointStatus::Optimal));
        rows.push(row("k-rr", x, x + 1.0, PointStatus::Feasible));
        rows.push(row("ldp exact", x, x + 2.0, PointStatus::Computed));
        rows.push(row("ldp bound", x, x + 3.0, PointStatus::Computed));
    }
    let svg = curve_svg(&rows, &options()).unwrap();
    let lines = lines(&svg);
    let get = |name: &str| lines.iter().find(|l| l.0 == name).unwrap().clone();
    for primary in ["optimum ldp", "ldp exact"] {
        let p = get(primary);
        assert!(p.2.is_empty(), "{primary} is solid");
        for reference in ["k-rr", "ldp bound"] {
            let r = get(reference);
            assert!(!r.2.is_empty(), "{reference} is dashed");
            assert!(r.3 < p.3, "{reference} is thinner than {primary}");
            assert_ne!(r.4, p.4, "kinds differ");
        }
    }
    // Markers: filled for the certified optimum and the exact value, hollow for the others.
    let all = elements(&svg);
    let mut current = String::new();
    let mut fills: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for e in &all {
        if e.tag == "g" && e.attrs.get("class").is_some_and(|c| c == "markers") {
            current = e.attrs["data-series"].clone();
        } else if e.tag == "g" {
            current.clear();
        } else if !current.is_empty() && (e.tag == "circle" || e.tag == "path") {
            fills
                .entry(current.clone())
                .or_default()
                .push(e.attrs["fill"].clone());
        }
    }
    for (name, filled) in [
        ("optimum ldp", true),
        ("ldp exact", true),
        ("k-rr", false),
        ("ldp bound", false),
    ] {
        let f = &fills[name];
        assert_eq!(f.len(), 4, "{name}: a marker per point");
        assert!(
            f.iter().all(|c| (c == "#FFFFFF") != filled),
            "{name}: filled {filled}: {f:?}"
        );
    }
}

#[test]
fn a_series_under_another_is_noted_and_keeps_its_markers() {
    let mut rows = Vec::new();
    for x in 1..=4 {
        let x = f64::from(x);
        rows.push(row("binary-lip-optimum", x, 1.0 / x, PointStatus::Feasible));
        rows.push(row("mimo-lip", x, 1.0 / x, PointStatus::Feasible));
    }
    let svg = curve_svg(&rows, &options()).unwrap();
    assert!(
        svg.contains("mimo-lip (coincides with binary-lip-optimum)"),
        "{svg}"
    );
    let shapes: Vec<String> = elements(&svg)
        .iter()
        .filter(|e| e.tag == "g" && e.attrs.get("class").is_some_and(|c| c == "markers"))
        .map(|e| e.attrs["data-series"].clone())
        .collect();
    assert_eq!(shapes, ["binary-lip-optimum", "mimo-lip"]);
    let offsets: Vec<bool> = elements(&svg)
        .iter()
        .filter(|e| e.tag == "polyline")
        .map(|e| e.attrs.contains_key("stroke-dashoffset"))
        .collect();
    assert_eq!(
        offsets,
        [false, true],
        "the upper line's dashes fall in the gaps"
    );
}

/// Whether `label` is a 1-2-5 value written plainly (`0.001`, `20`, `500`) or as a power of
/// ten (`10⁻⁴`, `2×10⁵`).
fn is_plain_125(label: &str) -> bool {
    let exponent = |r: &str| !r.is_empty() && r.chars().all(|c| "⁻⁰¹²³⁴⁵⁶⁷⁸⁹".contains(c));
    if label.strip_prefix("10").is_some_and(exponent) {
        return true;
    }
    if let Some((m, e)) = label.split_once("×10") {
        return ["2", "5"].contains(&m) && is_plain_125(&format!("10{e}"));
    }
    let digits: String = label.chars().filter(|c| c.is_ascii_digit()).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0');
    label.parse::<f64>().is_ok() && ["1", "2", "5"].contains(&significant)
}

#[test]
fn log_axes_have_plain_125_labels() {
    let rows: Vec<Row> = (0..=14)
        .map(|k| {
            let x = 10f64.powf(-4.0 + 0.5 * f64::from(k));
            row("optimum ldp", x, 1.0 / x, PointStatus::Optimal)
        })
        .collect();
    let svg = curve_svg(&rows, &options()).unwrap();
    for axis in ["tick-x", "tick-y"] {
        let labels: Vec<String> = elements(&svg)
            .into_iter()
            .filter(|e| e.attrs.get("class").is_some_and(|c| c == axis))
            .map(|e| e.text)
            .collect();
        assert!(labels.len() >= 4, "{axis}: {labels:?}");
        for l in &labels {
            assert!(
                is_plain_125(l) && !l.contains('e'),
                "{axis}: `{l}` in {labels:?}"
            );
        }
        assert!(labels.contains(&"0.001".to_string()) || labels.contains(&"1000".to_string()));
    }
}

#[test]
fn linear_axes_have_round_labels() {
    let rows: Vec<Row> = (0..=10)
        .map(|k| {
            let x = 0.317 + 0.1 * f64::from(k);
            row("optimum ldp", x, 3.16227766 * x, PointStatus::Optimal)
        })
        .collect();
    let svg = curve_svg(&rows, &options()).unwrap();
    let labels: Vec<String> = elements(&svg)
        .into_iter()
        .filter(|e| e.attrs.get("class").is_some_and(|c| c.starts_with("tick-")))
        .map(|e| e.text)
        .collect();
    for l in &labels {
        let digits = l.chars().filter(|c| c.is_ascii_digit()).count();
        assert!(
            l.parse::<f64>().is_ok() && digits <= 3,
            "`{l}` in {labels:?}"
        );
    }
}

#[test]
fn the_legend_lies_outside_the_data() {
    let rows: Vec<Row> = (0..12)
        .flat_map(|s| {
            (0..5).map(move |x| {
                row(
                    &format!("a long series name {s}"),
                    x as f64,
                    (s + x) as f64,
                    PointStatus::Optimal,
                )
            })
        })
        .collect();
    let svg = curve_svg(&rows, &options()).unwrap();
    let all = elements(&svg);
    let right_of_data = all
        .iter()
        .filter(|e| e.tag == "polyline")
        .flat_map(|e| {
            e.attrs["points"]
                .split(' ')
                .map(|p| p.split(',').next().unwrap().parse::<f64>().unwrap())
                .collect::<Vec<_>>()
        })
        .fold(0.0, f64::max);
    let legend = all
        .iter()
        .position(|e| e.attrs.get("class").is_some_and(|c| c == "legend"))
        .unwrap();
    let frame = &all[legend + 1];
    assert_eq!(frame.tag, "rect");
    assert!(
        attr(frame, "x") > right_of_data + 10.0,
        "legend at {} , data up to {right_of_data}",
        attr(frame, "x")
    );
    let width = attr(&all[0], "width");
    assert!(
        attr(frame, "x") + attr(frame, "width") <= width,
        "the canvas holds the legend"
    );
}

#[test]
fn degenerate_input_draws_or_errs_without_panicking() {
    assert!(curve_svg(&[], &options()).unwrap().starts_with("<svg"));
    let mut empty = row(
        "optimum ldp",
        1.0,
        0.0,
        PointStatus::NoChannel("infeasible".into()),
    );
    empty.value = None;
    let one = row("k-rr", 2.0, f64::NAN, PointStatus::Feasible);
    let same = row("thm 2", 3.0, 5.0, PointStatus::ViolatesConstraint);
    let svg = curve_svg(&[empty, one, same], &options()).unwrap();
    assert!(svg.contains("optimum ldp") && svg.contains("thm 2"));
    let tiny = PlotOptions {
        size: (10, 10),
        ..options()
    };
    let e = curve_svg(&[], &tiny).unwrap_err().to_string();
    assert!(e.contains("size") && e.contains("10x10"), "{e}");
}
