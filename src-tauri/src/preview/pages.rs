//! Document pages as images: PDFs through PDFium, Office files converted to PDF by LibreOffice
//! once (the PDF is cached by the source's hash), TIFF pages decoded by folio-render (each page
//! on its own, within its pixel limits), each page rendered to PNG on first request at the width
//! the pane asks for (a TIFF page is never enlarged) and cached
//! (`previews/pages/<hash>-p<n>-w<width>.png`). A page asked for again is found by the document's
//! size and modification time, without reading or hashing it. An SVG is drawn to a PNG here too
//! ([`Previews::svg_png`]), so the webview never loads the SVG itself and its scripts never run.

use folio_render::ImageFormat;
use folio_render::pdf::{PageRequest, Size};
use folio_vfs::{Tree, VPath};

use super::error::PreviewError;
use super::{Previews, Version, content_hash, kind, read};
use crate::api::{PreviewKind, PreviewPagesResponse};
use crate::session::Session;

/// The widest page the pane may ask for, in pixels.
pub const MAX_WIDTH: u32 = 3000;

fn render_err(e: folio_render::RenderError) -> PreviewError {
    PreviewError::Render(e.to_string())
}

/// Why an Office file cannot be rendered without LibreOffice, with the doctor's fix.
pub fn office_missing(renderer: &folio_render::Renderer, path: &str, tried: &str) -> String {
    let fix = folio_render::capabilities(renderer)
        .into_iter()
        .find(|row| row.name == "libreoffice" && !row.fix.is_empty())
        .map_or_else(|| "install LibreOffice".to_string(), |row| row.fix);
    format!("LibreOffice is not installed, so {path} cannot be rendered here (looked at {tried}) — hint: {fix}")
}

/// What identifies a document's content without reading it: the folder, the path, its size and
/// modification time in the agent's view. Only the current version has one (the folder's
/// committed bytes are asked for rarely and are hashed each time), and only when the tree knows
/// a modification time.
pub type Fingerprint = (std::path::PathBuf, String, u64, u64);

fn fingerprint(session: &Session, at: &VPath, version: Version) -> Option<Fingerprint> {
    if version != Version::Current {
        return None;
    }
    let stat = session.environment().tree().stat(at).ok().flatten().filter(|s| s.mtime_ms > 0)?;
    Some((session.folder().to_path_buf(), at.to_string(), stat.size, stat.mtime_ms as u64))
}

