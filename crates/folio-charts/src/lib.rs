//! `folio-charts`: the charts an analyst puts in a report, a memo or a deck — bar (vertical or
//! horizontal, grouped or stacked), line, area, pie, scatter and combo (bars and lines, with an
//! optional secondary axis) — from the one chart spec issue 14's modules share.
//!
//! # Shape
//!
//! - [`spec`] parses the spec strictly: an unknown type or field is refused with the valid ones,
//!   lengths that disagree are refused, a pie's negative value is refused, an empty value
//!   (`null`/`NaN`) is a gap the drawing skips with a warning naming the series and category.
//! - [`format`] is number formats, nice ticks and label widths measured in the bundled face.
//! - [`draw`] writes the SVG itself: deterministic bytes, text in DejaVu Sans (the same face the
//!   rasteriser is given, so measured labels fit), the Okabe–Ito colour-blind-safe palette.
//! - PNG is folio-render's [`folio_render::svg`] over that SVG (resvg, bundled fonts only).
//! - With the `adapters` feature, `modules` is the `env:charts` script module.
//!
//! A workbook's or a deck's native chart reads the same [`ChartSpec`]; folio-slides writes it as
//! DrawingML with cached values.

pub mod draw;
mod error;
pub mod format;
pub mod spec;

#[cfg(feature = "adapters")]
pub mod modules;

pub use draw::{Drawn, PALETTE};
pub use error::{ChartError, FIELDS, Result, SERIES_FIELDS, TYPES};
pub use spec::{ChartSpec, ChartType, Legend, Series, SeriesKind};

/// The default size of a chart, in CSS pixels.
pub const DEFAULT_SIZE: (u32, u32) = (800, 500);
/// The smallest side a chart is drawn at.
pub const MIN_SIDE: u32 = 120;
/// The largest side a chart is drawn at (before `scale`).
pub const MAX_SIDE: u32 = 8_000;

fn check_size(width: u32, height: u32) -> Result<()> {
    if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
        return Err(ChartError::Output(format!(
            "a {width}×{height} chart is outside {MIN_SIDE}..={MAX_SIDE} px a side — hint: width and height are CSS pixels (default 800×500); use scale for a sharper PNG"
        )));
    }
    Ok(())
}

/// The chart of `spec` at `width`×`height` as SVG, with its warnings.
pub fn to_svg(spec: &ChartSpec, width: u32, height: u32) -> Result<Drawn> {
    check_size(width, height)?;
    Ok(draw::draw(spec, width, height))
}

/// A rendered PNG.
#[derive(Debug, Clone)]
pub struct ChartPng {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// Its width in pixels (`width × scale`).
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// What was skipped or shortened.
    pub warnings: Vec<String>,
}

/// The chart of `spec` as a PNG of `width × scale` by `height × scale` pixels.
pub fn render_png(spec: &ChartSpec, width: u32, height: u32, scale: f32) -> Result<ChartPng> {
    if !(scale.is_finite() && (0.25..=4.0).contains(&scale)) {
        return Err(ChartError::Output(format!(
            "scale {scale} is outside 0.25..=4 — hint: 2 gives a crisp image for slides and print"
        )));
    }
    let drawn = to_svg(spec, width, height)?;
    let size = folio_render::svg::SvgSize { width: Some(width), height: Some(height), scale };
    let r = folio_render::svg::svg_to_png("chart.svg", drawn.svg.as_bytes(), size)?;
    Ok(ChartPng { png: r.png, width: r.width, height: r.height, warnings: drawn.warnings })
}

/// For env:documents and the app: the chart of a JSON spec as PNG bytes at `width`×`height`.
pub fn chart_png(spec: &serde_json::Value, width: u32, height: u32) -> Result<Vec<u8>> {
    let spec = ChartSpec::from_json(spec)?;
    Ok(render_png(&spec, width, height, 1.0)?.png)
}
