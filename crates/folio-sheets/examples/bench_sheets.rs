//! Prints env:spreadsheets' figures on this machine: a 10k-row styled workbook written through
//! the module (time, peak memory), and 100k rows read in 20 pages (first page, the rest from the
//! cache). `cargo run --release -p folio-sheets --example bench_sheets`.

use std::sync::Arc;
use std::time::Instant;

use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_sheets::SheetsHost;
use folio_sheets::modules::spreadsheets_module;
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn run(engine: &Engine, tree: &Arc<MemTree>, src: &str) -> Result<Value, String> {
    let main = VPath::parse("/scripts/main.js").map_err(|e| e.to_string())?;
    tree.write(&main, src.as_bytes()).map_err(|e| e.to_string())?;
    let res = engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &main, None, RunOptions::default());
    match res.outcome {
        Ok(RunValue::Json(v)) => Ok(v),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

fn main() {
    let host = Arc::new(SheetsHost::from_host(None));
    let mut reg = ModuleRegistry::with_builtins();
    if let Err(e) = reg.register_native(spreadsheets_module(host)) {
        println!("cannot register env:spreadsheets: {e}");
        return;
    }
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 600_000, ..ScriptLimits::default() });
    let tree = Arc::new(MemTree::new());
    let before = peak_mb();
    let t = Instant::now();
    let styled = r#"
        import { create } from 'env:spreadsheets';
        export default async function () {
            const rows = [];
            for (let i = 0; i < 10000; i++) rows.push({ Date: `2024-${String(1 + i % 12).padStart(2, '0')}-01`, Region: ['North', 'South', 'East', 'West'][i % 4],
                Units: (i * 7) % 101, Price: 2.5 + (i % 9), Revenue: `=C${i + 2}*D${i + 2}` });
            return await create('/out/styled.xlsx', { sheets: [{ name: 'Sales',
                columns: [{ header: 'Date', width: 12 }, 'Region', { header: 'Units', numFmt: '#,##0' }, { header: 'Price', numFmt: '$#,##0.00' }, { header: 'Revenue', numFmt: '$#,##0.00' }],
                rows, styles: { 'A1:E1': { bold: true, fill: '#DDEBF7', border: 'thin' } }, freeze: 'A2', autoFilter: true,
                cells: { G1: 'Total', G2: '=SUM(E2:E10001)' },
                charts: [{ type: 'bar', title: 'Units', categories: 'Sales!$B$2:$B$13', series: [{ name: 'Units', values: 'Sales!$C$2:$C$13' }], at: 'I2' }] }] });
        }"#;
    match run(&engine, &tree, styled) {
        Ok(v) => println!(
            "10k-row styled workbook (5 columns, 10,001 formulas with cached values, a chart) through env:spreadsheets: {:.0} ms, {} KiB, {} formulas cached of {}; peak RSS {:.0} MB (was {:.0} MB before)",
            t.elapsed().as_secs_f64() * 1000.0,
            v["bytes"].as_u64().unwrap_or(0) / 1024,
            v["cached"],
            v["formulas"],
            peak_mb(),
            before
        ),
        Err(e) => println!("styled workbook failed: {e}"),
    }
    let make = r#"
        import { write } from 'env:spreadsheets';
        export default async function () {
            const rows = [['id', 'region', 'units', 'price', 'note', 'flag']];
            for (let i = 0; i < 100000; i++) rows.push([i, ['north', 'south', 'east', 'west'][i % 4], (i * 7) % 101, 2.5, `row ${i}`, i % 2 === 0]);
            return await write('/in/100k.xlsx', rows);
        }"#;
    let t = Instant::now();
    match run(&engine, &tree, make) {
        Ok(v) => println!(
            "100k×6 workbook written with write(): {:.0} ms, {} KiB",
            t.elapsed().as_secs_f64() * 1000.0,
            v["bytes"].as_u64().unwrap_or(0) / 1024
        ),
        Err(e) => println!("100k workbook failed: {e}"),
    }
    let pages = r#"
        import { read } from 'env:spreadsheets';
        export default async function () {
            const times = []; let offset = 0; let n = 0;
            while (offset !== null) {
                const t = Date.now();
                const p = await read('/in/100k.xlsx', { offset, limit: 5000 });
                times.push(Date.now() - t); n += p.rows.length; offset = p.nextOffset;
            }
            return { n, pages: times.length, first: times[0], rest: times.slice(1).reduce((a, b) => a + b, 0) };
        }"#;
    let t = Instant::now();
    match run(&engine, &tree, pages) {
        Ok(v) => println!(
            "100k rows read in {} pages of 5000: {:.0} ms in all (first page {} ms incl. parsing, the other {} pages {} ms from the cache); {} records; peak RSS {:.0} MB",
            v["pages"],
            t.elapsed().as_secs_f64() * 1000.0,
            v["first"],
            v["pages"].as_u64().unwrap_or(1) - 1,
            v["rest"],
            v["n"],
            peak_mb()
        ),
        Err(e) => println!("paged read failed: {e}"),
    }
}
