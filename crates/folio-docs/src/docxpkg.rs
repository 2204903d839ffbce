//! The DOCX package under its guards, and the paragraph scanning both readers share.
//!
//! [`Package`] opens the ZIP with two guards: an encrypted entry is refused, and no entry may
//! inflate past the cap or by more than [`MAX_RATIO`] times its compressed size, checked while
//! inflating. The scanners find paragraphs (`<w:p>`), their text spans and heading levels in the
//! raw XML. [`crate::docxread`] (describe, replace) and [`crate::docxtext`] (text with tracked
//! changes) both build on this module and on nothing of each other's.

use std::io::{Cursor, Read};

use serde::Serialize;
use zip::ZipArchive;

use crate::error::{DocsError, Result};

/// The default inflation cap (the reference's `maxVfsBytes`).
pub const DEFAULT_CAP: u64 = 128 * 1024 * 1024;
/// The largest inflate-to-compressed ratio an entry may have.
pub const MAX_RATIO: u64 = 1000;

/// An opened DOCX package.
pub struct Package {
    path: String,
    pub(crate) zip: ZipArchive<Cursor<Vec<u8>>>,
    cap: u64,
}

pub(crate) fn damaged(path: &str, detail: impl Into<String>) -> DocsError {
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
pub(crate) fn text_spans(p: &str) -> Vec<(usize, usize)> {
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
