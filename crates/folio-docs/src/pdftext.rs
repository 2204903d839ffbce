//! `pdf.extractText`: each page's text through PDFium (folio-render's `text::page_texts`),
//! classified `text` (≥ 100 characters), `scanned` (little text, paints images) or `empty`;
//! the document is `mixed` when its pages differ. Pages are joined with `\n\f\n`, and each page
//! starts with a marker line `--- page N ---` so a reader can cite pages.

use folio_budget::{JobKind, Plan, RunBudget};
use folio_render::PdfEngine;
use folio_render::text::page_texts;
use serde::Serialize;

use crate::error::{DocsError, Result};

/// What a page holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// 100 characters of text or more.
    Text,
    /// Little or no text, and it paints images: a scan; OCR reads it.
    Scanned,
    /// Neither.
    Empty,
}

/// One page's text.
#[derive(Debug, Clone, Serialize)]
pub struct PageOut {
    /// 1-based.
    pub page: u32,
    /// The classification.
    pub kind: PageKind,
    /// Characters of text (whitespace excluded).
    pub characters: usize,
    /// The text.
    pub text: String,
}

/// The whole result.
#[derive(Debug, Clone, Serialize)]
pub struct Extracted {
    /// Pages in the document.
    pub pages: u32,
    /// `text`, `scanned`, `empty` or `mixed`.
    pub kind: String,
    /// The text with page markers.
    pub text: String,
    /// Per page.
    #[serde(rename = "perPage")]
    pub per_page: Vec<PageOut>,
    /// Advice for scanned pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The page-text threshold of the reference.
pub const TEXT_CHARS: usize = 100;

fn named(path: &str, e: folio_render::RenderError) -> DocsError {
    match e {
        folio_render::RenderError::Encrypted { .. } => DocsError::Encrypted { path: path.to_string() },
        other => DocsError::Render(other),
    }
}

/// Extracts and classifies, without a budget (grep, describe, tests).
pub fn extract(engine: &PdfEngine, path: &str, bytes: &[u8], pages: Option<&[u32]>) -> Result<Extracted> {
    let (count, got) = page_texts(engine, path, bytes, pages, &mut |_| true).map_err(|e| named(path, e))?;
    Ok(classify(count, got))
}

/// Extracts under the run's budget: refused up front when the pages would outlive the run,
/// progress after each page, stopped within one page on cancel or deadline.
pub fn extract_within(
    engine: &PdfEngine,
    budget: &RunBudget,
    path: &str,
    bytes: &[u8],
    pages: Option<&[u32]>,
) -> Result<Extracted> {
    let total = match pages {
        Some(p) => p.len() as u64,
        None => u64::from(folio_render::pdf::page_count(engine, path, bytes).map_err(|e| named(path, e))?),
    };
    let mut job = budget
        .start(Plan {
            kind: JobKind::PdfText,
            job: format!("env:documents pdf.extractText {path}"),
            what: format!("reading the text of {total} pages"),
            total,
            cost: total as f64,
            smaller: "read fewer pages per call: {pages: '1-50'}".into(),
        })
        .map_err(|e| DocsError::Budget(e.to_string()))?;
    let mut stopped = None;
    let (count, got) = page_texts(engine, path, bytes, pages, &mut |done| match job.step(done) {
        Ok(()) => true,
        Err(e) => {
            stopped = Some(e);
            false
        }
    })
    .map_err(|e| named(path, e))?;
    if let Some(e) = stopped {
        return Err(DocsError::Budget(e.to_string()));
    }
    job.finish();
    Ok(classify(count, got))
}

fn classify(count: u32, got: Vec<folio_render::text::PageText>) -> Extracted {
    let per_page: Vec<PageOut> = got
        .into_iter()
        .map(|p| {
            let text = p.text.replace("\r\n", "\n").replace('\r', "\n");
            let characters = text.chars().filter(|c| !c.is_whitespace()).count();
            let kind = if characters >= TEXT_CHARS {
                PageKind::Text
            } else if p.images > 0 {
                PageKind::Scanned
            } else if characters > 0 {
                PageKind::Text
            } else {
                PageKind::Empty
            };
            PageOut { page: p.page, kind, characters, text }
        })
        .collect();
    let first = per_page.first().map(|p| p.kind);
    let kind = match first {
        Some(k) if per_page.iter().all(|p| p.kind == k) => {
            serde_json::to_value(k).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
        }
        Some(_) => "mixed".into(),
        None => "empty".into(),
    };
    let scanned: Vec<String> =
        per_page.iter().filter(|p| p.kind == PageKind::Scanned).map(|p| p.page.to_string()).collect();
    let note = (!scanned.is_empty()).then(|| {
        format!(
            "page(s) {} look scanned (images, little or no text): render them with env:render.rasterize and look at them with view_image (env:vision reads a page image when the host has a model)",
            scanned.join(", ")
        )
    });
    let text = per_page
        .iter()
        .map(|p| format!("--- page {} ---\n{}", p.page, p.text.trim_end()))
        .collect::<Vec<_>>()
        .join("\n\u{c}\n");
    Extracted { pages: count, kind, text, per_page, note }
}
