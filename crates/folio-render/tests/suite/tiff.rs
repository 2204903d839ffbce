//! TIFF and SVG as inputs: every page of a multi-page TIFF and a BigTIFF described and decoded,
//! the common compressions and bit depths, hostile files refused by name, env:images and
//! env:render taking both from a script, and `view_image`'s pages. The fixtures are written here
//! (by the `tiff` crate's encoder, or byte by byte), so the suite runs in a fresh clone; the
//! corpus's real files are checked when it is present.

use std::io::Cursor;
use std::path::PathBuf;
use std::sync::Arc;

use ::tiff::encoder::{Compression, DeflateLevel, TiffEncoder, colortype};
use folio_env::FileHandler;
use folio_render::ImageLimits;
use folio_render::handler::ImagesHandler;
use folio_render::images::{self, ImageFormat, Source};
use folio_render::tiff as ftiff;
use folio_vfs::{Tree, VPath};
use serde_json::Value;

use super::renderer;

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

/// A TIFF with one page per `(width, height, colour)`, RGB 8-bit, `compression`; BigTIFF when
/// `big`.
fn rgb_tiff(pages: &[(u32, u32, [u8; 3])], compression: Compression, big: bool) -> Vec<u8> {
    let mut out = Cursor::new(Vec::new());
    let data = |&(w, h, c): &(u32, u32, [u8; 3])| -> Vec<u8> { (0..w * h).flat_map(|_| c).collect() };
    if big {
        let mut enc = TiffEncoder::new_big(&mut out).unwrap().with_compression(compression);
        for p in pages {
            enc.write_image::<colortype::RGB8>(p.0, p.1, &data(p)).unwrap();
        }
    } else {
        let mut enc = TiffEncoder::new(&mut out).unwrap().with_compression(compression);
        for p in pages {
            enc.write_image::<colortype::RGB8>(p.0, p.1, &data(p)).unwrap();
        }
    }
    out.into_inner()
}

fn one<C: colortype::ColorType>(w: u32, h: u32, data: &[C::Inner]) -> Vec<u8>
where
    [C::Inner]: ::tiff::encoder::TiffValue,
{
    let mut out = Cursor::new(Vec::new());
    TiffEncoder::new(&mut out).unwrap().write_image::<C>(w, h, data).unwrap();
    out.into_inner()
}

/// A classic little-endian TIFF written byte by byte: one strip of `data` at offset 8, the
/// directory after it. `tags` are `(tag, values)`; a value list of one to two shorts or one long
/// is stored in the entry, a longer one after the strip.
fn raw_tiff(tags: &[(u16, Vals)], data: &[u8]) -> Vec<u8> {
    let mut out = b"II*\0\0\0\0\0".to_vec();
    out.extend_from_slice(data);
    let mut extra = Vec::new();
    let mut entries = Vec::new();
    let n = tags.len() + 2;
    let ifd_at = out.len() as u32;
    let extra_at = ifd_at + 2 + 12 * n as u32 + 4;
    let mut all: Vec<(u16, Vals)> = tags.to_vec();
    all.push((273, Vals::Long(vec![8])));
    all.push((279, Vals::Long(vec![data.len() as u32])));
    all.sort_by_key(|(t, _)| *t);
    for (tag, vals) in &all {
        let (ty, count, bytes) = match vals {
            Vals::Short(v) => (3u16, v.len() as u32, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()),
            Vals::Long(v) => (4u16, v.len() as u32, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()),
        };
        let mut e = tag.to_le_bytes().to_vec();
        e.extend(ty.to_le_bytes());
        e.extend(count.to_le_bytes());
        if bytes.len() <= 4 {
            let mut v = bytes.clone();
            v.resize(4, 0);
            e.extend(v);
        } else {
            e.extend((extra_at + extra.len() as u32).to_le_bytes());
            extra.extend(bytes);
        }
        entries.push(e);
    }
    out[4..8].copy_from_slice(&ifd_at.to_le_bytes());
    out.extend((n as u16).to_le_bytes());
    for e in entries {
        out.extend(e);
    }
    out.extend(0u32.to_le_bytes());
    out.extend(extra);
    out
}

#[derive(Clone)]
enum Vals {
    Short(Vec<u16>),
    Long(Vec<u32>),
}
use Vals::{Long, Short};

