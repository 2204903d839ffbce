//! Pages per second at 150 DPI for a 40-page PDF: Folio's `rasterize` (render + PNG encode)
//! next to pypdfium2's raw PDFium rate (render to a bitmap, no encoding) on the same file, in
//! the same run. Run with `cargo run --release -p folio-render --no-default-features --example bench_pdf`.
//!
//! The PDF is made here: 40 Letter pages, each with 45 lines of Helvetica text and a few filled
//! shapes, so pages carry realistic glyph work. pypdfium2 5.15.2 (the wheel the library comes
//! from) is installed with `pip install --user` when missing; if that fails the comparison is
//! skipped with the reason printed.

#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

#[path = "../tests/suite/pdfgen.rs"]
#[allow(dead_code)]
mod pdfgen;

use std::process::Command;
use std::time::Instant;

use folio_render::{HostPaths, Pages, RasterOptions, Renderer, Size};

fn document() -> Vec<u8> {
    let pages: Vec<pdfgen::Page> = (0..40)
        .map(|i| {
            let mut c = String::new();
            for l in 0..45 {
                c += &pdfgen::text(
                    54.0,
                    740.0 - 15.0 * l as f32,
                    10.0,
                    &format!("Page {} line {l}: the quick brown fox jumps over the lazy dog 0123456789", i + 1),
                );
            }
            c += &pdfgen::rect(0.2, 0.4, 0.8, 400.0, 60.0, 150.0, 80.0);
            c += &pdfgen::rect(0.9, 0.5, 0.1, 60.0, 40.0, 200.0, 30.0);
            pdfgen::Page::new(612.0, 792.0, &c)
        })
        .collect();
    pdfgen::pdf(&pages, "Bench")
}

const PY: &str = r#"
import sys, time
import pypdfium2 as pdfium
pdf = pdfium.PdfDocument(sys.argv[1])
n = len(pdf)
best = None
for _ in range(3):
    t = time.perf_counter()
    for i in range(n):
        page = pdf[i]
        bm = page.render(scale=150/72)
        bm.close(); page.close()
    dt = time.perf_counter() - t
    best = dt if best is None or dt < best else best
print(f"{n/best:.2f}")
"#;

fn python_rate(path: &std::path::Path) -> Result<f64, String> {
    let have =
        Command::new("python3").args(["-c", "import pypdfium2"]).status().map_err(|e| format!("python3: {e}"))?;
    if !have.success() {
        let ok = Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "--user", "pypdfium2==5.15.2"])
            .status()
            .map_err(|e| format!("pip: {e}"))?;
        if !ok.success() {
            return Err("pip install --user pypdfium2==5.15.2 failed".into());
        }
    }
    let out = Command::new("python3").args(["-c", PY]).arg(path).output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    String::from_utf8_lossy(&out.stdout).trim().parse().map_err(|e| format!("{e}"))
}

fn main() {
    let pdf = document();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench40.pdf");
    std::fs::write(&path, &pdf).unwrap();
    let renderer = Renderer::new(HostPaths::from_host(None));
    let engine = renderer.pdfium().unwrap_or_else(|e| {
        eprintln!("bench_pdf: {e}");
        std::process::exit(1)
    });
    println!("PDFium: {}", engine.library_path().display());
    let opts = RasterOptions { pages: Pages::All, size: Some(Size::Dpi(150.0)), ..RasterOptions::default() };
    let mut best = f64::MAX;
    let mut bytes = 0;
    for _ in 0..3 {
        let t = Instant::now();
        let out = renderer.rasterize_bytes("bench40.pdf", &pdf, &opts).unwrap();
        best = best.min(t.elapsed().as_secs_f64());
        assert_eq!(out.pages.len(), 40);
        bytes = out.pages.iter().map(|p| p.bytes.len()).sum::<usize>();
    }
    let folio = 40.0 / best;
    println!(
        "folio rasterize, 40 pages @150 dpi, PNG encoded: {folio:.2} pages/s ({:.1} ms/page, {} KiB of PNG)",
        1000.0 * best / 40.0,
        bytes / 1024
    );
    let req = folio_render::pdf::PageRequest {
        pages: (1..=40).collect(),
        size: Size::Dpi(150.0),
        format: folio_render::ImageFormat::Png,
        quality: None,
        max_pixels: u64::MAX,
    };
    let mut best_raw = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        engine.render_pixels("bench40.pdf", &pdf, &req, |_, _, _, px| assert!(!px.is_empty())).unwrap();
        best_raw = best_raw.min(t.elapsed().as_secs_f64());
    }
    let folio_raw = 40.0 / best_raw;
    println!("folio render stage (PDFium into reused buffers, no encoding): {folio_raw:.2} pages/s");
    match python_rate(&path) {
        Ok(raw) => {
            println!("pypdfium2 5.15.2 raw render (bitmap only, no encoding): {raw:.2} pages/s");
            println!("ratio, same work (render only): {:.2}× (target ≥ 0.8×)", folio_raw / raw);
            println!("ratio, folio with PNG files vs raw render: {:.2}×", folio / raw);
        }
        Err(why) => println!("pypdfium2 comparison skipped: {why}"),
    }
}
