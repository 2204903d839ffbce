//! Image formats: describing a file from its header alone, decoding within limits, and encoding.
//! The pixel operations live in `ops.rs`.
//!
//! Only the PNG, JPEG, GIF and WebP codecs are compiled (`image` without default features): the
//! default set pulls in an AVIF encoder that costs ten minutes of build on two cores. WebP is
//! written lossless, because that is the only WebP encoder `image` has.
//!
//! TIFF and SVG are read, never written: a TIFF page is decoded by `tiff.rs` (every page
//! addressable, BigTIFF included), an SVG is rasterised by `svg.rs` (no scripts, no external
//! references, bundled fonts) at its own size times a scale. Both then go through the same
//! operations and encoders as the other formats, so `env:images` takes them as inputs and writes
//! PNG, JPEG, WebP or GIF.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, ImageEncoder, ImageReader, Limits};
use serde::Serialize;

use crate::error::{RenderError, Result};

/// An encoded image format this crate reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG (lossless, alpha).
    Png,
    /// JPEG (lossy, no alpha: flattened on white).
    Jpeg,
    /// WebP, written lossless.
    Webp,
    /// GIF, a single 256-colour frame when written.
    Gif,
    /// TIFF, read only (any page; classic or BigTIFF).
    Tiff,
    /// SVG, read only (rasterised).
    Svg,
}

/// The names [`ImageFormat::from_name`] accepts, for error messages: the formats written.
pub const FORMAT_NAMES: &str = "png, jpeg (jpg), webp, gif";

/// The formats read, for error messages.
pub const INPUT_NAMES: &str = "PNG, JPEG, GIF, WebP, TIFF (any page, BigTIFF too) or SVG";

impl ImageFormat {
    /// `png`, `jpg`/`jpeg`, `webp`, `gif` (any case, with or without a dot): the formats written,
    /// so TIFF and SVG are never named here.
    pub fn from_name(name: &str) -> Option<ImageFormat> {
        match name.trim_start_matches('.').to_ascii_lowercase().as_str() {
            "png" => Some(ImageFormat::Png),
            "jpg" | "jpeg" => Some(ImageFormat::Jpeg),
            "webp" => Some(ImageFormat::Webp),
            "gif" => Some(ImageFormat::Gif),
            _ => None,
        }
    }

    /// The format named by a path's extension.
    pub fn from_path(path: &str) -> Option<ImageFormat> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let (_, ext) = name.rsplit_once('.')?;
        ImageFormat::from_name(ext)
    }

    /// Sniffs the format from magic bytes (the signatures are the workspace's kind table's); an
    /// SVG from `<svg` near the start.
    pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
        match folio_kinds::FileKind::from_magic(bytes) {
            Some(folio_kinds::FileKind::Png) => Some(ImageFormat::Png),
            Some(folio_kinds::FileKind::Jpeg) => Some(ImageFormat::Jpeg),
            Some(folio_kinds::FileKind::Gif) => Some(ImageFormat::Gif),
            Some(folio_kinds::FileKind::Webp) => Some(ImageFormat::Webp),
            Some(folio_kinds::FileKind::Tiff) => Some(ImageFormat::Tiff),
            _ if crate::svg::looks_like_svg(bytes) => Some(ImageFormat::Svg),
            _ => None,
        }
    }

    /// True for the formats [`encode`] writes.
    pub fn writable(self) -> bool {
        !matches!(self, ImageFormat::Tiff | ImageFormat::Svg)
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Jpeg => "jpg",
            ImageFormat::Webp => "webp",
            ImageFormat::Gif => "gif",
            ImageFormat::Tiff => "tif",
            ImageFormat::Svg => "svg",
        }
    }

    /// The media type.
    pub fn media_type(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Webp => "image/webp",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Tiff => "image/tiff",
            ImageFormat::Svg => "image/svg+xml",
        }
    }

    /// The `image` codec of a raster format; `None` for TIFF and SVG, decoded by their modules.
    fn codec(self) -> Option<image::ImageFormat> {
        match self {
            ImageFormat::Png => Some(image::ImageFormat::Png),
            ImageFormat::Jpeg => Some(image::ImageFormat::Jpeg),
            ImageFormat::Webp => Some(image::ImageFormat::WebP),
            ImageFormat::Gif => Some(image::ImageFormat::Gif),
            ImageFormat::Tiff | ImageFormat::Svg => None,
        }
    }
}