/// The tags of a `w`×`h` single-strip page.
fn page_tags(w: u32, h: u32, photometric: u16, bits: &[u16], compression: u16) -> Vec<(u16, Vals)> {
    vec![
        (256, Long(vec![w])),
        (257, Long(vec![h])),
        (258, Short(bits.to_vec())),
        (259, Short(vec![compression])),
        (262, Short(vec![photometric])),
        (277, Short(vec![bits.len() as u16])),
        (278, Long(vec![h])),
    ]
}

/// A 4×1 8-bit palette page: indices 0..4 through a map of red, green, blue, white.
fn palette_tiff() -> Vec<u8> {
    let mut map = vec![0u16; 3 * 256];
    for (i, [r, g, b]) in [[255u16, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255]].into_iter().enumerate() {
        map[i] = r * 257;
        map[256 + i] = g * 257;
        map[512 + i] = b * 257;
    }
    let mut tags = page_tags(4, 1, 3, &[8], 1);
    tags.push((320, Short(map)));
    raw_tiff(&tags, &[0, 1, 2, 3])
}

/// What a fixture must decode to: its pages' sizes, and pixels `(page, x, y, rgba)`; or an
/// error containing every one of the words.
enum Expect {
    Pages(&'static [(u32, u32)], &'static [(u32, u32, u32, [u8; 4])]),
    Refused(&'static [&'static str]),
}

fn check(name: &str, bytes: &[u8], expect: Expect) {
    let limits = ImageLimits::default();
    match expect {
        Expect::Pages(sizes, pixels) => {
            let info = ftiff::describe(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got: Vec<(u32, u32)> = info.pages.iter().map(|p| (p.width, p.height)).collect();
            assert_eq!(got, sizes, "{name}: page sizes");
            for (page, (w, h)) in sizes.iter().enumerate() {
                let img = ftiff::decode_page(name, bytes, page as u32 + 1, &limits)
                    .unwrap_or_else(|e| panic!("{name} page {}: {e}", page + 1));
                assert_eq!((img.width(), img.height()), (*w, *h), "{name} page {}", page + 1);
            }
            for &(page, x, y, want) in pixels {
                let img = ftiff::decode_page(name, bytes, page, &limits).unwrap().to_rgba8();
                assert_eq!(img.get_pixel(x, y).0, want, "{name} page {page} pixel ({x}, {y})");
            }
            let e = ftiff::decode_page(name, bytes, sizes.len() as u32 + 1, &limits).unwrap_err().to_string();
            assert!(e.contains(&format!("has {} page(s)", sizes.len())) && e.contains("hint:"), "{name}: {e}");
        }
        Expect::Refused(words) => {
            let e = ftiff::describe(name, bytes)
                .and_then(|_| ftiff::decode_page(name, bytes, 1, &limits))
                .map(|_| ())
                .expect_err(name)
                .to_string();
            assert!(e.contains(name) && e.contains("hint:"), "{name}: the error names the file and a fix: {e}");
            for w in words {
                assert!(e.contains(w), "{name}: expected {w:?} in: {e}");
            }
        }
    }
}

#[test]
fn tiff_variants_decode_or_are_refused_by_name() {
    const RED: [u8; 3] = [200, 10, 10];
    const BLUE: [u8; 3] = [10, 10, 200];
    let three = [(5, 4, RED), (3, 7, BLUE), (2, 2, [0, 255, 0])];
    let gray16: Vec<u16> = (0..6).map(|i| i * 10_000).collect();
    let rgba: Vec<u8> = (0..4).flat_map(|_| [10, 20, 30, 128]).collect();
    let cmyk: Vec<u8> = [[255, 0, 0, 0], [0, 0, 0, 255]].concat();
    let huge = page_tags(100_000, 100_000, 2, &[8, 8, 8], 1);
    let lzw_big = rgb_tiff(&[(64, 64, RED)], Compression::Lzw, false);
    let mut cut = lzw_big.clone();
    cut.truncate(lzw_big.len() / 3);
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "/in/three-lzw.tif",
            rgb_tiff(&three, Compression::Lzw, false),
            Expect::Pages(&[(5, 4), (3, 7), (2, 2)], &[(1, 0, 0, [200, 10, 10, 255]), (2, 2, 6, [10, 10, 200, 255])]),
        ),
        (
            "/in/big.tif",
            rgb_tiff(&three[..2], Compression::Deflate(DeflateLevel::Fast), true),
            Expect::Pages(&[(5, 4), (3, 7)], &[(2, 0, 0, [10, 10, 200, 255])]),
        ),
        (
            "/in/packbits.tif",
            rgb_tiff(&three[..1], Compression::Packbits, false),
            Expect::Pages(&[(5, 4)], &[(1, 4, 3, [200, 10, 10, 255])]),
        ),
        (
            "/in/none.tif",
            rgb_tiff(&three[2..], Compression::Uncompressed, true),
            Expect::Pages(&[(2, 2)], &[(1, 1, 1, [0, 255, 0, 255])]),
        ),
        (
            "/in/gray16.tif",
            one::<colortype::Gray16>(3, 2, &gray16),
            Expect::Pages(&[(3, 2)], &[(1, 2, 1, [195, 195, 195, 255])]),
        ),
        (
            "/in/rgba.tif",
            one::<colortype::RGBA8>(2, 2, &rgba),
            Expect::Pages(&[(2, 2)], &[(1, 1, 1, [10, 20, 30, 128])]),
        ),
        (
            "/in/cmyk.tif",
            one::<colortype::CMYK8>(2, 1, &cmyk),
            Expect::Pages(&[(2, 1)], &[(1, 0, 0, [0, 255, 255, 255]), (1, 1, 0, [0, 0, 0, 255])]),
        ),
        (
            // WhiteIsZero bilevel: a set bit is black.
            "/in/fax-like.tif",
            raw_tiff(&page_tags(4, 1, 0, &[1], 1), &[0b1010_0000]),
            Expect::Pages(&[(4, 1)], &[(1, 0, 0, [0, 0, 0, 255]), (1, 1, 0, [255, 255, 255, 255])]),
        ),
        (
            "/in/palette.tif",
            palette_tiff(),
            Expect::Pages(
                &[(4, 1)],
                &[(1, 0, 0, [255, 0, 0, 255]), (1, 2, 0, [0, 0, 255, 255]), (1, 3, 0, [255, 255, 255, 255])],
            ),
        ),
        (
            "/in/float.tif",
            one::<colortype::Gray32Float>(2, 2, &[0.5; 4]),
            Expect::Refused(&["floating-point", "page 1", "magick"]),
        ),
        (
            "/in/old-jpeg.tif",
            raw_tiff(&page_tags(2, 2, 2, &[8, 8, 8], 6), &[0; 12]),
            Expect::Refused(&["old-jpeg compression"]),
        ),
        ("/in/g3.tif", raw_tiff(&page_tags(8, 1, 0, &[1], 3), &[0; 4]), Expect::Refused(&["ccitt-g3 compression"])),
        ("/in/lab.tif", raw_tiff(&page_tags(1, 1, 8, &[8, 8, 8], 1), &[0; 3]), Expect::Refused(&["lab"])),
        // Hostile: a tiny file declaring a 10-gigapixel page; a file cut short; a header alone.
        ("/in/bomb.tif", raw_tiff(&huge, &[0; 16]), Expect::Refused(&["100000×100000", "decode limit"])),
        ("/in/cut.tif", cut, Expect::Refused(&["cannot read the TIFF"])),
        ("/in/header.tif", b"II*\0\x08\0\0\0".to_vec(), Expect::Refused(&["cannot read the TIFF"])),
    ];
    for (name, bytes, expect) in cases {
        check(name, &bytes, expect);
    }
}

