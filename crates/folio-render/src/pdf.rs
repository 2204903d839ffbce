//! PDF pages through PDFium (pdfium-render 0.9.5 over the library from the pypdfium2 wheel).
//!
//! PDFium's bindings are process-global: pdfium-render binds once and refuses a second
//! `bind_to_library`. So the first library that loads is kept for the life of the process in a
//! [`PdfEngine`], and later calls reuse it whatever path they name. A failed bind leaves nothing
//! behind, so the next candidate can still be tried. PDFium is not thread-safe; pdfium-render's
//! `thread_safe` feature serialises single calls, and the engine's own lock keeps one document's
//! page loop together.
//!
//! Rendering writes into pixel buffers Folio owns (`PdfBitmap::from_bytes`), which the encoder
//! thread hands back once a page is encoded, so a long document reuses two or three buffers and
//! PNG encoding of page N overlaps rendering of page N+1. PDFium writes RGBx directly (the BGRx
//! format with the byte order reversed), so no copy out of PDFium's own buffer is needed.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pdfium_render::prelude::*;
use serde::Serialize;

use crate::discovery::{HostPaths, describe_tried, pdfium_candidates};
use crate::error::{RenderError, Result};
use crate::images::{self, ImageFormat};

/// The loaded PDFium library. Obtain it with [`PdfEngine::load`].
pub struct PdfEngine {
    pdfium: Pdfium,
    path: PathBuf,
    lock: Mutex<()>,
}

static ENGINE: Mutex<Option<Arc<PdfEngine>>> = Mutex::new(None);

impl PdfEngine {
    /// The process's PDFium: the one already loaded, or the first discovery candidate that binds.
    /// Fails with [`RenderError::PdfiumMissing`] listing every candidate and why it failed.
    pub fn load(explicit: Option<&Path>, host: &HostPaths) -> Result<Arc<PdfEngine>> {
        let mut slot = ENGINE.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(engine) = slot.as_ref() {
            return Ok(Arc::clone(engine));
        }
        let mut tried = Vec::new();
        let candidates = pdfium_candidates(explicit, host);
        for c in &candidates {
            // An explicit choice that does not work is reported as such, never passed over for
            // another library the person did not ask for.
            let explicit_choice = c.source == "option" || c.source == "FOLIO_PDFIUM_PATH";
            if !c.path.is_file() {
                tried.push(format!("{} ({}): not found", c.path.display(), c.source));
                if explicit_choice {
                    return Err(RenderError::PdfiumMissing {
                        tried: tried.join("; "),
                        fix: format!(
                            "point {} at a PDFium library, or unset it to use the one Folio installs; {}",
                            c.source,
                            host.platform.pdfium_fix()
                        ),
                    });
                }
                continue;
            }
            match Pdfium::bind_to_library(&c.path) {
                Ok(bindings) => {
                    let engine = Arc::new(PdfEngine {
                        pdfium: Pdfium::new(bindings),
                        path: c.path.clone(),
                        lock: Mutex::new(()),
                    });
                    *slot = Some(Arc::clone(&engine));
                    return Ok(engine);
                }
                Err(e) => {
                    tried.push(format!("{} ({}): {e}", c.path.display(), c.source));
                    if explicit_choice {
                        return Err(RenderError::PdfiumMissing {
                            tried: tried.join("; "),
                            fix: format!(
                                "point {} at a working PDFium library, or unset it; {}",
                                c.source,
                                host.platform.pdfium_fix()
                            ),
                        });
                    }
                }
            }
        }
        let tried = if tried.is_empty() { describe_tried(&candidates) } else { tried.join("; ") };
        Err(RenderError::PdfiumMissing { tried, fix: host.platform.pdfium_fix() })
    }

    /// The library file in use.
    pub fn library_path(&self) -> &Path {
        &self.path
    }

    fn open<'a>(&'a self, name: &str, bytes: &'a [u8]) -> Result<PdfDocument<'a>> {
        self.pdfium.load_pdf_from_byte_slice(bytes, None).map_err(|e| classify(name, e))
    }