pub use crate::limits::ImageLimits;

/// What [`describe`] reports: metadata only, no pixels decoded.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ImageInfo {
    /// `png`, `jpeg`, `gif`, `webp`, `tiff` or `svg`.
    pub format: ImageFormat,
    /// Width in pixels, as stored (before EXIF orientation); a TIFF's first page; an SVG's own
    /// size in CSS pixels, rounded.
    pub width: u32,
    /// Height in pixels, as stored.
    pub height: u32,
    /// The EXIF orientation (1–8), when the file carries one. Reported, not applied.
    pub orientation: Option<u8>,
    /// True for an animated GIF, APNG or WebP.
    pub animated: bool,
    /// The number of frames (1 for a still image).
    pub frames: u32,
    /// True when the pixels carry an alpha channel.
    pub has_alpha: bool,
    /// The file size in bytes.
    pub bytes: u64,
    /// TIFF only: every page (IFD) with its size, compression, bit depth and colour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pages: Option<Vec<crate::tiff::TiffPage>>,
    /// TIFF only: true for a BigTIFF (64-bit offsets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bigtiff: Option<bool>,
    /// SVG only: true when it carries `<script>` or event handlers, which are never run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scripts_ignored: Option<bool>,
}

/// Which page of an input, and how large an SVG is drawn: what [`decode_with`] needs beyond
/// the bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Source {
    /// The page (1-based) of a TIFF; other formats have only page 1.
    pub page: u32,
    /// An SVG is drawn at its own size times this (1.0 by default; ignored for raster images).
    pub svg_scale: f32,
}

impl Default for Source {
    fn default() -> Source {
        Source { page: 1, svg_scale: 1.0 }
    }
}

fn codec_error(name: &str, err: impl std::fmt::Display) -> RenderError {
    RenderError::Image {
        path: name.to_string(),
        detail: format!("cannot decode: {err}"),
        fix: "check that the file is a complete PNG, JPEG, GIF, WebP or TIFF image; re-export it if it was cut short"
            .into(),
    }
}

fn not_an_image(name: &str) -> RenderError {
    RenderError::Image {
        path: name.to_string(),
        detail: "not a PNG, JPEG, GIF, WebP, TIFF or SVG image (the first bytes match none of them)".into(),
        fix: format!("images must be {INPUT_NAMES}"),
    }
}

fn svg_error(e: crate::svg::SvgError) -> RenderError {
    RenderError::BadOption(e.to_string())
}

fn reader<'a>(name: &str, bytes: &'a [u8], limits: &ImageLimits) -> Result<ImageReader<Cursor<&'a [u8]>>> {
    let Some(codec) = ImageFormat::sniff(bytes).and_then(ImageFormat::codec) else {
        return Err(not_an_image(name));
    };
    let mut r = ImageReader::with_format(Cursor::new(bytes), codec);
    let mut l = Limits::default();
    l.max_alloc = Some(limits.max_alloc);
    r.limits(l);
    Ok(r)
}

