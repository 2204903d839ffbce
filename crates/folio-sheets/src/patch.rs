//! Editing an xlsx in place: the cells asked for are rewritten inside the sheet's XML and every
//! other part of the package is copied byte for byte — styles, charts, pivot tables, images,
//! comments, defined names, macros. A rewritten cell keeps its style (`s`) unless the edit gives
//! none at all and the cell is new. Formulas are written without a cached value; the workbook is
//! marked to recalculate on open (`fullCalcOnLoad`) and its calculation chain (a cache Excel
//! rebuilds) is dropped, so no reader trusts a stale result. `recalculate` fills the values.
//!
//! Chosen over umya-spreadsheet, which round-trips styles by re-serialising the whole package:
//! measured, umya-spreadsheet 2.3.3 brings 18 crates the workspace does not have and its tree
//! takes 99 s of cold single-core debug build (18 s for umya itself); and what it does not model
//! it loses on save.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use serde_json::Value;

use crate::error::{Result, SheetError};
use crate::flat::{cell_name, parse_cell, parse_range};

/// A new content for one cell.
#[derive(Debug, Clone)]
pub enum NewCell {
    /// A value (number, text, boolean; null clears the value and keeps the style).
    Value(Value),
    /// A formula, with or without `=`.
    Formula(String),
}

/// Edits by row, then column (0-based).
pub type Edits = BTreeMap<u32, BTreeMap<u32, NewCell>>;

pub(crate) fn damaged(path: &str, detail: impl std::fmt::Display) -> SheetError {
    SheetError::Damaged { path: path.into(), detail: detail.to_string() }
}

pub(crate) fn read_part(
    path: &str,
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    name: &str,
) -> Result<Option<String>> {
    let Ok(mut f) = archive.by_name(name) else { return Ok(None) };
    let mut s = String::new();
    f.read_to_string(&mut s).map_err(|e| damaged(path, format!("part {name}: {e}")))?;
    Ok(Some(s))
}

pub(crate) fn attr(e: &BytesStart<'_>, key: &[u8]) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.local_name().as_ref() == key || a.key.as_ref() == key).map(|a| {
        let raw = String::from_utf8_lossy(&a.value).into_owned();
        quick_xml::escape::unescape(&raw).map(|v| v.into_owned()).unwrap_or(raw)
    })
}

/// The zip part of the worksheet called `sheet`.
pub(crate) fn sheet_part(path: &str, archive: &mut zip::ZipArchive<Cursor<&[u8]>>, sheet: &str) -> Result<String> {
    let wb = read_part(path, archive, "xl/workbook.xml")?.ok_or_else(|| damaged(path, "xl/workbook.xml is missing"))?;
    let rels = read_part(path, archive, "xl/_rels/workbook.xml.rels")?
        .ok_or_else(|| damaged(path, "xl/_rels/workbook.xml.rels is missing"))?;
    let mut rid = None;
    let mut reader = Reader::from_str(&wb);
    loop {
        match reader.read_event() {
            Ok(Event::Empty(e) | Event::Start(e))
                if e.local_name().as_ref() == b"sheet" && attr(&e, b"name").as_deref() == Some(sheet) =>
            {
                rid = attr(&e, b"id");
                break;
            }
            Ok(Event::Eof) => break,
            Err(e) => return Err(damaged(path, format!("xl/workbook.xml: {e}"))),
            _ => {}
        }
    }
    let rid = rid.ok_or_else(|| damaged(path, format!("sheet {sheet:?} is not in xl/workbook.xml")))?;
    let mut reader = Reader::from_str(&rels);
    loop {
        match reader.read_event() {
            Ok(Event::Empty(e) | Event::Start(e))
                if e.local_name().as_ref() == b"Relationship" && attr(&e, b"Id").as_deref() == Some(rid.as_str()) =>
            {
                let target = attr(&e, b"Target").unwrap_or_default();
                return Ok(match target.strip_prefix('/') {
                    Some(abs) => abs.to_string(),
                    None => format!("xl/{target}"),
                });
            }
            Ok(Event::Eof) => break,
            Err(e) => return Err(damaged(path, format!("xl/_rels/workbook.xml.rels: {e}"))),
            _ => {}
        }
    }
    Err(damaged(path, format!("sheet {sheet:?} has no part in xl/_rels/workbook.xml.rels")))
}

