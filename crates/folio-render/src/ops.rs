//! Pixel operations on decoded images: resize, crop, rotate, composite and contact sheets. Each
//! takes the image's name for its messages and checks its arguments before touching pixels.

use image::imageops::FilterType;
use image::{DynamicImage, GenericImageView, Rgba, RgbaImage};

use crate::error::{RenderError, Result};

fn bad(msg: String) -> RenderError {
    RenderError::BadOption(msg)
}

/// How an image is fitted into a requested box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fit {
    /// Scale to fit inside the box, keeping the aspect ratio (the default).
    #[default]
    Contain,
    /// Scale to cover the box, keeping the aspect ratio, and crop the overflow (centred).
    Cover,
    /// Stretch to exactly the box.
    Fill,
}

impl Fit {
    /// `contain`, `cover` or `fill`.
    pub fn from_name(name: &str) -> Option<Fit> {
        match name {
            "contain" | "inside" => Some(Fit::Contain),
            "cover" => Some(Fit::Cover),
            "fill" => Some(Fit::Fill),
            _ => None,
        }
    }
}

/// Options of [`resize`]. At least one of `width` and `height` is required.
#[derive(Debug, Clone, Default)]
pub struct ResizeOptions {
    /// Target width in pixels.
    pub width: Option<u32>,
    /// Target height in pixels.
    pub height: Option<u32>,
    /// How to fit when both are given.
    pub fit: Fit,
    /// Never make the image larger than it is.
    pub without_enlargement: bool,
}

/// Resizes with a Catmull-Rom filter (a good quality/speed balance for screenshots and photos).
pub fn resize(name: &str, img: &DynamicImage, o: &ResizeOptions) -> Result<DynamicImage> {
    let (w, h) = img.dimensions();
    let (tw, th) = match (o.width, o.height) {
        (None, None) => return Err(bad(format!("{name}: resize needs width or height — hint: pass {{width: 800}}"))),
        (Some(0), _) | (_, Some(0)) => return Err(bad(format!("{name}: width and height must be at least 1"))),
        (Some(tw), None) => (tw, ((u64::from(h) * u64::from(tw)) / u64::from(w.max(1))).max(1) as u32),
        (None, Some(th)) => (((u64::from(w) * u64::from(th)) / u64::from(h.max(1))).max(1) as u32, th),
        (Some(tw), Some(th)) => (tw, th),
    };
    if u64::from(tw) * u64::from(th) > 400_000_000 {
        return Err(bad(format!("{name}: {tw}×{th} is too large a target — hint: ask for a smaller size")));
    }
    if o.without_enlargement && tw >= w && th >= h {
        return Ok(img.clone());
    }
    let out = match (o.width.is_some() && o.height.is_some(), o.fit) {
        (false, _) | (true, Fit::Fill) => img.resize_exact(tw, th, FilterType::CatmullRom),
        (true, Fit::Contain) => img.resize(tw, th, FilterType::CatmullRom),
        (true, Fit::Cover) => img.resize_to_fill(tw, th, FilterType::CatmullRom),
    };
    Ok(out)
}

/// Cuts out a rectangle; it must lie inside the image.
pub fn crop(name: &str, img: &DynamicImage, left: u32, top: u32, width: u32, height: u32) -> Result<DynamicImage> {
    let (w, h) = img.dimensions();
    let fits = width > 0
        && height > 0
        && u64::from(left) + u64::from(width) <= u64::from(w)
        && u64::from(top) + u64::from(height) <= u64::from(h);
    if !fits {
        return Err(bad(format!(
            "{name}: crop box left {left}, top {top}, {width}×{height} falls outside the {w}×{h} image — hint: keep left+width ≤ {w} and top+height ≤ {h}"
        )));
    }
    Ok(img.crop_imm(left, top, width, height))
}

/// Rotates by a multiple of 90 degrees clockwise; with no angle, applies the EXIF orientation
/// (1–8) instead, which is how a photo is made to look the way the camera saw it.
pub fn rotate(name: &str, img: &DynamicImage, angle: Option<i64>, exif: Option<u8>) -> Result<DynamicImage> {
    match angle {
        None => {
            let mut out = img.clone();
            if let Some(o) = exif.and_then(image::metadata::Orientation::from_exif) {
                out.apply_orientation(o);
            }
            Ok(out)
        }
        Some(a) => match a.rem_euclid(360) {
            0 => Ok(img.clone()),
            90 => Ok(img.rotate90()),
            180 => Ok(img.rotate180()),
            270 => Ok(img.rotate270()),
            _ => Err(bad(format!("{name}: angle {a} is not a multiple of 90 — hint: use 90, 180 or 270 (or -90)"))),
        },
    }
}

