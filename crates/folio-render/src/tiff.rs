//! TIFF: every page (image file directory, IFD) of a classic or BigTIFF file, described from its
//! tags and decoded on its own, within the same pixel limits as the other formats.
//!
//! Scanners, fax software and archives write TIFF; a folder a person drops in often holds one
//! multi-page scan. So a TIFF here is a document of pages: [`describe`] lists each page's size,
//! compression, bit depth and colour without decoding a pixel, and [`decode_page`] decodes the
//! one page asked for.
//!
//! # What is decoded
//!
//! - **Containers:** classic TIFF and BigTIFF (64-bit offsets), either byte order, strips or
//!   tiles, chunky or planar samples.
//! - **Compressions:** none, LZW, Deflate, PackBits, JPEG ("new-style", compression 7) and CCITT
//!   Group 4 (fax). Old-style JPEG (6), CCITT Group 3, ZSTD, WebP and vendor codes are refused by
//!   name, before decoding, with the command that converts the file.
//! - **Colour:** bilevel and gray at 1, 2, 4, 8 and 16 bits (WhiteIsZero inverted), palette at
//!   1–8 bits (expanded through the colour map), gray+alpha, RGB and RGBA at 8 and 16 bits, CMYK
//!   (and CMYK+alpha) converted to RGB naively (no ICC profile), YCbCr at 8 bits converted to RGB.
//!   Floating-point and signed samples, CIE Lab and transparency masks are refused by name.
//!
//! # Bounds
//!
//! A page's declared width × height is checked against [`ImageLimits::max_pixels`] before any
//! strip is read, and the decoder's own buffer limit is the caller's `max_alloc`, so a small file
//! declaring a gigapixel page is refused from its tags. A truncated or inconsistent file fails
//! with a named error, never with partly decoded pixels. At most [`MAX_PAGES`] directories are
//! walked, and a directory chain that loops is refused by the decoder.
//!
//! # A palette detail
//!
//! The `tiff` crate reads palette pages' indices but refuses to hand them out as a palette. The
//! page is therefore decoded from a copy of the file whose PhotometricInterpretation entry says
//! "gray" (the indices come out as gray samples), and the colour map is applied here.

use std::io::Cursor;

use ::tiff::ColorType;
use ::tiff::decoder::{Decoder, DecodingResult, Limits};
use ::tiff::tags::Tag;
use image::DynamicImage;
use serde::Serialize;

use crate::error::{RenderError, Result};
use crate::limits::ImageLimits;

/// The most pages [`describe`] lists; a file with more says so (`more_pages`).
pub const MAX_PAGES: usize = 10_000;

/// The fix every refused variant shares.
pub const CONVERT_HINT: &str = "convert it to PNG, or to an 8-bit RGB TIFF with LZW or Deflate compression, first (e.g. `magick in.tif out.png`, or `tiffcp -c lzw in.tif out.tif`)";

/// One page (IFD) of a TIFF, from its tags.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TiffPage {
    /// 1-based.
    pub page: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `none`, `lzw`, `deflate`, `packbits`, `jpeg`, `old-jpeg`, `ccitt-g3`, `ccitt-g4`, `zstd`…
    pub compression: String,
    /// Bits per sample.
    pub bit_depth: u16,
    /// Samples per pixel.
    pub samples: u16,
    /// `bilevel`, `gray`, `gray+alpha`, `palette`, `rgb`, `rgba`, `cmyk`, `ycbcr`, `lab`…
    pub color: String,
    /// Why this page cannot be decoded here, when it cannot (with the fix).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsupported: Option<String>,
    /// What is unsupported, in a few words (`uses ccitt-g3 compression`), for the refusal.
    #[serde(skip)]
    why: Option<String>,
}

/// A TIFF's container and pages.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TiffInfo {
    /// True for BigTIFF (64-bit offsets).
    pub bigtiff: bool,
    /// The pages, in file order (at most [`MAX_PAGES`]).
    pub pages: Vec<TiffPage>,
    /// True when the file has more than [`MAX_PAGES`] pages and the list stops there.
    pub more_pages: bool,
}