    /// Renders pages of the PDF `bytes` (`name` is how messages refer to it).
    pub fn rasterize(&self, name: &str, bytes: &[u8], req: &PageRequest) -> Result<Vec<RenderedPage>> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let doc = self.open(name, bytes)?;
        let pages = doc.pages();
        let count = pages.len().max(0) as u32;
        for &p in &req.pages {
            if p == 0 || p > count {
                return Err(RenderError::NoSuchPage { path: name.to_string(), page: p, count });
            }
        }
        let (tx, rx) = std::sync::mpsc::sync_channel::<Rendered>(2);
        // Spent pixel buffers travel back from the encoder, so a long document cycles through
        // a few buffers instead of allocating one per page.
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let format = req.format;
        let quality = req.quality;
        std::thread::scope(|scope| {
            let encoder = scope.spawn(move || -> Result<Vec<RenderedPage>> {
                let mut out = Vec::new();
                let mut rgb = Vec::new();
                for r in rx {
                    // PDFium wrote R, G, B, x per pixel (BGRx with the byte order reversed).
                    rgb.clear();
                    rgb.extend(r.rgbx.chunks_exact(4).flat_map(|px| [px[0], px[1], px[2]]));
                    let bytes = images::encode_rgb(name, r.width, r.height, &rgb, format, quality)?;
                    out.push(RenderedPage { page: r.page, width: r.width, height: r.height, bytes });
                    let _ = back_tx.send(r.rgbx);
                }
                Ok(out)
            });
            let rendered = self.render_pages(name, pages, req, &back_rx, |r| tx.send(r).is_ok());
            drop(tx);
            let encoded = encoder.join().unwrap_or_else(|_| {
                Err(RenderError::Image {
                    path: name.to_string(),
                    detail: "the encoder thread stopped unexpectedly".into(),
                    fix: "try again; report it if it repeats".into(),
                })
            });
            rendered.and(encoded)
        })
    }

    fn render_pages(
        &self,
        name: &str,
        pages: &PdfPages<'_>,
        req: &PageRequest,
        spent: &std::sync::mpsc::Receiver<Vec<u8>>,
        mut sink: impl FnMut(Rendered) -> bool,
    ) -> Result<()> {
        for &p in &req.pages {
            let page = pages.get((p - 1) as i32).map_err(|e| classify(name, e))?;
            let (wpt, hpt) = (page.width().value, page.height().value);
            let scale = match req.size {
                Size::Dpi(dpi) => dpi / 72.0,
                Size::Width(w) => w as f32 / wpt.max(1.0),
            };
            let w = ((wpt * scale).round() as i32).max(1);
            let h = ((hpt * scale).round() as i32).max(1);
            if u64::from(w.unsigned_abs()) * u64::from(h.unsigned_abs()) > req.max_pixels {
                return Err(RenderError::BadOption(format!(
                    "{name}: page {p} at this resolution would be {w}×{h} pixels, over the limit of {} — hint: lower dpi or width",
                    req.max_pixels
                )));
            }
            let mut rgbx = spent.try_recv().unwrap_or_default();
            rgbx.resize(w as usize * h as usize * 4, 0);
            {
                let mut bitmap =
                    PdfBitmap::from_bytes(w, h, PdfBitmapFormat::BGRx, &mut rgbx).map_err(|e| classify(name, e))?;
                let config =
                    PdfRenderConfig::new().set_fixed_size(w, h).set_reverse_byte_order(true).render_form_data(true);
                page.render_into_bitmap_with_config(&mut bitmap, &config).map_err(|e| classify(name, e))?;
            }
            if !sink(Rendered { page: p, width: w as u32, height: h as u32, rgbx }) {
                break;
            }
        }
        Ok(())
    }

    /// Renders pages to pixels without encoding them: `each(page, width, height, rgbx)` gets
    /// 4 bytes per pixel (R, G, B, unused). For callers that want pixels (analysis, OCR) and for
    /// measuring the render stage alone.
    pub fn render_pixels(
        &self,
        name: &str,
        bytes: &[u8],
        req: &PageRequest,
        mut each: impl FnMut(u32, u32, u32, &[u8]),
    ) -> Result<u32> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let doc = self.open(name, bytes)?;
        let pages = doc.pages();
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Vec<u8>>();
        self.render_pages(name, pages, req, &back_rx, |r| {
            each(r.page, r.width, r.height, &r.rgbx);
            back_tx.send(r.rgbx).is_ok()
        })?;
        Ok(pages.len().max(0) as u32)
    }

    /// Page count, first-page size, metadata, a text sample and the encryption state. A PDF that
    /// needs a password is reported (`encrypted: true`) rather than refused.
    pub fn describe(&self, name: &str, bytes: &[u8]) -> Result<PdfInfo> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let doc = match self.open(name, bytes) {
            Ok(doc) => doc,
            Err(RenderError::Encrypted { .. }) => {
                return Ok(PdfInfo { encrypted: true, needs_password: true, ..PdfInfo::default() });
            }
            Err(e) => return Err(e),
        };
        let pages = doc.pages();
        let page_count = pages.len().max(0) as u32;
        let mut info = PdfInfo { page_count: Some(page_count), ..PdfInfo::default() };
        // pdfium-render knows revisions 2–4 only; AES-256 (5, 6) comes back as an error, which
        // still means a security handler is present.
        info.encrypted =
            !matches!(doc.permissions().security_handler_revision(), Ok(PdfSecurityHandlerRevision::Unprotected));
        let meta = doc.metadata();
        for (key, tag) in [
            ("title", PdfDocumentMetadataTagType::Title),
            ("author", PdfDocumentMetadataTagType::Author),
            ("subject", PdfDocumentMetadataTagType::Subject),
            ("creator", PdfDocumentMetadataTagType::Creator),
            ("producer", PdfDocumentMetadataTagType::Producer),
            ("creationDate", PdfDocumentMetadataTagType::CreationDate),
        ] {
            if let Some(t) = meta.get(tag).filter(|t| !t.value().trim().is_empty()) {
                info.metadata.insert(key.to_string(), t.value().to_string());
            }
        }
        if let Ok(first) = pages.get(0) {
            info.page_size_pt = Some([first.width().value.round(), first.height().value.round()]);
            let mut text = String::new();
            for i in 0..pages.len().min(3) {
                if let Ok(t) = pages.get(i).and_then(|p| p.text().map(|t| t.all())) {
                    text.push_str(t.trim());
                    text.push('\n');
                }
                if text.len() > 400 {
                    break;
                }
            }
            let sample: String = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect();
            info.text_sample = sample;
        }
        Ok(info)
    }
}

