//! The `env:spreadsheets` native module for folio-script's registry. This layer only adapts:
//! the run's [`ScriptFs`] (the environment's gateway) becomes the operations' [`SheetFs`], each
//! binding of [`crate::bindings::BINDINGS`] becomes an async host function whose work runs on tokio's
//! blocking pool (the run waits for it through `CallContext::work`), and errors become the
//! operation's own sentence. Writing bindings are refused during write-time validation.
//!
//! Register it with `registry.register_native(spreadsheets_module(host))`; folio-host does,
//! from its `MODULES` table.

use std::sync::Arc;

use folio_script::blocking::{BlockingCall, BlockingSpec, blocking_function};
use folio_script::{NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;

use crate::bindings::Binding;
use crate::ops::{Call, SheetFs, SheetsHost};

/// The gateway as the operations see it.
struct GatewayFs(Arc<dyn ScriptFs>);

fn vpath(raw: &str) -> Result<VPath, String> {
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

impl SheetFs for GatewayFs {
    fn read(&self, path: &str) -> Result<Vec<u8>, String> {
        self.0.read(&vpath(path)?).map_err(|e| e.to_string())
    }
    fn write(&self, path: &str, bytes: &[u8]) -> Result<(), String> {
        let p = vpath(path)?;
        if let Some(parent) = p.parent().filter(|d| d.as_str() != "/") {
            self.0.mkdir(&parent).map_err(|e| e.to_string())?;
        }
        self.0.write(&p, bytes).map_err(|e| e.to_string())
    }
    fn stat(&self, path: &str) -> Result<Option<(u64, i64)>, String> {
        Ok(self.0.stat(&vpath(path)?).map_err(|e| e.to_string())?.map(|s| (s.size, s.mtime_ms)))
    }
    fn scope(&self) -> u64 {
        self.0.scope()
    }
}

fn function(binding: &'static Binding, host: Arc<SheetsHost>) -> NativeFunction {
    let spec = BlockingSpec::new(binding.name, binding.writes, "a path, rows or an options object");
    blocking_function(spec, move |BlockingCall { args, fs, budget }| {
        let fs = GatewayFs(fs);
        let call = Call { host: &host, fs: &fs, budget: &budget, op: binding.name };
        (binding.run)(&call, &args).map_err(|e| e.to_string())
    })
}

/// `env:spreadsheets` over `host` (its cache and LibreOffice).
pub fn spreadsheets_module(host: Arc<SheetsHost>) -> NativeModule {
    NativeModule {
        name: "spreadsheets".into(),
        description: "Workbooks: read xlsx/xlsm/xlsb/xls/ods/csv as records in pages; write styled workbooks with formulas (cached values), charts, filters and merges; append and edit in place; insert and delete rows and columns (formulas, names, charts and rules follow); recalculate with LibreOffice; check for formula errors.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: SPREADSHEETS_DTS.into(),
        docs: SPREADSHEETS_README.into(),
        functions: crate::bindings::BINDINGS.iter().map(|b| function(b, Arc::clone(&host))).collect(),
        js_api: None,
    }
}

/// The module's declarations (`/std/spreadsheets/index.d.ts`).
pub const SPREADSHEETS_DTS: &str = include_str!("spreadsheets.d.ts");
/// The module's README (`/std/spreadsheets/README.md`).
pub const SPREADSHEETS_README: &str = include_str!("spreadsheets.md");

/// The skill `spreadsheets`: (name, summary, body) — describe, read in pages, write, recalculate,
/// check, then present.
pub const SKILL: (&str, &str, &str) = (
    "spreadsheets",
    "Workbooks (env:spreadsheets): describe first, read in pages, write or create styled workbooks, recalculate, check for zero formula errors, then present.",
    r#"# Workbooks: describe → read in pages → write → recalculate → check → present

1. `describe(path)` first: sheets with their row counts, headers and a sample, so you read the right sheet with the right header row.
2. Read in pages: `read(path, {sheet, offset, limit})` returns `{headers, rows, totalRows, nextOffset}`; loop until `nextOffset` is null. Pages after the first are served from a cache.
3. Write: `write(path, records)` for a plain table, `create(path, spec)` for a styled deliverable (styles, number formats, formulas, widths, freeze panes, filters, merges, native charts).
4. `recalculate(path)` (LibreOffice) stores a computed value in every formula cell; `check(path)` must report `ok: true` (zero errors, nothing uncached) before you `present` the file.

```js
import { describe, read, create, recalculate, check } from 'env:spreadsheets';
export default async function main() {
  const d = await describe('/in/sales.csv');
  const { rows } = await read('/in/sales.csv', { limit: 5000 });
  const n = rows.length;
  await create('/out/q3.xlsx', { sheets: [{
    name: 'Q3', columns: [{ header: 'Region', width: 18 }, { header: 'Revenue', numFmt: '$#,##0' }],
    rows: [...rows.map(r => ({ Region: r.region, Revenue: r.revenue })), { Region: 'Total', Revenue: `=SUM(B2:B${n + 1})` }],
    styles: { 'A1:B1': { bold: true, fill: '#DDEBF7' } }, freeze: 'A2', autoFilter: true,
    charts: [{ type: 'bar', title: 'Revenue by region', categories: `Q3!$A$2:$A$${n + 1}`,
               series: [{ name: 'Revenue', values: `Q3!$B$2:$B$${n + 1}` }], at: 'D2' }],
  }] });
  await recalculate('/out/q3.xlsx');
  const c = await check('/out/q3.xlsx');
  if (!c.ok) throw new Error(JSON.stringify(c.errors.slice(0, 5)));
  return { sheets: d.sheets.length, rows: n };
}
```

Costly mistakes:
- Reading a 200k-row sheet in one call: the limit is 100,000 records; page with `{offset, limit}`.
- Guessing a sheet name: a wrong one is refused with the real names listed; `describe` tells you first.
- Presenting without `check`: a `#REF!` or `#DIV/0!` in a deliverable is the error people notice; fix the formula, write again, recalculate, check again.
- Inserting or deleting rows with exceljs (`spliceRows`): formulas keep pointing at the old rows, silently. Use `insertRows`/`deleteRows`/`insertColumns`/`deleteColumns(path, {sheet, at, count})`: formulas on every sheet, defined names, charts, conditional formats, validations and merges move as in Excel; `refErrors` lists references that became `#REF!`; then `recalculate` and `check`. New conditional formats or validations cannot be written (existing ones are kept and moved).
- Rebuilding a workbook to change a few cells: `update(path, {cells: {B7: 1200, C9: '=SUM(C2:C8)'}})` edits in place and keeps every style, chart and macro.
"#,
);
