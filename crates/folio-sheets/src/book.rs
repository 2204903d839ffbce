//! Opening a workbook: what it is (by its bytes first, then its name), the guards that stand in
//! front of calamine, and a sheet flattened to rows of JSON values.
//!
//! The guards, each found by a hostile file or the corpus:
//! - **Inflation is capped.** A zip package's parts are inflated once, counted, before calamine
//!   sees them: past [`MAX_INFLATED`] in all, or a part inflating more than its header declares,
//!   is a bomb and refused by name. The same pass checks every CRC, so a damaged part is named
//!   here instead of half-read later.
//! - **ODS repeat counts** are checked against a sheet's size before calamine expands them cell
//!   by cell (a 1.3 KB file declaring 999,999,999 repeated cells would allocate until the machine
//!   gives out).
//! - **A panic inside calamine** (an old BIFF5 workbook indexes past a record's end) becomes
//!   [`SheetError::Damaged`] instead of ending the host's task.

use std::io::{Cursor, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};

use calamine::{Data, Range, Reader, Sheets, open_workbook_auto_from_rs};
use serde_json::Value;

use crate::error::{Result, SheetError};

/// The most bytes a workbook's parts may inflate to in all.
pub const MAX_INFLATED: u64 = 768 << 20;
/// Excel's and LibreOffice's sheet limits: no real file repeats a cell or a row more than this.
pub const MAX_COLUMNS: u64 = 16_384;
/// See [`MAX_COLUMNS`].
pub const MAX_ROWS: u64 = 1_048_576;

/// The formats this module reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Office Open XML workbook.
    Xlsx,
    /// Office Open XML workbook with macros.
    Xlsm,
    /// Excel binary workbook.
    Xlsb,
    /// Excel 97–2003 (BIFF).
    Xls,
    /// OpenDocument spreadsheet.
    Ods,
    /// Delimited text.
    Csv,
}

impl Format {
    /// The format's name as describe reports it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Xlsx => "xlsx",
            Format::Xlsm => "xlsm",
            Format::Xlsb => "xlsb",
            Format::Xls => "xls",
            Format::Ods => "ods",
            Format::Csv => "csv",
        }
    }

    /// Whether cells can be edited in place (the XML patch of [`crate::patch`]).
    pub fn editable(self) -> bool {
        matches!(self, Format::Xlsx | Format::Xlsm)
    }
}

/// The lower-case extension of `path`.
pub fn extension(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default()
}

const OLE: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
const ZIP: &[u8] = b"PK\x03\x04";
const ENCRYPTION_INFO: &[u8] = b"E\0n\0c\0r\0y\0p\0t\0i\0o\0n\0I\0n\0f\0o\0";

/// What `bytes` (called `path`) are, refusing what is not a workbook this module reads. Zip
/// packages are inflated once here under [`MAX_INFLATED`].
pub fn detect(path: &str, bytes: &[u8]) -> Result<Format> {
    let ext = extension(path);
    if ext == "numbers" && bytes.starts_with(b"PK") {
        return Err(numbers(path));
    }
    if bytes.starts_with(b"PK\x05\x06") {
        return Err(SheetError::NotAWorkbook {
            path: path.into(),
            detail: "it is an empty zip archive (no parts at all)".into(),
        });
    }
    if bytes.starts_with(ZIP) {
        return zip_format(path, bytes, &ext);
    }
    if bytes.starts_with(OLE) {
        if bytes.windows(ENCRYPTION_INFO.len()).take(4 << 20).any(|w| w == ENCRYPTION_INFO) {
            return Err(SheetError::Encrypted { path: path.into() });
        }
        return Ok(Format::Xls);
    }
    if matches!(ext.as_str(), "csv" | "tsv" | "txt" | "tab") {
        return Ok(Format::Csv);
    }
    if bytes.is_empty() {
        return Err(SheetError::NotAWorkbook { path: path.into(), detail: "the file is empty (0 bytes)".into() });
    }
    if ext == "numbers" {
        return Err(numbers(path));
    }
    let head: String = bytes.iter().take(16).map(|b| if b.is_ascii_graphic() { *b as char } else { '.' }).collect();
    Err(SheetError::NotAWorkbook {
        path: path.into(),
        detail: format!(
            "it starts with {head:?}, neither a zip package (xlsx, xlsm, xlsb, ods) nor an Excel 97 file (xls), and its name does not say CSV"
        ),
    })
}

fn numbers(path: &str) -> SheetError {
    SheetError::Unsupported {
        path: path.into(),
        detail: "it is an Apple Numbers document, which this module does not read".into(),
        hint: "in Numbers choose File → Export To → Excel, or CSV, and read that".into(),
    }
}