#[test]
fn describe_lists_every_page_with_its_compression_and_depth() {
    let bytes = rgb_tiff(&[(5, 4, [1, 2, 3]), (3, 7, [4, 5, 6])], Compression::Lzw, true);
    let info = images::describe("/in/scan.tif", &bytes).unwrap();
    assert_eq!(
        (info.format, info.width, info.height, info.frames, info.bigtiff),
        (ImageFormat::Tiff, 5, 4, 2, Some(true))
    );
    let v = serde_json::to_value(&info).unwrap();
    assert_eq!(v["pages"][1]["height"], 7, "{v}");
    assert_eq!(
        (v["pages"][0]["compression"].as_str(), v["pages"][0]["bitDepth"].as_u64()),
        (Some("lzw"), Some(8)),
        "{v}"
    );
    assert_eq!(v["pages"][0]["color"], "rgb", "{v}");
    assert!(v["pages"][0].get("unsupported").is_none(), "{v}");
    let g3 = raw_tiff(&page_tags(8, 1, 0, &[1], 3), &[0; 4]);
    let v = serde_json::to_value(images::describe("/in/g3.tif", &g3).unwrap()).unwrap();
    assert!(v["pages"][0]["unsupported"].as_str().unwrap().contains("ccitt-g3 compression"), "{v}");
    // A page other than 1 of a single-image format is refused by name.
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
    let e = images::decode_with("/in/a.svg", svg, &ImageLimits::default(), Source { page: 2, ..Source::default() });
    assert!(e.unwrap_err().to_string().contains("page 2 does not exist"));
}

