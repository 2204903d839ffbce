//! Tables for the preview pane: delimited text (CSV, TSV, semicolon-separated) with the
//! delimiter guessed from the first line, and workbooks (xlsx, xlsm, xls, ods) read with
//! calamine, one sheet at a time. Only the first rows are returned; the count covers them all.
//!
//! Two guards stand in front of calamine, both found by the corpus test: an ODS sheet's repeat
//! counts are checked against what a sheet can hold before calamine expands them one cell at a
//! time (a 1.3 KB file declaring 999,999,999 repeated cells otherwise allocates until the machine
//! gives out), and a panic inside calamine (an old BIFF5 workbook indexes past a record's end)
//! becomes a named error instead of ending the preview task.
//!
//! A workbook's cells show what its file stored for them: for a formula, the result its
//! application calculated and saved. A formula saved without a result (written by a library
//! that does not calculate) is shown as its formula and listed in `uncalculated`, so the pane
//! says so instead of showing an empty cell that looks like no data.

use std::io::{Cursor, Read};

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
    /// Cells of `rows` (row, column) holding a formula the file saved no result for; their
    /// text is the formula, `=` first.
    pub uncalculated: Vec<(u32, u32)>,
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
    Ok(Table { sheets: Vec::new(), sheet: None, rows, total_rows: total, uncalculated: Vec::new() })
}

/// Reads one sheet of a workbook (`sheet`: by name; `None`: the first).
pub fn workbook(bytes: &[u8], sheet: Option<&str>, limit: usize) -> Result<Table, String> {
    ods_repeats(bytes)?;
    std::panic::catch_unwind(|| read_workbook(bytes, sheet, limit)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(format!(
            "the workbook reader failed inside it ({why}) — hint: the file is damaged or in a format calamine misreads; open it in its own application, or save it again as .xlsx"
        ))
    })
}

/// The most columns and rows a sheet holds (LibreOffice's and Excel's limits): no real ODS file
/// repeats a cell or a row more often than that.
const ODS_MAX_COLUMNS: u64 = 16_384;
const ODS_MAX_ROWS: u64 = 1_048_576;
/// How much of an ODS file's `content.xml` is scanned for repeat counts.
const ODS_SCAN_CAP: u64 = 64 << 20;

/// Refuses an ODS file whose `content.xml` repeats a cell or a row more often than a sheet has
/// room for; anything that is not an ODS package passes (calamine names its own errors).
fn ods_repeats(bytes: &[u8]) -> Result<(), String> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else { return Ok(()) };
    let Ok(content) = archive.by_name("content.xml") else { return Ok(()) };
    let mut xml = Vec::new();
    // A damaged member is calamine's to report.
    let _ = content.take(ODS_SCAN_CAP).read_to_end(&mut xml);
    for (attr, cap, what) in [
        (&b"number-columns-repeated=\""[..], ODS_MAX_COLUMNS, "columns"),
        (&b"number-rows-repeated=\""[..], ODS_MAX_ROWS, "rows"),
    ] {
        let mut at = 0;
        while let Some(found) = xml[at..].windows(attr.len()).position(|w| w == attr) {
            at += found + attr.len();
            let digits: Vec<u8> = xml[at..].iter().take_while(|b| b.is_ascii_digit()).copied().collect();
            let n: Option<u64> = String::from_utf8_lossy(&digits).parse().ok();
            if let Some(n) = n.filter(|n| *n > cap) {
                return Err(format!(
                    "it repeats one cell or row {n} times ({what}), more than the {cap} a sheet holds, so it is not expanded (a decompression bomb, or damaged) — hint: open it in LibreOffice and save it again if it is yours"
                ));
            }
        }
    }
    Ok(())
}

