//! Image describe, limits and animation detection.

use folio_render::images::{self, ImageFormat, ImageLimits};
use folio_render::{RasterOptions, RenderError, Size};

use super::{near, renderer, rgb};

fn encode(img: image::RgbImage, f: ImageFormat) -> Vec<u8> {
    images::encode("t", &image::DynamicImage::ImageRgb8(img), f, None).unwrap()
}

/// A PNG whose header declares `w`×`h` but whose data is tiny (a pixel bomb's header).
fn bomb_png(w: u32, h: u32) -> Vec<u8> {
    let mut b = encode(image::RgbImage::new(1, 1), ImageFormat::Png);
    b[16..20].copy_from_slice(&w.to_be_bytes());
    b[20..24].copy_from_slice(&h.to_be_bytes());
    // Fix the IHDR CRC so the decoder reaches the size check.
    let crc = crc32(&b[12..29]);
    b[29..33].copy_from_slice(&crc.to_be_bytes());
    b
}

pub fn crc32(data: &[u8]) -> u32 {
    let mut c = 0xFFFF_FFFFu32;
    for &byte in data {
        c ^= u32::from(byte);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

#[test]
fn describe_reads_headers_of_each_format() {
    for f in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Webp, ImageFormat::Gif] {
        let b = encode(image::RgbImage::new(30, 20), f);
        let info = images::describe("/x", &b).unwrap();
        assert_eq!((info.format, info.width, info.height, info.animated, info.frames), (f, 30, 20, false, 1));
    }
}

#[test]
fn a_pixel_bomb_is_refused_from_its_header() {
    let b = bomb_png(100_000, 100_000);
    let info = images::describe("/in/bomb.png", &b).unwrap();
    assert_eq!((info.width, info.height), (100_000, 100_000));
    let err = images::decode("/in/bomb.png", &b, &ImageLimits::default()).unwrap_err();
    assert!(matches!(err, RenderError::TooLarge { .. }), "{err:?}");
    assert!(err.to_string().starts_with("/in/bomb.png is 100000×100000 pixels, over the decode limit"), "{err}");
}

#[test]
fn animated_gifs_are_detected_without_decoding() {
    let mut out = Vec::new();
    {
        let mut enc = image::codecs::gif::GifEncoder::new(&mut out);
        for c in [0u8, 128, 255] {
            let frame = image::Frame::new(image::RgbaImage::from_pixel(8, 8, image::Rgba([c, 0, 0, 255])));
            enc.encode_frame(frame).unwrap();
        }
    }
    let info = images::describe("/a.gif", &out).unwrap();
    assert!(info.animated);
    assert_eq!(info.frames, 3);
}

#[test]
fn exif_orientation_is_reported() {
    // A JPEG with an APP1 Exif segment carrying Orientation = 6 (rotate 90° clockwise).
    let jpeg = encode(image::RgbImage::new(40, 20), ImageFormat::Jpeg);
    let tiff: Vec<u8> = [
        b"MM\x00\x2a\x00\x00\x00\x08".as_slice(),
        &[0x00, 0x01], // one entry
        &[0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x06, 0x00, 0x00],
        &[0, 0, 0, 0],
    ]
    .concat();
    let mut app1 = b"Exif\x00\x00".to_vec();
    app1.extend_from_slice(&tiff);
    let len = (app1.len() + 2) as u16;
    let mut with_exif = vec![0xFF, 0xD8, 0xFF, 0xE1];
    with_exif.extend_from_slice(&len.to_be_bytes());
    with_exif.extend_from_slice(&app1);
    with_exif.extend_from_slice(&jpeg[2..]);
    let info = images::describe("/p.jpg", &with_exif).unwrap();
    assert_eq!(info.orientation, Some(6));
}

#[test]
fn images_rasterize_by_pass_through_or_resize() {
    let r = renderer();
    let b = encode(image::RgbImage::from_pixel(64, 32, image::Rgb([0, 0, 255])), ImageFormat::Png);
    let out = r.rasterize_bytes("/in/pic.png", &b, &RasterOptions::default()).unwrap();
    assert_eq!(out.pages[0].bytes, b, "pass-through keeps the bytes");
    assert_eq!(out.pages[0].file_name, "pic.png");
    let opts = RasterOptions { size: Some(Size::Width(16)), ..RasterOptions::default() };
    let out = r.rasterize_bytes("/in/pic.png", &b, &opts).unwrap();
    assert_eq!((out.pages[0].width, out.pages[0].height), (16, 8));
    assert!(near(rgb(&out.pages[0].bytes).get_pixel(8, 4), [0, 0, 255]));
}