const SVG: &[u8] = br##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60"><rect width="120" height="60" fill="#ffffff"/><rect x="0" y="0" width="60" height="60" fill="#ff0000"/><script>alert(1)</script></svg>"##;

#[test]
fn env_images_takes_tiff_pages_and_svg_from_a_script() {
    let tiff = rgb_tiff(&[(40, 20, [200, 10, 10]), (30, 60, [10, 10, 200])], Compression::Lzw, false);
    let src = r#"
        import * as images from 'env:images';
        import { rasterize } from 'env:render';
        export default async function () {
            const info = await images.describe('/in/scan.tif');
            const p2 = await images.resize('/in/scan.tif', '/tmp/p2.png', { page: 2, width: 15 });
            const conv = await images.convert('/in/scan.tif', '/tmp/p1.jpg');
            const svg = await images.resize('/in/logo.svg', '/tmp/logo.png', { width: 480 });
            const svgInfo = await images.describe('/in/logo.svg');
            const crop = await images.crop('/in/logo.svg', '/tmp/crop.webp', { left: 0, top: 0, width: 30, height: 30 });
            const pages = await rasterize('/in/scan.tif', '/tmp/pages', { pages: [2, 1] });
            let missing = null;
            try { await images.convert('/in/scan.tif', '/tmp/x.png', { page: 3 }); } catch (e) { missing = e.message; }
            let tiffOut = null;
            try { await images.convert('/in/logo.svg', '/tmp/x.tif'); } catch (e) { tiffOut = e.message; }
            return { info, p2, conv, svg, svgInfo, crop, pages, missing, tiffOut };
        }"#;
    let (tree, out) = super::modules::run(renderer(), &[("/in/scan.tif", tiff), ("/in/logo.svg", SVG.to_vec())], src);
    let o = out.unwrap();
    assert_eq!((o["info"]["format"].as_str(), o["info"]["frames"].as_u64()), (Some("tiff"), Some(2)), "{o}");
    assert_eq!((o["p2"]["width"].as_u64(), o["p2"]["height"].as_u64()), (Some(15), Some(30)), "{o}");
    let p2 = super::rgb(&tree.read(&vp("/tmp/p2.png")).unwrap());
    assert!(super::near(p2.get_pixel(7, 15), [10, 10, 200]), "page 2 is the blue one");
    assert_eq!((o["conv"]["format"].as_str(), o["conv"]["width"].as_u64()), (Some("jpeg"), Some(40)), "{o}");
    // The SVG is drawn at the asked width (sharp), not enlarged from 120 px.
    assert_eq!((o["svg"]["width"].as_u64(), o["svg"]["height"].as_u64()), (Some(480), Some(240)), "{o}");
    let logo = super::rgb(&tree.read(&vp("/tmp/logo.png")).unwrap());
    assert!(
        super::near(logo.get_pixel(100, 120), [255, 0, 0]) && super::near(logo.get_pixel(400, 120), [255, 255, 255])
    );
    assert_eq!((o["svgInfo"]["format"].as_str(), o["svgInfo"]["scriptsIgnored"].as_bool()), (Some("svg"), Some(true)));
    assert_eq!(o["crop"]["width"], 30, "{o}");
    assert_eq!(o["pages"]["pageCount"], 2, "{o}");
    assert_eq!(o["pages"]["pages"][0]["path"], "/tmp/pages/scan-p2.png", "{o}");
    assert_eq!(
        (o["pages"]["pages"][0]["width"].as_u64(), o["pages"]["pages"][1]["width"].as_u64()),
        (Some(30), Some(40))
    );
    assert!(o["missing"].as_str().unwrap().contains("has 2 page(s); page 3 does not exist"), "{o}");
    assert!(o["tiffOut"].as_str().unwrap().contains("names no format"), "{o}");
}

