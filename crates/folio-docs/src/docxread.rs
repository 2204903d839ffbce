//! DOCX reading and editing: describe, extract text, replace text.
//!
//! The package is read with the `zip` crate under two guards: an encrypted entry is refused,
//! and no entry may inflate past the cap (the run's `maxVfsBytes`, by default 128 MiB) or by
//! more than 1000× its compressed size — checked while inflating, not trusted from the
//! header. A password-protected DOCX is not a ZIP at all but an OLE container; it is named as
//! such. The XML is scanned directly (paragraphs `<w:p>`, text `<w:t>`, tabs and breaks), which
//! is all describe, extract and replace need; what tracked changes do to the text is
//! [`docxtext`]'s business.
//!
//! `replaceText` joins the text runs of one paragraph, finds literal, case-sensitive matches,
//! puts the replacement in the run where a match starts and removes the rest of the match from
//! the runs it spans. Parts it did not change are copied still compressed (`raw_copy_file`).

use std::io::{Cursor, Read};

use serde::Serialize;
use zip::ZipArchive;

use crate::docxtext::{self, Changes, Extracted, Review};
use crate::docxwrite::esc;
use crate::error::{DocsError, Result, invalid};

/// The default inflation cap (the reference's `maxVfsBytes`).
pub const DEFAULT_CAP: u64 = 128 * 1024 * 1024;
/// The largest inflate-to-compressed ratio an entry may have.
pub const MAX_RATIO: u64 = 1000;

/// An opened DOCX package.
pub struct Package {
    path: String,
    zip: ZipArchive<Cursor<Vec<u8>>>,
    cap: u64,
}

fn damaged(path: &str, detail: impl Into<String>) -> DocsError {
    DocsError::Damaged {
        path: path.to_string(),
        detail: detail.into(),
        fix: "open it in Word or LibreOffice and save it again as .docx, or ask the person for an undamaged copy"
            .into(),
    }
}

impl Package {
    /// Opens `bytes` (`path` names it in messages), refusing encrypted packages and entries.
    pub fn open(path: &str, bytes: Vec<u8>, cap: u64) -> Result<Package> {
        if bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
            return Err(DocsError::Refused {
                path: path.to_string(),
                detail: "is a password-protected (encrypted) Word document, not a ZIP package".into(),
                fix: "ask the person to remove the password (File → Info → Protect Document) and share it again".into(),
            });
        }
        if !bytes.starts_with(b"PK") {
            return Err(damaged(path, "is not a ZIP package (a .docx starts with PK)"));
        }
        let mut zip = ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| damaged(path, format!("its ZIP structure is broken ({e})")))?;
        for i in 0..zip.len() {
            let f = zip.by_index_raw(i).map_err(|e| damaged(path, format!("ZIP entry {i} is unreadable ({e})")))?;
            let name = f.name().map(|n| n.to_string()).unwrap_or_else(|_| format!("#{i}"));
            if f.encrypted() {
                return Err(DocsError::Refused {
                    path: path.to_string(),
                    detail: format!("ZIP entry {name} is encrypted"),
                    fix: "ask for a copy without a password".into(),
                });
            }
            if f.size() > cap {
                return Err(bomb(path, &name, f.size(), cap));
            }
        }
        if zip.index_for_name("word/document.xml").is_none() {
            return Err(damaged(path, "has no word/document.xml — it is a ZIP, but not a Word document"));
        }
        Ok(Package { path: path.to_string(), zip, cap })
    }

    /// The entry names, in order.
    pub fn names(&self) -> Vec<String> {
        self.zip.file_names().filter_map(|n| n.ok().map(|n| n.to_string())).collect()
    }

    /// Inflates one entry under the caps.
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>> {
        let path = self.path.clone();
        let cap = self.cap;
        let mut f = self.zip.by_name(name).map_err(|e| damaged(&path, format!("entry {name} cannot be read ({e})")))?;
        let limit = cap.min(f.compressed_size().saturating_mul(MAX_RATIO).max(1 << 20));
        let mut out = Vec::new();
        (&mut f)
            .take(limit + 1)
            .read_to_end(&mut out)
            .map_err(|e| damaged(&path, format!("entry {name} does not inflate ({e})")))?;
        if out.len() as u64 > limit {
            return Err(bomb(&path, name, out.len() as u64, limit));
        }
        Ok(out)
    }

    /// One entry as text.
    pub fn read_text(&mut self, name: &str) -> Result<String> {
        let bytes = self.read(name)?;
        String::from_utf8(bytes).map_err(|_| damaged(&self.path, format!("{name} is not UTF-8 XML")))
    }
}

fn bomb(path: &str, name: &str, size: u64, cap: u64) -> DocsError {
    DocsError::Refused {
        path: path.to_string(),
        detail: format!(
            "entry {name} inflates past {size} bytes, over the limit of {cap} bytes (a ZIP bomb or a damaged file)"
        ),
        fix: "this file cannot be read safely; ask for the original document".into(),
    }
}

