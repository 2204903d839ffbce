//! `folio-sheets`: the workbooks an analyst hands over and receives. A script reaches them
//! through `env:spreadsheets`: read any workbook as records in pages, write styled workbooks
//! with formulas, cached values and native charts, edit cells in place, and hold the result to
//! zero formula errors — recalculated by LibreOffice and checked — before it is presented.
//!
//! # What is here
//!
//! - **Opening** ([`book`]): the format from the bytes first (zip parts, OLE), then the name;
//!   a renamed text file, a zip of something else, an encrypted or damaged workbook, a
//!   decompression bomb and an ODS repeat bomb are refused by name before calamine expands
//!   anything, and a panic inside calamine becomes an error.
//! - **Rows** ([`flat`], [`csvio`], [`cache`]): a sheet flattened to JSON values (dates as ISO
//!   text, errors as their marker), the reference's header rules, CSV in the encodings text
//!   really arrives in, and a per-environment cache of flattened sheets bounded by cells, so
//!   paging through 100k rows parses the file once.
//! - **Writing** ([`create`], [`style`], [`chart`], [`eval`]): a workbook spec — styles,
//!   number formats, formulas, widths, freeze panes, filters, merges, native charts (the shared
//!   chart spec) — written with rust_xlsxwriter; formulas carry cached values where the small
//!   evaluator computes them exactly.
//! - **Editing in place** ([`patch`]): cells rewritten inside the sheet XML, every other part
//!   copied byte for byte, so styles, charts and macros survive `append` and `update`.
//! - **Structure edits** ([`structure`], [`refs`]): rows and columns inserted or deleted by
//!   editing the package; every reference to the sheet (formulas on every sheet, defined
//!   names, chart series, conditional formats, validations, merges) moves as Excel moves it,
//!   and a reference to deleted cells becomes `#REF!`, listed.
//! - **Checking** ([`check`]): every formula error with sheet and cell, and formula cells
//!   without a cached value; `recalculate` runs LibreOffice through
//!   `folio_render::recalc`.
//! - **Operations** ([`ops`], [`ops_write`]): one function per binding, [`bindings::BINDINGS`]
//!   their one table; long work is a `folio_budget` job (`SheetRows`, `OfficeConvert`), refused
//!   up front when it cannot finish in the run.
//!
//! # The script layer
//!
//! With the default `adapters` feature, [`modules`] defines the `env:spreadsheets` native
//! module and [`handler`] the `describe`/`ls` handler; folio-host registers both.
//!
//! # Decisions
//!
//! - **calamine to read, rust_xlsxwriter to write, a byte-level patch to edit.** The reference
//!   suggests umya-spreadsheet for editing; it re-serialises the whole package (losing what it
//!   does not model) and costs 18 more crates. Patching the sheet XML keeps everything else
//!   exactly as it was.
//! - **Cached values, never zeros.** rust_xlsxwriter writes 0 as every formula's result unless
//!   told otherwise; a reader that does not recalculate would show zeros. Computed results are
//!   stored; the rest are left empty, listed by `create`, and found by `check`.

pub mod bindings;
pub mod book;
pub mod cache;
pub mod chart;
pub mod check;
pub mod create;
pub mod csvio;
mod error;
pub mod eval;
pub mod flat;
pub mod layout;
pub mod ops;
pub mod ops_write;
pub mod patch;
pub mod refs;
pub mod structure;
pub mod style;
pub mod values;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use bindings::BINDINGS;
pub use book::Format;
pub use error::{Result, SheetError};
pub use ops::{Call, SheetFs, SheetsHost};

/// The text of a workbook (or CSV) for grep: each sheet as a marker line `--- sheet Name ---`
/// (what folio-env's `part_marker` reads) then its rows, cells separated by tabs.
pub fn extract_text(bytes: &[u8]) -> Result<String> {
    extract_text_named("workbook.xlsx", bytes)
}

/// [`extract_text`] for a file whose name is known (it tells CSV from a workbook).
pub fn extract_text_named(name: &str, bytes: &[u8]) -> Result<String> {
    let format = book::detect(name, bytes)?;
    let mut out = String::new();
    let mut push = |flat: &flat::Flat| {
        out.push_str(&format!("--- sheet {} ---\n", flat.name));
        for row in &flat.rows {
            if row.iter().all(serde_json::Value::is_null) {
                continue;
            }
            let cells: Vec<String> = row.iter().map(csvio::text).collect();
            out.push_str(&cells.join("\t"));
            out.push('\n');
        }
    };
    if format == Format::Csv {
        push(&csvio::read(name, bytes, None)?);
        return Ok(out);
    }
    let mut b = book::Book::open(name, bytes, format)?;
    for sheet in b.worksheets() {
        let range = b.range(&sheet)?;
        push(&flat::Flat::from_range(&sheet, &range));
    }
    Ok(out)
}