fn zip_format(path: &str, bytes: &[u8], ext: &str) -> Result<Format> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| SheetError::Damaged {
        path: path.into(),
        detail: format!("its zip directory does not read: {e}"),
    })?;
    let names: Vec<String> = archive.file_names().filter_map(|n| n.ok().map(|n| n.into_owned())).collect();
    let has = |n: &str| names.iter().any(|x| x == n);
    let format = if has("xl/workbook.xml") {
        if ext == "xlsm" || has("xl/vbaProject.bin") { Format::Xlsm } else { Format::Xlsx }
    } else if has("xl/workbook.bin") {
        Format::Xlsb
    } else if has("content.xml") && (ext == "ods" || ext == "fods" || mimetype(&mut archive).contains("spreadsheet")) {
        Format::Ods
    } else if names.iter().any(|n| (n.starts_with("Index/") && n.ends_with(".iwa")) || n.contains(".numbers/")) {
        return Err(numbers(path));
    } else {
        let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
        return Err(SheetError::NotAWorkbook {
            path: path.into(),
            detail: format!(
                "it is a zip archive of {} entr{} ({}{}) without a workbook part (xl/workbook.xml, content.xml)",
                names.len(),
                if names.len() == 1 { "y" } else { "ies" },
                shown.join(", "),
                if names.len() > 5 { ", …" } else { "" }
            ),
        });
    };
    inflate_all(path, &mut archive)?;
    if format == Format::Ods {
        ods_repeats(path, &mut archive)?;
    }
    Ok(format)
}

fn mimetype(archive: &mut zip::ZipArchive<Cursor<&[u8]>>) -> String {
    let mut s = String::new();
    if let Ok(f) = archive.by_name("mimetype") {
        let _ = f.take(200).read_to_string(&mut s);
    }
    s
}

/// Inflates every part once, counting: a bomb or a damaged part is named before calamine runs.
fn inflate_all(path: &str, archive: &mut zip::ZipArchive<Cursor<&[u8]>>) -> Result<()> {
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 64 << 10];
    for i in 0..archive.len() {
        let mut entry = archive
            .by_index(i)
            .map_err(|e| SheetError::Damaged { path: path.into(), detail: format!("part {i} does not open: {e}") })?;
        let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
        let declared = entry.size();
        if total.saturating_add(declared) > MAX_INFLATED {
            return Err(bomb(path, &name, total.saturating_add(declared)));
        }
        let mut seen: u64 = 0;
        loop {
            let n = entry.read(&mut buf).map_err(|e| SheetError::Damaged {
                path: path.into(),
                detail: format!("part {name} does not inflate: {e}"),
            })?;
            if n == 0 {
                break;
            }
            seen += n as u64;
            if total + seen > MAX_INFLATED {
                return Err(bomb(path, &name, total + seen));
            }
        }
        total += seen;
    }
    Ok(())
}

fn bomb(path: &str, part: &str, bytes: u64) -> SheetError {
    SheetError::Bomb {
        path: path.into(),
        detail: format!(
            "its parts inflate to more than {} MiB (at part {part}, {} MiB so far)",
            MAX_INFLATED >> 20,
            bytes >> 20
        ),
    }
}

/// Refuses an ODS whose `content.xml` repeats a cell or a row more often than a sheet holds.
fn ods_repeats(path: &str, archive: &mut zip::ZipArchive<Cursor<&[u8]>>) -> Result<()> {
    let mut xml = Vec::new();
    if let Ok(content) = archive.by_name("content.xml") {
        let _ = content.take(MAX_INFLATED).read_to_end(&mut xml);
    }
    for (attr, cap, what) in [
        (&b"number-columns-repeated=\""[..], MAX_COLUMNS, "columns"),
        (&b"number-rows-repeated=\""[..], MAX_ROWS, "rows"),
    ] {
        let mut at = 0;
        while let Some(found) = xml[at..].windows(attr.len()).position(|w| w == attr) {
            at += found + attr.len();
            let digits: String = xml[at..].iter().take_while(|b| b.is_ascii_digit()).map(|b| *b as char).collect();
            if let Some(n) = digits.parse::<u64>().ok().filter(|n| *n > cap) {
                return Err(SheetError::Bomb {
                    path: path.into(),
                    detail: format!("it repeats one cell or row {n} times ({what}), more than the {cap} a sheet holds"),
                });
            }
        }
    }
    Ok(())
}

/// An open workbook (not CSV): calamine's reader behind the panic guard.
pub struct Book {
    path: String,
    inner: Sheets<Cursor<Vec<u8>>>,
    /// Its format.
    pub format: Format,
}

/// Runs `f` on calamine, turning a panic inside it into [`SheetError::Damaged`].
fn guarded<T>(path: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        Err(SheetError::Damaged { path: path.into(), detail: format!("the reader failed inside it: {why}") })
    })
}

