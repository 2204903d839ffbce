//! Images for documents: PNG and JPEG only, recognised by their bytes. A JPEG goes into a PDF as
//! it is (DCTDecode); a PNG is decoded to 8-bit gray or RGB plus an optional alpha mask, each
//! deflated. A DOCX embeds either file unchanged and needs only its size.

use std::io::Cursor;

use crate::error::{DocsError, Result};

/// The most pixels an embedded image may have (a 64-megapixel photo).
pub const MAX_PIXELS: u64 = 64_000_000;

/// The two embeddable formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
}

impl Format {
    /// The file extension DOCX media use.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Jpeg => "jpeg",
        }
    }
    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Jpeg => "image/jpeg",
        }
    }
}

/// The samples a PDF image XObject needs.
pub enum Samples {
    /// JPEG bytes as they are, with their component count (1 gray, 3 RGB, 4 CMYK).
    Jpeg {
        /// Components.
        components: u8,
    },
    /// Decoded 8-bit samples.
    Raw {
        /// 1 (gray) or 3 (RGB) per pixel.
        channels: u8,
        /// The colour samples.
        color: Vec<u8>,
        /// One alpha byte per pixel, when the image has transparency.
        alpha: Option<Vec<u8>>,
    },
}

/// A recognised image.
pub struct Picture {
    /// Its format.
    pub format: Format,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

fn bad(place: &str, detail: impl Into<String>) -> DocsError {
    DocsError::Image { place: place.to_string(), detail: detail.into() }
}

/// Recognises `bytes` as PNG or JPEG and reads its size; anything else points at env:images.
pub fn probe(place: &str, bytes: &[u8]) -> Result<Picture> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() >= 24 {
        let width = u32::from_be_bytes([bytes[16], bytes[17], bytes[18], bytes[19]]);
        let height = u32::from_be_bytes([bytes[20], bytes[21], bytes[22], bytes[23]]);
        return sized(place, Format::Png, width, height);
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        let (width, height, _) = jpeg_frame(bytes).ok_or_else(|| bad(place, "the JPEG has no frame header"))?;
        return sized(place, Format::Jpeg, width, height);
    }
    let what = folio_kinds_hint(bytes);
    Err(bad(place, format!("the image is {what}, and documents embed only PNG and JPEG")))
}

fn folio_kinds_hint(bytes: &[u8]) -> &'static str {
    if bytes.starts_with(b"GIF8") {
        "a GIF"
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        "a WebP"
    } else if bytes.starts_with(b"<svg") || bytes.starts_with(b"<?xml") {
        "an SVG"
    } else if bytes.starts_with(b"II*\0") || bytes.starts_with(b"MM\0*") {
        "a TIFF"
    } else if bytes.is_empty() {
        "empty"
    } else {
        "not a PNG or JPEG"
    }
}

fn sized(place: &str, format: Format, width: u32, height: u32) -> Result<Picture> {
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(bad(place, format!("the image is {width}×{height} pixels, outside 1 to {MAX_PIXELS} pixels")));
    }
    Ok(Picture { format, width, height })
}

/// Width, height and components from a JPEG's SOF marker.
fn jpeg_frame(b: &[u8]) -> Option<(u32, u32, u8)> {
    let mut i = 2;
    while i + 9 < b.len() {
        if b[i] != 0xFF {
            i += 1;
            continue;
        }
        let marker = b[i + 1];
        if marker == 0xFF {
            i += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([b[i + 2], b[i + 3]]));
        let sof = matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC);
        if sof {
            let h = u32::from(u16::from_be_bytes([b[i + 5], b[i + 6]]));
            let w = u32::from(u16::from_be_bytes([b[i + 7], b[i + 8]]));
            return Some((w, h, b[i + 9]));
        }
        i += 2 + len;
    }
    None
}

/// The samples for a PDF.
pub fn samples(place: &str, bytes: &[u8], pic: &Picture) -> Result<Samples> {
    match pic.format {
        Format::Jpeg => {
            let (_, _, components) = jpeg_frame(bytes).ok_or_else(|| bad(place, "the JPEG has no frame header"))?;
            if !matches!(components, 1 | 3 | 4) {
                return Err(bad(place, format!("the JPEG has {components} colour components")));
            }
            Ok(Samples::Jpeg { components })
        }
        Format::Png => decode_png(place, bytes),
    }
}

fn decode_png(place: &str, bytes: &[u8]) -> Result<Samples> {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| bad(place, format!("the PNG cannot be decoded: {e}")))?;
    let size = reader.output_buffer_size().ok_or_else(|| bad(place, "the PNG is too large to decode"))?;
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| bad(place, format!("the PNG cannot be decoded: {e}")))?;
    buf.truncate(info.buffer_size());
    let px = (info.width as usize) * (info.height as usize);
    let (channels, has_alpha) = match info.color_type {
        png::ColorType::Grayscale => (1, false),
        png::ColorType::GrayscaleAlpha => (1, true),
        png::ColorType::Rgb => (3, false),
        png::ColorType::Rgba => (3, true),
        png::ColorType::Indexed => return Err(bad(place, "the PNG palette could not be expanded")),
    };
    if !has_alpha {
        return Ok(Samples::Raw { channels, color: buf, alpha: None });
    }
    let stride = usize::from(channels) + 1;
    let mut color = Vec::with_capacity(px * usize::from(channels));
    let mut alpha = Vec::with_capacity(px);
    for p in buf.chunks_exact(stride) {
        color.extend_from_slice(&p[..usize::from(channels)]);
        alpha.push(p[usize::from(channels)]);
    }
    let opaque = alpha.iter().all(|a| *a == 255);
    Ok(Samples::Raw { channels, color, alpha: (!opaque).then_some(alpha) })
}
