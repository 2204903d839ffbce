//! Two pictures of the same size compared pixel by pixel: how many pixels differ, where (boxes
//! of changed 16-pixel tiles, merged), and the overlay the review panel blends with a slider.
//! Pages and images share it.

use serde::Serialize;

/// A rectangle in pixels of the compared picture (top-left origin).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PixelBox {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
}

/// A channel counts as different when it differs by more than this (anti-aliasing and
/// rounding noise stay under it).
pub const TOLERANCE: u8 = 16;
/// The side of the tiles changed pixels are grouped into for [`Compared::boxes`].
const TILE: u32 = 16;
/// Most boxes reported; past it the smallest are merged into one box around them.
pub const MAX_BOXES: usize = 64;

/// A picture in memory: `channels` bytes per pixel, rows `stride` bytes apart.
pub struct Picture<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Bytes per pixel (3: RGB, 4: RGBA).
    pub channels: usize,
    /// Bytes from one row to the next.
    pub stride: usize,
    /// The pixels.
    pub data: &'a [u8],
}

impl Picture<'_> {
    /// Row `y`'s pixel bytes.
    fn row(&self, y: u32) -> Option<&[u8]> {
        let at = y as usize * self.stride;
        self.data.get(at..at + self.width as usize * self.channels)
    }

    /// The pixel at (x, y) as RGBA (RGB pictures are opaque); `None` outside the picture.
    fn rgba(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = y as usize * self.stride + x as usize * self.channels;
        let p = self.data.get(at..at + self.channels)?;
        Some(if self.channels == 4 { [p[0], p[1], p[2], p[3]] } else { [p[0], p[1], p[2], 255] })
    }
}

/// What comparing two pictures found, on a canvas the size of the larger one.
pub struct Compared {
    /// Canvas width.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// Changed pixels, one bit-byte per canvas pixel (1: changed).
    pub mask: Vec<u8>,
    /// How many.
    pub changed: u64,
}

impl Compared {
    /// Their share of the canvas.
    pub fn fraction(&self) -> f64 {
        let all = u64::from(self.width) * u64::from(self.height);
        if all == 0 { 0.0 } else { self.changed as f64 / all as f64 }
    }