/// True when `bytes` start with a TIFF or BigTIFF header.
pub fn is_tiff(bytes: &[u8]) -> bool {
    matches!(bytes.get(..4), Some(b"II*\0" | b"MM\0*" | b"II+\0" | b"MM\0+"))
}

fn damaged(name: &str, what: &str, e: impl std::fmt::Display) -> RenderError {
    RenderError::Image {
        path: name.to_string(),
        detail: format!("cannot read the TIFF ({what}): {e}"),
        fix: "the file may be cut short or damaged; re-export or re-scan it".into(),
    }
}

fn refused(name: &str, page: u32, why: &str) -> RenderError {
    RenderError::Image {
        path: name.to_string(),
        detail: format!("TIFF page {page} {why}, which Folio does not decode"),
        fix: CONVERT_HINT.into(),
    }
}

type Dec<'a> = Decoder<Cursor<&'a [u8]>>;

fn open<'a>(name: &str, bytes: &'a [u8], max_alloc: u64) -> Result<Dec<'a>> {
    if !is_tiff(bytes) {
        return Err(RenderError::Image {
            path: name.to_string(),
            detail: "not a TIFF (no II*/MM* or BigTIFF header)".into(),
            fix: "check that the file is a complete TIFF image".into(),
        });
    }
    let mut limits = Limits::default();
    limits.decoding_buffer_size = usize::try_from(max_alloc).unwrap_or(usize::MAX);
    limits.intermediate_buffer_size = limits.intermediate_buffer_size.min(limits.decoding_buffer_size);
    Decoder::new(Cursor::new(bytes)).map(|d| d.with_limits(limits)).map_err(|e| damaged(name, "page 1", e))
}

fn compression_name(code: u16) -> String {
    match code {
        1 => "none".into(),
        2 => "ccitt-rle".into(),
        3 => "ccitt-g3".into(),
        4 => "ccitt-g4".into(),
        5 => "lzw".into(),
        6 => "old-jpeg".into(),
        7 => "jpeg".into(),
        8 | 32946 => "deflate".into(),
        32773 => "packbits".into(),
        34712 => "jpeg2000".into(),
        50000 => "zstd".into(),
        50001 => "webp".into(),
        other => format!("code {other}"),
    }
}

/// The compressions this build decodes.
const DECODED: &[u16] = &[1, 4, 5, 7, 8, 32946, 32773];

