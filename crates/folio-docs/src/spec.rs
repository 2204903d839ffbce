//! The document spec `pdf.create` and `docx.create` share, parsed once into [`Doc`].
//!
//! ```text
//! {title?, author?, subject?, pageSize? ('a4'|'letter'|[w,h]), margin? (56 pt), header?, footer?,
//!  pageNumbers?, content: Block[]}
//! Block = {heading, level?} | {text | paragraph: string | Run[]} | {bullets: Item[]}
//!       | {table: {headers?, rows, align?} | rows} | {image: path, width?, height?} | {pageBreak: true}
//! ```
//!
//! Every string is checked against the bundled font before anything is laid out
//! ([`Doc::check_glyphs`]), so a character the font cannot draw is refused by name, never drawn
//! as `?` or a box. An image block carries its bytes once loaded ([`ImageSource::Bytes`]), so a
//! caller inside the host (a chart rendered to PNG) can hand bytes instead of a path.

use folio_fonts::Face;
use serde_json::{Map, Value};

use crate::error::{DocsError, Result, invalid};

/// The block kinds, as messages list them.
pub const KINDS: &str = "{heading, level?}, {text} (or {paragraph}), {bullets: [...]}, {table: {headers?, rows}}, {image: path, width?, height?}, {pageBreak: true}";

/// A4 in points.
pub const A4: [f32; 2] = [595.28, 841.89];
/// US Letter in points.
pub const LETTER: [f32; 2] = [612.0, 792.0];

/// A stretch of text in one face.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// The text.
    pub text: String,
    /// Bold.
    pub bold: bool,
    /// Italic (DejaVu Sans Oblique).
    pub italic: bool,
}

impl Run {
    /// A plain run.
    pub fn plain(text: impl Into<String>) -> Run {
        Run { text: text.into(), bold: false, italic: false }
    }
    /// The bundled face this run is set in (bold wins over italic: no bold-oblique is bundled).
    pub fn face(&self) -> Face {
        if self.bold {
            Face::SansBold
        } else if self.italic {
            Face::SansOblique
        } else {
            Face::Sans
        }
    }
}

/// One bullet item.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// Its text.
    pub runs: Vec<Run>,
    /// Nesting depth, 0 at the left.
    pub indent: u8,
}

/// How a table column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Text columns.
    Left,
    /// Centred.
    Center,
    /// Number columns (the default for a column whose cells are all numbers).
    Right,
}

/// Where an image block's bytes come from.
#[derive(Debug, Clone, PartialEq)]
pub enum ImageSource {
    /// A tree path, read by the caller before writing ([`Doc::image_paths`]).
    Path(String),
    /// PNG or JPEG bytes.
    Bytes(Vec<u8>),
}

/// One block of content.
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// A heading, level 1–3.
    Heading {
        /// Its text.
        text: String,
        /// 1, 2 or 3.
        level: u8,
    },
    /// A paragraph.
    Paragraph(Vec<Run>),
    /// A bulleted list.
    Bullets(Vec<Item>),
    /// A table.
    Table {
        /// The header row (repeated on every page the table spans).
        headers: Option<Vec<String>>,
        /// The body rows.
        rows: Vec<Vec<String>>,
        /// Per-column alignment.
        align: Vec<Align>,
    },
    /// A PNG or JPEG image.
    Image {
        /// The bytes or path.
        source: ImageSource,
        /// Width in points.
        width: Option<f32>,
        /// Height in points.
        height: Option<f32>,
    },
    /// Start a new page.
    PageBreak,
}

/// A parsed document spec.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    /// Metadata title.
    pub title: Option<String>,
    /// Metadata author.
    pub author: Option<String>,
    /// Metadata subject.
    pub subject: Option<String>,
    /// Page width and height in points.
    pub page: [f32; 2],
    /// Margin on every side, in points.
    pub margin: f32,
    /// Text at the top of every page.
    pub header: Option<String>,
    /// Text at the bottom of every page.
    pub footer: Option<String>,
    /// "Page N of M" at the bottom right.
    pub page_numbers: bool,
    /// The content.
    pub blocks: Vec<Block>,
}

fn opt_str(o: &Map<String, Value>, key: &str) -> Result<Option<String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid!("spec.{key} must be a string, not {other}")),
    }
}

