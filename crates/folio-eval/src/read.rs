//! Readers the checks use, each different from what the environment writes with: PDFium's text
//! for PDFs (pdf-lib and pdf-writer write them), the OOXML parts read here with quick-xml for
//! workbooks' styles, panes and charts (exceljs and rust_xlsxwriter write them) and for decks
//! and documents (pptxgenjs and docx write them), calamine for cell values, ffprobe and
//! ffmpeg's decoded frames for video.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use quick_xml::events::Event;

use crate::EvalError;

/// The parts of an OOXML package (name → bytes).
pub fn parts(path: &Path, bytes: &[u8]) -> Result<BTreeMap<String, Vec<u8>>, EvalError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| EvalError::Artifact(format!("{} is not an Office package: {e}", path.display())))?;
    let mut out = BTreeMap::new();
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?;
        if file.size() > 64 << 20 {
            continue;
        }
        let mut data = Vec::new();
        file.read_to_end(&mut data).map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?;
        let name = file.name().map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?.into_owned();
        out.insert(name, data);
    }
    Ok(out)
}

/// The text of the elements named `tag` (local name), joined by spaces, one paragraph (`p`) a line.
pub fn xml_text(xml: &[u8], tag: &[u8]) -> String {
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut out = String::new();
    let mut inside = false;
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) if e.local_name().as_ref() == tag => inside = true,
            Ok(Event::End(e)) if e.local_name().as_ref() == tag => inside = false,
            Ok(Event::End(e)) if e.local_name().as_ref() == b"p" => out.push('\n'),
            Ok(Event::Text(t)) if inside => {
                if let Ok(text) = t.decode() {
                    out.push_str(&text);
                }
            }
            Ok(Event::GeneralRef(r)) if inside => {
                let name = String::from_utf8_lossy(r.as_ref()).into_owned();
                out.push_str(match name.as_str() {
                    "amp" => "&",
                    "lt" => "<",
                    "gt" => ">",
                    "quot" => "\"",
                    "apos" => "'",
                    _ => "",
                });
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
    out
}

/// The text of any artifact a check reads, by its extension.
pub fn text(renderer: &folio_render::Renderer, path: &Path, bytes: &[u8]) -> Result<String, EvalError> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "pdf" => {
            let engine = renderer
                .pdfium()
                .map_err(|e| EvalError::Artifact(format!("PDFium is needed to read {}: {e}", path.display())))?;
            let shown = path.display().to_string();
            Ok(folio_docs::pdftext::extract(&engine, &shown, bytes, None)
                .map_err(|e| EvalError::Artifact(format!("{shown}: {e}")))?
                .text)
        }
        "docx" => {
            let parts = parts(path, bytes)?;
            Ok(parts.get("word/document.xml").map(|x| xml_text(x, b"t")).unwrap_or_default())
        }
        "pptx" => {
            let parts = parts(path, bytes)?;
            let mut out = String::new();
            for (name, xml) in &parts {
                if (name.starts_with("ppt/slides/slide") || name.starts_with("ppt/notesSlides/"))
                    && name.ends_with(".xml")
                {
                    out.push_str(&xml_text(xml, b"t"));
                    out.push('\n');
                }
            }
            Ok(out)
        }
        "xlsx" => {
            let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec()))
                .map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?;
            let mut out = String::new();
            for name in calamine::Reader::sheet_names(&book) {
                if let Ok(range) = calamine::Reader::worksheet_range(&mut book, &name) {
                    for row in range.rows() {
                        let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
                        out.push_str(&cells.join("\t"));
                        out.push('\n');
                    }
                }
            }
            Ok(out)
        }
        _ => Ok(String::from_utf8_lossy(bytes).into_owned()),
    }
}

/// What the checks need of a workbook's first sheet, read from its XML.
#[derive(Debug, Default)]
pub struct SheetFacts {
    /// Frozen rows (`ySplit` of a frozen pane).
    pub frozen_rows: u32,
    /// Column widths in characters.
    pub widths: Vec<f64>,
    /// Number format codes used by cells.
    pub formats: Vec<String>,
    /// Whether every non-empty cell of row 1 is bold.
    pub header_bold: bool,
    /// Cells holding an error value (`t="e"`), by address.
    pub errors: Vec<String>,
    /// Formula cells with no cached value, by address.
    pub uncached: Vec<String>,
    /// Chart parts in the package.
    pub charts: usize,
}

fn builtin_format(id: u32) -> Option<&'static str> {
    Some(match id {
        1 => "0",
        2 => "0.00",
        3 => "#,##0",
        4 => "#,##0.00",
        9 => "0%",
        10 => "0.00%",
        14 => "mm-dd-yy",
        _ => return None,
    })
}

fn attr(e: &quick_xml::events::BytesStart<'_>, name: &[u8]) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.local_name().as_ref() == name)
        .map(|a| String::from_utf8_lossy(&a.value).into_owned())
}

