//! Pages per second at 150 DPI for a 40-page PDF, next to pypdfium2's raw PDFium rate (render to
//! a bitmap, no encoding) on the same file, in the same run. Run with
//! `cargo run --release -p folio-render --example bench_pdf`.
//!
//! Five Folio figures, each the best of three runs:
//! - render stage: PDFium into Folio's reused pixel buffers, nothing encoded (the same work as
//!   the raw rate);
//! - encode stage: the PNG writer alone over pages rendered beforehand. Rendering and encoding
//!   run on two threads, so with a core free for each, rasterize runs at the slower stage's rate;
//!   on a machine whose other core is busy they add up instead;
//! - rasterize to memory: render + PNG encode, pages kept in memory;
//! - rasterize to files: `Renderer::rasterize_file`, PNG files written to a host directory;
//! - env:render from a script: `rasterize()` called by a script run through a real
//!   environment over a folder (`run_script`), the PNG files written through the environment's
//!   gateway into `/tmp` — what an agent's script gets. Needs the default `adapters` feature.
//!
//! The PDF is made here: 40 Letter pages, each with 45 lines of Helvetica text and a few filled
//! shapes, so pages carry realistic glyph work. pypdfium2 5.15.2 (the wheel the library comes
//! from) is installed with `pip install --user` when missing; if that fails the comparison is
//! skipped with the reason printed.

#![allow(clippy::print_stdout, missing_docs)]

#[path = "../tests/suite/pdfgen.rs"]
#[allow(dead_code)]
mod pdfgen;

use std::process::Command;
use std::time::Instant;

use folio_render::{HostPaths, Pages, RasterOptions, Renderer, Size};

const PAGES: usize = 40;

/// Ends the benchmark with what went wrong, where a closure cannot return it.
fn must<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("bench_pdf: {what}: {e}");
        std::process::exit(1)
    })
}