fn page_info(name: &str, dec: &mut Dec<'_>, page: u32) -> Result<TiffPage> {
    let bad = |e: ::tiff::TiffError| damaged(name, &format!("page {page}'s tags"), e);
    let (width, height) = dec.dimensions().map_err(bad)?;
    let compression = dec.find_tag_unsigned::<u16>(Tag::Compression).map_err(bad)?.unwrap_or(1);
    let photometric = dec.find_tag_unsigned::<u16>(Tag::PhotometricInterpretation).map_err(bad)?;
    let bits = dec.find_tag_unsigned_vec::<u16>(Tag::BitsPerSample).map_err(bad)?.unwrap_or_else(|| vec![1]);
    let samples = dec.find_tag_unsigned::<u16>(Tag::SamplesPerPixel).map_err(bad)?.unwrap_or(1);
    let format = dec.find_tag_unsigned_vec::<u16>(Tag::SampleFormat).map_err(bad)?.unwrap_or_default();
    let bit_depth = bits.first().copied().unwrap_or(1);
    let color = match (photometric, samples) {
        (Some(0 | 1), 1) if bit_depth == 1 => "bilevel".to_string(),
        (Some(0 | 1), 1) => "gray".into(),
        (Some(0 | 1), 2) => "gray+alpha".into(),
        (Some(2), 3) => "rgb".into(),
        (Some(2), 4) => "rgba".into(),
        (Some(3), _) => "palette".into(),
        (Some(4), _) => "transparency mask".into(),
        (Some(5), 4) => "cmyk".into(),
        (Some(5), 5) => "cmyk+alpha".into(),
        (Some(6), _) => "ycbcr".into(),
        (Some(8..=10), _) => "lab".into(),
        (Some(p), n) => format!("photometric {p} with {n} samples"),
        (None, n) => format!("no photometric tag, {n} samples"),
    };
    let depth_ok = match color.as_str() {
        "bilevel" => true,
        "gray" => matches!(bit_depth, 2 | 4 | 8 | 16),
        "palette" => matches!(bit_depth, 1 | 2 | 4 | 8),
        "ycbcr" => bit_depth == 8,
        "gray+alpha" | "rgb" | "rgba" | "cmyk" | "cmyk+alpha" => matches!(bit_depth, 8 | 16),
        _ => false,
    };
    let unsupported = if !DECODED.contains(&compression) {
        Some(format!("uses {} compression", compression_name(compression)))
    } else if format.contains(&3) {
        Some("has floating-point samples".into())
    } else if format.contains(&2) {
        Some("has signed integer samples".into())
    } else if bits.iter().any(|&b| b != bit_depth) {
        Some(format!("mixes bit depths ({bits:?})"))
    } else if !depth_ok {
        Some(format!("is {bit_depth}-bit {color}"))
    } else {
        None
    };
    Ok(TiffPage {
        page,
        width,
        height,
        compression: compression_name(compression),
        bit_depth,
        samples,
        color,
        unsupported: unsupported
            .as_ref()
            .map(|why| format!("{why}, which Folio does not decode — hint: {CONVERT_HINT}")),
        why: unsupported,
    })
}

/// Lists a TIFF's pages from their tags, decoding no pixels.
pub fn describe(name: &str, bytes: &[u8]) -> Result<TiffInfo> {
    let mut dec = open(name, bytes, 64 << 20)?;
    let mut pages = vec![page_info(name, &mut dec, 1)?];
    let mut more_pages = false;
    while dec.more_images() {
        if pages.len() >= MAX_PAGES {
            more_pages = true;
            break;
        }
        let page = pages.len() as u32 + 1;
        dec.next_image().map_err(|e| damaged(name, &format!("page {page}'s directory"), e))?;
        pages.push(page_info(name, &mut dec, page)?);
    }
    Ok(TiffInfo { bigtiff: bytes.get(2) == Some(&0x2B) || bytes.get(3) == Some(&0x2B), pages, more_pages })
}

