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
//! thread hands back once a page is encoded, so a long document reuses two or three buffers, and
//! encoding (and writing) page N overlaps rendering of page N+1. PDFium writes 24-bit RGB
//! directly (its BGR format with the byte order reversed), and [`crate::pagepng`] encodes those
//! rows where they lie, so no pixel is copied between PDFium and the PNG's compressor.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pdfium_render::prelude::*;
use serde::Serialize;

use crate::discovery::{HostPaths, describe_tried, pdfium_candidates};
use crate::error::{RenderError, Result};
use crate::images::{self, ImageFormat};
use crate::pagepng::{self, RgbRows};

/// The loaded PDFium library. Obtain it with [`PdfEngine::load`].
pub struct PdfEngine {
    pdfium: Pdfium,
    path: PathBuf,
    pub(crate) lock: Mutex<()>,
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

    pub(crate) fn open<'a>(&'a self, name: &str, bytes: &'a [u8]) -> Result<PdfDocument<'a>> {
        self.pdfium.load_pdf_from_byte_slice(bytes, None).map_err(|e| classify(name, e))
    }

    /// Renders pages of the PDF `bytes` (`name` is how messages refer to it), returning them
    /// encoded, in the order asked for.
    pub fn rasterize(&self, name: &str, bytes: &[u8], req: &PageRequest) -> Result<Vec<RenderedPage>> {
        let mut out = Vec::with_capacity(req.pages.len());
        self.rasterize_each(name, bytes, req, |page| {
            out.push(page);
            Ok(())
        })?;
        Ok(out)
    }

    /// Renders pages of the PDF `bytes` and hands each one, encoded, to `sink` as soon as it is
    /// ready, in the order asked for. PDFium renders on the calling thread (it is
    /// single-threaded); one encoder thread encodes page N and runs `sink` on it (typically a
    /// file write) while PDFium renders page N+1. Every page's size is checked against
    /// [`PageRequest::max_pixels`] before the first one renders, so a refusal leaves nothing
    /// half done; the first error from `sink` stops the render and is returned.
    pub fn rasterize_each(
        &self,
        name: &str,
        bytes: &[u8],
        req: &PageRequest,
        mut sink: impl FnMut(RenderedPage) -> Result<()> + Send,
    ) -> Result<()> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let doc = self.open(name, bytes)?;
        let pages = doc.pages();
        let count = pages.len().max(0) as u32;
        for &p in &req.pages {
            if p == 0 || p > count {
                return Err(RenderError::NoSuchPage { path: name.to_string(), page: p, count });
            }
            let rect = pages.page_size((p - 1) as PdfPageIndex).map_err(|e| classify(name, e))?;
            pixel_size(name, p, rect.width().value, rect.height().value, req)?;
        }
        let (tx, rx) = std::sync::mpsc::sync_channel::<Rendered>(2);
        // Spent pixel buffers travel back from the encoder, so a long document cycles through
        // a few buffers instead of allocating (and page-faulting) one per page.
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Vec<u8>>();
        let (format, quality) = (req.format, req.quality);
        std::thread::scope(|scope| {
            let encoder = scope.spawn(move || -> Result<()> {
                for r in rx {
                    let rows = RgbRows { width: r.width, height: r.height, stride: r.stride, data: &r.rgb };
                    let bytes = encode_page(name, &rows, format, quality)?;
                    let (page, width, height) = (r.page, r.width, r.height);
                    let _ = back_tx.send(r.rgb);
                    sink(RenderedPage { page, width, height, bytes })?;
                }
                Ok(())
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
            // The encoder's error (a failed write, say) is the cause when both failed: the
            // render loop only stopped because the encoder hung up.
            encoded.and(rendered)
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
            let (w, h) = pixel_size(name, p, page.width().value, page.height().value, req)?;
            // PDFium's 24-bit format with the byte order reversed is RGB, rows padded to 4 bytes:
            // what the PNG writer reads, with no RGBx-to-RGB copy in between.
            let stride = (w as usize * 3).div_ceil(4) * 4;
            let mut rgb = spent.try_recv().unwrap_or_default();
            rgb.resize(stride * h as usize, 0);
            {
                let mut bitmap = PdfBitmap::from_bytes(w as i32, h as i32, PdfBitmapFormat::BGR, &mut rgb)
                    .map_err(|e| classify(name, e))?;
                let config = PdfRenderConfig::new()
                    .set_fixed_size(w as i32, h as i32)
                    .set_reverse_byte_order(true)
                    .render_form_data(true);
                page.render_into_bitmap_with_config(&mut bitmap, &config).map_err(|e| classify(name, e))?;
            }
            if !sink(Rendered { page: p, width: w, height: h, stride, rgb }) {
                break;
            }
        }
        Ok(())
    }

    /// Renders pages to pixels without encoding them: `each(page, rows)` gets 8-bit RGB rows as
    /// PDFium wrote them. For callers that want pixels (analysis, OCR) and for measuring the
    /// render stage alone. Returns the document's page count.
    pub fn render_pixels(
        &self,
        name: &str,
        bytes: &[u8],
        req: &PageRequest,
        mut each: impl FnMut(u32, &RgbRows<'_>),
    ) -> Result<u32> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let doc = self.open(name, bytes)?;
        let pages = doc.pages();
        let (back_tx, back_rx) = std::sync::mpsc::channel::<Vec<u8>>();
        self.render_pages(name, pages, req, &back_rx, |r| {
            each(r.page, &RgbRows { width: r.width, height: r.height, stride: r.stride, data: &r.rgb });
            back_tx.send(r.rgb).is_ok()
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
    /// Bytes from one row to the next.
    stride: usize,
    rgb: Vec<u8>,
}

/// The pixel size of page `page` (`wpt`×`hpt` points) at the requested size, refused over
/// [`PageRequest::max_pixels`].
fn pixel_size(name: &str, page: u32, wpt: f32, hpt: f32, req: &PageRequest) -> Result<(u32, u32)> {
    let scale = match req.size {
        Size::Dpi(dpi) => dpi / 72.0,
        Size::Width(w) => w as f32 / wpt.max(1.0),
    };
    let w = ((wpt * scale).round() as u32).max(1);
    let h = ((hpt * scale).round() as u32).max(1);
    if u64::from(w) * u64::from(h) > req.max_pixels || w > i32::MAX as u32 / 4 || h > i32::MAX as u32 / 4 {
        return Err(RenderError::BadOption(format!(
            "{name}: page {page} at this resolution would be {w}×{h} pixels, over the limit of {} — hint: lower dpi or width",
            req.max_pixels
        )));
    }
    Ok((w, h))
}

/// Encodes one rendered page: PNG straight from PDFium's rows, other formats through `image`.
fn encode_page(name: &str, rows: &RgbRows<'_>, format: ImageFormat, quality: Option<u8>) -> Result<Vec<u8>> {
    if format == ImageFormat::Png {
        // Room for a typical text page, so the output rarely grows while it is written.
        let mut out = Vec::with_capacity(rows.width as usize * rows.height as usize / 2);
        pagepng::encode(rows, &mut out).map_err(|e| RenderError::Image {
            path: name.to_string(),
            detail: format!("cannot encode a page as png: {e}"),
            fix: "report this as a bug with the file attached".into(),
        })?;
        return Ok(out);
    }
    images::encode_rgb(name, rows.width, rows.height, &rows.packed(), format, quality)
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
