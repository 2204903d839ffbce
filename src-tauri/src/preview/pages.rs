//! Document pages as images: PDFs through PDFium, Office files converted to PDF by LibreOffice
//! once (the PDF is cached by the source's hash), each page rendered to PNG on first request at
//! the width the pane asks for and cached (`previews/pages/<hash>-p<n>-w<width>.png`). A page
//! asked for again is found by the document's size and modification time, without reading or
//! hashing it.

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
    /// file (cached). Returns the PDF and the hash naming its cached pages.
    fn pdf_of(&self, session: &Session, at: &VPath, version: Version) -> Result<(Vec<u8>, String), PreviewError> {
        let bytes = read(session, at, version)?;
        let path = at.to_string();
        let hash = content_hash(&bytes);
        match kind::classify(&path, &bytes[..bytes.len().min(8192)]).0 {
            PreviewKind::Pdf => Ok((bytes, hash)),
            PreviewKind::Office => {
                let dir = self.cache_dir(session, "office")?;
                let cached = dir.join(format!("{hash}.pdf"));
                if let Ok(pdf) = std::fs::read(&cached) {
                    return Ok((pdf, hash));
                }
                let renderer = &self.renderer;
                let soffice = folio_render::office::find_soffice(renderer.soffice_path.as_deref(), &renderer.host)
                    .map_err(|tried| PreviewError::Render(office_missing(renderer, &path, &tried)))?;
                let _one_at_a_time = self.converting.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Ok(pdf) = std::fs::read(&cached) {
                    return Ok((pdf, hash));
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
                Ok((pdf, hash))
            }
            other => Err(PreviewError::Unsupported {
                path,
                why: format!("it is previewed as {other:?}, not as pages — only PDFs and Office documents have pages"),
            }),
        }
    }

    /// How many pages a document has.
    pub fn pages(&self, session: &Session, raw: &str) -> Result<PreviewPagesResponse, PreviewError> {
        let at = super::checked_path(raw)?;
        let (pdf, _) = self.pdf_of(session, &at, Version::Current)?;
        let engine = self.renderer.pdfium().map_err(render_err)?;
        let name = at.to_string();
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
        let (pdf, hash) = self.pdf_of(session, at, version)?;
        if let Some(key) = fingerprint {
            self.hashes().insert(key, hash.clone());
        }
        let cached = dir.join(format!("{hash}-p{page}-w{width}.png"));
        if let Ok(png) = std::fs::read(&cached) {
            return Ok(png);
        }
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