fn esc(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

fn cell_xml(p: &str, r: u32, c: u32, style: Option<&str>, new: &NewCell) -> String {
    let at = cell_name(r, c);
    let s = style.map(|s| format!(" s=\"{s}\"")).unwrap_or_default();
    match new {
        NewCell::Formula(f) => format!("<{p}c r=\"{at}\"{s}><{p}f>{}</{p}f></{p}c>", esc(f.trim_start_matches('='))),
        NewCell::Value(Value::Null) => format!("<{p}c r=\"{at}\"{s}/>"),
        NewCell::Value(Value::Bool(b)) => format!("<{p}c r=\"{at}\"{s} t=\"b\"><{p}v>{}</{p}v></{p}c>", u8::from(*b)),
        NewCell::Value(Value::Number(n)) => format!("<{p}c r=\"{at}\"{s}><{p}v>{n}</{p}v></{p}c>"),
        NewCell::Value(v) => {
            let text = crate::csvio::text(v);
            format!(
                "<{p}c r=\"{at}\"{s} t=\"inlineStr\"><{p}is><{p}t xml:space=\"preserve\">{}</{p}t></{p}is></{p}c>",
                esc(&text)
            )
        }
    }
}

/// The sheet XML with `edits` applied; also returns the edited extent.
fn patch_sheet(path: &str, xml: &str, edits: &Edits) -> Result<String> {
    let mut pending = edits.clone();
    let mut out = String::with_capacity(xml.len() + 256);
    let mut reader = Reader::from_str(xml);
    let mut prefix = String::new();
    let mut in_data = false;
    let mut row: Option<(u32, BTreeMap<u32, NewCell>)> = None;
    let mut last_row: i64 = -1;
    let mut last_col: i64 = -1;
    let mut skip_depth = 0usize;
    let mut pos = 0usize;
    let flush_cells = |out: &mut String, r: u32, cells: &mut BTreeMap<u32, NewCell>, below: Option<u32>, p: &str| {
        let keys: Vec<u32> = cells.keys().copied().filter(|c| below.is_none_or(|b| *c < b)).collect();
        for c in keys {
            if let Some(n) = cells.remove(&c) {
                out.push_str(&cell_xml(p, r, c, None, &n));
            }
        }
    };
    let flush_rows = |out: &mut String, pending: &mut Edits, below: Option<u32>, p: &str| {
        let keys: Vec<u32> = pending.keys().copied().filter(|r| below.is_none_or(|b| *r < b)).collect();
        for r in keys {
            if let Some(mut cells) = pending.remove(&r) {
                out.push_str(&format!("<{p}row r=\"{}\">", r + 1));
                flush_cells(out, r, &mut cells, None, p);
                out.push_str(&format!("</{p}row>"));
            }
        }
    };
    loop {
        let ev = reader.read_event().map_err(|e| damaged(path, format!("sheet XML: {e}")))?;
        let end = reader.buffer_position() as usize;
        let raw = &xml[pos..end];
        pos = end;
        if skip_depth > 0 {
            match &ev {
                Event::Start(e) if e.local_name().as_ref() == b"f" => {
                    if attr(e, b"t").as_deref() == Some("shared") && attr(e, b"ref").is_some() {
                        return Err(SheetError::invalid(format!(
                            "{path}: the cell being replaced holds the shared formula of {} that other cells copy — hint: update every cell of that range, or rewrite the sheet with create",
                            attr(e, b"ref").unwrap_or_default()
                        )));
                    }
                    skip_depth += 1;
                }
                Event::Start(_) => skip_depth += 1,
                Event::End(_) => skip_depth -= 1,
                _ => {}
            }
            continue;
        }
        match ev {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"sheetData" => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                prefix = name.strip_suffix("sheetData").unwrap_or_default().to_string();
                if raw.ends_with("/>") {
                    out.push_str(&format!("<{prefix}sheetData>"));
                    flush_rows(&mut out, &mut pending, None, &prefix);
                    out.push_str(&format!("</{prefix}sheetData>"));
                } else {
                    in_data = true;
                    out.push_str(raw);
                }
            }
            Event::End(e) if e.local_name().as_ref() == b"sheetData" => {
                flush_rows(&mut out, &mut pending, None, &prefix);
                in_data = false;
                out.push_str(raw);
            }
            Event::Start(e) | Event::Empty(e) if in_data && e.local_name().as_ref() == b"row" => {
                let r =
                    attr(&e, b"r").and_then(|v| v.parse::<u32>().ok()).map_or(last_row + 1, |v| v as i64 - 1) as u32;
                last_row = r as i64;
                last_col = -1;
                flush_rows(&mut out, &mut pending, Some(r), &prefix);
                let mut cells = pending.remove(&r).unwrap_or_default();
                if let Some(stripped) = raw.strip_suffix("/>") {
                    out.push_str(stripped);
                    out.push('>');
                    flush_cells(&mut out, r, &mut cells, None, &prefix);
                    out.push_str(&format!("</{prefix}row>"));
                } else {
                    out.push_str(raw);
                    row = Some((r, cells));
                }
            }
            Event::End(e) if in_data && e.local_name().as_ref() == b"row" => {
                if let Some((r, mut cells)) = row.take() {
                    flush_cells(&mut out, r, &mut cells, None, &prefix);
                }
                out.push_str(raw);
            }
            Event::Start(e) | Event::Empty(e) if in_data && e.local_name().as_ref() == b"c" => {
                let empty = raw.ends_with("/>");
                let Some((r, cells)) = row.as_mut() else {
                    out.push_str(raw);
                    continue;
                };
                let c = attr(&e, b"r").and_then(|a| parse_cell(&a)).map_or(last_col + 1, |(_, c)| c as i64) as u32;
                last_col = c as i64;
                flush_cells(&mut out, *r, cells, Some(c), &prefix);
                if let Some(new) = cells.remove(&c) {
                    out.push_str(&cell_xml(&prefix, *r, c, attr(&e, b"s").as_deref(), &new));
                    if !empty {
                        skip_depth = 1;
                    }
                } else {
                    out.push_str(raw);
                }
            }
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"dimension" => {
                let old = attr(&e, b"ref").and_then(|r| parse_range(&r));
                let ((mut r0, mut c0), (mut r1, mut c1)) = old.unwrap_or(((0, 0), (0, 0)));
                for (r, cols) in edits {
                    for c in cols.keys() {
                        r0 = r0.min(*r);
                        r1 = r1.max(*r);
                        c0 = c0.min(*c);
                        c1 = c1.max(*c);
                    }
                }
                let p = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                out.push_str(&format!("<{p} ref=\"{}:{}\"/>", cell_name(r0, c0), cell_name(r1, c1)));
                if !raw.ends_with("/>") {
                    skip_depth = 1;
                }
            }
            _ => out.push_str(raw),
        }
    }
    if !pending.is_empty() {
        return Err(damaged(path, "the sheet has no sheetData element to write into"));
    }
    Ok(out)
}