/// Decodes page `page` (1-based), refusing a page whose declared size is over `limits` or whose
/// variant is not decoded here, before any pixel is read.
pub fn decode_page(name: &str, bytes: &[u8], page: u32, limits: &ImageLimits) -> Result<DynamicImage> {
    let mut dec = open(name, bytes, limits.max_alloc)?;
    if page == 0 {
        return Err(RenderError::BadOption(format!("{name}: pages count from 1, got page 0 — hint: ask for page 1")));
    }
    if page > 1 && dec.seek_to_image(page as usize - 1).is_err() {
        let count = describe(name, bytes).map(|i| i.pages.len() as u32).unwrap_or(1);
        return Err(RenderError::NoSuchPage { path: name.to_string(), page, count });
    }
    let info = page_info(name, &mut dec, page)?;
    if u64::from(info.width) * u64::from(info.height) > limits.max_pixels {
        return Err(RenderError::TooLarge {
            path: format!("{name} page {page}"),
            width: info.width,
            height: info.height,
            limit: limits.max_pixels,
        });
    }
    if let Some(why) = &info.why {
        return Err(refused(name, page, why));
    }
    if info.color == "palette" {
        return palette_page(name, bytes, page, limits, &mut dec, &info);
    }
    let (w, h) = (info.width, info.height);
    let (color, data) = read(name, page, &mut dec)?;
    let px = w as usize * h as usize;
    let short = || damaged(name, &format!("page {page}"), "fewer samples than its size needs");
    let img = match (color, data) {
        (ColorType::Gray(n), Samples::U8(d)) if n < 8 => {
            DynamicImage::ImageLuma8(image::GrayImage::from_raw(w, h, unpack(&d, w, h, n)).ok_or_else(short)?)
        }
        (ColorType::Gray(8), Samples::U8(d)) => {
            DynamicImage::ImageLuma8(image::GrayImage::from_raw(w, h, fit(d, px)).ok_or_else(short)?)
        }
        (ColorType::Gray(16), Samples::U16(d)) => {
            DynamicImage::ImageLuma16(image::ImageBuffer::from_raw(w, h, fit(d, px)).ok_or_else(short)?)
        }
        (ColorType::GrayA(8) | ColorType::Multiband { bit_depth: 8, num_samples: 2 }, Samples::U8(d)) => {
            DynamicImage::ImageLumaA8(image::ImageBuffer::from_raw(w, h, fit(d, px * 2)).ok_or_else(short)?)
        }
        (ColorType::GrayA(16) | ColorType::Multiband { bit_depth: 16, num_samples: 2 }, Samples::U16(d)) => {
            DynamicImage::ImageLumaA16(image::ImageBuffer::from_raw(w, h, fit(d, px * 2)).ok_or_else(short)?)
        }
        (ColorType::RGB(8), Samples::U8(d)) => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(w, h, fit(d, px * 3)).ok_or_else(short)?)
        }
        (ColorType::RGB(16), Samples::U16(d)) => {
            DynamicImage::ImageRgb16(image::ImageBuffer::from_raw(w, h, fit(d, px * 3)).ok_or_else(short)?)
        }
        (ColorType::RGBA(8), Samples::U8(d)) => {
            DynamicImage::ImageRgba8(image::RgbaImage::from_raw(w, h, fit(d, px * 4)).ok_or_else(short)?)
        }
        (ColorType::RGBA(16), Samples::U16(d)) => {
            DynamicImage::ImageRgba16(image::ImageBuffer::from_raw(w, h, fit(d, px * 4)).ok_or_else(short)?)
        }
        (ColorType::CMYK(8), Samples::U8(d)) => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(w, h, cmyk_to_rgb(&d, px, 4, false)).ok_or_else(short)?)
        }
        (ColorType::CMYK(16), Samples::U16(d)) => DynamicImage::ImageRgb8(
            image::RgbImage::from_raw(w, h, cmyk_to_rgb(&to_u8(&d), px, 4, false)).ok_or_else(short)?,
        ),
        (ColorType::CMYKA(8), Samples::U8(d)) => {
            DynamicImage::ImageRgba8(image::RgbaImage::from_raw(w, h, cmyk_to_rgb(&d, px, 5, true)).ok_or_else(short)?)
        }
        (ColorType::CMYKA(16), Samples::U16(d)) => DynamicImage::ImageRgba8(
            image::RgbaImage::from_raw(w, h, cmyk_to_rgb(&to_u8(&d), px, 5, true)).ok_or_else(short)?,
        ),
        (ColorType::YCbCr(8), Samples::U8(d)) => {
            DynamicImage::ImageRgb8(image::RgbImage::from_raw(w, h, ycbcr_to_rgb(&d, px)).ok_or_else(short)?)
        }
        (other, _) => return Err(refused(name, page, &format!("has the colour layout {other:?}"))),
    };
    Ok(img)
}

/// A page's samples, as the decoder returned them (interleaved).
enum Samples {
    U8(Vec<u8>),
    U16(Vec<u16>),
}

