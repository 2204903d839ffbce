//! PDF rasterising through PDFium, checked on pixels.

use folio_render::{DocKind, Pages, RasterOptions, RenderError, Size};

use super::{near, pdfgen, renderer, rgb};

const BLACK: [u8; 3] = [0, 0, 0];
const WHITE: [u8; 3] = [255, 255, 255];
const RED: [u8; 3] = [255, 0, 0];

fn at72() -> RasterOptions {
    RasterOptions { size: Some(Size::Dpi(72.0)), ..RasterOptions::default() }
}

#[test]
fn every_page_renders_with_the_right_size_and_pixels() {
    let r = renderer();
    let out = r.rasterize_bytes("/in/sample.pdf", &pdfgen::sample(), &at72()).unwrap();
    assert_eq!(out.kind, DocKind::Pdf);
    assert_eq!(out.page_count, 3);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let sizes: Vec<_> = out.pages.iter().map(|p| (p.page, p.width, p.height, p.file_name.as_str())).collect();
    assert_eq!(sizes, [(1, 612, 792, "sample-p1.png"), (2, 842, 595, "sample-p2.png"), (3, 300, 300, "sample-p3.png")]);

    // Page 1: a black square from (100,100) to (300,300) in PDF space, i.e. rows 492..692 from the top.
    let p1 = rgb(&out.pages[0].bytes);
    assert_eq!(p1.dimensions(), (612, 792));
    assert!(near(p1.get_pixel(200, 592), BLACK));
    assert!(near(p1.get_pixel(110, 500), BLACK));
    assert!(near(p1.get_pixel(50, 50), WHITE));
    assert!(near(p1.get_pixel(400, 592), WHITE));
    assert!(near(p1.get_pixel(200, 450), WHITE));
    let dark = p1.pixels().filter(|p| p.0.iter().all(|&c| c < 60)).count();
    // 200×200 of square plus some text ink; far less than the page.
    assert!((40_000..60_000).contains(&dark), "dark pixels: {dark}");

    // Page 2: landscape, a red band along the bottom 100 points.
    let p2 = rgb(&out.pages[1].bytes);
    assert!(near(p2.get_pixel(421, 560), RED));
    assert!(near(p2.get_pixel(421, 200), WHITE));

    // Page 3: the 2×2 image stretched over the page: red, green / blue, white.
    let p3 = rgb(&out.pages[2].bytes);
    assert!(near(p3.get_pixel(75, 75), RED));
    assert!(near(p3.get_pixel(225, 75), [0, 255, 0]));
    assert!(near(p3.get_pixel(75, 225), [0, 0, 255]));
    assert!(near(p3.get_pixel(225, 225), WHITE));
}

#[test]
fn dpi_and_width_set_the_pixel_size() {
    let r = renderer();
    let pdf = pdfgen::sample();
    let opts = RasterOptions { pages: Pages::List(vec![1]), size: Some(Size::Dpi(150.0)), ..RasterOptions::default() };
    let out = r.rasterize_bytes("a.pdf", &pdf, &opts).unwrap();
    assert_eq!((out.pages[0].width, out.pages[0].height), (1275, 1650));
    let img = rgb(&out.pages[0].bytes);
    // The square scales with the page: centre (200, 592) pt becomes (417, 1233) px.
    assert!(near(img.get_pixel(417, 1233), BLACK));
    assert!(near(img.get_pixel(800, 1233), WHITE));

    let opts =
        RasterOptions { pages: Pages::List(vec![2, 1]), size: Some(Size::Width(600)), ..RasterOptions::default() };
    let out = r.rasterize_bytes("a.pdf", &pdf, &opts).unwrap();
    let dims: Vec<_> = out.pages.iter().map(|p| (p.page, p.width, p.height)).collect();
    assert_eq!(dims, [(2, 600, 424), (1, 600, 776)]);
}

#[test]
fn jpeg_output_is_a_jpeg_with_the_same_picture() {
    let r = renderer();
    let opts = RasterOptions {
        pages: Pages::List(vec![1]),
        size: Some(Size::Dpi(72.0)),
        format: folio_render::ImageFormat::from_name("jpg"),
        quality: Some(90),
        room: None,
    };
    let out = r.rasterize_bytes("a.pdf", &pdfgen::sample(), &opts).unwrap();
    assert!(out.pages[0].bytes.starts_with(&[0xFF, 0xD8, 0xFF]));
    assert_eq!(out.pages[0].file_name, "a-p1.jpg");
    let img = rgb(&out.pages[0].bytes);
    assert!(near(img.get_pixel(200, 592), BLACK));
    assert!(near(img.get_pixel(50, 50), WHITE));
}

#[test]
fn a_missing_page_names_the_page_count() {
    let r = renderer();
    let opts = RasterOptions { pages: Pages::List(vec![1, 4]), ..RasterOptions::default() };
    let err = r.rasterize_bytes("/in/sample.pdf", &pdfgen::sample(), &opts).unwrap_err();
    assert!(matches!(err, RenderError::NoSuchPage { page: 4, count: 3, .. }), "{err}");
    assert_eq!(err.to_string(), "/in/sample.pdf has 3 page(s); page 4 does not exist — hint: ask for pages 1 to 3");
}

