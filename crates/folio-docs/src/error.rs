//! One error enum for env:documents. Every message says what happened, where, and the fix.

/// Why a document operation failed. None of these is retried by the module itself: each names
/// what the caller (the model, or the person) changes before calling again.
#[derive(Debug, thiserror::Error)]
pub enum DocsError {
    /// The spec or an option is malformed (unknown block, wrong type, bad page list). The caller
    /// fixes the call.
    #[error("{0}")]
    Invalid(String),
    /// The text uses characters the bundled font has no glyph for; raised before a byte is
    /// written. The caller changes the text.
    #[error(
        "{place} uses {chars}, which the bundled font (DejaVu Sans) cannot draw — hint: DejaVu covers Latin, Greek, Cyrillic, Armenian, Georgian, Hebrew and Arabic letters but not CJK or Indic scripts; write those words in another script or leave them out"
    )]
    MissingGlyphs {
        /// Where (`content[3]`, `header`).
        place: String,
        /// The characters, as `describe_chars` names them.
        chars: String,
    },
    /// An image block names a file that is neither PNG nor JPEG (or is damaged). The caller
    /// converts it with env:images.
    #[error(
        "{place}: {detail} — hint: convert it to PNG or JPEG with env:images (`convert(path, '/tmp/x.png')`) and use that"
    )]
    Image {
        /// Where.
        place: String,
        /// What is wrong.
        detail: String,
    },
    /// The PDF is encrypted and cannot be edited or read without its password.
    #[error(
        "{path} is an encrypted PDF — hint: ask the person for a decrypted copy, or decrypt it on the host with `qpdf --decrypt --password=PASSWORD in.pdf out.pdf` and put that in the tree"
    )]
    Encrypted {
        /// The file.
        path: String,
    },
    /// The file is not a readable PDF or DOCX (truncated, damaged, another format).
    #[error("{path}: {detail} — hint: {fix}")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        detail: String,
        /// What to do.
        fix: String,
    },
    /// A ZIP entry is encrypted, ZIP64, or would inflate past the cap (a bomb).
    #[error("{path}: {detail} — hint: {fix}")]
    Refused {
        /// The file.
        path: String,
        /// What was refused.
        detail: String,
        /// What to do.
        fix: String,
    },
    /// A replace/fill found nothing to act on.
    #[error("{0}")]
    NoMatch(String),
    /// Reading or writing the tree failed (the gateway's own message).
    #[error("{0}")]
    Fs(String),
    /// PDFium (through folio-render) failed or is missing.
    #[error("{0}")]
    Render(#[from] folio_render::RenderError),
    /// The run's budget refused the work up front, or it was cancelled.
    #[error("{0}")]
    Budget(String),
}

/// This crate's result.
pub type Result<T> = std::result::Result<T, DocsError>;

/// `DocsError::Invalid(format!(..))`.
macro_rules! invalid {
    ($($t:tt)*) => { $crate::error::DocsError::Invalid(format!($($t)*)) };
}
pub(crate) use invalid;
