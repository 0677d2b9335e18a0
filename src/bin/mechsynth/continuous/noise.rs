//! `mechsynth continuous --noise S`: the privacy a fixed noise level gives (the view of
//! context-aware-lip Fig. 8: delta against eps at a fixed sigma_N), instead of calibrating.

use anyhow::Result;
use mechsynth::continuous::calibrate::measure;
use mechsynth::continuous::closed_form::analytic_gaussian_delta;
use mechsynth::continuous::edges::check_parameter;
use mechsynth::continuous::{MechanismKind, Notion, Request};

/// The constant of the vanilla Gaussian mechanism's bound (Dwork and Roth 2014, Thm A.1;
/// context-aware-lip [39]): `delta <= 1.25 exp(-eps^2 sigma^2 / (2 Delta^2))`.
const VANILLA_CONSTANT: f64 = 1.25;

/// The achieved measure (delta, or eps when the target delta is 0) of noise parameter `noise`
/// under LIP (Def. 5, the request's prior), under LDP at eps and 2 eps (the paper's fair
/// comparison, Fig. 8 caption), and, for Gaussian noise, the LDP closed forms at eps:
/// the analytic Gaussian mechanism's exact delta (eq. (24)) and the vanilla bound.
/// The parameter is first checked as the calibration bounds it ([`check_parameter`]).
pub fn at_noise(req: &Request, noise: f64) -> Result<Vec<(String, f64)>> {
    check_parameter(req, "--noise", noise).map_err(super::bad)?;
    let with = |notion: Notion, eps: f64| {
        let mut r = req.clone();
        r.notion = notion;
        r.epsilon = eps;
        r
    };
    let eps = req.epsilon;
    let mut out = vec![(
        "LIP (Def. 5)".to_string(),
        measure(&with(Notion::Lip, eps), noise).value,
    )];
    if let Some(d) = req.sensitivity() {
        out.push(("LDP".into(), measure(&with(Notion::Ldp, eps), noise).value));
        out.push((
            "LDP at 2 eps".into(),
            measure(&with(Notion::Ldp, 2.0 * eps), noise).value,
        ));
        if req.mechanism == MechanismKind::Gaussian && req.delta > 0.0 {
            out.push((
                "analytic Gaussian (LDP, eq. (24))".into(),
                analytic_gaussian_delta(noise, eps, d),
            ));
            out.push((
                "vanilla Gaussian bound (LDP)".into(),
                // A delta is a probability: a bound above 1 says no more than 1.
                (VANILLA_CONSTANT * (-(eps * noise / d).powi(2) / 2.0).exp()).min(1.0),
            ));
        }
    }
    Ok(out)
}

/// The rows as a table or CSV (`method,achieved`).
pub fn render(rows: &[(String, f64)], csv: bool) -> String {
    let mut out = if csv {
        "method,achieved\n".to_string()
    } else {
        format!("{:<36} {:>24}\n", "method", "achieved")
    };
    for (name, v) in rows {
        out += &if csv {
            format!("\"{name}\",{v:?}\n")
        } else {
            format!("{name:<36} {v:>24.17e}\n")
        };
    }
    out
}
