//! What can go wrong reading a scan, each variant one message naming the fix.

/// The install line on each platform.
pub const INSTALL: &str = "apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd (macOS: brew install tesseract; Windows: winget install UB-Mannheim.TesseractOCR)";

/// An OCR failure.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// tesseract is not installed (or the override points nowhere).
    #[error("tesseract was not found ({why}); install it: {}", INSTALL)]
    Missing {
        /// What was looked at.
        why: String,
    },
    /// A language whose data is not installed.
    #[error(
        "{path}: no tesseract data for language '{lang}' (installed: {installed}); install it: apt-get install tesseract-ocr-{lang} (macOS: brew install tesseract-lang; Windows: winget install UB-Mannheim.TesseractOCR and tick the language)"
    )]
    Language {
        /// The file being read.
        path: String,
        /// The language asked for.
        lang: String,
        /// The languages there are.
        installed: String,
    },
    /// Not a PDF or an image tesseract reads.
    #[error(
        "{path}: not a PDF or an image (PNG, JPEG, TIFF, BMP, GIF, WebP); for documents use env:documents, for decks env:slides, to draw a page env:render"
    )]
    Kind {
        /// The file.
        path: String,
    },
    /// A bad argument.
    #[error("{0}")]
    Argument(String),
    /// PDFium failed on the file.
    #[error("{path}: {source}")]
    Render {
        /// The file.
        path: String,
        /// PDFium's error.
        source: folio_render::RenderError,
    },
    /// tesseract failed or was stopped.
    #[error("{path} page {page}: tesseract {what}")]
    Engine {
        /// The file.
        path: String,
        /// The page.
        page: u32,
        /// What happened, and the fix.
        what: String,
    },
    /// The run's budget refused or stopped the job.
    #[error(transparent)]
    Budget(#[from] folio_budget::BudgetError),
    /// A scratch file could not be written.
    #[error("scratch file for OCR: {0}; check the temporary directory's space")]
    Scratch(#[from] std::io::Error),
}