/// Reads the current page's samples, interleaving planar pages.
fn read(name: &str, page: u32, dec: &mut Dec<'_>) -> Result<(ColorType, Samples)> {
    let bad = |e: ::tiff::TiffError| match e {
        ::tiff::TiffError::LimitsExceeded => RenderError::Image {
            path: name.to_string(),
            detail: format!("TIFF page {page} needs a decode buffer over the allocation limit"),
            fix: "use a smaller image, or raise ImageLimits::max_alloc if it is trusted".into(),
        },
        ::tiff::TiffError::UnsupportedError(u) => {
            refused(name, page, &format!("needs a feature the decoder lacks ({u})"))
        }
        other => damaged(name, &format!("page {page}"), other),
    };
    let color = dec.colortype().map_err(bad)?;
    let mut buf = DecodingResult::U8(Vec::new());
    let layout = dec.read_image_to_buffer(&mut buf).map_err(bad)?;
    let planes = layout.planes.max(1);
    let stride = layout.plane_stride.map_or(0, |n| n.get());
    if planes > 1 && buf.as_buffer(0).as_bytes().len() < layout.complete_len {
        return Err(refused(name, page, "stores its planes separately and they do not fit the decode limit"));
    }
    let samples = match buf {
        DecodingResult::U8(d) if planes > 1 => Samples::U8(interleave(&d, planes, stride)),
        DecodingResult::U8(d) => Samples::U8(d),
        DecodingResult::U16(d) if planes > 1 => Samples::U16(interleave(&d, planes, stride / 2)),
        DecodingResult::U16(d) => Samples::U16(d),
        _ => return Err(refused(name, page, "has samples wider than 16 bits")),
    };
    Ok((color, samples))
}

/// Planar samples (`planes` runs of `stride` samples) as one interleaved run.
fn interleave<T: Copy>(d: &[T], planes: usize, stride: usize) -> Vec<T> {
    let mut out = Vec::with_capacity(stride * planes);
    for i in 0..stride {
        for p in 0..planes {
            if let Some(&v) = d.get(p * stride + i) {
                out.push(v);
            }
        }
    }
    out
}

/// The first `len` samples (a decoder may pad the last strip).
fn fit<T>(mut d: Vec<T>, len: usize) -> Vec<T> {
    d.truncate(len);
    d
}

/// `n`-bit samples packed in rows padded to a byte, as 8-bit values scaled to 0–255.
fn unpack(d: &[u8], w: u32, h: u32, n: u8) -> Vec<u8> {
    unpack_indices(d, w, h, n).into_iter().map(|v| (u32::from(v) * 255 / ((1u32 << n) - 1)) as u8).collect()
}

/// `n`-bit samples packed in rows padded to a byte, unscaled.
fn unpack_indices(d: &[u8], w: u32, h: u32, n: u8) -> Vec<u8> {
    if n >= 8 {
        return d.to_vec();
    }
    let row = (w as usize * n as usize).div_ceil(8);
    let mask = (1u16 << n) - 1;
    let mut out = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h as usize {
        for x in 0..w as usize {
            let bit = x * n as usize;
            let byte = d.get(y * row + bit / 8).copied().unwrap_or(0);
            let shift = 8 - n as usize - bit % 8;
            out.push(((u16::from(byte) >> shift) & mask) as u8);
        }
    }
    out
}

fn to_u8(d: &[u16]) -> Vec<u8> {
    d.iter().map(|v| (v >> 8) as u8).collect()
}

/// Naive CMYK (no ICC profile) to RGB, keeping a fifth alpha sample when `alpha`.
fn cmyk_to_rgb(d: &[u8], px: usize, step: usize, alpha: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(px * if alpha { 4 } else { 3 });
    for s in d.chunks_exact(step).take(px) {
        let k = 255 - u16::from(s[3]);
        for &c in &s[..3] {
            out.push(((255 - u16::from(c)) * k / 255) as u8);
        }
        if alpha {
            out.push(s[4]);
        }
    }
    out
}