fn cell_text(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => other.to_string(),
    }
}

/// True for `1234`, `-1,234.50`, `12%`, `$3.2`, `€ 40`: what a column of figures holds.
pub fn looks_numeric(s: &str) -> bool {
    let t = s.trim().trim_start_matches(['$', '€', '£', '¥', '+', '-', '−', '(']).trim();
    let t = t.trim_end_matches(['%', ')', ' ']).trim();
    !t.is_empty() && t.chars().any(|c| c.is_ascii_digit()) && t.chars().all(|c| c.is_ascii_digit() || ",. ".contains(c))
}

fn runs(v: &Value, place: &str, bold: bool, italic: bool) -> Result<Vec<Run>> {
    match v {
        Value::String(s) => Ok(vec![Run { text: s.clone(), bold, italic }]),
        Value::Number(n) => Ok(vec![Run { text: n.to_string(), bold, italic }]),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, r)| match r {
                Value::String(s) => Ok(Run { text: s.clone(), bold, italic }),
                Value::Object(o) => Ok(Run {
                    text: o.get("text").map(cell_text).unwrap_or_default(),
                    bold: o.get("bold").and_then(Value::as_bool).unwrap_or(bold),
                    italic: o.get("italic").and_then(Value::as_bool).unwrap_or(italic),
                }),
                other => Err(invalid!("{place}[{i}] must be a string or {{text, bold?, italic?}}, not {other}")),
            })
            .collect(),
        other => Err(invalid!("{place} must be a string or an array of runs, not {other}")),
    }
}

fn items(v: &Value, place: &str, depth: u8, out: &mut Vec<Item>) -> Result<()> {
    let Value::Array(list) = v else {
        return Err(invalid!("{place} must be an array of items (strings, {{text, indent?}} or nested arrays)"));
    };
    for (i, item) in list.iter().enumerate() {
        let here = format!("{place}[{i}]");
        match item {
            Value::Array(_) => items(item, &here, depth.saturating_add(1), out)?,
            Value::Object(o) => {
                let indent = o.get("indent").and_then(Value::as_u64).map_or(depth, |d| d.min(8) as u8);
                let text = o.get("text").ok_or_else(|| invalid!("{here} has no text"))?;
                out.push(Item { runs: runs(text, &here, false, false)?, indent });
            }
            other => out.push(Item { runs: runs(other, &here, false, false)?, indent: depth }),
        }
    }
    Ok(())
}

fn table(v: &Value, place: &str) -> Result<Block> {
    let (headers, rows, align) = match v {
        Value::Array(_) => (None, Some(v), None),
        Value::Object(o) => (o.get("headers"), o.get("rows"), o.get("align")),
        other => return Err(invalid!("{place}.table must be {{headers?, rows}} or an array of rows, not {other}")),
    };
    let headers = match headers {
        None | Some(Value::Null) => None,
        Some(Value::Array(h)) => Some(h.iter().map(cell_text).collect::<Vec<_>>()),
        Some(other) => return Err(invalid!("{place}.table.headers must be an array, not {other}")),
    };
    let rows: Vec<Vec<String>> = match rows {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(r)) => r
            .iter()
            .enumerate()
            .map(|(i, row)| match row {
                Value::Array(cells) => Ok(cells.iter().map(cell_text).collect()),
                other => Err(invalid!("{place}.table.rows[{i}] must be an array of cells, not {other}")),
            })
            .collect::<Result<_>>()?,
        Some(other) => return Err(invalid!("{place}.table.rows must be an array of rows, not {other}")),
    };
    let cols = rows.iter().map(Vec::len).chain(headers.iter().map(Vec::len)).max().unwrap_or(0);
    if cols == 0 {
        return Err(invalid!("{place}.table has no cells — hint: give rows: [[...], ...]"));
    }
    let mut aligns: Vec<Align> = (0..cols)
        .map(|c| {
            let cells: Vec<&String> = rows.iter().filter_map(|r| r.get(c)).filter(|s| !s.trim().is_empty()).collect();
            if !cells.is_empty() && cells.iter().all(|s| looks_numeric(s)) { Align::Right } else { Align::Left }
        })
        .collect();
    if let Some(Value::Array(given)) = align {
        for (c, a) in given.iter().enumerate().take(cols) {
            aligns[c] = match a.as_str() {
                Some("left") => Align::Left,
                Some("center") => Align::Center,
                Some("right") => Align::Right,
                _ => return Err(invalid!("{place}.table.align[{c}] must be 'left', 'center' or 'right'")),
            };
        }
    }
    Ok(Block::Table { headers, rows, align: aligns })
}

