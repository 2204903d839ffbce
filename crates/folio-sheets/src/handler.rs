//! The `describe` handler for folio-env's registry: [`SheetsHandler`] claims workbooks by
//! extension (xlsx, xlsm, xlsb, xls, ods) and summarises them for `describe` and `ls`: format,
//! size, and each sheet's records, columns, headers and a sample, with its frozen panes and
//! charts (`layout.rs`).

use std::sync::Arc;

use folio_env::{FileHandler, Magic};
use folio_vfs::VPath;
use serde_json::{Value, json};

use crate::book::{Book, Format, detect};
use crate::ops::{SheetsHost, summary};

/// The extensions claimed.
pub const EXTENSIONS: &[&str] = &[".xlsx", ".xlsm", ".xlsb", ".xls", ".ods"];

/// Workbooks, summarised for `describe` and marked "open with env:spreadsheets".
pub struct SheetsHandler {
    _host: Arc<SheetsHost>,
}

impl SheetsHandler {
    /// A handler sharing `host` with the module.
    pub fn new(host: Arc<SheetsHost>) -> SheetsHandler {
        SheetsHandler { _host: host }
    }
}

/// The summary of a workbook's bytes.
pub fn describe_bytes(path: &str, bytes: &[u8]) -> crate::Result<Value> {
    let format = detect(path, bytes)?;
    let sheets: Vec<Value> = if format == Format::Csv {
        vec![summary(&crate::csvio::read(path, bytes, None)?)]
    } else {
        let mut book = Book::open(path, bytes, format)?;
        let mut layout = crate::layout::sheet_layout(bytes);
        let mut out = Vec::new();
        for name in book.worksheets() {
            let range = book.range(&name)?;
            let mut s = summary(&crate::flat::Flat::from_range(&name, &range));
            // Frozen panes and charts (type, title, series ranges), so a model that cannot look
            // at the workbook can check them.
            if let Some(Value::Object(extra)) = layout.remove(&name) {
                for (k, v) in extra {
                    s[k] = v;
                }
            }
            out.push(s);
        }
        out
    };
    let mut out = json!({"kind": "workbook", "format": format.name(), "bytes": bytes.len(), "sheets": sheets});
    if format == Format::Xlsm {
        out["macros"] = json!(true);
    }
    Ok(out)
}

impl FileHandler for SheetsHandler {
    fn module(&self) -> &str {
        "spreadsheets"
    }
    fn description(&self) -> &str {
        "workbooks (xlsx, xlsm, xlsb, xls, ods): sheets with sizes, headers and a sample; read in pages, write styled workbooks, recalculate, check"
    }
    fn extensions(&self) -> Vec<String> {
        EXTENSIONS.iter().map(|e| (*e).to_string()).collect()
    }
    fn magic(&self) -> Vec<Magic> {
        Vec::new()
    }
    fn describe(&self, path: &VPath, bytes: &[u8]) -> Result<Value, String> {
        describe_bytes(path.as_str(), bytes).map_err(|e| e.to_string())
    }
    /// Every sheet's rows (`--- sheet Name ---`, then cells separated by tabs) for `grep`.
    fn text(&self, path: &VPath, bytes: &[u8]) -> Option<Result<String, String>> {
        Some(crate::extract_text_named(path.as_str(), bytes).map_err(|e| e.to_string()))
    }
}
