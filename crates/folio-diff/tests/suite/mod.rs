//! Shared helpers: the host's tools (a missing one fails loudly, naming the fix) and writers.

mod archive;
mod cells;
mod corpus;
mod errors;
mod image;
mod pages;
mod video;

use folio_media::Ffmpeg;
use folio_render::{HostPaths, Renderer};
use serde_json::{Value, json};

/// A renderer over this host's discovery. Panics, naming the fix, when PDFium is missing.
pub fn renderer() -> Renderer {
    let r = Renderer::new(HostPaths::from_host(None));
    if let Err(e) = r.pdfium() {
        panic!("PDFium must be installed for these tests (scripts/install.sh does it): {e}");
    }
    r
}

/// This host's ffmpeg. Panics, naming the fix, when it is missing.
pub fn ffmpeg() -> Ffmpeg {
    Ffmpeg::discover(None).unwrap_or_else(|e| panic!("ffmpeg must be installed for these tests: {e}"))
}

/// A PDF from a folio-docs spec.
pub fn pdf(spec: Value) -> Vec<u8> {
    let doc = folio_docs::spec::Doc::parse(&spec).unwrap();
    folio_docs::pdfwrite::write_pdf(&doc).unwrap()
}

/// A PDF with one page per text, each page a heading and a paragraph.
pub fn pages_pdf(texts: &[String]) -> Vec<u8> {
    let mut content = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        if i > 0 {
            content.push(json!({"pageBreak": true}));
        }
        content.push(json!({"heading": format!("Section {t}")}));
        content.push(json!({"text": format!("This page is about {t}. It has a sentence of its own, {t} and more.")}));
    }
    pdf(json!({"content": content}))
}

/// An xlsx from a folio-sheets workbook spec.
pub fn xlsx(spec: Value) -> Vec<u8> {
    let sheets = folio_sheets::create::workbook(&spec).unwrap();
    folio_sheets::create::write("/t.xlsx", sheets).unwrap().0
}
