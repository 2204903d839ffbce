//! A scan's recognised text beside its pages: [`is_scan`] tells `preview_info` that a PDF's first
//! page has no text layer, and `preview_ocr` reads one page with env:ocr's own reader
//! (folio-ocr: tesseract as a supervised child, the page turned upright first). Each page's
//! result is cached by the file's content hash in the folder's preview cache (`previews/ocr/`),
//! so a scan is recognised once. Without tesseract the answer is the install line.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_render::Renderer;

use super::error::PreviewError;
use super::{Previews, Version, checked_path, content_hash, read};
use crate::api::PreviewOcrResponse;
use crate::session::Session;

/// The longest one page's recognition may take in the preview.
const PAGE_BUDGET: Duration = Duration::from_secs(180);

/// True when page 1 of the PDF `bytes` holds less than a text layer's worth of characters.
pub fn is_scan(renderer: &Renderer, path: &str, bytes: &[u8]) -> bool {
    let Ok(engine) = renderer.pdfium() else { return false };
    match folio_render::text::page_texts(&engine, path, bytes, Some(&[1]), &mut |_| true) {
        Ok((count, pages)) => {
            count > 0
                && pages.first().is_none_or(|p| {
                    p.text.chars().filter(|c| !c.is_whitespace()).count() < folio_ocr::ocr::TEXT_LAYER_FLOOR
                })
        }
        Err(_) => false,
    }
}

impl Previews {
    /// env:ocr's reader over this host's tesseract and PDFium, found once.
    fn ocr(&self) -> Result<Arc<folio_ocr::Ocr>, String> {
        self.ocr
            .get_or_init(|| {
                let host = self.renderer.host.clone();
                let tesseract =
                    folio_ocr::Tesseract::discover_with(&|k| host.env.get(k).cloned()).map_err(|e| e.to_string())?;
                Ok(Arc::new(folio_ocr::Ocr {
                    tesseract,
                    renderer: Arc::new(Renderer::new(host)),
                    limits: folio_ocr::Limits::default(),
                }))
            })
            .clone()
    }

    /// The recognised text of `page` of the scan at `raw`.
    pub fn ocr_page(&self, session: &Session, raw: &str, page: u32) -> Result<PreviewOcrResponse, PreviewError> {
        let at = checked_path(raw)?;
        let path = at.to_string();
        let bytes = read(session, &at, Version::Current)?;
        let dir = self.cache_dir(session, "ocr")?;
        let cached = dir.join(format!("{}-p{page}.json", content_hash(&bytes)));
        if let Some(mut hit) =
            std::fs::read(&cached).ok().and_then(|b| serde_json::from_slice::<PreviewOcrResponse>(&b).ok())
        {
            hit.cached = true;
            hit.path = path;
            return Ok(hit);
        }
        let ocr = self.ocr().map_err(|why| PreviewError::Unsupported { path: path.clone(), why })?;
        let opts = folio_ocr::RecognizeOptions { pages: Some(vec![page]), ..Default::default() };
        let budget = folio_budget::RunBudget::new(
            Some(Instant::now() + PAGE_BUDGET),
            Arc::new(folio_budget::Rates::in_memory()),
        );
        let r = ocr.recognize(&path, &bytes, &opts, &budget).map_err(|e| PreviewError::Render(e.to_string()))?;
        let p = r.pages.into_iter().next().ok_or_else(|| PreviewError::Unsupported {
            path: path.clone(),
            why: format!("page {page} was not read"),
        })?;
        let out = PreviewOcrResponse {
            path,
            page,
            page_count: r.total_pages,
            text: p.text,
            confidence: p.confidence,
            rotated: p.rotated,
            note: r.note,
            cached: false,
        };
        if let Ok(json) = serde_json::to_vec(&out) {
            let _ = std::fs::write(&cached, json);
        }
        Ok(out)
    }
}
