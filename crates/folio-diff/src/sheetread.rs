//! One side of a cell diff read into plain text cells: folio-sheets' readers (its format
//! detection with the bomb and encryption refusals, calamine behind its panic guard, its CSV
//! decoding), every value as the text a person reads, formulas by cell.

use std::collections::BTreeMap;

use folio_sheets::Format;
use folio_sheets::book::{Book, detect};
use folio_sheets::csvio;
use folio_sheets::flat::{Flat, text};

use crate::error::{DiffError, Result, Side};

/// One sheet as text.
pub struct Sheet {
    /// Its name (a CSV's one sheet is named after the file).
    pub name: String,
    /// Rows from row 1, each cell's text (`""` when empty), trailing empty cells trimmed.
    pub rows: Vec<Vec<String>>,
    /// Formula text with `=` by (row, column), 0-based.
    pub formulas: BTreeMap<(u32, u32), String>,
}

impl Sheet {
    /// The widest row.
    pub fn width(&self) -> usize {
        self.rows.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// The text at (row, column), `""` when empty or outside.
    pub fn cell(&self, r: usize, c: usize) -> &str {
        self.rows.get(r).and_then(|row| row.get(c)).map_or("", String::as_str)
    }

    /// The formula at (row, column).
    pub fn formula(&self, r: usize, c: usize) -> Option<&str> {
        if self.formulas.is_empty() {
            return None;
        }
        self.formulas.get(&(r as u32, c as u32)).map(String::as_str)
    }
}

fn from_flat(flat: Flat) -> Sheet {
    let rows = flat.rows.iter().map(|row| row.iter().map(text).collect()).collect();
    Sheet { name: flat.name, rows, formulas: flat.formulas.unwrap_or_default() }
}

/// Every worksheet of `bytes` (called `name`), in workbook order.
pub fn read(name: &str, side: Side, bytes: &[u8]) -> Result<Vec<Sheet>> {
    let fail = |source| DiffError::Workbook { name: name.to_string(), side, source: Box::new(source) };
    let format = detect(name, bytes).map_err(fail)?;
    if format == Format::Csv {
        return Ok(vec![from_flat(csvio::read(name, bytes, None).map_err(fail)?)]);
    }
    let mut book = Book::open(name, bytes, format).map_err(fail)?;
    let mut out = Vec::new();
    for sheet in book.worksheets() {
        let range = book.range(&sheet).map_err(fail)?;
        let mut flat = Flat::from_range(&sheet, &range);
        // A format without formulas (or a sheet calamine cannot read them from) compares values.
        if let Ok(formulas) = book.formulas(&sheet) {
            flat = flat.with_formulas(&formulas);
        }
        out.push(from_flat(flat));
    }
    Ok(out)
}
