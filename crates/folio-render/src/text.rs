//! The text of PDF pages, as PDFium reads it, with what each page paints.
//!
//! env:documents' `extractText` and grep inside PDFs need each page's text and whether a page
//! without text is a scan (it paints images) or simply empty. PDFium is known to this crate
//! alone, so the question is answered here: [`page_texts`] opens the document once, under the
//! engine's lock, and returns one [`PageText`] per page asked for.

use pdfium_render::prelude::*;

use crate::error::{RenderError, Result};
use crate::pdf::PdfEngine;

/// A rectangle holding every point a page can place text at, in any orientation.
const EVERYWHERE: PdfRect = PdfRect::new_from_values(-1.0e6, -1.0e6, 1.0e6, 1.0e6);

/// One page's text and what it paints.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    /// The page number (1-based).
    pub page: u32,
    /// The page's text in PDFium's reading order.
    pub text: String,
    /// How many image objects the page paints (top level; a scan has at least one).
    pub images: u32,
    /// Width and height in points.
    pub size: [f32; 2],
}

/// The number of pages of `bytes`, and the text of `pages` (1-based; `None` = every page).
/// A page past the end is refused naming how many pages exist. `step(done)` is called after
/// each page; when it returns false the loop stops there (a cancelled or out-of-time run) and
/// the pages read so far are returned.
pub fn page_texts(
    engine: &PdfEngine,
    name: &str,
    bytes: &[u8],
    pages: Option<&[u32]>,
    step: &mut dyn FnMut(u64) -> bool,
) -> Result<(u32, Vec<PageText>)> {
    let _guard = engine.lock.lock().unwrap_or_else(|p| p.into_inner());
    let doc = engine.open(name, bytes)?;
    let all = doc.pages();
    let count = all.len().max(0) as u32;
    let wanted: Vec<u32> = match pages {
        Some(list) => list.to_vec(),
        None => (1..=count).collect(),
    };
    let mut out = Vec::with_capacity(wanted.len());
    for n in wanted {
        if n == 0 || n > count {
            return Err(RenderError::BadOption(format!(
                "{name}: page {n} does not exist — the document has {count} page(s) — hint: ask for pages 1 to {count}"
            )));
        }
        let page = all.get((n - 1) as i32).map_err(|e| RenderError::Damaged {
            path: name.to_string(),
            detail: format!("page {n} cannot be loaded: {e}"),
        })?;
        // Not `all()`: it bounds the text by the page's size, which on a page with /Rotate 90
        // or 270 is the rotated box, so a strip of the page's own text falls outside (a
        // copier scan's OCR layer lost its heading and first lines). Every text object counts.
        let text = page.text().map(|t| t.inside_rect(EVERYWHERE)).unwrap_or_default();
        let images = page.objects().iter().filter(|o| o.object_type() == PdfPageObjectType::Image).count() as u32;
        out.push(PageText { page: n, text, images, size: [page.width().value, page.height().value] });
        if !step(out.len() as u64) {
            break;
        }
    }
    Ok((count, out))
}