/// [`workbook`] without the guards.
fn read_workbook(bytes: &[u8], sheet: Option<&str>, limit: usize) -> Result<Table, String> {
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes.to_vec())).map_err(|e| e.to_string())?;
    let sheets = book.sheet_names();
    let name = match sheet {
        Some(want) if sheets.iter().any(|s| s == want) => want.to_string(),
        Some(want) => return Err(format!("it has no sheet named {want:?}; its sheets are {}", sheets.join(", "))),
        None => sheets.first().cloned().ok_or("the workbook has no sheets")?,
    };
    let range = book.worksheet_range(&name).map_err(|e| format!("sheet {name:?}: {e}"))?;
    // Formulas are only read to find the ones without a saved result; a format whose formulas
    // calamine cannot read (old .xls) shows values alone.
    let formulas = book.worksheet_formula(&name).ok().filter(|f| !f.is_empty());
    let bounds = |r: &calamine::Range<String>| r.start().zip(r.end());
    let values = range.start().zip(range.end());
    let Some(((top, left), (bottom, right))) = [values, formulas.as_ref().and_then(bounds)]
        .into_iter()
        .flatten()
        .reduce(|(s, e), (s2, e2)| ((s.0.min(s2.0), s.1.min(s2.1)), (e.0.max(e2.0), e.1.max(e2.1))))
    else {
        return Ok(Table { sheets, sheet: Some(name), rows: Vec::new(), total_rows: 0, uncalculated: Vec::new() });
    };
    let mut rows = Vec::new();
    let mut uncalculated = Vec::new();
    for (i, r) in (top..=bottom).take(limit).enumerate() {
        let mut row = Vec::new();
        for (j, c) in (left..=right).enumerate() {
            let value = range.get_value((r, c)).filter(|v| !matches!(v, calamine::Data::Empty));
            let formula = formulas.as_ref().and_then(|f| f.get_value((r, c))).filter(|f| !f.is_empty());
            match (value, formula) {
                (Some(v), _) => row.push(v.to_string()),
                (None, Some(f)) => {
                    uncalculated.push((i as u32, j as u32));
                    row.push(format!("={f}"));
                }
                (None, None) => row.push(String::new()),
            }
        }
        rows.push(row);
    }
    Ok(Table { sheets, sheet: Some(name), rows, total_rows: bottom - top + 1, uncalculated })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_ods_repeating_more_cells_than_a_sheet_holds_is_refused_before_calamine() {
        use std::io::Write;
        let ods = |repeat: &str| {
            let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
            w.start_file("content.xml", zip::write::SimpleFileOptions::default()).unwrap();
            let cell =
                format!("<table:table-cell table:number-columns-repeated=\"{repeat}\" office:value-type=\"float\"/>");
            w.write_all(cell.as_bytes()).unwrap();
            w.finish().unwrap().into_inner()
        };
        let err = ods_repeats(&ods("999999999")).unwrap_err();
        assert!(err.contains("999999999") && err.contains("hint:"), "{err}");
        assert!(ods_repeats(&ods("16000")).is_ok());
        assert!(ods_repeats(b"not a zip").is_ok());
    }

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

    /// A one-sheet .xlsx whose `<sheetData>` is `data`.
    pub fn xlsx(data: &str) -> Vec<u8> {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let parts = [
            ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.to_string()),
            ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_string()),
            ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/></sheets></workbook>"#.to_string()),
            ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.to_string()),
            ("xl/worksheets/sheet1.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#)),
        ];
        for (name, body) in parts {
            w.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
            w.write_all(body.as_bytes()).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn formula_results_are_shown_and_a_formula_without_one_is_named() {
        let check = |data: &str, rows: Vec<Vec<&str>>, uncalculated: Vec<(u32, u32)>| {
            let t = workbook(&xlsx(data), None, 10).unwrap();
            assert_eq!(
                (t.rows, t.uncalculated),
                (
                    rows.iter().map(|r| r.iter().map(|c| c.to_string()).collect()).collect::<Vec<Vec<String>>>(),
                    uncalculated
                ),
                "{data}"
            );
        };
        // Saved results are what the pane shows.
        check(
            r#"<row r="1"><c r="A1"><v>7</v></c><c r="B1"><f>A1*3</f><v>21</v></c></row>"#,
            vec![vec!["7", "21"]],
            vec![],
        );
        // A formula saved without a result shows as its formula, listed.
        check(
            r#"<row r="1"><c r="A1"><v>7</v></c><c r="B1"><f>A1*3</f></c></row><row r="2"><c r="A2"><v>1</v></c></row>"#,
            vec![vec!["7", "=A1*3"], vec!["1", ""]],
            vec![(0, 1)],
        );
        // Only formulas: the sheet is not empty.
        check(r#"<row r="2"><c r="C2"><f>SUM(A1:B1)</f></c></row>"#, vec![vec!["=SUM(A1:B1)"]], vec![(0, 0)]);
    }

    #[test]
    fn a_file_that_is_not_a_workbook_is_named() {
        let err = workbook(b"PK\x03\x04 not really", None, 10).unwrap_err();
        assert!(!err.is_empty());
    }
}
