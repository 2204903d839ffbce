//! OCR pages per second at 300 dpi through env:ocr (PDFium drawing, OSD, recognition, each a
//! supervised tesseract) beside the `tesseract` command alone on the same page images.
//!
//! `cargo run --release -p folio-ocr --example bench_ocr [corpus dir]`

use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use folio_budget::RunBudget;
use folio_ocr::{Limits, Ocr, RecognizeOptions, Tesseract};
use folio_render::pdf::PageRequest;
use folio_render::{HostPaths, ImageFormat, Renderer, Size};

const FILES: &[&str] = &["pdf/copier-scan-ccitt-ocr-rotate270.pdf", "pdf/scanned-form-2pages-image-only.pdf"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let corpus = std::env::args().nth(1).unwrap_or_else(|| "/work/shared/corpus".into());
    let t = Instant::now();
    let tesseract = Tesseract::discover()?;
    let start_ms = t.elapsed().as_secs_f64() * 1000.0;
    let ocr =
        Ocr { tesseract, renderer: Arc::new(Renderer::new(HostPaths::from_host(None))), limits: Limits::default() };
    let dir = tempfile::tempdir()?;
    let (mut pages, mut ours, mut alone, mut conf) = (0u32, 0.0f64, 0.0f64, Vec::new());
    for rel in FILES {
        let bytes = std::fs::read(format!("{corpus}/{rel}"))?;
        let t = Instant::now();
        let r = ocr.recognize(rel, &bytes, &RecognizeOptions::default(), &RunBudget::unbounded())?;
        ours += t.elapsed().as_secs_f64();
        conf.extend(r.pages.iter().map(|p| p.confidence));
        // The same pages as PDFium draws them, upright, given to tesseract alone.
        let engine = ocr.renderer.pdfium()?;
        for p in &r.pages {
            let req = PageRequest {
                pages: vec![p.page],
                size: Size::Dpi(300.0),
                format: ImageFormat::Png,
                quality: None,
                max_pixels: 200_000_000,
            };
            let mut img = None;
            engine.render_pixels(rel, &bytes, &req, |_, rows| img = Some((rows.width, rows.height, rows.packed())))?;
            let (w, h, rgb) = img.ok_or("no pixels")?;
            let (w, h, rgb) = if p.rotated == 0 { (w, h, rgb) } else { folio_ocr::ocr::rotate(w, h, &rgb, p.rotated) };
            let file = dir.path().join(format!("p{pages}.ppm"));
            folio_ocr::ocr::write_ppm(&file, w, h, &rgb)?;
            let t = Instant::now();
            let status = Command::new(&ocr.tesseract.program)
                .arg(&file)
                .arg(dir.path().join("out"))
                .args(["-l", "eng", "--oem", "1", "--psm", "3", "--dpi", "300", "tsv"])
                .env("OMP_THREAD_LIMIT", "1")
                .stderr(std::process::Stdio::null())
                .status()?;
            alone += t.elapsed().as_secs_f64();
            if !status.success() {
                return Err(format!("tesseract alone failed on {rel} page {}", p.page).into());
            }
            pages += 1;
        }
    }
    println!("tesseract found and checked (--version): {start_ms:.0} ms");
    println!("{pages} pages at 300 dpi, confidences {conf:?}");
    println!(
        "env:ocr (PDFium + OSD + recognition): {:.2} pages/s, {:.0} ms a page",
        f64::from(pages) / ours,
        ours * 1000.0 / f64::from(pages)
    );
    println!(
        "tesseract alone (recognition only):   {:.2} pages/s, {:.0} ms a page",
        f64::from(pages) / alone,
        alone * 1000.0 / f64::from(pages)
    );
    println!("reference (tesseract.js WASM): worker ready 369 ms, 159 ms a page");
    Ok(())
}
