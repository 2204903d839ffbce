//! An Office file's first page as a PNG, cold and warm, for each `.docx` of the corpus's
//! `documents/` folder (`FOLIO_CORPUS` or `../shared/corpus`). Run with
//! `cargo run --release -p folio-render --example bench_office`.
//!
//! - cold: the one-shot route, a fresh LibreOffice for the conversion (today's behaviour before
//!   the warm instance; `office_server::set_warm(false)`);
//! - warm: the same conversion handed to the profile's warm LibreOffice, which is started (and
//!   its start timed separately) before the first file, best of three.
//!
//! Both include PDFium rendering page 1 at 150 DPI and encoding it as PNG. The cache of recent
//! conversions is cleared before every measurement, so every figure is a LibreOffice run.
//! Target: ≤ 0.5 s warm. Measured on the 2-core build machine (LibreOffice 7.4.7, 9 corpus
//! files): cold 1.16–1.96 s (one outlier at 5.9 s while the machine was busy), warm
//! 0.070–0.116 s; starting the instance plus its first conversion 1.9 s.

#![allow(clippy::print_stdout, missing_docs)]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use folio_render::office::{convert_to_pdf, find_soffice, forget_converted};
use folio_render::office_server::set_warm;
use folio_render::{HostPaths, Pages, RasterOptions, Renderer};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    dir.join("documents").is_dir().then_some(dir)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Some(corpus) = corpus() else {
        println!("bench_office: skipped — no corpus (set FOLIO_CORPUS or put it at ../shared/corpus)");
        return Ok(());
    };
    let renderer = Renderer::new(HostPaths::from_host(None));
    let Ok(soffice) = find_soffice(None, &renderer.host) else {
        println!("bench_office: skipped — LibreOffice is not installed");
        return Ok(());
    };
    let engine = match renderer.pdfium() {
        Ok(e) => e,
        Err(e) => {
            println!("bench_office: skipped — {e}");
            return Ok(());
        }
    };
    let profile = tempfile::tempdir()?;
    let limits = renderer.office_limits();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(corpus.join("documents"))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "docx"))
        .collect();
    docs.sort();
    let first_page = |name: &str, bytes: &[u8]| -> Result<Duration, String> {
        forget_converted();
        let t = Instant::now();
        let pdf = convert_to_pdf(name, bytes, &soffice, profile.path(), &limits).map_err(|e| e.to_string())?;
        let opts = RasterOptions { pages: Pages::List(vec![1]), ..RasterOptions::default() };
        let png = renderer.rasterize_bytes("first.pdf", &pdf, &opts).map_err(|e| e.to_string())?;
        assert!(!png.pages.is_empty());
        Ok(t.elapsed())
    };
    let _ = &engine;
    // A first cold run initialises the fresh profile; it is not a figure.
    let warmup = std::fs::read(&docs[0])?;
    set_warm(false);
    let _ = first_page("init.docx", &warmup);
    let mut rows = Vec::new();
    for doc in &docs {
        let name = doc.file_name().ok_or("a document path has no file name")?.to_string_lossy().to_string();
        let bytes = std::fs::read(doc)?;
        set_warm(false);
        let cold = first_page(&name, &bytes);
        rows.push((name, bytes, cold));
    }
    set_warm(true);
    let t = Instant::now();
    let _ = first_page("start.docx", &warmup);
    println!("warm instance start + first conversion: {:.2} s", t.elapsed().as_secs_f64());
    println!("{:<32} {:>9} {:>9}", "document", "cold s", "warm s");
    let mut worst = 0f64;
    for (name, bytes, cold) in &rows {
        let warm = (0..3).filter_map(|_| first_page(name, bytes).ok()).min();
        let fmt = |d: Option<Duration>| d.map_or("failed".to_string(), |d| format!("{:.3}", d.as_secs_f64()));
        if let Some(w) = warm {
            worst = worst.max(w.as_secs_f64());
        }
        println!("{name:<32} {:>9} {:>9}", fmt(cold.as_ref().ok().copied()), fmt(warm));
        if let Err(e) = cold {
            println!("  cold: {e}");
        }
    }
    println!("slowest warm first page: {worst:.3} s (target ≤ 0.5 s)");
    Ok(())
}