/// Decodes XML character references and the five named entities.
pub fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let Some(end) = rest.find(';').filter(|e| *e < 12) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let ent = &rest[1..end];
        let c = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16).ok().and_then(char::from_u32),
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match c {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Byte ranges `(start, end)` of each `<w:p>…</w:p>` element.
pub(crate) fn paragraphs(xml: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = xml[at..].find("<w:p") {
        let start = at + i;
        let after = xml.as_bytes().get(start + 4).copied();
        if !matches!(after, Some(b'>' | b' ' | b'/')) {
            at = start + 4;
            continue;
        }
        let open_end = match xml[start..].find('>') {
            Some(e) => start + e,
            None => break,
        };
        if xml.as_bytes()[open_end - 1] == b'/' {
            out.push((start, open_end + 1));
            at = open_end + 1;
            continue;
        }
        match xml[open_end..].find("</w:p>") {
            Some(e) => {
                let end = open_end + e + 6;
                out.push((start, end));
                at = end;
            }
            None => break,
        }
    }
    out
}

/// Text elements of one paragraph: (content start, content end) byte ranges, plus tab/break
/// positions as pseudo-elements for extraction.
fn text_spans(p: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = p[at..].find("<w:t") {
        let start = at + i;
        let after = p.as_bytes().get(start + 4).copied();
        if !matches!(after, Some(b'>' | b' ' | b'/')) {
            at = start + 4;
            continue;
        }
        let Some(e) = p[start..].find('>') else { break };
        let open_end = start + e;
        if p.as_bytes()[open_end - 1] == b'/' {
            at = open_end + 1;
            continue;
        }
        let Some(c) = p[open_end..].find("</w:t>") else { break };
        out.push((open_end + 1, open_end + c));
        at = open_end + c + 6;
    }
    out
}

pub(crate) fn heading_level(p: &str) -> Option<u8> {
    let i = p.find("<w:pStyle w:val=\"")?;
    let v = &p[i + 17..];
    let v = &v[..v.find('"')?];
    let lower = v.to_ascii_lowercase();
    if lower == "title" {
        return Some(1);
    }
    let n = lower.strip_prefix("heading")?.trim_start_matches(' ');
    n.parse::<u8>().ok().filter(|n| (1..=9).contains(n))
}

/// A heading found in the body.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Heading {
    /// 1–9.
    pub level: u8,
    /// Its text.
    pub text: String,
}

/// What `docx.describe` reports.
#[derive(Debug, Clone, Serialize)]
pub struct DocxSummary {
    /// The tree path.
    pub path: String,
    /// Always `docx`.
    pub format: &'static str,
    /// File size.
    pub bytes: u64,
    /// Non-empty paragraphs of the body.
    pub paragraphs: usize,
    /// Words (whitespace-separated).
    pub words: usize,
    /// Characters of text.
    pub characters: usize,
    /// Headings in order.
    pub headings: Vec<Heading>,
    /// Tables.
    pub tables: usize,
    /// The first 300 characters of text (tracked changes accepted).
    pub preview: String,
    /// Tracked changes, comments and notes the file carries.
    pub review: Review,
    /// One sentence about them, when there are any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `docx.describe`.
pub fn describe(path: &str, bytes: Vec<u8>, cap: u64) -> Result<DocxSummary> {
    let size = bytes.len() as u64;
    let mut pkg = Package::open(path, bytes, cap)?;
    let x = docxtext::extract(&mut pkg, Changes::Accept)?;
    Ok(DocxSummary {
        path: path.to_string(),
        format: "docx",
        bytes: size,
        paragraphs: x.paragraphs,
        words: x.text.split_whitespace().count(),
        characters: x.characters,
        headings: x.headings,
        tables: x.tables,
        preview: x.text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect(),
        review: x.review,
        note: x.note,
    })
}

/// `docx.extractText`: the body's paragraphs joined by newlines, tracked changes resolved as
/// `changes` says (see [`docxtext`]).
pub fn extract(path: &str, bytes: Vec<u8>, cap: u64, changes: Changes) -> Result<Extracted> {
    let mut pkg = Package::open(path, bytes, cap)?;
    docxtext::extract(&mut pkg, changes)
}

/// What `replaceText` did.
#[derive(Debug, Clone, Serialize)]
pub struct Replaced {
    /// The output path.
    pub path: String,
    /// Replacements made.
    pub replacements: usize,
    /// The parts rewritten.
    pub parts: Vec<String>,
    /// The `find` strings that matched nowhere.
    pub unmatched: Vec<String>,
}

/// Which parts `replaceText` edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parts {
    /// Document, headers, footers, footnotes, endnotes.
    All,
    /// The document body only.
    Body,
}

fn editable(name: &str, parts: Parts) -> bool {
    if name == "word/document.xml" {
        return true;
    }
    parts == Parts::All
        && name.starts_with("word/")
        && name.ends_with(".xml")
        && !name[5..].contains('/')
        && ["header", "footer", "footnotes", "endnotes"].iter().any(|p| name[5..].starts_with(p))
}

