//! Images: both sides decoded through folio-render (PNG, JPEG, GIF, WebP, TIFF's first page,
//! SVG drawn), compared pixel by pixel, with an overlay of the changed pixels the review panel
//! blends over the new image with a slider. Different sizes are compared after letterboxing
//! both onto the larger canvas (top left, transparent), and a note says so.

use std::time::Instant;

use folio_render::{ImageFormat, ImageLimits, images};
use image::RgbaImage;
use serde::Serialize;

use crate::error::{DiffError, Result, Side};
use crate::pixels::{self, Picture, PixelBox};

/// Two versions of an image compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageDiff {
    /// The compared canvas's width (the larger of the two).
    pub width: u32,
    /// The compared canvas's height.
    pub height: u32,
    /// The old image's own size (`None`: no old side).
    pub old_size: Option<(u32, u32)>,
    /// The new image's own size.
    pub new_size: Option<(u32, u32)>,
    /// The old image as PNG at its own size.
    pub old_png: Option<Vec<u8>>,
    /// The new image as PNG at its own size.
    pub new_png: Option<Vec<u8>>,
    /// The overlay, canvas-sized RGBA PNG: changed pixels opaque magenta, the rest transparent.
    pub diff_png: Vec<u8>,
    /// Pixels that differ beyond the tolerance.
    pub changed_pixels: u64,
    /// Their share of the canvas, 0–1.
    pub changed_fraction: f64,
    /// The box around every changed pixel (`None` when none changed).
    pub bbox: Option<PixelBox>,
    /// Remarks (sizes differ and were letterboxed…).
    pub notes: Vec<String>,
    /// What decoding, comparing and encoding cost, in milliseconds.
    pub ms: u64,
}

fn picture(img: &Option<RgbaImage>) -> Picture<'_> {
    match img {
        Some(i) => Picture {
            width: i.width(),
            height: i.height(),
            channels: 4,
            stride: i.width() as usize * 4,
            data: i.as_raw(),
        },
        None => Picture { width: 0, height: 0, channels: 4, stride: 0, data: &[] },
    }
}

/// Compares two versions of an image (`None`: the file does not exist on that side). A side that
/// does not decode is refused with [`DiffError::Render`] naming it.
pub fn image(old: Option<&[u8]>, new: Option<&[u8]>, name: &str) -> Result<ImageDiff> {
    let started = Instant::now();
    if old.is_none() && new.is_none() {
        return Err(DiffError::NothingToCompare { name: name.to_string() });
    }
    let limits = ImageLimits::default();
    let decode = |bytes: Option<&[u8]>, side: Side| -> Result<Option<RgbaImage>> {
        bytes
            .map(|b| {
                images::decode(name, b, &limits).map(|img| img.to_rgba8()).map_err(|e| DiffError::render(name, side, e))
            })
            .transpose()
    };
    let (o, n) = (decode(old, Side::Old)?, decode(new, Side::New)?);
    let compared = pixels::compare(&picture(&o), &picture(&n));
    let mut notes = Vec::new();
    let dims = |img: &Option<RgbaImage>| img.as_ref().map(|i| (i.width(), i.height()));
    let (old_size, new_size) = (dims(&o), dims(&n));
    if let (Some(a), Some(b)) = (old_size, new_size)
        && a != b
    {
        notes.push(format!(
            "the sizes differ ({}×{} before, {}×{} after): both were placed at the top left of a {}×{} canvas, and the area only one covers counts as changed",
            a.0, a.1, b.0, b.1, compared.width, compared.height
        ));
    }
    // A PNG side is shown as it is; other formats are re-encoded so the panel shows PNG alone.
    let png_of = |bytes: Option<&[u8]>, img: &Option<RgbaImage>, what: &str| -> Result<Option<Vec<u8>>> {
        match (bytes, img) {
            (Some(b), Some(_)) if ImageFormat::sniff(b) == Some(ImageFormat::Png) => Ok(Some(b.to_vec())),
            (_, Some(i)) => pixels::png(i.width(), i.height(), 4, i.width() as usize * 4, i.as_raw())
                .map(Some)
                .map_err(|e| DiffError::encode(name, what, e)),
            _ => Ok(None),
        }
    };
    Ok(ImageDiff {
        width: compared.width,
        height: compared.height,
        old_size,
        new_size,
        old_png: png_of(old, &o, "the old image")?,
        new_png: png_of(new, &n, "the new image")?,
        diff_png: pixels::overlay_png(&compared).map_err(|e| DiffError::encode(name, "the difference overlay", e))?,
        changed_pixels: compared.changed,
        changed_fraction: compared.fraction(),
        bbox: compared.bbox(),
        notes,
        ms: started.elapsed().as_millis() as u64,
    })
}
