//! SVG to PNG with resvg, for charts, previews and `view_image`.
//!
//! An SVG is a program-shaped document: it can carry `<script>`, event attributes, external
//! `<image href="file:…">` / `http:` references and CSS. None of that may reach the host, so:
//!
//! - **Scripts never run**: resvg has no script engine; `<script>` and `on*` attributes are
//!   dropped by its parser (the corpus' `hostile/flamegraph-with-script.svg` is tested).
//! - **No external reference is followed**: the `<image>` resolver refuses every non-`data:`
//!   href (no file is opened, no URL fetched) and `resources_dir` stays unset; embedded `data:`
//!   images are not decoded either (resvg is built without raster decoders), only embedded SVG.
//! - **Fonts are the bundled DejaVu faces** from `folio-fonts` — the font database is built from
//!   them alone, never from the host, so the same SVG gives the same pixels on every machine.
//! - **Sizes are bounded**: [`MAX_SIDE`] per side and [`MAX_PIXELS`] in all, refused by name
//!   before a pixmap is allocated.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

/// The widest or tallest picture [`svg_to_png`] makes.
pub const MAX_SIDE: u32 = 16_384;
/// The most pixels [`svg_to_png`] makes (64 Mpx ≈ 256 MB of RGBA).
pub const MAX_PIXELS: u64 = 64 * 1024 * 1024;

/// Why an SVG could not be rasterised.
#[derive(Debug, thiserror::Error)]
pub enum SvgError {
    /// The bytes are not an SVG resvg can parse (not XML, no `<svg>` root, an entity bomb).
    /// Retrying the same bytes fails the same way.
    #[error(
        "{path} is not a readable SVG ({detail}) — hint: check that it is a complete SVG file (it must start with <svg or <?xml)"
    )]
    Unreadable {
        /// The file, as the caller named it.
        path: String,
        /// What the parser said.
        detail: String,
    },
    /// The asked output size is zero or over the limits. The caller asks for a smaller size.
    #[error(
        "{path}: a {width}×{height} picture is outside the limits (1..={MAX_SIDE} px a side, {MAX_PIXELS} px in all) — hint: ask for a smaller width/height or scale"
    )]
    TooLarge {
        /// The file.
        path: String,
        /// The width that was asked for or computed.
        width: u64,
        /// The height that was asked for or computed.
        height: u64,
    },
    /// PNG encoding failed (out of memory). Nobody retries.
    #[error("{path}: could not encode the PNG ({detail})")]
    Encode {
        /// The file.
        path: String,
        /// What the encoder said.
        detail: String,
    },
}

/// How big the picture should be. With neither side, the SVG's own size times `scale`; with one
/// side, the other follows the aspect ratio; with both, the drawing is fitted inside, centred.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SvgSize {
    /// Output width in pixels (before `scale`).
    pub width: Option<u32>,
    /// Output height in pixels (before `scale`).
    pub height: Option<u32>,
    /// Device pixel ratio (2.0 for a crisp slide image); 1.0 by default.
    pub scale: f32,
}

impl Default for SvgSize {
    fn default() -> SvgSize {
        SvgSize { width: None, height: None, scale: 1.0 }
    }
}

/// A rasterised SVG.
#[derive(Debug, Clone)]
pub struct SvgRaster {
    /// The PNG file's bytes.
    pub png: Vec<u8>,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
}

/// The bundled faces as a font database, built once per process.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        for face in folio_fonts::Face::ALL {
            db.load_font_data(face.bytes().to_vec());
        }
        let sans = folio_fonts::Face::Sans.family();
        db.set_sans_serif_family(sans);
        db.set_serif_family(sans);
        db.set_cursive_family(sans);
        db.set_fantasy_family(sans);
        db.set_monospace_family(folio_fonts::Face::Mono.family());
        Arc::new(db)
    })
    .clone()
}