/// Replaces in one paragraph; returns the new XML and the count per pair.
fn replace_paragraph(p: &str, pairs: &[(String, String)], counts: &mut [usize]) -> Option<String> {
    let spans = text_spans(p);
    if spans.is_empty() {
        return None;
    }
    let mut texts: Vec<String> = spans.iter().map(|(s, e)| unescape(&p[*s..*e])).collect();
    let mut changed = false;
    for (k, (find, repl)) in pairs.iter().enumerate() {
        if find.is_empty() {
            continue;
        }
        loop {
            let joined: String = texts.concat();
            // `replace` refuses a replacement that contains its `find`, so this ends.
            let Some(pos) = joined.find(find.as_str()) else { break };
            let end = pos + find.len();
            let mut offset = 0;
            let mut placed = false;
            for t in texts.iter_mut() {
                let (ts, te) = (offset, offset + t.len());
                offset = te;
                if te <= pos || ts >= end {
                    continue;
                }
                let cut_s = pos.max(ts) - ts;
                let cut_e = end.min(te) - ts;
                let ins = if placed { "" } else { repl.as_str() };
                placed = true;
                t.replace_range(cut_s..cut_e, ins);
            }
            counts[k] += 1;
            changed = true;
            if counts[k] > 100_000 {
                break;
            }
        }
    }
    if !changed {
        return None;
    }
    let mut out = String::with_capacity(p.len());
    let mut last = 0;
    for ((s, e), t) in spans.iter().zip(&texts) {
        // The element's opening tag gets xml:space="preserve" so edge spaces survive.
        let open_start = p[..*s].rfind("<w:t").unwrap_or(*s);
        out.push_str(&p[last..open_start]);
        out.push_str("<w:t xml:space=\"preserve\">");
        out.push_str(&esc(t));
        last = *e;
    }
    out.push_str(&p[last..]);
    Some(out)
}

/// `docx.replaceText`: returns the new package bytes and what changed.
pub fn replace(
    path: &str,
    bytes: Vec<u8>,
    pairs: &[(String, String)],
    parts: Parts,
    out_path: &str,
    cap: u64,
) -> Result<(Vec<u8>, Replaced)> {
    if pairs.is_empty() {
        return Err(invalid!("replaceText needs at least one {{find: replace}} pair"));
    }
    if let Some((f, r)) = pairs.iter().find(|(f, r)| r.contains(f.as_str()) && !f.is_empty()) {
        return Err(invalid!(
            "replaceText: the replacement for {f:?} ({r:?}) contains the text it replaces — hint: replace it in two steps through a placeholder"
        ));
    }
    let mut pkg = Package::open(path, bytes, cap)?;
    let names = pkg.names();
    let mut counts = vec![0usize; pairs.len()];
    let mut rewritten: Vec<(String, String)> = Vec::new();
    for name in names.iter().filter(|n| editable(n, parts)) {
        let xml = pkg.read_text(name)?;
        let mut out = String::with_capacity(xml.len());
        let mut last = 0;
        let mut changed = false;
        for (s, e) in paragraphs(&xml) {
            if let Some(newp) = replace_paragraph(&xml[s..e], pairs, &mut counts) {
                out.push_str(&xml[last..s]);
                out.push_str(&newp);
                last = e;
                changed = true;
            }
        }
        if changed {
            out.push_str(&xml[last..]);
            rewritten.push((name.clone(), out));
        }
    }
    let total: usize = counts.iter().sum();
    let unmatched: Vec<String> =
        pairs.iter().zip(&counts).filter(|(_, c)| **c == 0).map(|((f, _), _)| f.clone()).collect();
    if total == 0 {
        return Err(DocsError::NoMatch(format!(
            "replaceText: none of {} was found in {path} — hint: matching is literal and case-sensitive within one paragraph; check the text with docx.extractText",
            unmatched.iter().map(|u| format!("{u:?}")).collect::<Vec<_>>().join(", ")
        )));
    }
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let zerr = |e: zip::result::ZipError| damaged(path, format!("rewriting the package failed ({e})"));
    for i in 0..pkg.zip.len() {
        let name = pkg.zip.by_index_raw(i).map_err(zerr)?.name().map(|n| n.to_string()).map_err(zerr)?;
        if let Some((_, xml)) = rewritten.iter().find(|(n, _)| *n == name) {
            let opts = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            w.start_file(name.as_str(), opts).map_err(zerr)?;
            std::io::Write::write_all(&mut w, xml.as_bytes())
                .map_err(|e| damaged(path, format!("rewriting failed ({e})")))?;
        } else {
            let f = pkg.zip.by_index_raw(i).map_err(zerr)?;
            w.raw_copy_file(f).map_err(zerr)?;
        }
    }
    let bytes = w.finish().map_err(zerr)?.into_inner();
    let parts = rewritten.into_iter().map(|(n, _)| n).collect();
    Ok((bytes, Replaced { path: out_path.to_string(), replacements: total, parts, unmatched }))
}
