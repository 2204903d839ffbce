//! Delimited text in and out. Text arrives as it really does: UTF-8 with or without a BOM,
//! UTF-16 with a BOM (Excel's "Unicode Text"), or legacy cp1252; lines end in LF, CRLF or a bare
//! CR (old Mac exports) — the csv reader takes all three. The delimiter is a tab for `.tsv` and
//! `.tab`, otherwise whichever of `,` `;` `\t` `|` the first line has most of outside quotes.

use serde_json::Value;

use crate::error::{Result, SheetError};
use crate::flat::Flat;

/// The text of `bytes` and the encoding it was in.
pub fn decode(bytes: &[u8]) -> (String, &'static str) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        return (String::from_utf8_lossy(rest).into_owned(), "utf-8 (BOM)");
    }
    if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        let (enc, name) =
            if bytes[0] == 0xFF { (encoding_rs::UTF_16LE, "utf-16le") } else { (encoding_rs::UTF_16BE, "utf-16be") };
        let (text, _, _) = enc.decode(&bytes[2..]);
        return (text.into_owned(), name);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), "utf-8"),
        Err(_) => {
            let (text, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            (text.into_owned(), "windows-1252")
        }
    }
}

/// The delimiter of `text` named `path`.
pub fn delimiter(path: &str, text: &str) -> u8 {
    let ext = crate::book::extension(path);
    if ext == "tsv" || ext == "tab" {
        return b'\t';
    }
    let first = text.split(['\n', '\r']).next().unwrap_or_default();
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0), (b'|', 0)];
    let mut quoted = false;
    for b in first.bytes() {
        if b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(c) = counts.iter_mut().find(|(d, _)| *d == b) {
            c.1 += 1;
        }
    }
    counts.iter().filter(|(_, n)| *n > 0).max_by_key(|(_, n)| *n).map_or(b',', |(d, _)| *d)
}

/// A delimiter option: one ASCII character.
pub fn delimiter_opt(v: Option<&Value>) -> Result<Option<u8>> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.len() == 1 && s.is_ascii() => Ok(Some(s.as_bytes()[0])),
        Some(other) => {
            Err(SheetError::invalid(format!("delimiter must be one character such as \",\" or \";\", not {other}")))
        }
    }
}

/// Reads delimited text as one sheet named after the file. Numbers stay text unless `typed`, in
/// which case a field that is a plain number becomes one.
pub fn read(path: &str, bytes: &[u8], delim: Option<u8>) -> Result<Flat> {
    let (text, _) = decode(bytes);
    let delim = delim.unwrap_or_else(|| delimiter(path, &text));
    let mut reader =
        csv::ReaderBuilder::new().delimiter(delim).has_headers(false).flexible(true).from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| SheetError::Damaged {
            path: path.into(),
            detail: format!("CSV record {} does not parse: {e}", i + 1),
        })?;
        rows.push(record.iter().map(typed).collect());
    }
    Ok(Flat::new(stem(path), rows))
}

/// A CSV field as a value: plain numbers become numbers, everything else stays text; empty is null.
fn typed(field: &str) -> Value {
    let t = field.trim();
    if t.is_empty() {
        return Value::Null;
    }
    // Leading zeros (ZIP codes, IDs) stay text.
    let leading_zero = t.len() > 1 && t.starts_with('0') && !t.starts_with("0.");
    if !leading_zero
        && t.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'e' || b == b'E' || b == b'+')
        && let Ok(f) = t.parse::<f64>()
        && f.is_finite()
    {
        return crate::book::number(f);
    }
    Value::String(field.to_string())
}

/// The file name without directory and extension: a CSV's one sheet is called this.
pub fn stem(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.').map_or(file, |(s, _)| s).to_string()
}

/// Rows as CSV bytes (UTF-8, no BOM, LF line ends).
pub fn write(rows: &[Vec<Value>], delim: u8) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new().delimiter(delim).flexible(true).from_writer(Vec::new());
    for row in rows {
        w.write_record(row.iter().map(text))
            .map_err(|e| SheetError::invalid(format!("a row could not be written as CSV: {e}")))?;
    }
    w.into_inner().map_err(|e| SheetError::invalid(format!("CSV could not be finished: {e}")))
}

pub use crate::flat::text;