/// Marks the workbook to recalculate on open (`calcPr fullCalcOnLoad="1"`).
pub(crate) fn full_calc(wb: &str) -> String {
    if let Some(at) = wb.find("<calcPr").or_else(|| wb.find(":calcPr")) {
        let close = wb[at..].find('>').map_or(wb.len(), |i| at + i);
        let tag = &wb[at..close];
        if tag.contains("fullCalcOnLoad") {
            return wb.replace("fullCalcOnLoad=\"0\"", "fullCalcOnLoad=\"1\"");
        }
        let insert = at + "<calcPr".len();
        return format!("{} fullCalcOnLoad=\"1\"{}", &wb[..insert], &wb[insert..]);
    }
    // calcPr follows sheets, functionGroups, externalReferences and definedNames.
    let anchor = ["</definedNames>", "</externalReferences>", "</functionGroups>", "</sheets>"]
        .iter()
        .find_map(|t| wb.rfind(t).map(|i| i + t.len()));
    match anchor {
        Some(i) => format!("{}<calcPr fullCalcOnLoad=\"1\"/>{}", &wb[..i], &wb[i..]),
        None => wb.to_string(),
    }
}

/// Removes every element `<tag …/>` whose text mentions `needle`.
pub(crate) fn drop_elements(xml: &str, tag: &str, needle: &str) -> String {
    let mut out = String::with_capacity(xml.len());
    let mut rest = xml;
    while let Some(i) = rest.find(&format!("<{tag} ")) {
        let Some(len) = rest[i..].find("/>") else { break };
        let el = &rest[i..i + len + 2];
        out.push_str(&rest[..i]);
        if !el.contains(needle) {
            out.push_str(el);
        }
        rest = &rest[i + len + 2..];
    }
    out.push_str(rest);
    out
}

