//! env:ocr as a file handler: it never describes a file first (env:documents and env:images do),
//! but it adds to their summary that a scan's text is pixels — which pages need OCR and the call
//! that reads them — and it lets `grep` with `ocr: true` search scanned pages.
//!
//! Recognition for grep reads every page with no text layer (an image is one page) in English at
//! 300 dpi, in calls of at most [`crate::Limits::max_pages`] pages, each a budget job under the
//! caller's budget. The text is cached in the state directory (`ocr-text/<content hash>-eng-300.txt`)
//! so a second search of an unchanged scan is instant; a changed file has another hash.

use std::path::PathBuf;
use std::sync::Arc;

use folio_budget::RunBudget;
use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;
use serde_json::{Map, Value, json};

use crate::ocr::{Format, Ocr, RecognizeOptions, classify};

/// The extensions claimed: PDFs and the images tesseract reads.
pub const EXTENSIONS: &[&str] = &[".pdf", ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"];

/// The language and resolution grep recognises with (the cache key says them).
const GREP_LANG: &str = "eng";
const GREP_DPI: u32 = 300;

/// env:ocr's handler.
pub struct OcrHandler {
    ocr: Arc<Ocr>,
    cache: Option<PathBuf>,
}

impl OcrHandler {
    /// A handler over `ocr`, caching recognised text under `state_dir/ocr-text` (`None`: no cache).
    pub fn new(ocr: Arc<Ocr>, state_dir: Option<PathBuf>) -> OcrHandler {
        OcrHandler { ocr, cache: state_dir.map(|d| d.join("ocr-text")) }
    }

    fn cached(&self, bytes: &[u8]) -> Option<PathBuf> {
        let hash = blake3::hash(bytes).to_hex();
        self.cache.as_ref().map(|d| d.join(format!("{}-{GREP_LANG}-{GREP_DPI}.txt", &hash[..32])))
    }

    /// The 1-based pages with no text layer (an image: page 1).
    fn scanned_pages(&self, path: &str, bytes: &[u8]) -> Result<Option<Vec<u32>>, String> {
        match classify(path, bytes) {
            Err(_) => Ok(None),
            Ok(Format::Image) => Ok(Some(vec![1])),
            Ok(Format::Pdf) => {
                let d = self.ocr.describe(path, bytes).map_err(|e| e.to_string())?;
                Ok(Some((1..=d.total_pages).filter(|p| !d.text_layer_pages.contains(p)).collect()))
            }
        }
    }

    fn recognise(&self, path: &str, bytes: &[u8], pages: &[u32], budget: &RunBudget) -> Result<String, String> {
        let mut out = String::new();
        for chunk in pages.chunks(self.ocr.limits.max_pages.max(1) as usize) {
            let opts =
                RecognizeOptions { pages: Some(chunk.to_vec()), lang: Some(GREP_LANG.into()), dpi: Some(GREP_DPI) };
            let r = self.ocr.recognize(path, bytes, &opts, budget).map_err(|e| e.to_string())?;
            for page in r.pages {
                out.push_str(&format!("--- page {} ---\n{}\n", page.page, page.text));
            }
        }
        Ok(out)
    }
}

impl FileHandler for OcrHandler {
    fn module(&self) -> &str {
        "ocr"
    }
    fn description(&self) -> &str {
        "text out of scanned PDFs and photos (tesseract)"
    }
    fn extensions(&self) -> Vec<String> {
        EXTENSIONS.iter().map(|e| (*e).to_owned()).collect()
    }
    fn magic(&self) -> Vec<Magic> {
        let m = |bytes: &[u8]| Magic { offset: 0, bytes: bytes.to_vec() };
        vec![m(b"%PDF"), m(b"\x89PNG"), m(b"\xFF\xD8\xFF"), m(b"II*\0"), m(b"MM\0*"), m(b"GIF8")]
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<Value, String> {
        let d = self.ocr.describe(path.as_str(), bytes).map_err(|e| e.to_string())?;
        serde_json::to_value(d).map_err(|e| e.to_string())
    }
    fn describe_more(&self, path: &VPath, bytes: &[u8]) -> Option<Map<String, Value>> {
        let p = path.as_str();
        let pages = self.scanned_pages(p, bytes).ok()??;
        if pages.is_empty() {
            return None;
        }
        let format = classify(p, bytes).ok()?;
        let (what, call) = match format {
            Format::Image => (
                "an image: any text in it is pixels".to_string(),
                format!(
                    "import {{ recognize }} from 'env:ocr'; const r = await recognize('{p}'); r.text, r.confidence"
                ),
            ),
            Format::Pdf => {
                let shown: Vec<u32> = pages.iter().copied().take(20).collect();
                (
                    format!(
                        "{} page(s) with no text layer (a scan): documents.extractText finds no text there",
                        pages.len()
                    ),
                    format!(
                        "import {{ recognize }} from 'env:ocr'; const r = await recognize('{p}', {{pages: {shown:?}}}); r.pages[i].text, r.confidence"
                    ),
                )
            }
        };
        let shown: Vec<u32> = pages.iter().copied().take(50).collect();
        let mut ocr = json!({
            "needsOcr": true,
            "why": what,
            "how": call,
            "grep": "grep with ocr: true searches these pages (seconds a page the first time, instant after)",
            "languages": self.ocr.tesseract.languages(),
        });
        if format == Format::Pdf {
            ocr["scannedPages"] = json!(shown);
        }
        let mut more = Map::new();
        more.insert("ocr".into(), ocr);
        Some(more)
    }
    fn scan_pages(&self, path: &VPath, bytes: &[u8]) -> Option<Result<u32, String>> {
        if self.cached(bytes).is_some_and(|f| f.is_file()) {
            return Some(Ok(0));
        }
        match self.scanned_pages(path.as_str(), bytes) {
            Ok(None) => None,
            Ok(Some(pages)) => Some(Ok(pages.len() as u32)),
            Err(e) => Some(Err(e)),
        }
    }
    fn scan_text(&self, path: &VPath, bytes: &[u8], budget: &RunBudget) -> Option<Result<String, String>> {
        let cache = self.cached(bytes);
        if let Some(text) = cache.as_ref().and_then(|f| std::fs::read_to_string(f).ok()) {
            return Some(Ok(text));
        }
        let p = path.as_str();
        let pages = match self.scanned_pages(p, bytes) {
            Ok(None) => return None,
            Ok(Some(pages)) => pages,
            Err(e) => return Some(Err(e)),
        };
        let text = match self.recognise(p, bytes, &pages, budget) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        if let Some(file) = cache {
            // A cache that cannot be written costs the next search time, never this one's answer.
            let tmp = file.with_extension("part");
            let _ = file
                .parent()
                .map(std::fs::create_dir_all)
                .transpose()
                .and_then(|_| std::fs::write(&tmp, &text))
                .and_then(|()| std::fs::rename(&tmp, &file));
        }
        Some(Ok(text))
    }
}
