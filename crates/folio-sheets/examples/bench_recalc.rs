//! Recalculation of a 50,000-row workbook (two formula columns): LibreOffice's full re-save
//! beside the values-only merge `recalculate` now does on top of it (the re-save is the
//! calculator; the merge writes only the cached values back into the original).
//! `cargo run --release -p folio-sheets --example bench_recalc`.

use std::time::{Duration, Instant};

use folio_budget::ChildLimits;
use folio_render::HostPaths;
use rust_xlsxwriter::{Formula, Workbook};

fn main() -> Result<(), String> {
    const ROWS: u32 = 50_000;
    let mut book = Workbook::new();
    let ws = book.add_worksheet();
    ws.set_freeze_panes(1, 0).map_err(|e| e.to_string())?;
    for r in 1..=ROWS {
        ws.write_number(r, 0, f64::from(r)).map_err(|e| e.to_string())?;
        ws.write_formula(r, 1, Formula::new(format!("=A{}*2", r + 1))).map_err(|e| e.to_string())?;
        ws.write_formula(r, 2, Formula::new(format!("=IF(A{}>25000,\"big\",\"\")", r + 1)))
            .map_err(|e| e.to_string())?;
    }
    let original = book.save_to_buffer().map_err(|e| e.to_string())?;
    let soffice = folio_render::office::find_soffice(None, &HostPaths::from_host(None))?;
    let profile = folio_render::recalc::recalc_profile_dir();
    let limits = ChildLimits::timeout(Duration::from_secs(600));
    // A warm-up conversion of another, tiny workbook (the same bytes would be answered from the
    // conversion cache), so neither figure carries LibreOffice's start.
    let mut tiny = Workbook::new();
    tiny.add_worksheet().write_formula(0, 0, Formula::new("=1+1")).map_err(|e| e.to_string())?;
    let tiny = tiny.save_to_buffer().map_err(|e| e.to_string())?;
    let _ = folio_render::recalc::recalculate("warm.xlsx", &tiny, &soffice, &profile, &limits);
    let t = Instant::now();
    let resaved = folio_render::recalc::recalculate("big.xlsx", &original, &soffice, &profile, &limits)
        .map_err(|e| e.to_string())?;
    let lo = t.elapsed();
    let t = Instant::now();
    let (merged, changed) = folio_sheets::values::merge("big.xlsx", &original, &resaved).map_err(|e| e.to_string())?;
    let merge = t.elapsed();
    println!("{ROWS} rows, {} formulas, original {} KB", ROWS * 2, original.len() / 1024);
    println!("LibreOffice full re-save (the calculator): {:.2} s, {} KB", lo.as_secs_f64(), resaved.len() / 1024);
    println!(
        "values-only merge into the original: {:.3} s more ({changed} cells), {} KB; recalculate total {:.2} s",
        merge.as_secs_f64(),
        merged.len() / 1024,
        (lo + merge).as_secs_f64()
    );
    Ok(())
}