fn dimension(o: &Map<String, Value>, key: &str, place: &str) -> Result<Option<f32>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_f64() {
            Some(n) if n > 0.0 && n < 14_400.0 => Ok(Some(n as f32)),
            _ => Err(invalid!("{place}.{key} must be a positive number of points, not {v}")),
        },
    }
}

fn block(v: &Value, i: usize) -> Result<Block> {
    let place = format!("content[{i}]");
    let not_block = || invalid!("{place} is not a recognised block — use one of {KINDS}");
    let Value::Object(o) = v else { return Err(not_block()) };
    if let Some(h) = o.get("heading") {
        let level = o.get("level").and_then(Value::as_u64).unwrap_or(1);
        if !(1..=3).contains(&level) {
            return Err(invalid!("{place}.level must be 1, 2 or 3, not {level}"));
        }
        return Ok(Block::Heading { text: cell_text(h), level: level as u8 });
    }
    if let Some(t) = o.get("text").or_else(|| o.get("paragraph")) {
        let bold = o.get("bold").and_then(Value::as_bool).unwrap_or(false);
        let italic = o.get("italic").and_then(Value::as_bool).unwrap_or(false);
        return Ok(Block::Paragraph(runs(t, &format!("{place}.text"), bold, italic)?));
    }
    if let Some(b) = o.get("bullets") {
        let mut out = Vec::new();
        items(b, &format!("{place}.bullets"), 0, &mut out)?;
        return Ok(Block::Bullets(out));
    }
    if let Some(t) = o.get("table") {
        return table(t, &place);
    }
    if let Some(img) = o.get("image") {
        let Value::String(path) = img else {
            return Err(invalid!("{place}.image must be a tree path to a PNG or JPEG file"));
        };
        return Ok(Block::Image {
            source: ImageSource::Path(path.clone()),
            width: dimension(o, "width", &place)?,
            height: dimension(o, "height", &place)?,
        });
    }
    if o.get("pageBreak").is_some_and(|b| b.as_bool() != Some(false)) {
        return Ok(Block::PageBreak);
    }
    Err(not_block())
}

impl Doc {
    /// Parses a spec.
    pub fn parse(spec: &Value) -> Result<Doc> {
        let Value::Object(o) = spec else {
            return Err(invalid!("the document spec must be an object {{title?, pageSize?, content: [...]}}"));
        };
        let page = match o.get("pageSize") {
            None | Some(Value::Null) => A4,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("a4") => A4,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("letter") => LETTER,
            Some(Value::Array(wh)) if wh.len() == 2 => {
                let w = wh[0].as_f64().unwrap_or(0.0) as f32;
                let h = wh[1].as_f64().unwrap_or(0.0) as f32;
                if !(72.0..=14_400.0).contains(&w) || !(72.0..=14_400.0).contains(&h) {
                    return Err(invalid!("spec.pageSize [w, h] must be between 72 and 14400 points each"));
                }
                [w, h]
            }
            Some(other) => {
                return Err(invalid!("spec.pageSize must be 'a4', 'letter' or [width, height] in points, not {other}"));
            }
        };
        let margin = match o.get("margin") {
            None | Some(Value::Null) => 56.0,
            Some(v) => match v.as_f64() {
                Some(m) if m >= 0.0 && (m as f32) * 2.0 < page[0].min(page[1]) - 72.0 => m as f32,
                _ => {
                    return Err(invalid!(
                        "spec.margin must be a number of points that leaves room on the page, not {v}"
                    ));
                }
            },
        };
        let content = match o.get("content") {
            Some(Value::Array(c)) => c,
            _ => return Err(invalid!("spec.content must be an array of blocks: {KINDS}")),
        };
        Ok(Doc {
            title: opt_str(o, "title")?,
            author: opt_str(o, "author")?,
            subject: opt_str(o, "subject")?,
            page,
            margin,
            header: opt_str(o, "header")?,
            footer: opt_str(o, "footer")?,
            page_numbers: o.get("pageNumbers").and_then(Value::as_bool).unwrap_or(false),
            blocks: content.iter().enumerate().map(|(i, b)| block(b, i)).collect::<Result<_>>()?,
        })
    }