impl Previews {
    /// The content hashes of documents whose pages were asked for, by [`Fingerprint`].
    fn hashes(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<Fingerprint, String>> {
        self.page_hashes.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The PDF behind a document: the file itself, or LibreOffice's conversion of an Office
    /// file (cached); or a TIFF as it is. Returns them and the hash naming its cached pages.
    fn pdf_of(&self, session: &Session, at: &VPath, version: Version) -> Result<(Paged, String), PreviewError> {
        let bytes = read(session, at, version)?;
        let path = at.to_string();
        let hash = content_hash(&bytes);
        match kind::classify(&path, &bytes[..bytes.len().min(8192)]).0 {
            PreviewKind::Pdf => Ok((Paged::Pdf(bytes), hash)),
            PreviewKind::Tiff => Ok((Paged::Tiff(bytes), hash)),
            PreviewKind::Office => {
                let dir = self.cache_dir(session, "office")?;
                let cached = dir.join(format!("{hash}.pdf"));
                if let Ok(pdf) = std::fs::read(&cached) {
                    return Ok((Paged::Pdf(pdf), hash));
                }
                let renderer = &self.renderer;
                let soffice = folio_render::office::find_soffice(renderer.soffice_path.as_deref(), &renderer.host)
                    .map_err(|tried| PreviewError::Render(office_missing(renderer, &path, &tried)))?;
                let _one_at_a_time = self.converting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Ok(pdf) = std::fs::read(&cached) {
                    return Ok((Paged::Pdf(pdf), hash));
                }
                let pdf = folio_render::office::convert_to_pdf(
                    &path,
                    &bytes,
                    &soffice,
                    &renderer.office_profile,
                    &renderer.office_limits(),
                )
                .map_err(render_err)?;
                std::fs::write(&cached, &pdf)
                    .map_err(|e| PreviewError::Cache { dir: dir.display().to_string(), why: e.to_string() })?;
                Ok((Paged::Pdf(pdf), hash))
            }
            other => Err(PreviewError::Unsupported {
                path,
                why: format!(
                    "it is previewed as {other:?}, not as pages — only PDFs and Office documents have pages, and TIFF images"
                ),
            }),
        }
    }

    /// How many pages a document has.
    pub fn pages(&self, session: &Session, raw: &str) -> Result<PreviewPagesResponse, PreviewError> {
        let at = super::checked_path(raw)?;
        let name = at.to_string();
        let pdf = match self.pdf_of(session, &at, Version::Current)?.0 {
            Paged::Pdf(pdf) => pdf,
            Paged::Tiff(tiff) => {
                let info = folio_render::tiff::describe(&name, &tiff).map_err(render_err)?;
                let first = info.pages.first().map(|p| [p.width as f32, p.height as f32]);
                return Ok(PreviewPagesResponse {
                    path: name,
                    page_count: info.pages.len() as u32,
                    page_size_pt: first,
                });
            }
        };
        let engine = self.renderer.pdfium().map_err(render_err)?;
        let info = engine.describe(&name, &pdf).map_err(render_err)?;
        let page_count = match info.page_count {
            Some(n) => n,
            None => folio_render::pdf::page_count(&engine, &name, &pdf).map_err(render_err)?,
        };
        Ok(PreviewPagesResponse { path: name, page_count, page_size_pt: info.page_size_pt })
    }

    /// One page as a PNG `width` pixels wide.
    pub fn page_png(
        &self,
        session: &Session,
        at: &VPath,
        version: Version,
        page: u32,
        width: u32,
    ) -> Result<Vec<u8>, PreviewError> {
        let path = at.to_string();
        if page == 0 || width == 0 || width > MAX_WIDTH {
            return Err(PreviewError::Unsupported {
                path,
                why: format!(
                    "page {page} at {width} px was asked; pages count from 1 and widths go up to {MAX_WIDTH} px"
                ),
            });
        }
        let dir = self.cache_dir(session, "pages")?;
        // The cheap key first: a file whose size and modification time are unchanged still has
        // the content hash it had, so a cached page is answered without reading the document.
        let fingerprint = fingerprint(session, at, version);
        let known = fingerprint.as_ref().and_then(|key| self.hashes().get(key).cloned());
        if let Some(hash) = known
            && let Ok(png) = std::fs::read(dir.join(format!("{hash}-p{page}-w{width}.png")))
        {
            return Ok(png);
        }
        let (paged, hash) = self.pdf_of(session, at, version)?;
        if let Some(key) = fingerprint {
            self.hashes().insert(key, hash.clone());
        }
        let cached = dir.join(format!("{hash}-p{page}-w{width}.png"));
        if let Ok(png) = std::fs::read(&cached) {
            return Ok(png);
        }
        let pdf = match paged {
            Paged::Pdf(pdf) => pdf,
            Paged::Tiff(tiff) => {
                let png = tiff_page_png(&path, &tiff, page, width, &self.renderer.limits)?;
                // A cache that cannot be written only costs a re-render next time.
                let _ = std::fs::write(&cached, &png);
                return Ok(png);
            }
        };
        let engine = self.renderer.pdfium().map_err(render_err)?;
        let req = PageRequest {
            pages: vec![page],
            size: Size::Width(width),
            format: ImageFormat::Png,
            quality: None,
            max_pixels: self.renderer.limits.max_pixels,
        };
        let rendered = engine.rasterize(&path, &pdf, &req).map_err(render_err)?;
        let png = rendered.into_iter().next().map(|p| p.bytes).ok_or_else(|| PreviewError::Unsupported {
            path: path.clone(),
            why: format!("PDFium rendered nothing for page {page}"),
        })?;
        // A cache that cannot be written only costs a re-render next time.
        let _ = std::fs::write(&cached, &png);
        Ok(png)
    }
}

/// What pages are made from: a PDF (a document's own, or LibreOffice's), or a TIFF.
enum Paged {
    Pdf(Vec<u8>),
    Tiff(Vec<u8>),
}

/// Page `page` of a TIFF as a PNG at most `width` pixels wide (never enlarged: the pane scales).
fn tiff_page_png(
    path: &str,
    tiff: &[u8],
    page: u32,
    width: u32,
    limits: &folio_render::ImageLimits,
) -> Result<Vec<u8>, PreviewError> {
    let img = folio_render::tiff::decode_page(path, tiff, page, limits).map_err(render_err)?;
    let img = if img.width() > width {
        let opts = folio_render::ops::ResizeOptions { width: Some(width), ..Default::default() };
        folio_render::ops::resize(path, &img, &opts).map_err(render_err)?
    } else {
        img
    };
    folio_render::images::encode(path, &img, ImageFormat::Png, None).map_err(render_err)
}

/// The longest side an SVG is drawn at for the pane.
pub const SVG_SIDE: u32 = folio_render::svg::VIEW_SIDE;

impl Previews {
    /// An SVG drawn to a PNG (at twice its own size, at most [`SVG_SIDE`] px on its longer side),
    /// cached by content: what the `folio://` scheme serves for an SVG, so the webview never
    /// parses the SVG and a `<script>` in it never runs.
    pub fn svg_png(&self, session: &Session, path: &str, svg: &[u8]) -> Result<Vec<u8>, PreviewError> {
        let dir = self.cache_dir(session, "pages")?;
        let cached = dir.join(format!("{}-svg.png", content_hash(svg)));
        if let Ok(png) = std::fs::read(&cached) {
            return Ok(png);
        }
        let fail = |e: folio_render::svg::SvgError| PreviewError::Render(e.to_string());
        let (w, h) = folio_render::svg::svg_size(path, svg).map_err(fail)?;
        let side = |own: f32| Some(SVG_SIDE.min((own.ceil().max(1.0) as u32).saturating_mul(2)));
        let size = if w >= h {
            folio_render::svg::SvgSize { width: side(w), ..Default::default() }
        } else {
            folio_render::svg::SvgSize { height: side(h), ..Default::default() }
        };
        let png = folio_render::svg::svg_to_png(path, svg, size).map_err(fail)?.png;
        let _ = std::fs::write(&cached, &png);
        Ok(png)
    }
}
