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

use std::io::Cursor;

use serde::Serialize;

use crate::docxtext::{self, Changes, Extracted, Review};
use crate::docxwrite::esc;
use crate::error::{DocsError, Result, invalid};

pub use crate::docxpkg::{DEFAULT_CAP, Heading, MAX_RATIO, Package, unescape};
use crate::docxpkg::{damaged, paragraphs, text_spans};

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
