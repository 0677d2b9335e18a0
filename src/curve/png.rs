//! SVG to PNG with resvg: text is drawn with the bundled DejaVu Sans (embedded in the library,
//! no system font is read), so the same SVG gives the same PNG bytes on every machine.

use super::CurveError;
use resvg::tiny_skia;
use resvg::usvg;
use std::sync::{Arc, OnceLock};

/// DejaVu Sans (`assets/fonts/DejaVuSans.ttf`, Bitstream Vera licence, see
/// `assets/fonts/LICENSE`), the family the SVGs name.
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family name of the bundled font.
pub const FONT_NAME: &str = "DejaVu Sans";

/// The largest PNG drawn, in pixels (width times height).
pub const MAX_PNG_PIXELS: u64 = 64_000_000;

/// The font database: the bundled font only, also standing for the generic families.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(FONT.to_vec());
            db.set_sans_serif_family(FONT_NAME);
            db.set_serif_family(FONT_NAME);
            db.set_monospace_family(FONT_NAME);
            Arc::new(db)
        })
        .clone()
}

fn png_err(reason: impl std::fmt::Display) -> CurveError {
    CurveError::Plot {
        what: "PNG".into(),
        reason: reason.to_string(),
    }
}

/// Render `svg` as a PNG image `scale` times its size (1: one pixel per SVG unit), on white,
/// with the bundled font. The same `svg` and `scale` give the same bytes. Errors: a scale
/// that is not a positive finite number or gives an empty image or one above
/// [`MAX_PNG_PIXELS`] ([`CurveError::Invalid`] naming `scale`), an SVG that does not parse
/// ([`CurveError::Plot`]).
pub fn svg_to_png(svg: &str, scale: f32) -> Result<Vec<u8>, CurveError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(CurveError::invalid(
            "scale",
            scale,
            "must be a positive finite number",
        ));
    }
    let options = usvg::Options {
        font_family: FONT_NAME.into(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(png_err)?;
    let size = tree.size();
    let (w, h) = (
        (size.width() * scale).ceil(),
        (size.height() * scale).ceil(),
    );
    if !(w >= 1.0 && h >= 1.0) || f64::from(w) * f64::from(h) > MAX_PNG_PIXELS as f64 {
        return Err(CurveError::invalid(
            "scale",
            scale,
            format!(
                "the image would be {w} x {h} pixels; it must have between 1 and {MAX_PNG_PIXELS} pixels"
            ),
        ));
    }
    let mut pixmap = tiny_skia::Pixmap::new(w as u32, h as u32)
        .ok_or_else(|| png_err(format!("cannot allocate {w} x {h} pixels")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(png_err)
}