/// Describes an image from its header (and, for animation, its chunk structure), without
/// decoding pixels.
pub fn describe(name: &str, bytes: &[u8]) -> Result<ImageInfo> {
    match ImageFormat::sniff(bytes) {
        Some(ImageFormat::Tiff) => return describe_tiff(name, bytes),
        Some(ImageFormat::Svg) => return describe_svg(name, bytes),
        None if folio_kinds::FileKind::from_name(name) == Some(folio_kinds::FileKind::Svg) => {
            return describe_svg(name, bytes);
        }
        _ => {}
    }
    let r = reader(name, bytes, &ImageLimits { max_pixels: u64::MAX, max_alloc: 64 << 20 })?;
    let format = ImageFormat::sniff(bytes).unwrap_or(ImageFormat::Png);
    let mut decoder = r.into_decoder().map_err(|e| codec_error(name, e))?;
    let (width, height) = decoder.dimensions();
    let has_alpha = decoder.color_type().has_alpha();
    let orientation = match decoder.exif_metadata() {
        Ok(Some(chunk)) => image::metadata::Orientation::from_exif_chunk(&chunk).map(|o| o.to_exif()),
        _ => None,
    };
    let frames = match format {
        ImageFormat::Gif => gif_frames(bytes),
        ImageFormat::Png => png_frames(bytes),
        ImageFormat::Webp => webp_frames(bytes),
        ImageFormat::Jpeg | ImageFormat::Tiff | ImageFormat::Svg => 1,
    };
    Ok(ImageInfo {
        format,
        width,
        height,
        orientation,
        animated: frames > 1,
        frames,
        has_alpha,
        bytes: bytes.len() as u64,
        pages: None,
        bigtiff: None,
        scripts_ignored: None,
    })
}

fn describe_tiff(name: &str, bytes: &[u8]) -> Result<ImageInfo> {
    let info = crate::tiff::describe(name, bytes)?;
    let first = info.pages.first().cloned();
    let (width, height) = first.as_ref().map_or((0, 0), |p| (p.width, p.height));
    Ok(ImageInfo {
        format: ImageFormat::Tiff,
        width,
        height,
        orientation: None,
        animated: false,
        frames: info.pages.len() as u32,
        has_alpha: first.is_some_and(|p| p.color.contains("alpha") || p.color == "rgba"),
        bytes: bytes.len() as u64,
        pages: Some(info.pages),
        bigtiff: Some(info.bigtiff),
        scripts_ignored: None,
    })
}

fn describe_svg(name: &str, bytes: &[u8]) -> Result<ImageInfo> {
    let (w, h) = crate::svg::svg_size(name, bytes).map_err(svg_error)?;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 20)]).to_ascii_lowercase();
    let scripts = text.contains("<script") || text.contains(" onload=") || text.contains(" onclick=");
    Ok(ImageInfo {
        format: ImageFormat::Svg,
        width: w.round().max(0.0) as u32,
        height: h.round().max(0.0) as u32,
        orientation: None,
        animated: false,
        frames: 1,
        has_alpha: true,
        bytes: bytes.len() as u64,
        pages: None,
        bigtiff: None,
        scripts_ignored: Some(scripts),
    })
}

/// Decodes page `source.page` of any input format (TIFF pages, an SVG drawn at its size times
/// `source.svg_scale`, the first frame of the others), refusing inputs whose declared size
/// exceeds `limits` before any pixel is decoded.
pub fn decode_with(name: &str, bytes: &[u8], limits: &ImageLimits, source: Source) -> Result<DynamicImage> {
    let format = match ImageFormat::sniff(bytes) {
        None if folio_kinds::FileKind::from_name(name) == Some(folio_kinds::FileKind::Svg) => Some(ImageFormat::Svg),
        other => other,
    };
    match format {
        Some(ImageFormat::Tiff) => return crate::tiff::decode_page(name, bytes, source.page, limits),
        Some(_) if source.page != 1 => {
            return Err(RenderError::NoSuchPage { path: name.to_string(), page: source.page, count: 1 });
        }
        Some(ImageFormat::Svg) => return decode_svg(name, bytes, limits, source.svg_scale),
        _ => {}
    }
    decode(name, bytes, limits)
}

/// An SVG drawn at its own size times `scale`, as RGBA.
fn decode_svg(name: &str, bytes: &[u8], limits: &ImageLimits, scale: f32) -> Result<DynamicImage> {
    let (w, h) = crate::svg::svg_size(name, bytes).map_err(svg_error)?;
    let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let (pw, ph) = ((w * scale).round().max(1.0) as u64, (h * scale).round().max(1.0) as u64);
    if pw * ph > limits.max_pixels {
        return Err(RenderError::TooLarge {
            path: name.to_string(),
            width: pw.min(u64::from(u32::MAX)) as u32,
            height: ph.min(u64::from(u32::MAX)) as u32,
            limit: limits.max_pixels,
        });
    }
    let size = crate::svg::SvgSize { width: None, height: None, scale };
    crate::svg::svg_to_rgba(name, bytes, size).map(DynamicImage::ImageRgba8).map_err(svg_error)
}

