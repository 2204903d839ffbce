//! Row and column insert/delete by editing the package: the sheet's rows and cells are
//! renumbered inside its XML, and every place that names cells of that sheet moves as Excel
//! moves it — formulas on every sheet (shared formulas are written out per cell first),
//! defined names, chart series (`c:f`), conditional-format and data-validation ranges and
//! their formulas, merges, the autofilter, hyperlinks, the dimension, column widths, the
//! anchors of drawings on the sheet and pivot-cache sources. A reference to deleted cells
//! becomes `#REF!`, and the result lists where. Every other part is copied byte for byte;
//! freeze panes and selections are left as they are.
//!
//! Formula results are not moved: every formula cell of the workbook loses its cached value
//! (`check` lists them) and the workbook is marked to recalculate on open, so no reader
//! trusts a value computed over the old rows; `recalculate` stores fresh ones.
//!
//! Refused up front, by name: sheets holding tables, comments or pivot tables (their parts
//! carry cell positions this module does not move yet).

use std::collections::{BTreeMap, HashMap};
use std::io::Cursor;

use quick_xml::Reader;
use quick_xml::escape::{partial_escape, unescape};
use quick_xml::events::{BytesStart, Event};
use serde::Serialize;

use crate::error::{Result, SheetError};
use crate::patch::{attr, damaged, forget_chain, read_part, repack, sheet_part};
use crate::refs::{self, Axis, Edit};

/// What a structure edit did.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Formula texts (cells, names, charts, rules) whose references moved.
    pub formulas_shifted: usize,
    /// Where a reference became `#REF!` because the cells it named were deleted.
    pub ref_errors: Vec<String>,
    /// Formula cells whose cached value was dropped (recalculate refills them).
    pub uncached: usize,
    /// The package parts rewritten.
    pub parts: Vec<String>,
}

/// Sheet-relationship types whose parts hold cell positions this module does not move.
const REFUSED: &[(&str, &str)] = &[
    ("/table", "a table (ListObject)"),
    ("/comments", "comments"),
    ("/threadedComment", "threaded comments"),
    ("/pivotTable", "a pivot table"),
];

/// Elements of the edited sheet whose range attribute moves; `true`: dropped when gone.
const RANGED: &[(&str, &str)] = &[
    ("mergeCell", "ref"),
    ("hyperlink", "ref"),
    ("autoFilter", "ref"),
    ("sortState", "ref"),
    ("sortCondition", "ref"),
    ("conditionalFormatting", "sqref"),
    ("dataValidation", "sqref"),
    ("ignoredError", "sqref"),
    ("protectedRange", "sqref"),
];

/// Containers whose last child may go (the container goes with it) and whose `count` follows.
const CONTAINERS: &[&str] = &["mergeCells", "dataValidations", "hyperlinks", "cols", "ignoredErrors"];

/// Elements whose text is a formula.
const FORMULA_TEXT: &[&str] = &["f", "formula", "formula1", "formula2"];

struct Ctx<'a> {
    target: &'a str,
    edit: Edit,
    report: Report,
}

impl Ctx<'_> {
    fn formula(&mut self, text: &str, host: Option<&str>, at: &str) -> String {
        let (out, lost) = refs::shift(text, host, self.target, &self.edit);
        if out != text {
            self.report.formulas_shifted += 1;
        }
        if lost > 0 {
            self.report.ref_errors.push(at.to_string());
        }
        out
    }
}

/// `tag` (a start tag's text) with attribute `key` set to `value`, or removed.
fn set_attr(tag: &str, key: &str, value: Option<&str>) -> String {
    let b = tag.as_bytes();
    let mut from = 0;
    while let Some(i) = tag[from..].find(key) {
        let at = from + i;
        let after = at + key.len();
        let q = b.get(after + 1).copied();
        if at > 0 && b[at - 1].is_ascii_whitespace() && b.get(after) == Some(&b'=') && matches!(q, Some(b'"' | b'\'')) {
            let q = q.map(char::from).unwrap_or('"');
            if let Some(close) = tag[after + 2..].find(q).map(|k| after + 2 + k) {
                return match value {
                    Some(v) => format!("{}{}{}", &tag[..after + 2], quick_xml::escape::escape(v), &tag[close..]),
                    None => format!("{}{}", &tag[..at - 1], &tag[close + 1..]),
                };
            }
        }
        from = after;
    }
    match value {
        None => tag.to_string(),
        Some(v) => {
            let end = if tag.ends_with("/>") { tag.len() - 2 } else { tag.len().saturating_sub(1) };
            format!("{} {key}=\"{}\"{}", &tag[..end], quick_xml::escape::escape(v), &tag[end..])
        }
    }
}