/// One image laid over another.
#[derive(Debug, Clone)]
pub struct Overlay {
    /// The overlay's pixels.
    pub image: DynamicImage,
    /// Its left edge on the base (may be negative or past the edge: it is clipped).
    pub left: i64,
    /// Its top edge on the base.
    pub top: i64,
    /// 0 (invisible) to 1 (as is).
    pub opacity: f32,
}

/// Lays `overlays` over `base` in order, with alpha blending ("source over").
pub fn composite(base: &DynamicImage, overlays: &[Overlay]) -> DynamicImage {
    let mut canvas = base.to_rgba8();
    for o in overlays {
        let top = o.image.to_rgba8();
        let opacity = o.opacity.clamp(0.0, 1.0);
        for (x, y, px) in top.enumerate_pixels() {
            let (cx, cy) = (o.left + i64::from(x), o.top + i64::from(y));
            if cx < 0 || cy < 0 || cx >= i64::from(canvas.width()) || cy >= i64::from(canvas.height()) {
                continue;
            }
            let dst = canvas.get_pixel_mut(cx as u32, cy as u32);
            *dst = blend(*dst, *px, opacity);
        }
    }
    DynamicImage::ImageRgba8(canvas)
}

fn blend(dst: Rgba<u8>, src: Rgba<u8>, opacity: f32) -> Rgba<u8> {
    let sa = f32::from(src[3]) / 255.0 * opacity;
    let da = f32::from(dst[3]) / 255.0;
    let oa = sa + da * (1.0 - sa);
    if oa <= 0.0 {
        return Rgba([0, 0, 0, 0]);
    }
    let mut out = [0u8; 4];
    for c in 0..3 {
        let v = (f32::from(src[c]) * sa + f32::from(dst[c]) * da * (1.0 - sa)) / oa;
        out[c] = v.round().clamp(0.0, 255.0) as u8;
    }
    out[3] = (oa * 255.0).round() as u8;
    Rgba(out)
}

/// Tiles the images into a grid of `cell`×`cell` squares, each contain-fitted and centred, on
/// `background`. `columns` defaults to ⌈√n⌉.
pub fn contact_sheet(
    tiles: &[DynamicImage],
    cell: u32,
    columns: Option<u32>,
    background: [u8; 3],
) -> Result<DynamicImage> {
    if tiles.is_empty() {
        return Err(bad("contactSheet needs at least one image".into()));
    }
    if !(16..=4096).contains(&cell) {
        return Err(bad(format!("cell must be from 16 to 4096 pixels, got {cell}")));
    }
    let n = tiles.len() as u32;
    let cols = columns.unwrap_or_else(|| (f64::from(n).sqrt().ceil() as u32).max(1)).clamp(1, n);
    let rows = n.div_ceil(cols);
    if u64::from(cols * cell) * u64::from(rows * cell) > 200_000_000 {
        return Err(bad(format!(
            "a {cols}×{rows} sheet of {cell}-pixel cells is too large — hint: use a smaller cell"
        )));
    }
    let bg = Rgba([background[0], background[1], background[2], 255]);
    let mut sheet = RgbaImage::from_pixel(cols * cell, rows * cell, bg);
    let pad = (cell / 32).max(1);
    for (i, tile) in tiles.iter().enumerate() {
        let (col, row) = (i as u32 % cols, i as u32 / cols);
        let fitted = tile.resize(cell - 2 * pad, cell - 2 * pad, FilterType::Triangle);
        let x = col * cell + (cell - fitted.width()) / 2;
        let y = row * cell + (cell - fitted.height()) / 2;
        let over = Overlay { image: fitted, left: i64::from(x), top: i64::from(y), opacity: 1.0 };
        let DynamicImage::ImageRgba8(done) = composite(&DynamicImage::ImageRgba8(sheet), std::slice::from_ref(&over))
        else {
            return Err(bad("contactSheet: internal colour type mismatch".into()));
        };
        sheet = done;
    }
    Ok(DynamicImage::ImageRgba8(sheet))
}

/// Parses `#rgb` or `#rrggbb`.
pub fn parse_colour(s: &str) -> Result<[u8; 3]> {
    let hex = s.trim().trim_start_matches('#');
    let expanded: String = if hex.len() == 3 { hex.chars().flat_map(|c| [c, c]).collect() } else { hex.to_string() };
    let ok = expanded.len() == 6 && expanded.chars().all(|c| c.is_ascii_hexdigit());
    if !ok {
        return Err(bad(format!("colour \"{s}\" is not #rgb or #rrggbb — hint: e.g. \"#ffffff\"")));
    }
    let byte = |i: usize| u8::from_str_radix(&expanded[i..i + 2], 16).unwrap_or(0);
    Ok([byte(0), byte(2), byte(4)])
}