/// Maps pdfium-render's error to a named one.
fn classify(name: &str, err: PdfiumError) -> RenderError {
    match err {
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::PasswordError) => {
            RenderError::Encrypted { path: name.to_string() }
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FormatError) => {
            RenderError::Damaged { path: name.to_string(), detail: "PDFium cannot parse its structure".into() }
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FileError) => {
            RenderError::Damaged { path: name.to_string(), detail: "PDFium cannot read it as a PDF file".into() }
        }
        other => RenderError::Damaged { path: name.to_string(), detail: other.to_string() },
    }
}

/// One page's pixels on their way to the encoder.
struct Rendered {
    page: u32,
    width: u32,
    height: u32,
    rgbx: Vec<u8>,
}

/// How large pages come out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Size {
    /// Dots per inch (a PDF point is 1/72 inch).
    Dpi(f32),
    /// A fixed pixel width; the height follows the page's aspect ratio.
    Width(u32),
}

/// Which pages, how large, in what format.
#[derive(Debug, Clone)]
pub struct PageRequest {
    /// 1-based page numbers, already validated as non-empty.
    pub pages: Vec<u32>,
    /// The resolution.
    pub size: Size,
    /// The output format.
    pub format: ImageFormat,
    /// JPEG quality.
    pub quality: Option<u8>,
    /// The most pixels one page may have.
    pub max_pixels: u64,
}

/// One rendered page, encoded.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    /// The page number (1-based).
    pub page: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The encoded image.
    pub bytes: Vec<u8>,
}

/// What `describe` reports for a PDF.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PdfInfo {
    /// The number of pages (`None` when a password is needed to know).
    pub page_count: Option<u32>,
    /// The first page's width and height in points (1/72 inch).
    pub page_size_pt: Option<[f32; 2]>,
    /// Title, author, subject, creator, producer, creation date — those present.
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Up to 300 characters of text from the first pages (empty for scans).
    pub text_sample: String,
    /// True when the file is encrypted (with or without a user password).
    pub encrypted: bool,
    /// True when it cannot be opened without a password.
    pub needs_password: bool,
}

/// Counts the pages of a PDF (used to expand `pages: "all"`).
pub fn page_count(engine: &PdfEngine, name: &str, bytes: &[u8]) -> Result<u32> {
    let _guard = engine.lock.lock().unwrap_or_else(|p| p.into_inner());
    let doc = engine.open(name, bytes)?;
    Ok(doc.pages().len().max(0) as u32)
}