/// Full-range YCbCr (ITU-R BT.601, as JPEG stores it) to RGB.
fn ycbcr_to_rgb(d: &[u8], px: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(px * 3);
    for s in d.chunks_exact(3).take(px) {
        let (y, cb, cr) = (f32::from(s[0]), f32::from(s[1]) - 128.0, f32::from(s[2]) - 128.0);
        for v in [y + 1.402 * cr, y - 0.344_136 * cb - 0.714_136 * cr, y + 1.772 * cb] {
            out.push(v.round().clamp(0.0, 255.0) as u8);
        }
    }
    out
}

/// A palette page: its indices decoded as gray from a copy whose PhotometricInterpretation says
/// BlackIsZero, then looked up in the colour map.
fn palette_page(
    name: &str,
    bytes: &[u8],
    page: u32,
    limits: &ImageLimits,
    dec: &mut Dec<'_>,
    info: &TiffPage,
) -> Result<DynamicImage> {
    let bad = |e: ::tiff::TiffError| damaged(name, &format!("page {page}'s colour map"), e);
    let map = dec.get_tag_u16_vec(Tag::ColorMap).map_err(bad)?;
    let n = u8::try_from(info.bit_depth).unwrap_or(8);
    let entries = 1usize << n;
    if map.len() < entries * 3 {
        return Err(damaged(
            name,
            &format!("page {page}"),
            format!("a colour map of {} values for {n}-bit indices", map.len()),
        ));
    }
    let ifd = dec.ifd_pointer().map(|p| p.0).ok_or_else(|| damaged(name, &format!("page {page}"), "no directory"))?;
    let gray = as_gray(bytes, ifd)
        .ok_or_else(|| damaged(name, &format!("page {page}"), "no PhotometricInterpretation entry"))?;
    let mut dec = open(name, &gray, limits.max_alloc)?;
    dec.seek_to_image(page as usize - 1).map_err(|e| damaged(name, &format!("page {page}"), e))?;
    let (_, data) = read(name, page, &mut dec)?;
    let Samples::U8(d) = data else { return Err(refused(name, page, "is a 16-bit palette")) };
    let (w, h) = (info.width, info.height);
    let mut rgb = Vec::with_capacity(w as usize * h as usize * 3);
    for i in unpack_indices(&d, w, h, n).into_iter().take(w as usize * h as usize) {
        let i = usize::from(i);
        rgb.extend([map[i] >> 8, map[entries + i] >> 8, map[2 * entries + i] >> 8].map(|v| v as u8));
    }
    image::RgbImage::from_raw(w, h, rgb)
        .map(DynamicImage::ImageRgb8)
        .ok_or_else(|| damaged(name, &format!("page {page}"), "fewer indices than its size needs"))
}

/// A copy of `bytes` whose directory at `ifd` says PhotometricInterpretation = BlackIsZero.
fn as_gray(bytes: &[u8], ifd: u64) -> Option<Vec<u8>> {
    let le = bytes.starts_with(b"II");
    let big = bytes.get(2..4)? == if le { [0x2B, 0] } else { [0, 0x2B] };
    let num = |at: usize, len: usize| -> Option<u64> {
        let b = bytes.get(at..at + len)?;
        Some(if le {
            b.iter().rev().fold(0, |v, &x| v << 8 | u64::from(x))
        } else {
            b.iter().fold(0, |v, &x| v << 8 | u64::from(x))
        })
    };
    let at = usize::try_from(ifd).ok()?;
    let (count, first, size, value) = if big { (num(at, 8)?, at + 8, 20, 12) } else { (num(at, 2)?, at + 2, 12, 8) };
    for i in 0..count.min(4096) as usize {
        let entry = first + i * size;
        if num(entry, 2)? != 262 {
            continue;
        }
        let width = match num(entry + 2, 2)? {
            3 => 2,
            4 => 4,
            _ => return None,
        };
        let mut out = bytes.to_vec();
        let one: Vec<u8> =
            if le { 1u32.to_le_bytes()[..width].to_vec() } else { 1u32.to_be_bytes()[4 - width..].to_vec() };
        out.get_mut(entry + value..entry + value + width)?.copy_from_slice(&one);
        return Some(out);
    }
    None
}
