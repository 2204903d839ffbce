//! Recalculation that changes only values: LibreOffice computes every formula on a copy, and
//! only the cached results — the `<v>` and the `t` attribute of formula cells — are written
//! back into the original package. Every other part is copied still compressed, and inside a
//! worksheet every byte outside those formula cells' `t` and `<v>` stays as it was: freeze
//! panes, the theme, styles, validations, conditional formats, stored `#N/A` values.
//!
//! A result is typed as Excel types it: a number has no `t`, text `t="str"` (the empty string
//! included — it is a value, not a missing one), a boolean `t="b"` and an error `t="e"`.

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};

use calamine::Data;

use crate::book::{Book, Format};
use crate::error::{Result, SheetError};
use crate::flat::cell_name;

fn damaged(path: &str, detail: impl std::fmt::Display) -> SheetError {
    SheetError::Damaged { path: path.into(), detail: detail.to_string() }
}

fn esc(s: &str) -> String {
    quick_xml::escape::escape(s).into_owned()
}

/// `(t, v)` of a computed value.
fn typed(v: &Data) -> Option<(Option<&'static str>, String)> {
    Some(match v {
        Data::Int(i) => (None, i.to_string()),
        Data::Float(f) => (None, format!("{f}")),
        Data::DateTime(d) => (None, format!("{}", d.as_f64())),
        Data::Bool(b) => (Some("b"), if *b { "1" } else { "0" }.to_string()),
        Data::Error(e) => (Some("e"), e.to_string()),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => (Some("str"), esc(s)),
        Data::Empty => return None,
    })
}

/// Rewrites the `t` and `<v>` of formula cells in one worksheet's XML; returns the new XML and
/// how many cells changed.
fn patch_sheet(xml: &str, values: &HashMap<String, (Option<&'static str>, String)>) -> (String, usize) {
    let mut out = String::with_capacity(xml.len() + xml.len() / 8);
    let mut rest = xml;
    let mut changed = 0;
    while let Some(i) = rest.find("<c ") {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let Some(open_end) = tail.find('>') else { break };
        let open = &tail[..open_end];
        if open.ends_with('/') {
            out.push_str(&tail[..open_end + 1]);
            rest = &tail[open_end + 1..];
            continue;
        }
        let Some(close) = tail.find("</c>") else { break };
        let body = &tail[open_end + 1..close];
        let r = open.split(" r=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or_default();
        let is_formula = body.starts_with("<f>") || body.starts_with("<f ") || body.starts_with("<f/>");
        match values.get(r).filter(|_| is_formula) {
            Some((t, v)) => {
                // The opening tag without its `t`, then the new one.
                let mut tag = String::new();
                let mut attrs = open.splitn(2, " t=\"");
                tag.push_str(attrs.next().unwrap_or_default());
                if let Some(after) = attrs.next() {
                    tag.push_str(after.split_once('"').map_or("", |(_, a)| a));
                }
                if let Some(t) = t {
                    tag.push_str(&format!(" t=\"{t}\""));
                }
                // The formula element kept as it is, the value after it.
                let f_end =
                    if let Some(e) = body.find("</f>") { e + 4 } else { body.find("/>").map_or(body.len(), |e| e + 2) };
                let formula = &body[..f_end];
                let after = &body[f_end..];
                let after = match (after.find("<v"), after.find("</v>"), after.find("<v/>")) {
                    (Some(s), Some(e), _) => format!("{}{}", &after[..s], &after[e + 4..]),
                    (_, _, Some(s)) => format!("{}{}", &after[..s], &after[s + 4..]),
                    _ => after.to_string(),
                };
                let new = format!("{tag}>{formula}<v>{v}</v>{after}</c>");
                if new != tail[..close + 4] {
                    changed += 1;
                }
                out.push_str(&new);
            }
            None => out.push_str(&tail[..close + 4]),
        }
        rest = &tail[close + 4..];
    }
    out.push_str(rest);
    (out, changed)
}

/// The original package with the cached values of `computed` (the same workbook recalculated
/// by LibreOffice) in its formula cells, and how many cells changed.
pub fn merge(path: &str, original: &[u8], computed: &[u8]) -> Result<(Vec<u8>, usize)> {
    let mut book = Book::open(path, computed, Format::Xlsx)?;
    let mut archive = zip::ZipArchive::new(Cursor::new(original)).map_err(|e| damaged(path, e))?;
    let mut parts: HashMap<String, HashMap<String, (Option<&'static str>, String)>> = HashMap::new();
    for sheet in book.worksheets() {
        let Ok(part) = crate::patch::sheet_part(path, &mut archive, &sheet) else { continue };
        let range = book.range(&sheet)?;
        let (r0, c0) = range.start().unwrap_or((0, 0));
        let mut values = HashMap::new();
        for (r, row) in range.rows().enumerate() {
            for (c, v) in row.iter().enumerate() {
                if let Some(t) = typed(v) {
                    values.insert(cell_name(r0 + r as u32, c0 + c as u32), t);
                }
            }
        }
        parts.insert(part, values);
    }
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let mut changed = 0;
    for i in 0..archive.len() {
        let name =
            archive.by_index_raw(i).map_err(|e| damaged(path, e))?.name().map_err(|e| damaged(path, e))?.to_string();
        let Some(values) = parts.get(&name) else {
            w.raw_copy_file(archive.by_index_raw(i).map_err(|e| damaged(path, e))?).map_err(|e| damaged(path, e))?;
            continue;
        };
        let mut xml = String::new();
        archive.by_index(i).map_err(|e| damaged(path, e))?.read_to_string(&mut xml).map_err(|e| damaged(path, e))?;
        let (new, n) = patch_sheet(&xml, values);
        changed += n;
        let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        w.start_file(name.as_str(), opts).map_err(|e| damaged(path, e))?;
        w.write_all(new.as_bytes()).map_err(|e| damaged(path, e))?;
    }
    Ok((w.finish().map_err(|e| damaged(path, e))?.into_inner(), changed))
}
