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
//!
//! As a file handler ([`handler`]) it adds to `describe` of a scan that it needs OCR and the
//! call that reads it, and lets `grep` with `ocr: true` search scanned pages (their text cached
//! by content hash in the state directory).

pub mod error;
pub mod handler;
pub mod modules;
pub mod ocr;
pub mod tesseract;

pub use error::OcrError;
pub use handler::OcrHandler;
pub use modules::{SKILL, ocr_module};
pub use ocr::{Description, Format, Limits, Ocr, PageResult, Recognition, RecognizeOptions};
pub use tesseract::Tesseract;

/// The Debian package of a tesseract language (`chi_sim` → `tesseract-ocr-chi-sim`).
pub fn language_package(lang: &str) -> String {
    format!("tesseract-ocr-{}", lang.to_lowercase().replace('_', "-"))
}

/// How to install one language's data on each OS.
pub fn language_install(lang: &str) -> String {
    let pkg = language_package(lang);
    if lang == "eng" || lang == "osd" {
        format!(
            "apt-get install {pkg} (macOS: brew install tesseract, which includes it; Windows: winget install UB-Mannheim.TesseractOCR, which includes it)"
        )
    } else {
        format!(
            "apt-get install {pkg} (macOS: brew install tesseract-lang; Windows: winget install UB-Mannheim.TesseractOCR and tick the language)"
        )
    }
}

/// The doctor's rows for OCR: `tesseract` itself, then one row per language — every installed
/// one, and `eng` and `osd` (orientation) whether installed or not — each named by its Debian
/// package and carrying its install line on each OS (in `fix` when missing, in `detail` when
/// installed, for the other platforms). None is required: without them env:ocr is absent or reads less.
pub fn doctor_rows(found: &Result<Tesseract, OcrError>) -> Vec<folio_render::Capability> {
    let row = |name: String, ok: bool, detail: String, fix: String| folio_render::Capability {
        name,
        ok,
        required: false,
        detail,
        fix: if ok { String::new() } else { fix },
    };
    let t = match found {
        Ok(t) => t,
        Err(e) => {
            return vec![row(
                "tesseract".into(),
                false,
                format!("{e}; env:ocr is not offered"),
                tesseract::INSTALL.to_string(),
            )];
        }
    };
    let langs = t.languages();
    let osd = if t.has_osd() {
        "orientation detection on"
    } else {
        "no OSD data: pages are not turned upright (apt-get install tesseract-ocr-osd)"
    };
    let mut rows = vec![row(
        "tesseract".into(),
        true,
        format!("{} at {} (languages: {}; {osd})", t.version, t.program.display(), langs.join(", ")),
        String::new(),
    )];
    let dir = t.tessdata.as_ref().map_or_else(|| "no tessdata directory".to_string(), |d| d.display().to_string());
    let mut names: Vec<String> = langs.clone();
    for must in ["eng", "osd"] {
        if !names.iter().any(|l| l == must) {
            names.push(must.into());
        }
    }
    for lang in names {
        let installed = if lang == "osd" { t.has_osd() } else { langs.contains(&lang) };
        let what = if lang == "osd" { "page orientation (OSD)".to_string() } else { format!("OCR language {lang}") };
        let install = language_install(&lang);
        let detail = if installed {
            format!("{what}: {lang}.traineddata in {dir}; installed with {install}")
        } else if lang == "osd" {
            format!("{what}: no osd.traineddata in {dir}; sideways pages are read as they are")
        } else {
            format!("{what}: no {lang}.traineddata in {dir}; recognize refuses lang '{lang}'")
        };
        rows.push(row(language_package(&lang), installed, detail, install));
    }
    rows
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn each_language_gets_a_doctor_row_with_its_install_line_on_each_os() {
        let dir = tempfile::tempdir().unwrap();
        for lang in ["eng", "fra", "chi_sim"] {
            std::fs::write(dir.path().join(format!("{lang}.traineddata")), b"").unwrap();
        }
        let t = Tesseract {
            program: "/usr/bin/tesseract".into(),
            version: "tesseract 5.3.0".into(),
            tessdata: Some(dir.path().to_path_buf()),
        };
        let rows = doctor_rows(&Ok(t));
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            ["tesseract", "tesseract-ocr-chi-sim", "tesseract-ocr-eng", "tesseract-ocr-fra", "tesseract-ocr-osd"]
        );
        let by = |n: &str| rows.iter().find(|r| r.name == n).unwrap();
        for (name, apt, brew) in [
            ("tesseract-ocr-fra", "apt-get install tesseract-ocr-fra", "brew install tesseract-lang"),
            ("tesseract-ocr-chi-sim", "apt-get install tesseract-ocr-chi-sim", "brew install tesseract-lang"),
            ("tesseract-ocr-eng", "apt-get install tesseract-ocr-eng", "brew install tesseract"),
        ] {
            let r = by(name);
            assert!(r.ok && r.fix.is_empty() && !r.required, "{r:?}");
            for part in [apt, brew, "winget install UB-Mannheim.TesseractOCR"] {
                assert!(r.detail.contains(part), "{part} missing from {r:?}");
            }
        }
        // OSD data is missing here: its row fails and its fix is the install line.
        let osd = by("tesseract-ocr-osd");
        assert!(!osd.ok && !osd.required, "{osd:?}");
        assert!(osd.fix.contains("apt-get install tesseract-ocr-osd") && osd.fix.contains("winget"), "{osd:?}");
        assert!(by("tesseract").detail.contains("no OSD data"), "{:?}", by("tesseract"));
    }
}
