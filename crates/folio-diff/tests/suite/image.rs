//! Images: a square painted on a picture is found as its box, with an overlay; sizes that
//! differ are letterboxed and said so.

use folio_diff::{PixelBox, image};
use image::{ImageFormat, Rgb, RgbImage};

fn png(img: &RgbImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A gradient, so the picture is not flat.
fn picture(w: u32, h: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 128]))
}

#[test]
fn a_painted_square_is_found_as_its_box() {
    let old = picture(200, 150);
    let mut new = old.clone();
    for y in 30..50 {
        for x in 40..90 {
            new.put_pixel(x, y, Rgb([255, 0, 0]));
        }
    }
    let diff = image(Some(&png(&old)), Some(&png(&new)), "/out/chart.png").unwrap();
    assert_eq!((diff.width, diff.height), (200, 150));
    assert_eq!(diff.bbox, Some(PixelBox { x: 40, y: 30, width: 50, height: 20 }));
    assert_eq!(diff.changed_pixels, 50 * 20);
    assert!((diff.changed_fraction - 1000.0 / 30_000.0).abs() < 1e-9);
    assert!(diff.notes.is_empty(), "{:?}", diff.notes);
    // The overlay is canvas-sized; magenta exactly where the square is.
    let overlay = image::load_from_memory(&diff.diff_png).unwrap().to_rgba8();
    assert_eq!(overlay.dimensions(), (200, 150));
    assert_eq!(overlay.get_pixel(45, 35).0, [255, 0, 255, 255]);
    assert_eq!(overlay.get_pixel(10, 10).0[3], 0);
    // A PNG side is handed back as it came.
    assert_eq!(diff.old_png.as_deref(), Some(&png(&old)[..]));
    // Equal pictures: nothing changed.
    let same = image(Some(&png(&old)), Some(&png(&old)), "/out/chart.png").unwrap();
    assert_eq!((same.changed_pixels, same.bbox), (0, None));
}

#[test]
fn pictures_of_different_sizes_are_letterboxed_and_said_so() {
    let old = picture(100, 80);
    let new = picture(120, 80);
    let diff = image(Some(&png(&old)), Some(&png(&new)), "/out/logo.png").unwrap();
    assert_eq!((diff.width, diff.height), (120, 80));
    assert_eq!(diff.bbox, Some(PixelBox { x: 100, y: 0, width: 20, height: 80 }));
    assert!(diff.notes.iter().any(|n| n.contains("sizes differ") && n.contains("100×80")), "{:?}", diff.notes);
}

#[test]
fn a_jpeg_and_an_svg_are_decoded_through_folio_render() {
    let old = picture(64, 64);
    let mut jpeg = std::io::Cursor::new(Vec::new());
    old.write_to(&mut jpeg, ImageFormat::Jpeg).unwrap();
    let diff = image(None, Some(jpeg.get_ref()), "/out/a.jpg").unwrap();
    assert!(diff.new_png.unwrap().starts_with(b"\x89PNG"), "a JPEG side is shown as PNG");
    let svg = |fill: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect x="10" y="10" width="10" height="10" fill="{fill}"/></svg>"#
        )
    };
    let diff = image(Some(svg("red").as_bytes()), Some(svg("blue").as_bytes()), "/out/a.svg").unwrap();
    assert_eq!(diff.bbox, Some(PixelBox { x: 10, y: 10, width: 10, height: 10 }));
}