#[test]
fn view_image_pages_of_a_tiff_and_an_svg_drawn() {
    let h = ImagesHandler::new(Arc::new(renderer()));
    let tiff =
        rgb_tiff(&[(40, 20, [200, 10, 10]), (3000, 10, [10, 10, 200]), (2, 2, [0, 0, 0])], Compression::Lzw, false);
    let page = h.render_page(&vp("/in/scan.tif"), &tiff, 2).unwrap().unwrap();
    assert_eq!(page.page_count, 3);
    let img = super::rgb(&page.png);
    assert_eq!(img.width(), folio_render::handler::VIEW_SIDE, "a wide page is shrunk to the view size");
    assert!(super::near(img.get_pixel(10, 2), [10, 10, 200]));
    let e = h.render_page(&vp("/in/scan.tif"), &tiff, 4).unwrap().unwrap_err();
    assert!(e.contains("has 3 page(s); page 4 does not exist"), "{e}");
    let svg = h.render_page(&vp("/in/logo.svg"), SVG, 1).unwrap().unwrap();
    assert_eq!(svg.page_count, 1);
    assert!(svg.png.starts_with(b"\x89PNG"), "an SVG is shown as a PNG, never as SVG");
    assert!(h.render_page(&vp("/in/a.png"), &super::modules::png(4, 4, |_, _| [0, 0, 0]), 1).is_none());
    let d = h.describe(&vp("/in/scan.tif"), &tiff).unwrap();
    assert_eq!((d["kind"].as_str(), d["frames"].as_u64()), (Some("image"), Some(3)), "{d}");
}

fn corpus() -> Option<PathBuf> {
    let root = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    root.join("MANIFEST.md").exists().then_some(root)
}

/// The corpus's TIFFs and SVGs: every page described, decoded and shown for `view_image`, in
/// bounded time; the broken SVG refused by name. Skipped with a reason when the corpus is absent.
#[test]
fn corpus_tiffs_and_svgs() {
    let Some(root) = corpus() else {
        eprintln!("skipped corpus_tiffs_and_svgs: the corpus is absent (set FOLIO_CORPUS)");
        return;
    };
    let h = ImagesHandler::new(Arc::new(renderer()));
    // (file, pages, first page's size, bigtiff, each page's corner colour); None sizes are only
    // checked to be non-zero, and a page without a known colour must not be one flat colour.
    // Pillow's multipage.tiff is a green, a red and a blue page (Pillow's own test_tiff.py).
    type Case<'a> = (&'a str, u32, Option<(u32, u32)>, Option<bool>, &'a [[u8; 3]]);
    let cases: &[Case] = &[
        ("images/multipage-3-frames.tiff", 3, Some((10, 10)), Some(false), &[[0, 128, 0], [255, 0, 0], [0, 0, 255]]),
        ("images/Crémieux11.tiff", 1, None, Some(false), &[]),
        ("images/bigtiff.tif", 1, Some((128, 128)), Some(true), &[]),
        ("images/inkscape-cube.svg", 1, None, None, &[]),
        ("hostile/flamegraph-with-script.svg", 1, None, None, &[]),
    ];
    for &(file, pages, size, big, corners) in cases {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let name = format!("/in/{file}");
        let t = std::time::Instant::now();
        let info = images::describe(&name, &bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(info.frames, pages, "{file}");
        assert_eq!(info.bigtiff, big, "{file}");
        if let Some(size) = size {
            assert_eq!((info.width, info.height), size, "{file}");
        }
        assert!(info.width > 0 && info.height > 0, "{file}");
        for page in 1..=pages {
            let shown =
                h.render_page(&vp(&name), &bytes, page).unwrap().unwrap_or_else(|e| panic!("{file} p{page}: {e}"));
            assert_eq!(shown.page_count, pages, "{file}");
            let img = super::rgb(&shown.png);
            assert!(img.width() > 0, "{file}");
            match corners.get(page as usize - 1) {
                Some(&c) => assert_eq!(img.get_pixel(0, 0).0, c, "{file} page {page}"),
                None => {
                    let colours: std::collections::HashSet<[u8; 3]> = img.pixels().map(|p| p.0).collect();
                    assert!(colours.len() > 1, "{file} page {page} is one flat colour (garbage or nothing decoded)");
                }
            }
        }
        eprintln!("{file}: {pages} page(s) described and shown in {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    }
    let v: Value = serde_json::to_value(
        images::describe("/f.svg", &std::fs::read(root.join("hostile/flamegraph-with-script.svg")).unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(v["scriptsIgnored"], true, "{v}");
    let broken = std::fs::read(root.join("hostile/corrupt-not-xml.svg")).unwrap();
    let e = images::describe("/in/corrupt-not-xml.svg", &broken).unwrap_err().to_string();
    assert!(e.contains("/in/corrupt-not-xml.svg") && e.contains("hint:"), "{e}");
    let e = h.render_page(&vp("/in/corrupt-not-xml.svg"), &broken, 1).unwrap().unwrap_err();
    assert!(e.contains("not a readable SVG"), "{e}");
}