/// The first sheet's facts.
pub fn sheet_facts(path: &Path, bytes: &[u8]) -> Result<SheetFacts, EvalError> {
    let parts = parts(path, bytes)?;
    let sheet = parts
        .iter()
        .filter(|(n, _)| n.starts_with("xl/worksheets/sheet") && n.ends_with(".xml"))
        .min_by_key(|(n, _)| {
            n.trim_start_matches("xl/worksheets/sheet").trim_end_matches(".xml").parse::<u32>().unwrap_or(u32::MAX)
        })
        .map(|(_, x)| x.clone())
        .ok_or_else(|| EvalError::Artifact(format!("{} has no worksheet", path.display())))?;
    // styles: numFmts, fonts (bold), cellXfs (numFmtId, fontId)
    let mut custom: BTreeMap<u32, String> = BTreeMap::new();
    let mut fonts_bold: Vec<bool> = Vec::new();
    let mut xfs: Vec<(u32, usize)> = Vec::new();
    if let Some(styles) = parts.get("xl/styles.xml") {
        let mut reader = quick_xml::Reader::from_reader(styles.as_slice());
        let mut buf = Vec::new();
        let (mut in_fonts, mut in_xfs) = (false, false);
        loop {
            match reader.read_event_into(&mut buf) {
                Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.local_name().as_ref() {
                    b"numFmt" => {
                        if let (Some(id), Some(code)) = (attr(&e, b"numFmtId"), attr(&e, b"formatCode")) {
                            custom.insert(id.parse().unwrap_or(0), code);
                        }
                    }
                    b"fonts" => in_fonts = true,
                    b"font" if in_fonts => fonts_bold.push(false),
                    b"b" if in_fonts => {
                        let on = attr(&e, b"val").is_none_or(|v| v != "0" && v != "false");
                        if let Some(last) = fonts_bold.last_mut() {
                            *last = on;
                        }
                    }
                    b"cellXfs" => in_xfs = true,
                    b"xf" if in_xfs => xfs.push((
                        attr(&e, b"numFmtId").and_then(|v| v.parse().ok()).unwrap_or(0),
                        attr(&e, b"fontId").and_then(|v| v.parse().ok()).unwrap_or(0),
                    )),
                    _ => {}
                },
                Ok(Event::End(e)) => match e.local_name().as_ref() {
                    b"fonts" => in_fonts = false,
                    b"cellXfs" => in_xfs = false,
                    _ => {}
                },
                Ok(Event::Eof) | Err(_) => break,
                _ => {}
            }
            buf.clear();
        }
    }
    let mut facts = SheetFacts {
        charts: parts.keys().filter(|n| n.starts_with("xl/charts/chart") && n.ends_with(".xml")).count(),
        header_bold: true,
        ..SheetFacts::default()
    };
    let mut header_cells = 0;
    let mut reader = quick_xml::Reader::from_reader(sheet.as_slice());
    let mut buf = Vec::new();
    let mut cell: Option<(String, String, bool, bool)> = None; // address, type, has formula, has value
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => match e.local_name().as_ref() {
                b"pane" if attr(&e, b"state").is_some_and(|s| s.starts_with("frozen")) => {
                    facts.frozen_rows = attr(&e, b"ySplit").and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) as u32;
                }
                b"col" => {
                    if let Some(w) = attr(&e, b"width").and_then(|v| v.parse().ok()) {
                        facts.widths.push(w);
                    }
                }
                b"c" => {
                    let address = attr(&e, b"r").unwrap_or_default();
                    let style: usize = attr(&e, b"s").and_then(|v| v.parse().ok()).unwrap_or(0);
                    if let Some((fmt, font)) = xfs.get(style) {
                        if let Some(code) = custom.get(fmt).cloned().or_else(|| builtin_format(*fmt).map(str::to_owned))
                            && !facts.formats.contains(&code)
                        {
                            facts.formats.push(code);
                        }
                        let row1 = address.trim_start_matches(|c: char| c.is_ascii_alphabetic()) == "1";
                        if row1 {
                            header_cells += 1;
                            if !fonts_bold.get(*font).copied().unwrap_or(false) {
                                facts.header_bold = false;
                            }
                        }
                    } else if address.trim_start_matches(|c: char| c.is_ascii_alphabetic()) == "1" {
                        header_cells += 1;
                        facts.header_bold = false;
                    }
                    cell = Some((address, attr(&e, b"t").unwrap_or_default(), false, false));
                }
                b"f" => {
                    if let Some(c) = cell.as_mut() {
                        c.2 = true;
                    }
                }
                b"v" => {
                    if let Some(c) = cell.as_mut() {
                        c.3 = true;
                    }
                }
                _ => {}
            },
            Ok(Event::End(e)) if e.local_name().as_ref() == b"c" => {
                if let Some((address, kind, formula, value)) = cell.take() {
                    if kind == "e" {
                        facts.errors.push(address);
                    } else if formula && !value {
                        facts.uncached.push(address);
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            _ => {}
        }
        buf.clear();
    }
    if header_cells == 0 {
        facts.header_bold = false;
    }
    Ok(facts)
}

/// The cells of the first sheet as calamine reads them (cached values), by address.
pub fn cells(path: &Path, bytes: &[u8]) -> Result<Vec<Vec<calamine::Data>>, EvalError> {
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes.to_vec()))
        .map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?;
    let first = calamine::Reader::sheet_names(&book)
        .first()
        .cloned()
        .ok_or_else(|| EvalError::Artifact(format!("{} has no sheet", path.display())))?;
    let range = calamine::Reader::worksheet_range(&mut book, &first)
        .map_err(|e| EvalError::Artifact(format!("{}: {e}", path.display())))?;
    // Rows from A1, so addresses index directly.
    let (r0, c0) = range.start().unwrap_or((0, 0));
    let mut rows = vec![Vec::new(); r0 as usize];
    for row in range.rows() {
        let mut cells = vec![calamine::Data::Empty; c0 as usize];
        cells.extend(row.iter().cloned());
        rows.push(cells);
    }
    Ok(rows)
}

/// `B7` → (row 6, column 1).
pub fn address(cell: &str) -> Option<(usize, usize)> {
    let letters: String = cell.chars().take_while(char::is_ascii_alphabetic).collect();
    let row: usize = cell[letters.len()..].parse().ok()?;
    let col =
        letters.bytes().try_fold(0usize, |acc, b| Some(acc * 26 + (b.to_ascii_uppercase() - b'A' + 1) as usize))?;
    Some((row.checked_sub(1)?, col.checked_sub(1)?))
}
