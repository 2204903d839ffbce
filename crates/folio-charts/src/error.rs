//! Every way a chart can fail, each message naming the field, the valid choices and the fix.

/// The chart types, for messages.
pub const TYPES: &str = "bar, line, area, pie, scatter, combo";
/// The spec's fields, for messages.
pub const FIELDS: &str =
    "type, title, categories, series, horizontal, stacked, xTitle, yTitle, legend, numberFormat, yMin";
/// A series' fields, for messages.
pub const SERIES_FIELDS: &str = "name, values, x (scatter), type (combo: bar|line), axis (primary|secondary)";

/// Why a chart could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The spec is malformed: a missing or unknown field, a wrong type, an unknown chart type,
    /// lengths that disagree. The script fixes the spec; retrying the same one fails alike.
    #[error("chart spec: {0}")]
    Spec(String),
    /// The spec is well-formed but has nothing to draw (every value empty, a pie of zeros).
    /// The script fixes its data.
    #[error("chart spec: {0} — hint: give at least one finite number to plot")]
    NoData(String),
    /// A label holds a character the bundled font (DejaVu Sans) cannot draw.
    #[error(
        "chart text {text:?} has characters the bundled font (DejaVu Sans) cannot draw: {chars} — hint: replace or remove them"
    )]
    Glyphs {
        /// The label.
        text: String,
        /// The characters, described.
        chars: String,
    },
    /// An output option is out of range (size, scale, an unknown extension).
    #[error("chart output: {0}")]
    Output(String),
    /// Rasterising the SVG failed (a size over the limits). The script asks for a smaller size.
    #[error(transparent)]
    Raster(#[from] folio_render::svg::SvgError),
}

/// The crate's result.
pub type Result<T> = std::result::Result<T, ChartError>;
