//! Every way making or reading a deck can fail, each message naming the file, the part or the
//! field, and the fix.

/// The deck spec's fields, for messages.
pub const DECK_FIELDS: &str = "title, subtitle, footer, slides";
/// A slide's fields, for messages.
pub const SLIDE_FIELDS: &str = "title, bullets, body, table, metric, image, chart, notes";

/// Why a deck could not be made, read or edited.
#[derive(Debug, thiserror::Error)]
pub enum SlidesError {
    /// The deck spec is malformed (an unknown field, a wrong type, a table with ragged rows).
    /// The script fixes the spec.
    #[error("deck spec: {0}")]
    Spec(String),
    /// A slide's chart spec is malformed; the chart's own message says how.
    #[error("deck spec: slides[{slide}].chart: {source}")]
    Chart {
        /// The 0-based slide index in the spec.
        slide: usize,
        /// What folio-charts said.
        source: folio_charts::ChartError,
    },
    /// Text holds a character the bundled font (DejaVu Sans) cannot draw.
    #[error(
        "deck text {text:?} has characters the bundled font (DejaVu Sans) cannot draw: {chars} — hint: replace or remove them"
    )]
    Glyphs {
        /// The text, shortened.
        text: String,
        /// The characters, described.
        chars: String,
    },
    /// An image named by a slide is missing, or is not PNG/JPEG/GIF.
    #[error("{path}: {why} — hint: give a PNG or JPEG file in the tree (render a chart with env:charts first)")]
    Image {
        /// The image's path.
        path: String,
        /// What is wrong.
        why: String,
    },
    /// The file is not a PPTX this reader can open: not a zip, no `ppt/presentation.xml`, a
    /// legacy `.ppt` or a Keynote file. Retrying fails alike; convert it first.
    #[error("{path} is not a PowerPoint (.pptx) deck ({why}) — hint: {fix}")]
    NotPptx {
        /// The file.
        path: String,
        /// What it looked like.
        why: String,
        /// What to do.
        fix: &'static str,
    },
    /// The deck is damaged: a part is missing or is not well-formed XML.
    #[error("{path}: the part {part} is damaged ({detail}) — hint: open and re-save it in PowerPoint or LibreOffice")]
    Damaged {
        /// The file.
        path: String,
        /// The zip entry.
        part: String,
        /// What went wrong.
        detail: String,
    },
    /// An entry is encrypted, ZIP64 or would inflate past the cap. Refused before inflating.
    #[error("{path}: {why} — hint: {fix}")]
    Refused {
        /// The file.
        path: String,
        /// What was refused.
        why: String,
        /// What to do.
        fix: String,
    },
    /// `replaceText` found none of its search strings. Nothing was written.
    #[error(
        "{path}: none of the texts to replace were found ({unmatched}) — hint: extract(path) shows the slide text as it is; a match must lie within one text run"
    )]
    NoMatch {
        /// The file.
        path: String,
        /// The search strings, quoted.
        unmatched: String,
    },
    /// Writing the zip failed (out of memory). Nobody retries.
    #[error("could not write the deck: {0}")]
    Write(String),
}

/// The crate's result.
pub type Result<T> = std::result::Result<T, SlidesError>;
