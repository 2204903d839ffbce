//! The `describe` handler for folio-env's registry: PDFs by `%PDF` magic and `.pdf`, DOCX by
//! extension only (`PK` is shared with every Office format), summarised with page or word
//! counts for `describe` and `ls`.

use std::sync::Arc;

use folio_env::{FileHandler, Magic};
use folio_render::Renderer;
use folio_vfs::VPath;

use crate::docxread::{self, DEFAULT_CAP};

/// PDFs and Word documents, marked "open with env:documents".
pub struct DocumentsHandler {
    renderer: Arc<Renderer>,
}

impl DocumentsHandler {
    /// The handler; `renderer`'s PDFium describes PDFs lopdf cannot.
    pub fn new(renderer: Arc<Renderer>) -> DocumentsHandler {
        DocumentsHandler { renderer }
    }
}

impl FileHandler for DocumentsHandler {
    fn module(&self) -> &str {
        "documents"
    }
    fn description(&self) -> &str {
        "PDF and Word documents: pages, sizes, metadata, forms; paragraphs, words, headings; create, read, merge, split, fill, replace"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".pdf".into(), ".docx".into()]
    }
    fn magic(&self) -> Vec<Magic> {
        vec![Magic { offset: 0, bytes: b"%PDF".to_vec() }]
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let name = path.as_str();
        let mut v = if bytes.starts_with(b"%PDF") || name.to_ascii_lowercase().ends_with(".pdf") {
            crate::ops::describe_pdf(&self.renderer, name, bytes).map_err(|e| e.to_string())?
        } else {
            serde_json::to_value(docxread::describe(name, bytes.to_vec(), DEFAULT_CAP).map_err(|e| e.to_string())?)
                .map_err(|e| e.to_string())?
        };
        v["kind"] = serde_json::json!("document");
        Ok(v)
    }
    /// A PDF's pages (`--- page N ---` markers, through PDFium) or a DOCX's paragraphs, for `grep`.
    fn text(&self, path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(crate::ops::extract_text(&self.renderer, path.as_str(), bytes).map_err(|e| e.to_string()))
    }
}