fn options() -> usvg::Options<'static> {
    let mut opt = usvg::Options {
        font_family: folio_fonts::Face::Sans.family().to_string(),
        fontdb: fonts(),
        resources_dir: None,
        ..usvg::Options::default()
    };
    // Only embedded SVG (data: URLs) is kept; a string href (a file or a URL) is never opened.
    let data = usvg::ImageHrefResolver::default_data_resolver();
    opt.image_href_resolver = usvg::ImageHrefResolver {
        resolve_data: Box::new(move |mime, bytes, o| match mime {
            "image/svg+xml" => data(mime, bytes, o),
            _ => None,
        }),
        resolve_string: Box::new(|_, _| None),
    };
    opt
}

/// Parses `svg` (named `path` in messages) and checks that it is a drawable SVG; returns its own
/// size in CSS pixels.
pub fn svg_size(path: &str, svg: &[u8]) -> Result<(f32, f32), SvgError> {
    let tree = parse(path, svg)?;
    Ok((tree.size().width(), tree.size().height()))
}

fn parse(path: &str, svg: &[u8]) -> Result<usvg::Tree, SvgError> {
    usvg::Tree::from_data(svg, &options())
        .map_err(|e| SvgError::Unreadable { path: path.to_string(), detail: e.to_string() })
}

fn checked(path: &str, w: f64, h: f64) -> Result<(u32, u32), SvgError> {
    let (w, h) = (w.round().max(0.0) as u64, h.round().max(0.0) as u64);
    if w == 0 || h == 0 || w > MAX_SIDE as u64 || h > MAX_SIDE as u64 || w * h > MAX_PIXELS {
        return Err(SvgError::TooLarge { path: path.to_string(), width: w, height: h });
    }
    Ok((w as u32, h as u32))
}

/// Rasterises `svg` to a PNG of `size` on a transparent background (charts draw their own).
pub fn svg_to_png(path: &str, svg: &[u8], size: SvgSize) -> Result<SvgRaster, SvgError> {
    let pixmap = render(path, svg, size)?;
    let (width, height) = (pixmap.width(), pixmap.height());
    let png = pixmap.encode_png().map_err(|e| SvgError::Encode { path: path.to_string(), detail: e.to_string() })?;
    Ok(SvgRaster { png, width, height })
}

/// Rasterises `svg` at `size` to straight (not premultiplied) RGBA pixels, for `env:images`.
pub fn svg_to_rgba(path: &str, svg: &[u8], size: SvgSize) -> Result<image::RgbaImage, SvgError> {
    let pixmap = render(path, svg, size)?;
    let (width, height) = (pixmap.width(), pixmap.height());
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend([c.red(), c.green(), c.blue(), c.alpha()]);
    }
    image::RgbaImage::from_raw(width, height, rgba).ok_or_else(|| SvgError::Encode {
        path: path.to_string(),
        detail: format!("{width}×{height} pixels do not fill their buffer"),
    })
}