#[test]
fn the_page_cap_warns_for_all_and_refuses_long_lists() {
    let mut r = renderer();
    r.max_pages = 3;
    let pdf = pdfgen::many(5);
    let out = r.rasterize_bytes("/in/many.pdf", &pdf, &at72()).unwrap();
    assert_eq!(out.page_count, 5);
    assert_eq!(out.pages.len(), 3);
    assert!(
        out.warnings[0].contains("rendered pages 1–3 only") && out.warnings[0].contains("pages: [4"),
        "{:?}",
        out.warnings
    );
    let opts = RasterOptions { pages: Pages::List(vec![1, 2, 3, 4]), ..RasterOptions::default() };
    let err = r.rasterize_bytes("/in/many.pdf", &pdf, &opts).unwrap_err();
    assert!(err.to_string().contains("4 pages requested, the limit is 3 per call"), "{err}");
}

fn qpdf(args: &[&str], input: &[u8]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let (inp, out) = (dir.path().join("in.pdf"), dir.path().join("out.pdf"));
    std::fs::write(&inp, input).unwrap();
    let status = std::process::Command::new("qpdf")
        .args(args)
        .arg("--")
        .arg(&inp)
        .arg(&out)
        .status()
        .expect("qpdf must be installed for these tests (scripts/install.sh installs it)");
    assert!(status.success(), "qpdf failed");
    std::fs::read(out).unwrap()
}

#[test]
fn a_password_protected_pdf_is_refused_by_name() {
    let r = renderer();
    let locked = qpdf(&["--encrypt", "secret", "owner", "256"], &pdfgen::sample());
    let err = r.rasterize_bytes("/in/x.pdf", &locked, &RasterOptions::default()).unwrap_err();
    assert!(matches!(err, RenderError::Encrypted { .. }), "{err:?}");
    assert!(err.to_string().starts_with("/in/x.pdf is encrypted"), "{err}");
    assert!(err.to_string().contains("— hint: "), "{err}");
    let info = folio_render::describe::describe(&r, "/in/x.pdf", &locked).unwrap();
    assert_eq!(info["encrypted"], true);
    assert_eq!(info["needsPassword"], true);
}

#[test]
fn an_owner_only_encrypted_pdf_renders_and_says_so() {
    let r = renderer();
    let locked = qpdf(&["--encrypt", "", "owner", "256"], &pdfgen::sample());
    let out = r.rasterize_bytes("/in/y.pdf", &locked, &at72()).unwrap();
    assert!(near(rgb(&out.pages[0].bytes).get_pixel(200, 592), BLACK));
    let info = folio_render::describe::describe(&r, "/in/y.pdf", &locked).unwrap();
    assert_eq!(info["encrypted"], true);
    assert_eq!(info["needsPassword"], false);
    assert_eq!(info["pageCount"], 3);
}

#[test]
fn damaged_pdfs_are_refused_by_name() {
    let r = renderer();
    let mut garbage = b"%PDF-1.7\n".to_vec();
    garbage.extend((0..4000u32).map(|i| (i * 7919 % 251) as u8));
    let err = r.rasterize_bytes("/in/bad.pdf", &garbage, &RasterOptions::default()).unwrap_err();
    assert!(matches!(err, RenderError::Damaged { .. }), "{err:?}");
    assert!(err.to_string().starts_with("/in/bad.pdf is damaged or not a PDF"), "{err}");

    let err = r.rasterize_bytes("/in/empty.pdf", b"", &RasterOptions::default()).unwrap_err();
    assert!(err.to_string().contains("the file is empty"), "{err}");
    let err = r.rasterize_bytes("/in/fake.pdf", b"hello, not a pdf", &RasterOptions::default()).unwrap_err();
    assert!(err.to_string().contains("has no %PDF- header"), "{err}");
}

#[test]
fn rasterize_file_writes_named_pngs() {
    let r = renderer();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("report.pdf");
    std::fs::write(&input, pdfgen::sample()).unwrap();
    let out_dir = dir.path().join("pages");
    let res = r.rasterize_file(&input, &out_dir, &at72()).unwrap();
    assert_eq!(res.page_count, 3);
    let names: Vec<_> = res.pages.iter().map(|p| p.path.rsplit('/').next().unwrap().to_string()).collect();
    assert_eq!(names, ["report-p1.png", "report-p2.png", "report-p3.png"]);
    let img = rgb(&std::fs::read(out_dir.join("report-p1.png")).unwrap());
    assert!(near(img.get_pixel(200, 592), BLACK));
    let json = serde_json::to_value(&res).unwrap();
    assert_eq!(json["pageCount"], 3);
    assert_eq!(json["pages"][1]["width"], 842);
}

#[test]
fn describe_reports_pages_size_metadata_and_text() {
    let r = renderer();
    let info = folio_render::describe::describe(&r, "/in/sample.pdf", &pdfgen::sample()).unwrap();
    assert_eq!(info["kind"], "pdf");
    assert_eq!(info["pageCount"], 3);
    assert_eq!(info["pageSizePt"], serde_json::json!([612.0, 792.0]));
    assert_eq!(info["metadata"]["title"], "Folio sample");
    assert_eq!(info["encrypted"], false);
    assert!(info["textSample"].as_str().unwrap().contains("Hello Folio page one"), "{info}");
}

#[test]
fn options_are_parsed_and_mistakes_named() {
    use serde_json::json;
    let o = RasterOptions::from_json(&json!({"pages": [2, 3], "dpi": 96, "format": "jpeg"})).unwrap();
    assert_eq!(o.pages, Pages::List(vec![2, 3]));
    assert_eq!(o.size, Some(Size::Dpi(96.0)));
    let e = |v| RasterOptions::from_json(&v).unwrap_err().to_string();
    assert!(e(json!({"dpi": 96, "width": 800})).contains("not both"));
    assert!(e(json!({"pages": [0]})).contains("starting at 1"));
    assert!(e(json!({"format": "tiff"})).contains("use one of png"));
    assert!(e(json!({"scale": 2})).contains("unknown option \"scale\""));
}