    /// The box around every changed pixel.
    pub fn bbox(&self) -> Option<PixelBox> {
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for y in 0..self.height {
            let row = &self.mask[(y * self.width) as usize..((y + 1) * self.width) as usize];
            if let (Some(first), Some(last)) = (row.iter().position(|&m| m != 0), row.iter().rposition(|&m| m != 0)) {
                x0 = x0.min(first as u32);
                x1 = x1.max(last as u32);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
        (x0 != u32::MAX).then(|| PixelBox { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 })
    }

    /// Boxes around connected groups of changed 16-pixel tiles, largest first, at most
    /// [`MAX_BOXES`] (the rest merged into one).
    pub fn boxes(&self) -> Vec<PixelBox> {
        let (tw, th) = (self.width.div_ceil(TILE), self.height.div_ceil(TILE));
        let mut tiles = vec![false; (tw * th) as usize];
        for y in 0..self.height {
            for x in 0..self.width {
                if self.mask[(y * self.width + x) as usize] != 0 {
                    tiles[((y / TILE) * tw + x / TILE) as usize] = true;
                }
            }
        }
        let mut boxes: Vec<(u64, PixelBox)> = Vec::new();
        let mut seen = vec![false; tiles.len()];
        for start in 0..tiles.len() {
            if !tiles[start] || seen[start] {
                continue;
            }
            let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0u32, 0u32);
            let mut stack = vec![start];
            seen[start] = true;
            let mut count = 0u64;
            while let Some(t) = stack.pop() {
                count += 1;
                let (tx, ty) = (t as u32 % tw, t as u32 / tw);
                (x0, y0, x1, y1) = (x0.min(tx), y0.min(ty), x1.max(tx), y1.max(ty));
                let mut near = Vec::with_capacity(4);
                if tx > 0 {
                    near.push(t - 1);
                }
                if tx + 1 < tw {
                    near.push(t + 1);
                }
                if ty > 0 {
                    near.push(t - tw as usize);
                }
                if ty + 1 < th {
                    near.push(t + tw as usize);
                }
                for n in near {
                    if tiles[n] && !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                }
            }
            let (px, py) = (x0 * TILE, y0 * TILE);
            let b = PixelBox {
                x: px,
                y: py,
                width: ((x1 + 1) * TILE).min(self.width) - px,
                height: ((y1 + 1) * TILE).min(self.height) - py,
            };
            boxes.push((count, b));
        }
        boxes.sort_by(|a, b| b.0.cmp(&a.0).then((a.1.y, a.1.x).cmp(&(b.1.y, b.1.x))));
        let mut out: Vec<PixelBox> = boxes.iter().take(MAX_BOXES - 1).map(|b| b.1).collect();
        let rest: Vec<PixelBox> = boxes.iter().skip(MAX_BOXES - 1).map(|b| b.1).collect();
        if let Some(first) = rest.first() {
            let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.x + first.width, first.y + first.height);
            for b in &rest {
                (x0, y0, x1, y1) = (x0.min(b.x), y0.min(b.y), x1.max(b.x + b.width), y1.max(b.y + b.height));
            }
            out.push(PixelBox { x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
        }
        out
    }
}

/// Compares `old` and `new` on a canvas the size of the larger (each at the top left); a pixel
/// inside one picture only is changed, outside both it is not. A pixel is changed when any
/// channel differs by more than [`TOLERANCE`].
pub fn compare(old: &Picture<'_>, new: &Picture<'_>) -> Compared {
    let (width, height) = (old.width.max(new.width), old.height.max(new.height));
    let mut mask = vec![0u8; width as usize * height as usize];
    let mut changed = 0u64;
    let same_shape = old.width == new.width && old.height == new.height && old.channels == new.channels;
    for y in 0..height {
        if same_shape {
            // The common case: compare rows as slices, pixel by pixel only where they differ.
            if let (Some(a), Some(b)) = (old.row(y), new.row(y))
                && a == b
            {
                continue;
            }
        }
        for x in 0..width {
            let differs = match (old.rgba(x, y), new.rgba(x, y)) {
                (Some(a), Some(b)) => a.iter().zip(b).any(|(p, q)| p.abs_diff(q) > TOLERANCE),
                (None, None) => false,
                _ => true,
            };
            if differs {
                mask[(y * width + x) as usize] = 1;
                changed += 1;
            }
        }
    }
    Compared { width, height, mask, changed }
}

/// A picture (RGB or RGBA rows, `stride` bytes apart) as PNG, fast compression.
pub fn png(width: u32, height: u32, channels: usize, stride: usize, data: &[u8]) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let row = width as usize * channels;
    let packed: std::borrow::Cow<'_, [u8]> = if stride == row {
        std::borrow::Cow::Borrowed(data.get(..row * height as usize).ok_or("the pixel buffer is short")?)
    } else {
        let mut v = Vec::with_capacity(row * height as usize);
        for y in 0..height as usize {
            v.extend_from_slice(data.get(y * stride..y * stride + row).ok_or("the pixel buffer is short")?);
        }
        std::borrow::Cow::Owned(v)
    };
    let color = if channels == 4 { image::ExtendedColorType::Rgba8 } else { image::ExtendedColorType::Rgb8 };
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
        .write_image(&packed, width, height, color)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The overlay of `compared`: changed pixels opaque magenta, the rest transparent, as PNG.
pub fn overlay_png(compared: &Compared) -> Result<Vec<u8>, String> {
    let mut rgba = vec![0u8; compared.mask.len() * 4];
    for (i, &m) in compared.mask.iter().enumerate() {
        if m != 0 {
            rgba[i * 4..i * 4 + 4].copy_from_slice(&[255, 0, 255, 255]);
        }
    }
    png(compared.width, compared.height, 4, compared.width as usize * 4, &rgba)
}
