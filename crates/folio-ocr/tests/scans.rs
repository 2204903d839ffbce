#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]
//! env:ocr against the corpus' scans with the real tesseract and PDFium (each OCR page costs
//! seconds on this machine, so the list is short).

use std::sync::Arc;

use folio_budget::RunBudget;
use folio_ocr::{Limits, Ocr, OcrError, RecognizeOptions, Tesseract};
use folio_render::{HostPaths, Renderer};

fn corpus(rel: &str) -> Vec<u8> {
    // FOLIO_CORPUS, else `shared/corpus` beside the checkout (or beside a worktree's parent).
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            ["../../../shared/corpus", "../../../../shared/corpus"].iter().map(|r| here.join(r)).find(|d| d.is_dir())
        })
        .unwrap_or_else(|| here.join("../../../shared/corpus"));
    std::fs::read(dir.join(rel))
        .unwrap_or_else(|e| panic!("{rel} in the corpus at {} (set FOLIO_CORPUS): {e}", dir.display()))
}

fn ocr() -> Ocr {
    Ocr {
        tesseract: Tesseract::discover().unwrap(),
        renderer: Arc::new(Renderer::new(HostPaths::from_host(None))),
        limits: Limits::default(),
    }
}

#[test]
fn the_sideways_copier_scan_reads_upright_in_order() {
    let bytes = corpus("pdf/copier-scan-ccitt-ocr-rotate270.pdf");
    let r = ocr().recognize("/in/scan.pdf", &bytes, &RecognizeOptions::default(), &RunBudget::unbounded()).unwrap();
    let page = &r.pages[0];
    eprintln!("rotated {} conf {} text:\n{}", page.rotated, page.confidence, page.text);
    // The page is stored sideways (/Rotate 270); PDFium draws it upright, so OSD leaves it.
    assert_eq!(page.rotated, 0);
    let heading = page.text.find("Helvetica").expect("no Helvetica heading");
    let lorem = page.text.find("Lorem ipsum").expect("no Lorem ipsum");
    assert!(heading < lorem, "the heading comes before its lines");
    assert!(page.text.find("dolor sit amet").is_some_and(|d| d > lorem), "the first line reads in order");
    assert!(page.confidence >= 85.0, "confidence {}", page.confidence);
    assert!(!page.words.is_empty() && page.words.iter().all(|w| w.bbox[2] > 0));
}

#[test]
fn the_two_page_form_gives_both_pages_and_a_text_pdf_needs_no_ocr() {
    let o = ocr();
    let form = corpus("pdf/scanned-form-2pages-image-only.pdf");
    let d = o.describe("/in/form.pdf", &form).unwrap();
    assert_eq!((d.total_pages, d.needs_ocr, d.text_layer_pages.len()), (2, true, 0));
    assert!(d.languages.contains(&"eng".to_string()));
    let r = o.recognize("/in/form.pdf", &form, &RecognizeOptions::default(), &RunBudget::unbounded()).unwrap();
    assert_eq!(r.pages.iter().map(|p| p.page).collect::<Vec<_>>(), vec![1, 2]);
    assert!(r.pages.iter().all(|p| !p.text.trim().is_empty()), "a page read nothing: {r:?}");
    assert_eq!(r.text.matches("\n\u{c}\n").count(), 1);

    let text = corpus("pdf/minimal-1page-pdftex.pdf");
    let d = o.describe("/in/t.pdf", &text).unwrap();
    assert_eq!((d.needs_ocr, d.text_layer_pages.clone()), (false, vec![1]), "{d:?}");
}

#[test]
fn a_language_without_data_is_refused_naming_its_package() {
    let bytes = corpus("pdf/copier-scan-ccitt-ocr-rotate270.pdf");
    let opts = RecognizeOptions { lang: Some("deu".into()), ..RecognizeOptions::default() };
    let err = ocr().recognize("/in/scan.pdf", &bytes, &opts, &RunBudget::unbounded()).unwrap_err();
    assert!(matches!(err, OcrError::Language { .. }), "{err}");
    let msg = err.to_string();
    for part in ["'deu'", "tesseract-ocr-deu", "brew install tesseract-lang", "winget install"] {
        assert!(msg.contains(part), "{part} missing from: {msg}");
    }
}

#[test]
fn a_job_that_cannot_fit_the_budget_is_refused_before_any_page() {
    let bytes = corpus("pdf/scanned-form-2pages-image-only.pdf");
    let rates = Arc::new(folio_budget::Rates::in_memory());
    let budget = RunBudget::new(Some(std::time::Instant::now() + std::time::Duration::from_secs(2)), rates);
    let started = std::time::Instant::now();
    let err = ocr().recognize("/in/form.pdf", &bytes, &RecognizeOptions::default(), &budget).unwrap_err();
    assert!(matches!(err, OcrError::Budget(folio_budget::BudgetError::OverBudget(_))), "{err}");
    assert!(started.elapsed().as_secs() < 2, "it worked before refusing");
}

