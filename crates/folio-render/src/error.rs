//! Every way rendering, converting or describing can fail. Each message says what happened, to
//! which file, and what to do about it, because the reader is usually a model that will act on
//! the hint literally.

use std::path::PathBuf;

/// Why a render, image or describe call failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No PDFium library could be loaded from any discovery candidate. Raised before any page is
    /// touched (and by the doctor). Nobody retries: the host installs PDFium and calls again.
    #[error("PDFium is not available on this host ({tried}) — hint: {fix}")]
    PdfiumMissing {
        /// The candidates that were tried, with why each failed.
        tried: String,
        /// The command or setting that provides PDFium on this platform.
        fix: String,
    },
    /// The PDF needs a password to open. The caller cannot retry without one; the script should
    /// ask the person for an unprotected copy.
    #[error(
        "{path} is encrypted (it needs a password to open) — hint: ask for an unprotected copy, or decrypt it first (qpdf --decrypt --password=… in.pdf out.pdf)"
    )]
    Encrypted {
        /// The document, as the caller named it.
        path: String,
    },
    /// The bytes are not a PDF PDFium can parse (truncated, garbage, or not a PDF at all).
    /// Retrying the same bytes fails the same way.
    #[error(
        "{path} is damaged or not a PDF ({detail}) — hint: check that the file was written completely; re-export or repair it (qpdf in.pdf out.pdf) and try again"
    )]
    Damaged {
        /// The document, as the caller named it.
        path: String,
        /// What PDFium said.
        detail: String,
    },
    /// A requested page is outside the document. The caller fixes the page list.
    #[error("{path} has {count} page(s); page {page} does not exist — hint: ask for pages 1 to {count}")]
    NoSuchPage {
        /// The document.
        path: String,
        /// The page asked for (1-based).
        page: u32,
        /// How many pages the document has.
        count: u32,
    },
    /// An option is malformed or contradicts another. The script fixes the call.
    #[error("{0}")]
    BadOption(String),
    /// The file is of a kind this module does not handle. The script picks another module.
    #[error("cannot render {path}: {why} — hint: supported are {}", supported())]
    Unsupported {
        /// The file.
        path: String,
        /// What it looked like.
        why: String,
    },
    /// LibreOffice is needed for an Office file but was not found. Refused before anything runs;
    /// the host installs it (or points `FOLIO_SOFFICE_PATH` at it) and calls again.
    #[error("{path} needs LibreOffice to render, and none was found ({tried}) — hint: {fix}")]
    OfficeMissing {
        /// The document.
        path: String,
        /// Where LibreOffice was looked for.
        tried: String,
        /// The install command for this platform.
        fix: String,
    },
    /// LibreOffice ran but produced no PDF (a missing import filter, a corrupt document, a
    /// timeout). Retrying once can help after a timeout on a busy machine; otherwise not.
    #[error("{path}: LibreOffice could not convert it to PDF: {detail} — hint: {fix}")]
    OfficeFailed {
        /// The document.
        path: String,
        /// What happened (exit status, stderr, timeout).
        detail: String,
        /// What to do.
        fix: String,
    },
    /// The run was cancelled (or ended) while this document was being rendered; the work
    /// stopped within one page and nothing more was written. Nobody retries automatically.
    #[error("{path}: rendering was cancelled; nothing more is written")]
    Cancelled {
        /// The document.
        path: String,
    },
    /// The run's budget ran out while a tool worked on this document; the tool was stopped.
    /// The agent retries with less work per call, or the person raises the budget.
    #[error(
        "{path}: {detail} — hint: render it in a run of its own, with fewer pages per call, or raise the run budget"
    )]
    OutOfBudget {
        /// The document.
        path: String,
        /// What was stopped and when.
        detail: String,
    },
    /// The pages would not fit the tree's size budget: refused after one page was encoded in
    /// memory (to measure it) and before anything was written.
    #[error(
        "{path}: {shortfall} — nothing was written — hint: render fewer pages per call (pages: [{probe_page}, …]), a lower dpi or width, or format: 'jpeg'; remove what you no longer need under /tmp; or ask the person to raise the tree's size budget (limits.max_vfs_bytes)"
    )]
    TreeTooSmall {
        /// The document.
        path: String,
        /// What the pages need and what is left, in words.
        shortfall: String,
        /// The page that was measured.
        probe_page: u32,
    },
    /// The run's budget refused or stopped the job (an estimate over what is left, a cancel, the
    /// deadline); the message names the job and both fixes.
    #[error(transparent)]
    Budget(#[from] folio_budget::BudgetError),
    /// An Office file's ZIP container is unreadable (cut short, corrupt). Found before
    /// LibreOffice runs; retrying the same bytes fails the same way.
    #[error(
        "{path} is damaged: {detail} — hint: re-save it from its Office application; a file cut short in transfer cannot be read"
    )]
    DamagedOffice {
        /// The document.
        path: String,
        /// What is wrong with the container.
        detail: String,
    },
    /// An image is larger than the decode limit (a pixel bomb, or simply huge). Refused from the
    /// header, before any pixel is decoded. The caller raises the limit or shrinks the input.
    #[error(
        "{path} is {width}×{height} pixels, over the decode limit of {limit} pixels — hint: use a smaller image, or raise ImageLimits::max_pixels if it is trusted"
    )]
    TooLarge {
        /// The image.
        path: String,
        /// Its declared width.
        width: u32,
        /// Its declared height.
        height: u32,
        /// The limit in pixels.
        limit: u64,
    },
    /// The image codec failed on the bytes (corrupt data, an unsupported variant).
    #[error("{path}: {detail} — hint: {fix}")]
    Image {
        /// The image.
        path: String,
        /// What the codec said.
        detail: String,
        /// What to do.
        fix: String,
    },
    /// A rendered page could not be stored where the caller asked: the tree refused the write
    /// (a read-only zone, a size limit, a file in the way). The message is the tree's own, which
    /// names the fix; pages written before it stay.
    #[error("{0}")]
    Output(String),
    /// A host file could not be read or written (the output directory, a temporary file).
    #[error("{path}: {source} — hint: check that the directory exists and is writable")]
    Io {
        /// The host path.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
}

impl RenderError {
    /// Wraps an I/O error with the host path it concerns.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> RenderError {
        RenderError::Io { path: path.into(), source }
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = RenderError> = std::result::Result<T, E>;

/// The kinds rasterize renders, from the workspace's kind table: `PDF (.pdf), Office (.docx …)
/// and images (.png …)`.
fn supported() -> String {
    use folio_kinds::{FileKind, Handler};
    let dotted = |kinds: Vec<FileKind>| {
        kinds.iter().flat_map(|k| k.extensions()).map(|e| format!(".{e}")).collect::<Vec<_>>().join(" ")
    };
    let office: Vec<FileKind> = Handler::Render.kinds().filter(|k| k.office().is_some()).collect();
    format!("PDF (.pdf), Office ({}) and images ({})", dotted(office), dotted(Handler::Images.kinds().collect()))
}