fn document() -> Vec<u8> {
    let pages: Vec<pdfgen::Page> = (0..PAGES)
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

/// Pages per second of the best of three runs of `f`.
fn rate(mut f: impl FnMut(usize)) -> f64 {
    let mut best = f64::MAX;
    for run in 0..3 {
        let t = Instant::now();
        f(run);
        best = best.min(t.elapsed().as_secs_f64());
    }
    PAGES as f64 / best
}

/// `run_script` over a real folder: the script's `rasterize()` writes PNG files into `/tmp`.
/// Returns the rate for 40 pages, the rate when the pages go into the folder itself (`/out`,
/// pending changes in the overlay: each blob fsynced, one SQLite transaction per file), and the
/// milliseconds of a one-page call (the fixed cost of a script run: starting QuickJS, reading
/// the PDF through the overlay, the run log).
#[cfg(feature = "adapters")]
fn script_rate(pdf: &[u8]) -> Result<(f64, f64, f64), String> {
    use folio_env::{Environment, Status};
    use serde_json::json;

    let dir = tempfile::tempdir().map_err(|e| format!("a temporary folder: {e}"))?;
    let folder = dir.path().join("folder");
    std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    std::fs::write(folder.join("bench40.pdf"), pdf).map_err(|e| format!("{}: {e}", folder.display()))?;
    // env:render and its handler, as folio-host wires them (that crate sits above this one).
    let renderer = std::sync::Arc::new(folio_render::Renderer::new(folio_render::HostPaths::from_host(Some(
        dir.path().join("state"),
    ))));
    let mut registry = folio_script::ModuleRegistry::with_builtins();
    registry.register_native(folio_render::modules::render_module(renderer.clone())).map_err(|e| e.to_string())?;
    let mut opts = folio_env::EnvOptions {
        state_root: Some(dir.path().join("state")),
        engine: Some(std::sync::Arc::new(folio_env::Engine::new(registry, folio_script::ScriptLimits::default()))),
        handlers: vec![std::sync::Arc::new(folio_render::handler::RenderHandler::new(renderer))],
        ..Default::default()
    };
    opts.limits.max_vfs_bytes = 4 << 30;
    let env = Environment::open_folder(&folder, opts).map_err(|e| e.to_string())?;
    let script = "/** Rasterises the benchmark PDF. */\nimport { rasterize } from 'env:render';\nexport default async function main(args) {\n  const r = await rasterize('/bench40.pdf', args.out, { dpi: 150, pages: args.pages });\n  return r.pages.length;\n}\n";
    let wrote = env.call("write_file", json!({"path": "/scripts/bench.js", "content": script}));
    if wrote.status != Status::Success {
        return Err(format!("writing the benchmark script: {}", wrote.message));
    }
    let call = |out: String, pages: serde_json::Value| {
        let res = env.call("run_script", json!({"path": "/scripts/bench.js", "args": {"out": out, "pages": pages}}));
        assert_eq!(res.status, Status::Success, "{}", res.message);
    };
    let mut one = f64::MAX;
    for run in 0..3 {
        let t = Instant::now();
        call(format!("/tmp/one-{run}"), json!([1]));
        one = one.min(t.elapsed().as_secs_f64() * 1000.0);
    }
    let all = rate(|run| call(format!("/tmp/pages-{run}"), json!("all")));
    let folder = rate(|run| call(format!("/out/pages-{run}"), json!("all")));
    Ok((all, folder, one))
}

#[cfg(not(feature = "adapters"))]
fn script_rate(_: &[u8]) -> Result<(f64, f64, f64), String> {
    Err("built without the adapters feature — run with --features adapters".into())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pdf = document();
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("bench40.pdf");
    std::fs::write(&path, &pdf)?;
    let renderer = Renderer::new(HostPaths::from_host(None));
    let engine = renderer.pdfium().unwrap_or_else(|e| {
        eprintln!("bench_pdf: {e}");
        std::process::exit(1)
    });
    println!("PDFium: {}", engine.library_path().display());
    let opts = RasterOptions { pages: Pages::All, size: Some(Size::Dpi(150.0)), ..RasterOptions::default() };

    let raw_before = python_rate(&path);
    let req = folio_render::pdf::PageRequest {
        pages: (1..=PAGES as u32).collect(),
        size: Size::Dpi(150.0),
        format: folio_render::ImageFormat::Png,
        quality: None,
        max_pixels: u64::MAX,
    };
    let render = rate(|_| {
        must(engine.render_pixels("bench40.pdf", &pdf, &req, |_, rows| assert!(!rows.data.is_empty())), "rendering");
    });
    // The encode stage alone, on pages rendered once: what the encoder thread spends a page.
    let mut rendered = Vec::new();
    engine.render_pixels("bench40.pdf", &pdf, &req, |_, rows| {
        rendered.push((rows.width, rows.height, rows.stride, rows.data.to_vec()));
    })?;
    let encode = rate(|_| {
        for (width, height, stride, data) in &rendered {
            let mut out = Vec::new();
            let rows = folio_render::pagepng::RgbRows { width: *width, height: *height, stride: *stride, data };
            must(folio_render::pagepng::encode(&rows, &mut out), "encoding a page");
        }
    });
    drop(rendered);
    let mut png_bytes = 0;
    let memory = rate(|_| {
        let out = must(renderer.rasterize_bytes("bench40.pdf", &pdf, &opts), "rasterising to bytes");
        assert_eq!(out.pages.len(), PAGES);
        png_bytes = out.pages.iter().map(|p| p.bytes.len()).sum::<usize>();
    });
    let files = rate(|run| {
        let out = must(
            renderer.rasterize_file(&path, &dir.path().join(format!("pages-{run}")), &opts),
            "rasterising to files",
        );
        assert_eq!(out.pages.len(), PAGES);
    });
    let script = script_rate(&pdf);

    // The raw rate is measured before and after Folio's own runs and the better one kept, so a
    // burst of load from elsewhere on the machine does not flatter the ratio.
    let raw = match (raw_before, python_rate(&path)) {
        (Ok(a), Ok(b)) => Ok(a.max(b)),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let ratio = |folio: f64| match &raw {
        Ok(raw) => format!("{:.2}× raw", folio / raw),
        Err(_) => "no raw rate".into(),
    };
    println!(
        "40 pages @150 dpi (1275×1650), best of 3; load average now {}:",
        std::fs::read_to_string("/proc/loadavg")
            .map_or_else(|_| "unknown".into(), |l| l.split(' ').take(3).collect::<Vec<_>>().join(" "))
    );
    println!("  folio render stage (PDFium into reused buffers, no encoding): {render:7.2} pages/s  {}", ratio(render));
    println!(
        "  folio rasterize to memory (render + PNG encode):              {memory:7.2} pages/s  {}  ({} KiB of PNG, {} KiB a page)",
        ratio(memory),
        png_bytes / 1024,
        png_bytes / 1024 / PAGES
    );
    println!(
        "  folio encode stage alone (PNG of rendered pages, one thread): {encode:7.2} pages/s  ({:.1} ms a page against {:.1} ms to render)",
        1000.0 / encode,
        1000.0 / render
    );
    println!("  folio rasterize to PNG files (host directory):               {files:7.2} pages/s  {}", ratio(files));
    match &script {
        Ok((s, folder, one)) => {
            println!(
                "  env:render from a script (PNG files via the environment):   {s:7.2} pages/s  {}  (a 1-page run: {one:.0} ms)",
                ratio(*s)
            );
            println!(
                "  the same into the folder (/out: overlay blobs, fsynced):     {folder:7.2} pages/s  {}",
                ratio(*folder)
            );
        }
        Err(why) => println!("  env:render from a script: not measured — {why}"),
    }
    match &raw {
        Ok(raw) => {
            println!("  pypdfium2 5.15.2 raw render (bitmap only, no encoding):     {raw:7.2} pages/s");
            let end_to_end = script.as_ref().map_or(files, |(s, _, _)| *s);
            let verdict = if end_to_end / raw >= 0.8 { "met" } else { "MISSED" };
            println!("target: PNG files from a script ≥ 0.8× raw PDFium — {verdict} ({})", ratio(end_to_end));
        }
        Err(why) => println!("pypdfium2 comparison skipped: {why}"),
    }
    Ok(())
}