    /// Every image path the blocks name, with the block index, so the caller can read them.
    pub fn image_paths(&self) -> Vec<(usize, String)> {
        self.blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| match b {
                Block::Image { source: ImageSource::Path(p), .. } => Some((i, p.clone())),
                _ => None,
            })
            .collect()
    }

    /// Every string of the document with its place, for checks that cover all text.
    pub fn texts(&self) -> Vec<(String, &str)> {
        let mut out: Vec<(String, &str)> = Vec::new();
        for (key, v) in [("title", &self.title), ("header", &self.header), ("footer", &self.footer)] {
            if let Some(t) = v {
                out.push((key.to_string(), t));
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let place = format!("content[{i}]");
            match b {
                Block::Heading { text, .. } => out.push((place, text)),
                Block::Paragraph(runs) => out.extend(runs.iter().map(|r| (place.clone(), r.text.as_str()))),
                Block::Bullets(items) => {
                    out.extend(items.iter().flat_map(|it| it.runs.iter()).map(|r| (place.clone(), r.text.as_str())))
                }
                Block::Table { headers, rows, .. } => out
                    .extend(headers.iter().flatten().chain(rows.iter().flatten()).map(|c| (place.clone(), c.as_str()))),
                Block::Image { .. } | Block::PageBreak => {}
            }
        }
        out
    }

    /// Refuses, by name and place, right-to-left and joining scripts (Hebrew, Arabic, Syriac,
    /// Thaana): the PDF writer sets glyphs left to right without shaping, which would print them
    /// reversed and unjoined. DOCX is not affected (Word and LibreOffice shape the text).
    pub fn check_unshaped(&self) -> Result<()> {
        let rtl = |c: char| matches!(c as u32, 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF);
        for (place, text) in self.texts() {
            let mut found: Vec<char> = Vec::new();
            for c in text.chars().filter(|c| rtl(*c)) {
                if !found.contains(&c) {
                    found.push(c);
                }
                if found.len() >= 5 {
                    break;
                }
            }
            if !found.is_empty() {
                return Err(invalid!(
                    "{place} uses right-to-left text ({}…), which the PDF writer cannot shape — hint: make this document with docx.create (Word and LibreOffice shape Hebrew and Arabic) and convert it to PDF with env:render, or leave those words out of the PDF",
                    folio_fonts::describe_chars(&found)
                ));
            }
        }
        Ok(())
    }

    /// Refuses, by name and place, any character the bundled faces cannot draw.
    pub fn check_glyphs(&self) -> Result<()> {
        let check = |place: String, text: &str, face: Face| -> Result<()> {
            let missing = face.missing(text);
            if missing.is_empty() {
                Ok(())
            } else {
                Err(DocsError::MissingGlyphs { place, chars: folio_fonts::describe_chars(&missing) })
            }
        };
        for (key, v) in [("title", &self.title), ("header", &self.header), ("footer", &self.footer)] {
            if let Some(t) = v {
                check(key.to_string(), t, Face::Sans)?;
            }
        }
        for (i, b) in self.blocks.iter().enumerate() {
            let place = format!("content[{i}]");
            match b {
                Block::Heading { text, .. } => check(place, text, Face::SansBold)?,
                Block::Paragraph(runs) => runs.iter().try_for_each(|r| check(place.clone(), &r.text, r.face()))?,
                Block::Bullets(items) => {
                    for item in items {
                        item.runs.iter().try_for_each(|r| check(place.clone(), &r.text, r.face()))?;
                    }
                }
                Block::Table { headers, rows, .. } => {
                    for h in headers.iter().flatten() {
                        check(place.clone(), h, Face::SansBold)?;
                    }
                    for cell in rows.iter().flatten() {
                        check(place.clone(), cell, Face::Sans)?;
                    }
                }
                Block::Image { .. } | Block::PageBreak => {}
            }
        }
        Ok(())
    }
}
