//! `describe` handlers for folio-env's registry: [`RenderHandler`] claims PDFs and Office files
//! for `env:render`, [`ImagesHandler`] PNG, JPEG, GIF, WebP, TIFF and SVG for `env:images` — the
//! extensions and signatures the workspace's kind table (`folio_kinds`) gives each [`Handler`].
//! Both delegate to [`crate::describe`]; both render pages for `view_image`: [`RenderHandler`] a
//! document's, [`ImagesHandler`] a TIFF's (any page) and an SVG's (drawn, never passed on as
//! SVG). PNG, JPEG, GIF and WebP go to `view_image` as they are.

use std::sync::Arc;

use folio_env::{FileHandler, Magic, RenderedPage};
use folio_kinds::Handler;
use folio_vfs::VPath;

use crate::rasterize::{Pages, RasterOptions, Renderer};

/// The handler's extensions, with dots.
fn extensions(handler: Handler) -> Vec<String> {
    handler.extensions().iter().map(|e| format!(".{e}")).collect()
}

/// The handler's identifying signatures.
fn magic(handler: Handler) -> Vec<Magic> {
    handler.signatures().into_iter().map(|(offset, bytes)| Magic { offset, bytes: bytes.to_vec() }).collect()
}

/// PDFs and Office documents, summarised for `describe` and marked "open with env:render".
pub struct RenderHandler {
    renderer: Arc<Renderer>,
}

impl RenderHandler {
    /// A handler describing with `renderer` (PDFium is loaded on first use).
    pub fn new(renderer: Arc<Renderer>) -> RenderHandler {
        RenderHandler { renderer }
    }
}

impl FileHandler for RenderHandler {
    fn module(&self) -> &str {
        Handler::Render.module()
    }
    fn description(&self) -> &str {
        "PDF and Office documents: page count, page size, metadata, text sample; rasterize pages to look at them"
    }
    fn extensions(&self) -> Vec<String> {
        extensions(Handler::Render)
    }
    fn magic(&self) -> Vec<Magic> {
        magic(Handler::Render)
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        crate::describe::describe(&self.renderer, path.as_str(), bytes).map_err(|e| e.to_string())
    }
    /// One page as PNG at 150 dpi, for `view_image` (Office files go through LibreOffice; a
    /// workbook's sheets fit to the page width, `sheet_fit.rs`, instead of its print pages).
    fn render_page(&self, path: &VPath, bytes: &[u8], page: u32) -> Option<Result<RenderedPage, String>> {
        let opts = RasterOptions { pages: Pages::List(vec![page]), ..RasterOptions::default() };
        let workbook = matches!(
            folio_kinds::FileKind::from_name(path.as_str()),
            Some(folio_kinds::FileKind::Xlsx | folio_kinds::FileKind::Xlsm)
        );
        let fitted = if workbook { crate::sheet_fit::fit_to_width(bytes) } else { None };
        let bytes = fitted.as_deref().unwrap_or(bytes);
        Some(match self.renderer.rasterize_bytes(path.as_str(), bytes, &opts) {
            Ok(r) => match r.pages.into_iter().next() {
                Some(p) => Ok(RenderedPage { png: p.bytes, page_count: r.page_count }),
                None => Err(format!("{path}: page {page} produced no image — hint: report this with the file")),
            },
            Err(e) => Err(e.to_string()),
        })
    }
}

/// Raster images, summarised from their headers and marked "open with env:images".
pub struct ImagesHandler {
    renderer: Arc<Renderer>,
}

impl ImagesHandler {
    /// A handler describing images (the renderer is only used for its limits).
    pub fn new(renderer: Arc<Renderer>) -> ImagesHandler {
        ImagesHandler { renderer }
    }
}

impl FileHandler for ImagesHandler {
    fn module(&self) -> &str {
        Handler::Images.module()
    }
    fn description(&self) -> &str {
        "PNG, JPEG, GIF, WebP, TIFF (pages) and SVG images: size, EXIF orientation, animation, a TIFF's pages; resize, crop, rotate, convert"
    }
    fn extensions(&self) -> Vec<String> {
        extensions(Handler::Images)
    }
    fn magic(&self) -> Vec<Magic> {
        magic(Handler::Images)
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        crate::describe::describe(&self.renderer, path.as_str(), bytes).map_err(|e| e.to_string())
    }
    /// A TIFF's page `page`, or an SVG drawn, as a PNG at most [`VIEW_SIDE`] px on its longer
    /// side, with the page count; `None` for the raster formats `view_image` takes as they are.
    fn render_page(&self, path: &VPath, bytes: &[u8], page: u32) -> Option<Result<RenderedPage, String>> {
        let name = path.as_str();
        let format = crate::images::ImageFormat::sniff(bytes);
        let svg_named = folio_kinds::FileKind::from_name(name) == Some(folio_kinds::FileKind::Svg);
        match format {
            Some(crate::images::ImageFormat::Tiff) => Some(view_tiff(name, bytes, page, &self.renderer.limits)),
            Some(crate::images::ImageFormat::Svg) => crate::svg::SvgHandler.render_page(path, bytes, page),
            None if svg_named => crate::svg::SvgHandler.render_page(path, bytes, page),
            _ => None,
        }
    }
}

/// The longer side of a TIFF page [`ImagesHandler`] shows `view_image`.
pub const VIEW_SIDE: u32 = crate::svg::VIEW_SIDE;

fn view_tiff(name: &str, bytes: &[u8], page: u32, limits: &crate::ImageLimits) -> Result<RenderedPage, String> {
    let run = || -> crate::Result<RenderedPage> {
        let count = crate::tiff::describe(name, bytes)?.pages.len() as u32;
        if page > count {
            return Err(crate::RenderError::NoSuchPage { path: name.to_string(), page, count });
        }
        let img = crate::tiff::decode_page(name, bytes, page, limits)?;
        let img = if img.width().max(img.height()) > VIEW_SIDE {
            img.resize(VIEW_SIDE, VIEW_SIDE, image::imageops::FilterType::Triangle)
        } else {
            img
        };
        let png = crate::images::encode(name, &img, crate::ImageFormat::Png, None)?;
        Ok(RenderedPage { png, page_count: count })
    };
    run().map_err(|e| e.to_string())
}