/// Applies `edits` to sheet `sheet` of the xlsx `bytes`, returning the new package.
pub fn apply(path: &str, bytes: &[u8], sheet: &str, edits: &Edits) -> Result<Vec<u8>> {
    let mut archive =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(path, format!("its zip directory: {e}")))?;
    let part = sheet_part(path, &mut archive, sheet)?;
    let xml = read_part(path, &mut archive, &part)?.ok_or_else(|| damaged(path, format!("part {part} is missing")))?;
    let formulas = edits.values().flat_map(BTreeMap::values).any(|c| matches!(c, NewCell::Formula(_)));
    let mut replaced: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    replaced.insert(part.clone(), patch_sheet(path, &xml, edits)?.into_bytes());
    let has_chain = archive.file_names().any(|n| n.is_ok_and(|n| n == "xl/calcChain.xml"));
    if (formulas || has_chain)
        && let Some(wb) = read_part(path, &mut archive, "xl/workbook.xml")?
    {
        replaced.insert("xl/workbook.xml".into(), full_calc(&wb).into_bytes());
    }
    if has_chain {
        for (name, tag) in [("xl/_rels/workbook.xml.rels", "Relationship"), ("[Content_Types].xml", "Override")] {
            if let Some(x) = read_part(path, &mut archive, name)? {
                replaced.insert(name.into(), drop_elements(&x, tag, "calcChain").into_bytes());
            }
        }
    }
    repack(path, &mut archive, &replaced, bytes.len())
}

/// The package of `archive` with the parts in `replaced` rewritten (compressed anew), every
/// other part copied byte for byte, and the calculation chain dropped.
pub(crate) fn repack(
    path: &str,
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    replaced: &BTreeMap<String, Vec<u8>>,
    size: usize,
) -> Result<Vec<u8>> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::with_capacity(size + 1024)));
    let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for i in 0..archive.len() {
        let entry = archive.by_index_raw(i).map_err(|e| damaged(path, format!("part {i}: {e}")))?;
        let name = entry.name().map(|n| n.into_owned()).unwrap_or_default();
        if name == "xl/calcChain.xml" {
            continue;
        }
        if let Some(new) = replaced.get(&name) {
            drop(entry);
            w.start_file(name.as_str(), opts).map_err(|e| damaged(path, e))?;
            w.write_all(new).map_err(|e| damaged(path, e))?;
        } else {
            w.raw_copy_file(entry).map_err(|e| damaged(path, format!("copying part {name}: {e}")))?;
        }
    }
    Ok(w.finish().map_err(|e| damaged(path, e))?.into_inner())
}

/// Drops the calculation chain from the workbook's relationships and content types, and
/// marks the workbook to recalculate on open, into `replaced`.
pub(crate) fn forget_chain(
    path: &str,
    archive: &mut zip::ZipArchive<Cursor<&[u8]>>,
    replaced: &mut BTreeMap<String, Vec<u8>>,
    workbook: &str,
) -> Result<()> {
    replaced.insert("xl/workbook.xml".into(), full_calc(workbook).into_bytes());
    let has_chain = archive.file_names().any(|n| n.is_ok_and(|n| n == "xl/calcChain.xml"));
    if has_chain {
        for (name, tag) in [("xl/_rels/workbook.xml.rels", "Relationship"), ("[Content_Types].xml", "Override")] {
            if let Some(x) = read_part(path, archive, name)? {
                replaced.insert(name.into(), drop_elements(&x, tag, "calcChain").into_bytes());
            }
        }
    }
    Ok(())
}

/// `{A1: value | {formula} | "=F()"}` as edits.
pub fn edits_of(cells: &serde_json::Map<String, Value>) -> Result<Edits> {
    let mut edits = Edits::new();
    for (at, v) in cells {
        let (r, c) = parse_cell(at)
            .ok_or_else(|| SheetError::BadReference { what: "update cells".into(), reference: at.clone() })?;
        let new = match v {
            Value::String(s) if s.len() > 1 && s.starts_with('=') => NewCell::Formula(s.clone()),
            Value::Object(o) if o.contains_key("formula") => {
                NewCell::Formula(o.get("formula").and_then(Value::as_str).unwrap_or_default().to_string())
            }
            Value::Object(o) if o.contains_key("value") => {
                NewCell::Value(o.get("value").cloned().unwrap_or(Value::Null))
            }
            Value::Object(_) | Value::Array(_) => {
                return Err(SheetError::invalid(format!(
                    "update {at}: a cell is a value, \"=FORMULA\" or {{formula}}, not {v}"
                )));
            }
            other => NewCell::Value(other.clone()),
        };
        edits.entry(r).or_default().insert(c, new);
    }
    Ok(edits)
}
