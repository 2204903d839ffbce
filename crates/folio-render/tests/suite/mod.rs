//! Shared helpers. PDFium must be present: `scripts/install.sh` provisions it, so a missing
//! library fails the suite loudly instead of skipping.

pub mod pdfgen;

mod bounded;
mod discovery;
mod doctor;
mod images;
mod modules;
mod office;
mod office_server;
mod pdf;
mod tiff;

use folio_render::{HostPaths, Renderer};

/// A renderer over this host's discovery. Panics, naming the fix, when PDFium is missing.
pub fn renderer() -> Renderer {
    let r = Renderer::new(HostPaths::from_host(None));
    if let Err(e) = r.pdfium() {
        panic!("PDFium must be installed for these tests (scripts/install.sh does it): {e}");
    }
    r
}

/// Decodes an encoded image to RGB.
pub fn rgb(bytes: &[u8]) -> image::RgbImage {
    image::load_from_memory(bytes).expect("decodable output").to_rgb8()
}

/// True when the pixel is near the colour (each channel within 40).
pub fn near(px: &image::Rgb<u8>, c: [u8; 3]) -> bool {
    px.0.iter().zip(c).all(|(a, b)| a.abs_diff(b) <= 40)
}
