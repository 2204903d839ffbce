//! Tables for the preview pane: delimited text (CSV, TSV, semicolon-separated) with the
//! delimiter guessed from the first line, and workbooks (xlsx, xlsm, xls, ods) read with
//! calamine, one sheet at a time. Only the first rows are returned; the count covers them all.

use std::io::Cursor;

use calamine::{Reader, open_workbook_auto_from_rs};

/// The first rows of a table, and how many there are.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The workbook's sheet names (empty for delimited text).
    pub sheets: Vec<String>,
    /// The sheet shown.
    pub sheet: Option<String>,
    /// Up to `limit` rows.
    pub rows: Vec<Vec<String>>,
    /// Rows in the whole table.
    pub total_rows: u32,
}

/// The delimiter of delimited text: a tab for `.tsv`, otherwise whichever of `,` `;` `\t` `|`
/// occurs most often outside quotes in the first line (a comma when none does).
pub fn delimiter(name: &str, bytes: &[u8]) -> u8 {
    if name.to_ascii_lowercase().ends_with(".tsv") {
        return b'\t';
    }
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    let mut counts = [(b',', 0usize), (b';', 0), (b'\t', 0), (b'|', 0)];
    let mut quoted = false;
    for b in first {
        if *b == b'"' {
            quoted = !quoted;
        } else if !quoted && let Some(c) = counts.iter_mut().find(|(d, _)| d == b) {
            c.1 += 1;
        }
    }
    counts.iter().filter(|(_, n)| *n > 0).max_by_key(|(_, n)| *n).map_or(b',', |(d, _)| *d)
}

/// Reads delimited text; rows may have different lengths.
pub fn delimited(name: &str, bytes: &[u8], limit: usize) -> Result<Table, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter(name, bytes))
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut rows = Vec::new();
    let mut total = 0u32;
    let mut record = csv::ByteRecord::new();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                total += 1;
                if rows.len() < limit {
                    rows.push(record.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect());
                }
            }
            Err(e) => {
                let line = e.position().map(|p| format!(" at line {}", p.line())).unwrap_or_default();
                return Err(format!("{e}{line}"));
            }
        }
    }
    Ok(Table { sheets: Vec::new(), sheet: None, rows, total_rows: total })
}

/// Reads one sheet of a workbook (`sheet`: by name; `None`: the first).
pub fn workbook(bytes: &[u8], sheet: Option<&str>, limit: usize) -> Result<Table, String> {
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes.to_vec())).map_err(|e| e.to_string())?;
    let sheets = book.sheet_names();
    let name = match sheet {
        Some(want) if sheets.iter().any(|s| s == want) => want.to_string(),
        Some(want) => return Err(format!("it has no sheet named {want:?}; its sheets are {}", sheets.join(", "))),
        None => sheets.first().cloned().ok_or("the workbook has no sheets")?,
    };
    let range = book.worksheet_range(&name).map_err(|e| format!("sheet {name:?}: {e}"))?;
    let rows = range.rows().take(limit).map(|row| row.iter().map(|cell| cell.to_string()).collect()).collect();
    Ok(Table { sheets, sheet: Some(name), rows, total_rows: range.height() as u32 })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn delimiters_are_guessed_from_the_first_line() {
        let cases: &[(&str, &[u8], u8)] = &[
            ("a.csv", b"a,b,c\n1,2,3\n", b','),
            ("a.csv", b"a;b;c\n1,5;2;3\n", b';'),
            ("a.txt", b"a\tb\n", b'\t'),
            ("a.tsv", b"a,b\n", b'\t'),
            ("a.csv", b"\"x;y\",b\n", b','),
            ("a.csv", b"single\n", b','),
        ];
        for (name, bytes, want) in cases {
            assert_eq!(delimiter(name, bytes), *want, "{}", String::from_utf8_lossy(bytes));
        }
    }

    #[test]
    fn delimited_text_keeps_quotes_ragged_rows_and_counts_past_the_limit() {
        let t = delimited("a.csv", b"\xef\xbb\xbfname,note\nAda,\"likes, commas\"\nBob\nCy,x,extra\n", 3).unwrap();
        assert_eq!(t.rows, vec![vec!["name", "note"], vec!["Ada", "likes, commas"], vec!["Bob"]]);
        assert_eq!(t.total_rows, 4);
        let t = delimited("a.csv", b"", 3).unwrap();
        assert_eq!((t.rows.len(), t.total_rows), (0, 0));
    }

    #[test]
    fn a_file_that_is_not_a_workbook_is_named() {
        let err = workbook(b"PK\x03\x04 not really", None, 10).unwrap_err();
        assert!(!err.is_empty());
    }
}
