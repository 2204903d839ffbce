//! The `describe` handler for folio-env's registry: [`SlidesHandler`] claims `.pptx` by
//! extension (a PPTX's magic is a zip's, shared with every Office file) and summarises it:
//! slide count, titles, words (notes included), media, charts.

use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;

/// PowerPoint decks, summarised for `describe` and marked "open with env:slides".
#[derive(Debug, Default, Clone, Copy)]
pub struct SlidesHandler;

impl FileHandler for SlidesHandler {
    fn module(&self) -> &str {
        "slides"
    }
    fn description(&self) -> &str {
        "PowerPoint decks: slide count and titles, text and notes, outline, replace text; create decks with native charts"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".pptx".into()]
    }
    fn magic(&self) -> Vec<Magic> {
        Vec::new()
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let summary = crate::describe(path.as_str(), bytes).map_err(|e| e.to_string())?;
        let mut v = serde_json::to_value(summary).map_err(|e| e.to_string())?;
        v["kind"] = serde_json::json!("slides");
        Ok(v)
    }
    /// The deck's outline (`## Slide N: Title`, body, notes) for `grep` inside documents.
    fn text(&self, _path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(crate::extract_text(bytes).map_err(|e| e.to_string()))
    }
}
