//! Figures for the npm route: the per-run import cost of each vendored library (target ≤ 30 ms
//! p50), and a 10k-row styled workbook through exceljs (time and peak memory).
//!
//! `cargo run --release -p folio-script --example bench_libraries [runs]`
//!
//! Import cost is a run that imports the library minus a run that imports nothing (p50 of each),
//! measured around `Engine::run_blocking`. Runs are spaced by a pause (an agent's tool calls are
//! seconds apart), so the spare context for the next run is ready; the first run of each library
//! (no spare yet: it evaluates the library itself) and back-to-back runs are printed too.
//! Peak memory is the process's peak resident set during the workbook run (VmHWM, reset before
//! it through /proc/self/clear_refs), so it includes the engine and the written file.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_script::{Engine, ModuleRegistry, RunOptions, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};

const LIBRARIES: &[(&str, &str)] = &[
    ("exceljs", "import ExcelJS from 'exceljs';\nexport default () => typeof ExcelJS.Workbook;"),
    ("docx", "import { Document, Packer } from 'docx';\nexport default () => typeof Packer.toBuffer;"),
    ("pdf-lib", "import { PDFDocument } from 'pdf-lib';\nexport default () => typeof PDFDocument.create;"),
    ("@pdf-lib/fontkit", "import fontkit from '@pdf-lib/fontkit';\nexport default () => typeof fontkit.create;"),
    ("pptxgenjs", "import pptxgen from 'pptxgenjs';\nexport default () => typeof pptxgen;"),
];

const WORKBOOK: &str = r#"import ExcelJS from 'exceljs';
export default async function () {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sales', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Id', key: 'id', width: 8 },
    { header: 'Region', key: 'region', width: 14 },
    { header: 'Product', key: 'product', width: 18 },
    { header: 'Units', key: 'units', width: 10 },
    { header: 'Price', key: 'price', width: 12, style: { numFmt: '$#,##0.00' } },
    { header: 'Total', key: 'total', width: 14, style: { numFmt: '$#,##0.00' } },
  ];
  const header = sheet.getRow(1);
  header.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  header.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E78' } };
  const regions = ['North', 'South', 'East', 'West'];
  for (let i = 1; i <= 10000; i++) {
    const units = (i * 7) % 90 + 1, price = ((i * 13) % 500) / 10 + 1;
    const row = sheet.addRow({ id: i, region: regions[i % 4], product: `Product ${i % 37}`, units, price });
    row.getCell('total').value = { formula: `D${i + 1}*E${i + 1}`, result: units * price };
  }
  sheet.autoFilter = 'A1:F1';
  await workbook.xlsx.writeFile('/out/sales.xlsx');
  return sheet.rowCount;
}"#;

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap_or_else(|_| VPath::root())
}

/// Milliseconds of one run of `src` on a fresh tree, and whether it succeeded.
fn timed(engine: &Engine, src: &str) -> (f64, bool) {
    let tree = Arc::new(MemTree::new());
    let _ = tree.write(&vp("/scripts/main.js"), src.as_bytes());
    let started = Instant::now();
    let r = engine.run_blocking(Arc::new(TreeFs::new(tree)), &vp("/scripts/main.js"), None, RunOptions::default());
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    if let Err(e) = &r.outcome {
        eprintln!("run failed: {e}");
    }
    (ms, r.outcome.is_ok())
}

fn percentile(samples: &mut [f64], p: f64) -> f64 {
    samples.sort_by(f64::total_cmp);
    let at = ((samples.len() as f64 - 1.0) * p).round() as usize;
    samples.get(at).copied().unwrap_or(f64::NAN)
}

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let engine = Engine::new(ModuleRegistry::with_builtins(), ScriptLimits::default());
    let baseline_src = "export default () => 1;";
    timed(&engine, baseline_src);
    let mut base: Vec<f64> = (0..runs).map(|_| timed(&engine, baseline_src).0).collect();
    let base_p50 = percentile(&mut base, 0.5);
    println!("baseline run (no import): p50 {base_p50:.1} ms over {runs} runs");
    println!("{:<18} {:>10} {:>10} {:>10} {:>16}", "library", "first ms", "p50 ms", "p95 ms", "back-to-back p50");
    let mut figures = Vec::new();
    for (name, src) in LIBRARIES {
        let (first, ok) = timed(&engine, src);
        let mut spaced = Vec::new();
        for _ in 0..runs {
            std::thread::sleep(Duration::from_millis(600));
            spaced.push(timed(&engine, src).0 - base_p50);
        }
        let mut tight: Vec<f64> = (0..5).map(|_| timed(&engine, src).0 - base_p50).collect();
        let (p50, p95, b2b) =
            (percentile(&mut spaced, 0.5), percentile(&mut spaced, 0.95), percentile(&mut tight, 0.5));
        println!(
            "{name:<18} {:>10.1} {p50:>10.1} {p95:>10.1} {b2b:>16.1}{}",
            first - base_p50,
            if ok { "" } else { "  (the run failed)" }
        );
        figures.push(format!(
            r#"{{"name":"{name}","first_ms":{:.1},"p50_ms":{p50:.1},"p95_ms":{p95:.1},"back_to_back_p50_ms":{b2b:.1}}}"#,
            first - base_p50
        ));
    }

    println!("runs that started from a spare context: {}", engine.runs_from_spares());
    // The 10k-row workbook: warm (a spare with exceljs is ready), peak RSS reset first.
    timed(&engine, WORKBOOK);
    std::thread::sleep(Duration::from_millis(800));
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let rss_before = status_kb("VmRSS:");
    let (ms, ok) = timed(&engine, WORKBOOK);
    let peak = status_kb("VmHWM:");
    println!(
        "exceljs 10k-row styled workbook (6 columns, header fill, number formats, a formula per row, filter, frozen row): {:.2} s, peak RSS {} MB (+{} MB over the {} MB before){}",
        ms / 1000.0,
        peak / 1024,
        peak.saturating_sub(rss_before) / 1024,
        rss_before / 1024,
        if ok { "" } else { " — the run FAILED" }
    );
    if let Ok(dir) = std::env::var("FOLIO_RELIABILITY_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        let json = format!(
            r#"{{"area":"libraries","runs":{runs},"baseline_p50_ms":{base_p50:.1},"imports":[{}],"exceljs_10k_rows":{{"secs":{:.2},"peak_rss_mb":{},"ok":{ok}}}}}"#,
            figures.join(","),
            ms / 1000.0,
            peak / 1024
        );
        let _ = std::fs::write(std::path::Path::new(&dir).join("libraries.json"), json);
    }
}