#[test]
fn a_missing_tesseract_is_named_with_its_install_line() {
    let err = Tesseract::at(std::path::Path::new("/nonexistent/tesseract")).unwrap_err();
    let rows = folio_ocr::doctor_rows(&Err(err));
    assert_eq!(rows.len(), 1, "no language rows without tesseract: {rows:?}");
    let (ok, detail, fix) = (rows[0].ok, rows[0].detail.clone(), rows[0].fix.clone());
    assert!(!ok);
    assert!(detail.contains("/nonexistent/tesseract") && detail.contains("env:ocr is not offered"), "{detail}");
    assert!(fix.contains("apt-get install tesseract-ocr") && fix.contains("brew") && fix.contains("winget"), "{fix}");
}

#[test]
fn a_page_drawn_sideways_is_detected_and_turned_back_upright() {
    use folio_render::pdf::PageRequest;
    let bytes = corpus("pdf/copier-scan-ccitt-ocr-rotate270.pdf");
    let o = ocr();
    let engine = o.renderer.pdfium().unwrap();
    let req = PageRequest {
        pages: vec![1],
        size: folio_render::Size::Dpi(150.0),
        format: folio_render::ImageFormat::Png,
        quality: None,
        max_pixels: 50_000_000,
    };
    let mut upright = None;
    engine
        .render_pixels("/in/scan.pdf", &bytes, &req, |_, rows| upright = Some((rows.width, rows.height, rows.packed())))
        .unwrap();
    let (w, h, rgb) = upright.unwrap();
    let (sw, sh, sideways) = folio_ocr::ocr::rotate(w, h, &rgb, 90);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sideways.ppm");
    folio_ocr::ocr::write_ppm(&file, sw, sh, &sideways).unwrap();
    let limits = folio_budget::ChildLimits::timeout(std::time::Duration::from_secs(60));
    let turn = o.tesseract.rotation(&file, 150, &limits, "/in/scan.pdf", 1);
    assert_eq!(turn, Some(270), "OSD on a page turned a quarter clockwise");
    assert_eq!(
        folio_ocr::ocr::rotate(sw, sh, &sideways, 270),
        (w, h, rgb),
        "turning by OSD's answer restores the page"
    );
}

/// A white 24-bit BMP of `w`×`h` (BMP is one of the formats env:ocr reads as it is).
fn white_bmp(w: u32, h: u32) -> Vec<u8> {
    let row = (w * 3).div_ceil(4) * 4;
    let size = 54 + row * h;
    let mut b = Vec::with_capacity(size as usize);
    b.extend_from_slice(b"BM");
    for v in [size, 0, 54, 40] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&(w as i32).to_le_bytes());
    b.extend_from_slice(&(h as i32).to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&24u16.to_le_bytes());
    for v in [0u32, row * h, 2835, 2835, 0, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.resize(size as usize, 0xFF);
    b
}

#[test]
fn a_blank_page_says_nothing_was_read() {
    let r = ocr()
        .recognize("/in/blank.bmp", &white_bmp(1200, 1600), &RecognizeOptions::default(), &RunBudget::unbounded())
        .unwrap();
    assert_eq!((r.pages.len(), r.characters, r.confidence), (1, 0, 0.0), "{r:?}");
    let note = r.note.unwrap_or_default();
    assert!(note.contains("nothing was read") && note.contains("try lang"), "{note}");
    assert!(!note.contains("too small"), "a 1600 px page is not small: {note}");
}

#[test]
fn a_small_image_says_it_is_too_small_naming_its_size() {
    let r = ocr()
        .recognize("/in/thumb.bmp", &white_bmp(320, 200), &RecognizeOptions::default(), &RunBudget::unbounded())
        .unwrap();
    let note = r.note.unwrap_or_default();
    assert!(note.contains("page 1 is 320 px on its long edge (under 1000): too small to read well"), "{note}");
}

#[test]
fn pages_past_the_per_call_cap_are_named_with_how_to_ask_for_them() {
    let form = corpus("pdf/scanned-form-2pages-image-only.pdf");
    let o = Ocr { limits: Limits { max_pages: 1, ..Limits::default() }, ..ocr() };
    let r = o.recognize("/in/form.pdf", &form, &RecognizeOptions::default(), &RunBudget::unbounded()).unwrap();
    assert_eq!((r.pages.len(), r.pages[0].page, r.total_pages), (1, 1, 2), "{r:?}");
    let note = r.note.unwrap_or_default();
    assert!(note.contains("read the first 1 of 2 pages asked for (at most 1 a call)"), "{note}");
    assert!(note.contains("{pages: [2, ...]}"), "{note}");
}