fn render(path: &str, svg: &[u8], size: SvgSize) -> Result<tiny_skia::Pixmap, SvgError> {
    let tree = parse(path, svg)?;
    let (sw, sh) = (tree.size().width() as f64, tree.size().height() as f64);
    let scale = if size.scale.is_finite() && size.scale > 0.0 { size.scale as f64 } else { 1.0 };
    let (w, h) = match (size.width, size.height) {
        (Some(w), Some(h)) => (w as f64, h as f64),
        (Some(w), None) => (w as f64, w as f64 * sh / sw),
        (None, Some(h)) => (h as f64 * sw / sh, h as f64),
        (None, None) => (sw, sh),
    };
    let (pw, ph) = checked(path, w * scale, h * scale)?;
    let fit = (pw as f64 / sw).min(ph as f64 / sh);
    let (dx, dy) = ((pw as f64 - sw * fit) / 2.0, (ph as f64 - sh * fit) / 2.0);
    let mut pixmap = tiny_skia::Pixmap::new(pw, ph).ok_or_else(|| SvgError::TooLarge {
        path: path.to_string(),
        width: pw as u64,
        height: ph as u64,
    })?;
    let transform = tiny_skia::Transform::from_row(fit as f32, 0.0, 0.0, fit as f32, dx as f32, dy as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Whether `head` (a file's first bytes) looks like an SVG: `<svg` within the first 1 KiB after
/// an optional XML declaration, comments and doctype.
pub fn looks_like_svg(head: &[u8]) -> bool {
    let head = &head[..head.len().min(1024)];
    let text = String::from_utf8_lossy(head);
    let t = text.trim_start_matches('\u{feff}').trim_start();
    (t.starts_with("<?xml") || t.starts_with("<svg") || t.starts_with("<!--") || t.starts_with("<!DOCTYPE"))
        && t.contains("<svg")
}

/// The `describe` and `view_image` handler for SVG drawings: claims `.svg` (and `<svg` at the
/// start of a file), describes its size from the viewBox, and renders it as one PNG page (at most
/// [`VIEW_SIDE`] px on its longer side) for previews and `view_image`.
#[cfg(feature = "adapters")]
#[derive(Debug, Default, Clone, Copy)]
pub struct SvgHandler;

/// The longer side of the picture [`SvgHandler`] renders for `view_image`.
pub const VIEW_SIDE: u32 = 1600;

#[cfg(feature = "adapters")]
impl folio_env::FileHandler for SvgHandler {
    fn module(&self) -> &str {
        "render"
    }
    fn description(&self) -> &str {
        "SVG drawings: size from the viewBox; rendered with the bundled fonts (scripts and external references ignored)"
    }
    fn extensions(&self) -> Vec<String> {
        vec![".svg".into()]
    }
    fn magic(&self) -> Vec<folio_env::Magic> {
        vec![folio_env::Magic { offset: 0, bytes: b"<svg".to_vec() }]
    }
    fn describe(&self, path: &folio_vfs::VPath, bytes: &[u8]) -> Result<serde_json::Value, String> {
        let (w, h) = svg_size(path.as_str(), bytes).map_err(|e| e.to_string())?;
        let scripts = String::from_utf8_lossy(bytes).contains("<script");
        Ok(
            serde_json::json!({"kind": "image", "format": "svg", "bytes": bytes.len(), "width": w.round(), "height": h.round(), "scripts_ignored": scripts}),
        )
    }
    fn render_page(
        &self,
        path: &folio_vfs::VPath,
        bytes: &[u8],
        page: u32,
    ) -> Option<Result<folio_env::RenderedPage, String>> {
        if page != 1 {
            return Some(Err(format!(
                "{path} is an SVG drawing with one page; page {page} does not exist — hint: ask for page 1"
            )));
        }
        let run = || -> Result<folio_env::RenderedPage, SvgError> {
            let (w, h) = svg_size(path.as_str(), bytes)?;
            let size = if w >= h {
                SvgSize { width: Some(VIEW_SIDE.min(w.ceil().max(1.0) as u32 * 2)), ..SvgSize::default() }
            } else {
                SvgSize { height: Some(VIEW_SIDE.min(h.ceil().max(1.0) as u32 * 2)), ..SvgSize::default() }
            };
            let r = svg_to_png(path.as_str(), bytes, size)?;
            Ok(folio_env::RenderedPage { png: r.png, page_count: 1 })
        };
        Some(run().map_err(|e| e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_rectangle_and_text_rasterise_with_the_bundled_font() {
        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#fff"/><text x="10" y="60" font-size="30" font-family="Arial">Hello</text><image href="/etc/passwd" width="10" height="10"/></svg>"##;
        let r = svg_to_png("t.svg", svg, SvgSize { scale: 2.0, ..SvgSize::default() }).unwrap();
        assert_eq!((r.width, r.height), (400, 200));
        let img = tiny_skia::Pixmap::decode_png(&r.png).unwrap();
        let dark = img.pixels().iter().filter(|p| p.red() < 100 && p.alpha() > 200).count();
        assert!(dark > 200, "text was drawn ({dark} dark pixels)");
    }

    #[test]
    fn bad_input_and_sizes_are_refused_by_name() {
        let e = svg_to_png("x.svg", b"not xml", SvgSize::default()).unwrap_err();
        assert!(e.to_string().contains("not a readable SVG"), "{e}");
        let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
        let e = svg_to_png("x.svg", svg, SvgSize { width: Some(100_000), ..SvgSize::default() }).unwrap_err();
        assert!(e.to_string().contains("outside the limits"), "{e}");
        assert!(looks_like_svg(b"<?xml version=\"1.0\"?>\n<svg xmlns="));
        assert!(!looks_like_svg(b"\x89PNG"));
    }
}