impl Book {
    /// Opens `bytes` of a detected non-CSV `format`.
    pub fn open(path: &str, bytes: &[u8], format: Format) -> Result<Book> {
        let data = bytes.to_vec();
        let inner = guarded(path, || {
            open_workbook_auto_from_rs(Cursor::new(data))
                .map_err(|e| SheetError::Damaged { path: path.into(), detail: e.to_string() })
        })?;
        Ok(Book { path: path.into(), inner, format })
    }

    /// The sheet names in workbook order (chart sheets included).
    pub fn names(&self) -> Vec<String> {
        self.inner.sheet_names()
    }

    /// Worksheet names only (chart and dialog sheets left out).
    pub fn worksheets(&self) -> Vec<String> {
        self.inner
            .sheets_metadata()
            .iter()
            .filter(|s| matches!(s.typ, calamine::SheetType::WorkSheet))
            .map(|s| s.name.clone())
            .collect()
    }

    /// The name of the sheet `wanted` (a name, or a 1-based index; `None`: the first worksheet).
    pub fn resolve(&self, wanted: Option<&Value>) -> Result<String> {
        resolve(&self.path, &self.worksheets(), wanted)
    }

    /// The sheet's values.
    pub fn range(&mut self, name: &str) -> Result<Range<Data>> {
        let path = self.path.clone();
        let inner = &mut self.inner;
        guarded(&path, || {
            inner
                .worksheet_range(name)
                .map_err(|e| SheetError::Damaged { path: path.clone(), detail: format!("sheet {name:?}: {e}") })
        })
    }

    /// The sheet's formula texts (without `=`), empty where a cell has none.
    pub fn formulas(&mut self, name: &str) -> Result<Range<String>> {
        let path = self.path.clone();
        let inner = &mut self.inner;
        guarded(&path, || {
            inner.worksheet_formula(name).map_err(|e| SheetError::Damaged {
                path: path.clone(),
                detail: format!("formulas of sheet {name:?}: {e}"),
            })
        })
    }
}

/// The sheet of `names` that `wanted` means (a name, a 1-based index, `None` for the first).
pub fn resolve(path: &str, names: &[String], wanted: Option<&Value>) -> Result<String> {
    let have = || names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ");
    match wanted {
        None | Some(Value::Null) => names.first().cloned().ok_or_else(|| SheetError::NoSuchSheet {
            path: path.into(),
            wanted: "at all (the workbook has no worksheets)".into(),
            have: "none".into(),
        }),
        Some(Value::String(s)) => names.iter().find(|n| *n == s).cloned().ok_or_else(|| SheetError::NoSuchSheet {
            path: path.into(),
            wanted: format!("named {s:?}"),
            have: have(),
        }),
        Some(Value::Number(n)) => {
            n.as_u64().filter(|i| *i >= 1).and_then(|i| names.get(i as usize - 1)).cloned().ok_or_else(|| {
                SheetError::NoSuchSheet { path: path.into(), wanted: format!("number {n}"), have: have() }
            })
        }
        Some(other) => Err(SheetError::invalid(format!("sheet must be a name or a 1-based index, not {other}"))),
    }
}

/// One cell as plain JSON: numbers, strings, booleans; dates as ISO text; errors as their marker.
pub fn json(cell: &Data) -> Value {
    match cell {
        Data::Empty => Value::Null,
        Data::Int(i) => Value::from(*i),
        Data::Float(f) => number(*f),
        Data::String(s) => Value::String(s.clone()),
        Data::Bool(b) => Value::Bool(*b),
        Data::Error(e) => Value::String(e.to_string()),
        Data::DateTimeIso(s) | Data::DurationIso(s) => Value::String(s.clone()),
        Data::DateTime(d) => {
            if d.is_duration() {
                return number(d.as_f64());
            }
            let (y, mo, da, h, mi, s, ms) = d.to_ymd_hms_milli();
            if (h, mi, s, ms) == (0, 0, 0, 0) {
                Value::String(format!("{y:04}-{mo:02}-{da:02}"))
            } else if ms == 0 {
                Value::String(format!("{y:04}-{mo:02}-{da:02}T{h:02}:{mi:02}:{s:02}"))
            } else {
                Value::String(format!("{y:04}-{mo:02}-{da:02}T{h:02}:{mi:02}:{s:02}.{ms:03}"))
            }
        }
    }
}

/// A float as JSON: whole numbers as integers, non-finite as null.
pub fn number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        Value::from(f as i64)
    } else {
        serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

/// The formula error markers `check` looks for.
pub const ERRORS: &[&str] = &["#REF!", "#DIV/0!", "#NAME?", "#VALUE!", "#N/A", "#NUM!", "#NULL!"];