/// Decodes the first frame, refusing inputs whose declared size exceeds `limits` before any pixel
/// is decoded; a TIFF's first page and an SVG at its own size too.
pub fn decode(name: &str, bytes: &[u8], limits: &ImageLimits) -> Result<DynamicImage> {
    match ImageFormat::sniff(bytes) {
        Some(ImageFormat::Tiff) => return crate::tiff::decode_page(name, bytes, 1, limits),
        Some(ImageFormat::Svg) => return decode_svg(name, bytes, limits, 1.0),
        _ => {}
    }
    let decoder = reader(name, bytes, limits)?.into_decoder().map_err(|e| codec_error(name, e))?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > limits.max_pixels {
        return Err(RenderError::TooLarge { path: name.to_string(), width, height, limit: limits.max_pixels });
    }
    DynamicImage::from_decoder(decoder).map_err(|e| codec_error(name, e))
}

/// Encodes `img` as `format`. JPEG and GIF lose alpha (JPEG is flattened on white first);
/// `quality` (1–100) applies to JPEG only.
pub fn encode(name: &str, img: &DynamicImage, format: ImageFormat, quality: Option<u8>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let fail = |e: image::ImageError| RenderError::Image {
        path: name.to_string(),
        detail: format!("cannot encode as {}: {e}", format.extension()),
        fix: format!("pick another output format ({FORMAT_NAMES})"),
    };
    match format {
        ImageFormat::Tiff | ImageFormat::Svg => {
            return Err(RenderError::Image {
                path: name.to_string(),
                detail: format!("{} is read here, not written", format.extension()),
                fix: format!("pick an output format Folio writes ({FORMAT_NAMES})"),
            });
        }
        ImageFormat::Png => {
            let enc = image::codecs::png::PngEncoder::new_with_quality(
                &mut out,
                image::codecs::png::CompressionType::Fast,
                image::codecs::png::FilterType::Sub,
            );
            let (buf, color) = match img {
                DynamicImage::ImageRgb8(b) => (b.as_raw().as_slice(), image::ExtendedColorType::Rgb8),
                DynamicImage::ImageRgba8(b) => (b.as_raw().as_slice(), image::ExtendedColorType::Rgba8),
                DynamicImage::ImageLuma8(b) => (b.as_raw().as_slice(), image::ExtendedColorType::L8),
                other => {
                    let rgba = other.to_rgba8();
                    enc.write_image(&rgba, rgba.width(), rgba.height(), image::ExtendedColorType::Rgba8)
                        .map_err(fail)?;
                    return Ok(out);
                }
            };
            enc.write_image(buf, img.width(), img.height(), color).map_err(fail)?;
        }
        ImageFormat::Jpeg => {
            let rgb = flatten_on_white(img);
            let enc = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, quality.unwrap_or(85).clamp(1, 100));
            enc.write_image(&rgb, rgb.width(), rgb.height(), image::ExtendedColorType::Rgb8).map_err(fail)?;
        }
        ImageFormat::Webp => {
            let rgba = img.to_rgba8();
            let enc = image::codecs::webp::WebPEncoder::new_lossless(&mut out);
            enc.write_image(&rgba, rgba.width(), rgba.height(), image::ExtendedColorType::Rgba8).map_err(fail)?;
        }
        ImageFormat::Gif => {
            let rgba = img.to_rgba8();
            let mut enc = image::codecs::gif::GifEncoder::new(&mut out);
            enc.encode(&rgba, rgba.width(), rgba.height(), image::ExtendedColorType::Rgba8).map_err(fail)?;
        }
    }
    Ok(out)
}

