//! # folio-ocr: `env:ocr`, the only crate that knows tesseract
//!
//! A scan is pixels; its text is whatever tesseract reads from them. This crate finds Debian's
//! `tesseract` ([`tesseract::Tesseract::discover`]: `FOLIO_TESSERACT`, else `PATH`), runs it as
//! a supervised child for every page (its own process group, the run's deadline and cancel, a
//! memory cap: a crash or a hang costs one page, never the host), and parses its TSV into
//! words with boxes and confidences.
//!
//! PDF pages are drawn by env:render's PDFium, the same drawing a person sees; tesseract's OSD
//! looks at that drawing and says how far it is turned, and the page is turned upright before
//! recognition (a copier's sideways scan reads in order). Pages whose text layer already holds
//! text are not recognised. Each call is one budget job of kind `ocr-page`, refused up front
//! when its estimate cannot fit the run.
//!
//! Without tesseract the module is absent (folio-host does not register it, and says why in
//! its doctor row with the install line); a language with no data is refused naming its
//! package. Nothing is downloaded.

pub mod error;
pub mod modules;
pub mod ocr;
pub mod tesseract;

pub use error::OcrError;
pub use modules::{SKILL, ocr_module};
pub use ocr::{Description, Format, Limits, Ocr, PageResult, Recognition, RecognizeOptions};
pub use tesseract::Tesseract;

/// The doctor's row for tesseract: `(ok, detail, fix)`.
pub fn doctor_row(found: &Result<Tesseract, OcrError>) -> (bool, String, String) {
    match found {
        Ok(t) => {
            let langs = t.languages();
            let osd = if t.has_osd() {
                "orientation detection on"
            } else {
                "no OSD data: pages are not turned upright (apt-get install tesseract-ocr-osd)"
            };
            (
                true,
                format!("{} at {} (languages: {}; {osd})", t.version, t.program.display(), langs.join(", ")),
                String::new(),
            )
        }
        Err(e) => (false, format!("{e}; env:ocr is not offered"), tesseract::INSTALL.to_string()),
    }
}