fn local(e: &BytesStart<'_>) -> String {
    String::from_utf8_lossy(e.local_name().as_ref()).into_owned()
}

fn prefix_of(e: &BytesStart<'_>) -> String {
    let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
    name.rsplit_once(':').map(|(p, _)| format!("{p}:")).unwrap_or_default()
}

/// What is being collected whole before it is rewritten.
enum Capture {
    Cell { raw: String, depth: usize },
    Text { start: String, name: String, inner: String, depth: usize },
}

struct Container {
    at: usize,
    tag: String,
    kept: usize,
}

/// A shared formula's master: its text and where it stood (row, col).
type Shared = HashMap<String, (String, u32, u32)>;

struct Sheet<'s> {
    name: &'s str,
    target: bool,
    shared: Shared,
    row: u32,
    col: u32,
    /// Offset from a rule's old anchor to the first cell of its range that survives.
    anchor: (i64, i64),
}

/// One worksheet's XML after the edit.
fn sheet(path: &str, xml: &str, ctx: &mut Ctx<'_>, me: &mut Sheet<'_>) -> Result<String> {
    let mut reader = Reader::from_str(xml);
    let mut out = String::with_capacity(xml.len() + 64);
    let mut pos = 0usize;
    let mut skip = 0usize;
    let mut capture: Option<Capture> = None;
    let mut containers: Vec<Container> = Vec::new();
    let edit = ctx.edit;
    loop {
        let ev = reader.read_event().map_err(|e| damaged(path, format!("sheet {}: {e}", me.name)))?;
        let end = reader.buffer_position() as usize;
        let raw = &xml[pos..end];
        pos = end;
        if skip > 0 {
            match ev {
                Event::Start(_) => skip += 1,
                Event::End(_) => skip -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        if let Some(cap) = capture.as_mut() {
            let done = match cap {
                Capture::Cell { raw: r, depth } => {
                    r.push_str(raw);
                    match ev {
                        Event::Start(_) => *depth += 1,
                        Event::End(_) => *depth -= 1,
                        _ => {}
                    }
                    *depth == 0
                }
                Capture::Text { inner, depth, .. } => {
                    match ev {
                        Event::Start(_) => *depth += 1,
                        Event::End(_) => *depth -= 1,
                        _ => {}
                    }
                    if *depth > 0 {
                        inner.push_str(raw);
                        false
                    } else {
                        inner.push_str(raw);
                        true
                    }
                }
            };
            if matches!(ev, Event::Eof) {
                return Err(damaged(path, format!("sheet {}: the XML ends inside an element", me.name)));
            }
            if done && let Some(cap) = capture.take() {
                match cap {
                    Capture::Cell { raw, .. } => out.push_str(&cell(path, &raw, ctx, me)?),
                    Capture::Text { start, name, inner, .. } => {
                        let close_at = inner.rfind("</").unwrap_or(inner.len());
                        let (body, close) = inner.split_at(close_at);
                        let text = unescape(body).map(|t| t.into_owned()).unwrap_or_else(|_| body.to_string());
                        let new = if name == "sqref" {
                            refs::shift_sqref(&text, &edit).unwrap_or_default()
                        } else {
                            let moved = if me.anchor == (0, 0) {
                                text.clone()
                            } else {
                                refs::map_refs(&text, |_, r| r.offset(me.anchor.0, me.anchor.1))
                            };
                            ctx.formula(&moved, Some(me.name), &format!("{} ({name})", me.name))
                        };
                        out.push_str(&start);
                        if new == text {
                            out.push_str(body);
                        } else {
                            out.push_str(&partial_escape(&new));
                        }
                        out.push_str(close);
                    }
                }
            }
            continue;
        }
        match ev {
            Event::Eof => break,
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(ev, Event::Empty(_));
                let name = local(e);
                if name == "row" {
                    let r = attr(e, b"r").and_then(|v| v.parse().ok()).unwrap_or(me.row + 1);
                    me.row = r;
                    me.col = 0;
                    if !me.target {
                        out.push_str(raw);
                        continue;
                    }
                    match edit.axis {
                        Axis::Rows => match edit.line(r) {
                            Some(n) => out.push_str(&set_attr(raw, "r", Some(&n.to_string()))),
                            None => skip = usize::from(!empty),
                        },
                        Axis::Cols => out.push_str(&set_attr(raw, "spans", None)),
                    }
                    continue;
                }
                if name == "c" {
                    if empty {
                        out.push_str(&cell(path, raw, ctx, me)?);
                    } else {
                        capture = Some(Capture::Cell { raw: raw.to_string(), depth: 1 });
                    }
                    continue;
                }
                if !empty && (FORMULA_TEXT.contains(&name.as_str()) || (me.target && name == "sqref")) {
                    capture = Some(Capture::Text { start: raw.to_string(), name, inner: String::new(), depth: 1 });
                    continue;
                }
                if !me.target {
                    out.push_str(raw);
                    continue;
                }
                if name == "dimension" {
                    let r = attr(e, b"ref").and_then(|r| refs::shift_sqref(&r, &edit)).unwrap_or_else(|| "A1".into());
                    out.push_str(&set_attr(raw, "ref", Some(&r)));
                    skip = usize::from(!empty);
                    if !empty {
                        out.push_str(&format!("</{}dimension>", prefix_of(e)));
                    }
                    continue;
                }
                if CONTAINERS.contains(&name.as_str()) && !empty {
                    containers.push(Container { at: out.len(), tag: raw.to_string(), kept: 0 });
                    out.push_str(raw);
                    continue;
                }
                if name == "col" && edit.axis == Axis::Cols {
                    let min = attr(e, b"min").and_then(|v| v.parse().ok()).unwrap_or(1);
                    let max = attr(e, b"max").and_then(|v| v.parse().ok()).unwrap_or(min);
                    match edit.span(min, max) {
                        Some((a, b)) => {
                            let t = set_attr(raw, "min", Some(&a.to_string()));
                            out.push_str(&set_attr(&t, "max", Some(&b.to_string())));
                            if let Some(c) = containers.last_mut() {
                                c.kept += 1;
                            }
                        }
                        None => skip = usize::from(!empty),
                    }
                    continue;
                }
                if let Some((_, key)) = RANGED.iter().find(|(n, _)| *n == name) {
                    let old = attr(e, key.as_bytes()).unwrap_or_default();
                    let new = refs::shift_sqref(&old, &edit).filter(|r| name != "mergeCell" || !single(r));
                    let Some(new) = new else {
                        skip = usize::from(!empty);
                        continue;
                    };
                    if matches!(name.as_str(), "conditionalFormatting" | "dataValidation") {
                        me.anchor = anchor_move(&old, &edit);
                    }
                    out.push_str(&set_attr(raw, key, Some(&new)));
                    if let Some(c) = containers.last_mut()
                        && matches!(name.as_str(), "mergeCell" | "dataValidation" | "hyperlink" | "ignoredError")
                    {
                        c.kept += 1;
                    }
                    continue;
                }
                out.push_str(raw);
            }
            Event::End(ref e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                if matches!(name.as_str(), "conditionalFormatting" | "dataValidation") {
                    me.anchor = (0, 0);
                }
                if me.target
                    && CONTAINERS.contains(&name.as_str())
                    && let Some(c) = containers.pop()
                {
                    if c.kept == 0 {
                        out.truncate(c.at);
                        continue;
                    }
                    if c.tag.contains("count=") {
                        let tag = set_attr(&c.tag, "count", Some(&c.kept.to_string()));
                        out.replace_range(c.at..c.at + c.tag.len(), &tag);
                    }
                }
                out.push_str(raw);
            }
            _ => out.push_str(raw),
        }
    }
    Ok(out)
}

/// Whether a range is one cell (`A5:A5`), which is no merge.
fn single(r: &str) -> bool {
    r.split_once(':').is_some_and(|(a, b)| a == b)
}

/// How far a rule's anchor (its range's first cell) moves to the first cell that survives a
/// deletion, before its formulas are shifted.
fn anchor_move(sqref: &str, edit: &Edit) -> (i64, i64) {
    let Some((r, c)) = sqref.split_whitespace().next().and_then(|f| refs::cell_at(f.split(':').next().unwrap_or(f)))
    else {
        return (0, 0);
    };
    let line = match edit.axis {
        Axis::Rows => r,
        Axis::Cols => c,
    };
    let d = if edit.delete && line >= edit.at && line < edit.at + edit.count {
        i64::from(edit.at + edit.count - line)
    } else {
        0
    };
    match edit.axis {
        Axis::Rows => (d, 0),
        Axis::Cols => (0, d),
    }
}

/// One `<c>` element after the edit (empty when its cell is deleted). A formula loses its
/// cached value and its `t`; a shared formula is written out in full.
fn cell(path: &str, raw: &str, ctx: &mut Ctx<'_>, me: &mut Sheet<'_>) -> Result<String> {
    let mut reader = Reader::from_str(raw);
    let mut pos = 0usize;
    let mut tag = String::new();
    let mut p = String::new();
    let mut f_tag: Option<(String, bool)> = None;
    let mut f_text = String::new();
    let mut in_f = false;
    let mut in_v = 0usize;
    let mut rest = String::new();
    let mut depth = 0usize;
    loop {
        let ev = reader.read_event().map_err(|e| damaged(path, format!("sheet {}: cell XML: {e}", me.name)))?;
        let end = reader.buffer_position() as usize;
        let piece = &raw[pos..end];
        pos = end;
        match ev {
            Event::Eof => break,
            Event::Start(ref e) | Event::Empty(ref e) if depth == 0 && tag.is_empty() => {
                tag = piece.to_string();
                p = prefix_of(e);
                if matches!(ev, Event::Start(_)) {
                    depth = 1;
                }
            }
            Event::Start(ref e) | Event::Empty(ref e) if depth == 1 && e.local_name().as_ref() == b"f" => {
                f_tag = Some((piece.to_string(), matches!(ev, Event::Empty(_))));
                in_f = matches!(ev, Event::Start(_));
            }
            Event::Start(ref e) if depth == 1 && matches!(e.local_name().as_ref(), b"v" | b"is") => {
                in_v = 1;
                depth += 1;
            }
            Event::End(_) if in_f => in_f = false,
            Event::End(_) if in_v > 0 => {
                in_v -= 1;
                depth -= 1;
            }
            Event::End(_) if depth == 1 => depth = 0,
            _ if in_f => f_text.push_str(piece),
            Event::Start(_) if in_v > 0 => {
                in_v += 1;
                depth += 1;
            }
            _ if in_v > 0 => {}
            Event::Start(_) => {
                depth += 1;
                rest.push_str(piece);
            }
            Event::End(_) => {
                depth -= 1;
                rest.push_str(piece);
            }
            _ => rest.push_str(piece),
        }
    }
    let (r0, c0) = start_of(&tag).and_then(|r| refs::cell_at(&r)).unwrap_or((me.row, me.col + 1));
    me.col = c0;
    let edit = ctx.edit;
    let (r1, c1) = if me.target {
        match edit.axis {
            Axis::Rows => (edit.line(r0), Some(c0)),
            Axis::Cols => (Some(r0), edit.line(c0)),
        }
    } else {
        (Some(r0), Some(c0))
    };
    let (Some(r1), Some(c1)) = (r1, c1) else { return Ok(String::new()) };
    let at = refs::cell_text(r1, c1);
    let moved = (r1, c1) != (r0, c0);
    let tag = if moved { set_attr(&tag, "r", Some(&at)) } else { tag };
    let Some((f_open, f_empty)) = f_tag else {
        if !moved {
            return Ok(raw.to_string());
        }
        let first = start_of_len(raw);
        return Ok(format!("{tag}{}", &raw[first..]));
    };
    let text = unescape(&f_text).map(|t| t.into_owned()).unwrap_or_else(|_| f_text.clone());
    let f_start = Reader::from_str(&f_open).read_event().ok().and_then(|e| match e {
        Event::Start(s) | Event::Empty(s) => Some(s.into_owned()),
        _ => None,
    });
    let kind = f_start.as_ref().and_then(|s| attr(s, b"t")).unwrap_or_default();
    let (base, open) = if kind == "shared" {
        let si = f_start.as_ref().and_then(|s| attr(s, b"si")).unwrap_or_default();
        let base = if !f_empty && !text.is_empty() {
            me.shared.insert(si, (text.clone(), r0, c0));
            text
        } else {
            let (mt, mr, mc) = me.shared.get(&si).cloned().ok_or_else(|| {
                damaged(
                    path,
                    format!(
                        "sheet {}: cell {} copies shared formula {si}, which no cell before it holds",
                        me.name,
                        refs::cell_text(r0, c0)
                    ),
                )
            })?;
            refs::map_refs(&mt, |_, r| r.offset(i64::from(r0) - i64::from(mr), i64::from(c0) - i64::from(mc)))
        };
        (base, format!("<{p}f>"))
    } else {
        let mut open = if f_empty { format!("{}>", f_open.trim_end_matches("/>")) } else { f_open.clone() };
        if me.target
            && let Some(r) = f_start.as_ref().and_then(|s| attr(s, b"ref"))
            && let Some(n) = refs::shift_sqref(&r, &edit)
        {
            open = set_attr(&open, "ref", Some(&n));
        }
        (text, open)
    };
    let new = ctx.formula(&base, Some(me.name), &format!("{}!{at}", me.name));
    ctx.report.uncached += 1;
    let tag = set_attr(&tag, "t", None);
    Ok(format!("{tag}{open}{}</{p}f>{rest}</{p}c>", partial_escape(&new)))
}

/// The `r` attribute of a start tag's text.
fn start_of(tag: &str) -> Option<String> {
    match Reader::from_str(tag).read_event().ok()? {
        Event::Start(e) | Event::Empty(e) => attr(&e, b"r"),
        _ => None,
    }
}

/// The length of the first tag of `raw`.
fn start_of_len(raw: &str) -> usize {
    let mut r = Reader::from_str(raw);
    let _ = r.read_event();
    r.buffer_position() as usize
}

/// A drawing's anchors (`xdr:from`/`xdr:to` rows or columns, 0-based) after the edit; an
/// anchor inside deleted lines moves to the first line after them.
fn drawing(path: &str, xml: &str, edit: &Edit) -> Result<String> {
    let want: &[u8] = match edit.axis {
        Axis::Rows => b"row",
        Axis::Cols => b"col",
    };
    let mut reader = Reader::from_str(xml);
    let mut out = String::with_capacity(xml.len());
    let mut pos = 0usize;
    let mut in_anchor = 0usize;
    let mut in_line = false;
    loop {
        let ev = reader.read_event().map_err(|e| damaged(path, format!("drawing: {e}")))?;
        let end = reader.buffer_position() as usize;
        let raw = &xml[pos..end];
        pos = end;
        match ev {
            Event::Eof => break,
            Event::Start(ref e) if matches!(e.local_name().as_ref(), b"from" | b"to") => {
                in_anchor += 1;
                out.push_str(raw);
            }
            Event::End(ref e) if matches!(e.local_name().as_ref(), b"from" | b"to") => {
                in_anchor = in_anchor.saturating_sub(1);
                out.push_str(raw);
            }
            Event::Start(ref e) if in_anchor > 0 && e.local_name().as_ref() == want => {
                in_line = true;
                out.push_str(raw);
            }
            Event::End(_) if in_line => {
                in_line = false;
                out.push_str(raw);
            }
            Event::Text(ref t) if in_line => {
                let n: Option<u32> = std::str::from_utf8(t.as_ref()).ok().and_then(|s| s.trim().parse().ok());
                match n {
                    Some(n) => {
                        let moved = edit.line(n + 1).unwrap_or(if edit.delete { edit.at } else { refs::MAX_ROW });
                        out.push_str(&(moved - 1).to_string());
                    }
                    None => out.push_str(raw),
                }
            }
            _ => out.push_str(raw),
        }
    }
    Ok(out)
}

/// The text of every element called `name` (a formula) after the edit: chart series
/// (`c:f`), defined names.
fn texts(path: &str, part: &str, xml: &str, name: &[u8], ctx: &mut Ctx<'_>) -> Result<String> {
    let mut reader = Reader::from_str(xml);
    let mut out = String::with_capacity(xml.len());
    let mut pos = 0usize;
    let mut inside: Option<String> = None;
    loop {
        let ev = reader.read_event().map_err(|e| damaged(path, format!("{part}: {e}")))?;
        let end = reader.buffer_position() as usize;
        let raw = &xml[pos..end];
        pos = end;
        match ev {
            Event::Eof => break,
            Event::Start(ref e) if e.local_name().as_ref() == name && inside.is_none() => {
                out.push_str(raw);
                inside = Some(String::new());
            }
            Event::End(ref e) if e.local_name().as_ref() == name => {
                let body = inside.take().unwrap_or_default();
                let text = unescape(&body).map(|t| t.into_owned()).unwrap_or_else(|_| body.clone());
                let new = ctx.formula(&text, None, part);
                if new == text {
                    out.push_str(&body);
                } else {
                    out.push_str(&partial_escape(&new));
                }
                out.push_str(raw);
            }
            _ => match inside.as_mut() {
                Some(b) => b.push_str(raw),
                None => out.push_str(raw),
            },
        }
    }
    Ok(out)
}

/// The workbook's sheets: (name, part).
fn sheets(path: &str, archive: &mut zip::ZipArchive<Cursor<&[u8]>>, wb: &str) -> Result<Vec<(String, String)>> {
    let mut names = Vec::new();
    let mut reader = Reader::from_str(wb);
    loop {
        match reader.read_event() {
            Ok(Event::Empty(e) | Event::Start(e)) if e.local_name().as_ref() == b"sheet" => {
                if let Some(n) = attr(&e, b"name") {
                    names.push(n);
                }
            }
            Ok(Event::Eof) => break,
            Err(e) => return Err(damaged(path, format!("xl/workbook.xml: {e}"))),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for n in names {
        let part = sheet_part(path, archive, &n)?;
        out.push((n, part));
    }
    Ok(out)
}

/// The relationships of `part`: (type, absolute target).
fn rels_of(path: &str, archive: &mut zip::ZipArchive<Cursor<&[u8]>>, part: &str) -> Result<Vec<(String, String)>> {
    let (dir, file) = part.rsplit_once('/').unwrap_or(("", part));
    let Some(xml) = read_part(path, archive, &format!("{dir}/_rels/{file}.rels"))? else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    let mut reader = Reader::from_str(&xml);
    loop {
        match reader.read_event() {
            Ok(Event::Empty(e) | Event::Start(e)) if e.local_name().as_ref() == b"Relationship" => {
                let t = attr(&e, b"Type").unwrap_or_default();
                let target = attr(&e, b"Target").unwrap_or_default();
                if attr(&e, b"TargetMode").as_deref() == Some("External") {
                    continue;
                }
                out.push((t, resolve(dir, &target)));
            }
            Ok(Event::Eof) => break,
            Err(e) => return Err(damaged(path, format!("relationships of {part}: {e}"))),
            _ => {}
        }
    }
    Ok(out)
}

/// `target` relative to folder `dir`, as a part name.
fn resolve(dir: &str, target: &str) -> String {
    if let Some(abs) = target.strip_prefix('/') {
        return abs.to_string();
    }
    let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for seg in target.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// Applies `edit` to sheet `target` of the xlsx `bytes`: the new package and what moved.
pub fn apply(path: &str, bytes: &[u8], target: &str, edit: Edit) -> Result<(Vec<u8>, Report)> {
    let mut archive =
        zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| damaged(path, format!("its zip directory: {e}")))?;
    let wb =
        read_part(path, &mut archive, "xl/workbook.xml")?.ok_or_else(|| damaged(path, "xl/workbook.xml is missing"))?;
    let all = sheets(path, &mut archive, &wb)?;
    let target_part = sheet_part(path, &mut archive, target)?;
    let rels = rels_of(path, &mut archive, &target_part)?;
    if let Some((_, what)) = REFUSED.iter().find(|(t, _)| rels.iter().any(|(rt, _)| rt.ends_with(t))) {
        return Err(SheetError::Unsupported {
            path: path.into(),
            detail: format!(
                "sheet {target:?} holds {what}, whose cell positions inserting or deleting {} would have to move, and env:spreadsheets does not move them yet",
                if edit.axis == Axis::Rows { "rows" } else { "columns" }
            ),
            hint:
                "rebuild the sheet with create (read it, change the rows, write it), or edit it in Excel or LibreOffice"
                    .into(),
        });
    }
    let mut ctx = Ctx { target, edit, report: Report::default() };
    let mut replaced: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (name, part) in &all {
        let Some(xml) = read_part(path, &mut archive, part)? else { continue };
        let mut me = Sheet { name, target: name == target, shared: Shared::new(), row: 0, col: 0, anchor: (0, 0) };
        let new = sheet(path, &xml, &mut ctx, &mut me)?;
        if new != xml {
            replaced.insert(part.clone(), new.into_bytes());
        }
    }
    for (t, part) in &rels {
        if t.ends_with("/drawing")
            && let Some(xml) = read_part(path, &mut archive, part)?
        {
            let new = drawing(path, &xml, &edit)?;
            if new != xml {
                replaced.insert(part.clone(), new.into_bytes());
            }
        }
    }
    let names: Vec<String> = archive.file_names().filter_map(|n| n.ok()).map(|n| n.to_string()).collect();
    for part in names.iter().filter(|n| n.starts_with("xl/charts/chart") && n.ends_with(".xml")) {
        if let Some(xml) = read_part(path, &mut archive, part)? {
            let new = texts(path, part, &xml, b"f", &mut ctx)?;
            if new != xml {
                replaced.insert(part.clone(), new.into_bytes());
            }
        }
    }
    for part in names.iter().filter(|n| n.starts_with("xl/pivotCache/pivotCacheDefinition") && n.ends_with(".xml")) {
        if let Some(xml) = read_part(path, &mut archive, part)? {
            let new = pivot_source(&xml, target, &edit);
            if new != xml {
                replaced.insert(part.clone(), new.into_bytes());
            }
        }
    }
    let wb_new = texts(path, "xl/workbook.xml", &wb, b"definedName", &mut ctx)?;
    forget_chain(path, &mut archive, &mut replaced, &wb_new)?;
    ctx.report.parts = replaced.keys().cloned().collect();
    let out = repack(path, &mut archive, &replaced, bytes.len())?;
    Ok((out, ctx.report))
}

/// A pivot cache whose source range is on the edited sheet, with that range moved.
fn pivot_source(xml: &str, target: &str, edit: &Edit) -> String {
    let Some(name_at) = xml.find("worksheetSource") else { return xml.to_string() };
    let Some(at) = xml[..name_at].rfind('<') else { return xml.to_string() };
    let Some(close) = xml[at..].find('>').map(|i| at + i + 1) else { return xml.to_string() };
    let tag = &xml[at..close];
    let Ok(Event::Empty(e) | Event::Start(e)) = Reader::from_str(tag).read_event() else { return xml.to_string() };
    if attr(&e, b"sheet").as_deref() != Some(target) {
        return xml.to_string();
    }
    let Some(r) = attr(&e, b"ref").and_then(|r| refs::shift_sqref(&r, edit)) else { return xml.to_string() };
    format!("{}{}{}", &xml[..at], set_attr(tag, "ref", Some(&r)), &xml[close..])
}
