//! The command line's compact prior syntax.

use super::error::ContinuousError;
use super::prior::Prior;

/// Parse the command line's prior: `normal(MEAN,SD)`, `uniform(LOW,HIGH)`,
/// `laplace(LOCATION,SCALE)`, `discrete(X:P,X:P,...)`, or a mixture
/// `W*COMPONENT+W*COMPONENT+...`.
pub fn parse_prior(text: &str) -> Result<Prior, ContinuousError> {
    let bad = |reason: &str| ContinuousError::invalid("--prior", text, reason.to_string());
    let terms = split_top(text.trim(), '+');
    if terms.len() > 1 || terms[0].contains('*') {
        let mut parts = Vec::new();
        for t in terms {
            let (w, comp) = t
                .split_once('*')
                .ok_or_else(|| bad("mixture terms are W*COMPONENT"))?;
            let w: f64 = w
                .trim()
                .parse()
                .map_err(|_| bad("a mixture weight is not a number"))?;
            parts.push((w, parse_prior(comp)?));
        }
        return Prior::mixture(parts);
    }
    let t = terms[0].trim();
    let (name, rest) = t
        .split_once('(')
        .ok_or_else(|| bad("expected NAME(ARGS)"))?;
    let args = rest.strip_suffix(')').ok_or_else(|| bad("missing `)`"))?;
    if name.trim() == "discrete" {
        let mut points = Vec::new();
        let mut probs = Vec::new();
        for pair in args.split(',') {
            let (x, p) = pair
                .split_once(':')
                .ok_or_else(|| bad("discrete terms are X:P"))?;
            points.push(
                x.trim()
                    .parse()
                    .map_err(|_| bad("a point is not a number"))?,
            );
            probs.push(
                p.trim()
                    .parse()
                    .map_err(|_| bad("a probability is not a number"))?,
            );
        }
        return Prior::discrete(points, probs);
    }
    let nums: Vec<f64> = args
        .split(',')
        .map(|a| a.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad("arguments must be numbers"))?;
    if nums.len() != 2 {
        return Err(bad("expected two arguments"));
    }
    match name.trim() {
        "normal" => Prior::normal(nums[0], nums[1]),
        "uniform" => Prior::uniform(nums[0], nums[1]),
        "laplace" => Prior::laplace(nums[0], nums[1]),
        _ => Err(bad(
            "expected normal, uniform, laplace, discrete or a mixture",
        )),
    }
}

fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 && i > 0 && !text[..i].ends_with(['e', 'E']) => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}