/// Encodes packed 8-bit RGB pixels; PNG is written straight from the slice.
pub fn encode_rgb(
    name: &str,
    width: u32,
    height: u32,
    rgb: &[u8],
    format: ImageFormat,
    quality: Option<u8>,
) -> Result<Vec<u8>> {
    if format == ImageFormat::Png {
        let mut out = Vec::new();
        let enc = image::codecs::png::PngEncoder::new_with_quality(
            &mut out,
            image::codecs::png::CompressionType::Fast,
            image::codecs::png::FilterType::Sub,
        );
        enc.write_image(rgb, width, height, image::ExtendedColorType::Rgb8).map_err(|e| RenderError::Image {
            path: name.to_string(),
            detail: format!("cannot encode as png: {e}"),
            fix: format!("pick another output format ({FORMAT_NAMES})"),
        })?;
        return Ok(out);
    }
    let img = image::RgbImage::from_raw(width, height, rgb.to_vec()).ok_or_else(|| RenderError::Image {
        path: name.to_string(),
        detail: format!("{width}×{height} pixels do not match a buffer of {} bytes", rgb.len()),
        fix: "report this as a bug with the file attached".into(),
    })?;
    encode(name, &DynamicImage::ImageRgb8(img), format, quality)
}

/// The image composited over white, without alpha.
pub fn flatten_on_white(img: &DynamicImage) -> image::RgbImage {
    if !img.color().has_alpha() {
        return img.to_rgb8();
    }
    let rgba = img.to_rgba8();
    let mut out = image::RgbImage::new(rgba.width(), rgba.height());
    for (dst, src) in out.pixels_mut().zip(rgba.pixels()) {
        let a = u16::from(src[3]);
        for c in 0..3 {
            dst[c] = ((u16::from(src[c]) * a + 255 * (255 - a)) / 255) as u8;
        }
    }
    out
}

/// Frames in a GIF, counted by walking its blocks (no LZW decoding).
fn gif_frames(b: &[u8]) -> u32 {
    let mut i = 13;
    if b.len() < 13 {
        return 1;
    }
    if b[10] & 0x80 != 0 {
        i += 3 << ((b[10] & 7) + 1);
    }
    let skip_sub_blocks = |mut i: usize| -> Option<usize> {
        loop {
            let len = *b.get(i)? as usize;
            i += 1;
            if len == 0 {
                return Some(i);
            }
            i += len;
        }
    };
    let mut frames = 0;
    while let Some(&block) = b.get(i) {
        match block {
            0x2C => {
                frames += 1;
                let Some(&packed) = b.get(i + 9) else { break };
                i += 10;
                if packed & 0x80 != 0 {
                    i += 3 << ((packed & 7) + 1);
                }
                match skip_sub_blocks(i + 1) {
                    Some(n) => i = n,
                    None => break,
                }
            }
            0x21 => match skip_sub_blocks(i + 2) {
                Some(n) => i = n,
                None => break,
            },
            _ => break,
        }
    }
    frames.max(1)
}

/// Frames in a PNG: `acTL`'s frame count for an APNG, else 1.
fn png_frames(b: &[u8]) -> u32 {
    let mut i = 8;
    while i + 8 <= b.len() {
        let len = u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize;
        let kind = &b[i + 4..i + 8];
        if kind == b"acTL" && i + 12 <= b.len() {
            return u32::from_be_bytes([b[i + 8], b[i + 9], b[i + 10], b[i + 11]]).max(1);
        }
        if kind == b"IDAT" {
            break;
        }
        i += 12 + len;
    }
    1
}

/// Frames in a WebP: the number of `ANMF` chunks when `VP8X` says animated, else 1.
fn webp_frames(b: &[u8]) -> u32 {
    let mut i = 12;
    let mut animated = false;
    let mut frames = 0;
    while i + 8 <= b.len() {
        let kind = &b[i..i + 4];
        let len = u32::from_le_bytes([b[i + 4], b[i + 5], b[i + 6], b[i + 7]]) as usize;
        if kind == b"VP8X" && i + 8 < b.len() {
            animated = b[i + 8] & 0x02 != 0;
        }
        if kind == b"ANMF" {
            frames += 1;
        }
        i += 8 + len + (len & 1);
    }
    if animated { frames.max(1) } else { 1 }
}
