//! DOCX text as a reader of the finished document sees it: tracked changes resolved, review
//! material counted and carried beside the body.
//!
//! A Word file under review holds two documents at once. Insertions (`w:ins`) and the
//! destination of a move (`w:moveTo`) are text that exists only once the changes are
//! accepted; deletions (`w:del`, whose text is `w:delText`) and the source of a move
//! (`w:moveFrom`, whose text is plain `w:t`) exist only in the original. A paragraph *mark*
//! can be tracked too — `w:pPr/w:rPr/w:ins` or `w:del` — and a removed mark joins the
//! paragraph to the next one. Reading every `w:t` regardless (what a naive scan does) gives
//! neither document: a moved sentence twice, split paragraphs that no longer exist.
//!
//! [`Changes`] names the three views: `accept` (the default — the document as it will read),
//! `reject` (the original) and `markup` (both, `[+inserted+]` and `[-deleted-]`, a removed
//! or added paragraph mark shown as `[-¶-]`/`[+¶+]`). [`Review`] counts what the file carries
//! besides its body text — tracked changes by kind, comments, footnotes and endnotes — and
//! [`Review::note`] says so in one sentence, so a caller never mistakes a reviewed draft for
//! a clean one. The texts of comments and notes are returned beside the body, never mixed in.
//!
//! The XML is scanned tag by tag (no DOM): the containers that matter cannot nest into each
//! other in valid WordprocessingML beyond one level, and a depth counter per kind is enough.

use serde::Serialize;

use crate::docxpkg::{Heading, Package, heading_level, paragraphs, unescape};
use crate::error::{Result, invalid};

/// Which view of a document under review to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Changes {
    /// Every tracked change accepted: the document as it will read.
    #[default]
    Accept,
    /// Every tracked change rejected: the original.
    Reject,
    /// Both, inserted text as `[+…+]`, deleted as `[-…-]`.
    Markup,
}

impl Changes {
    /// Parses the script-facing name.
    pub fn parse(s: &str) -> Result<Changes> {
        match s {
            "accept" => Ok(Changes::Accept),
            "reject" => Ok(Changes::Reject),
            "markup" => Ok(Changes::Markup),
            other => Err(invalid!("extractText: changes must be 'accept', 'reject' or 'markup', not {other:?}")),
        }
    }
}

/// What the file carries besides its plain body text.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Review {
    /// Tracked insertions (runs and paragraph marks).
    pub insertions: usize,
    /// Tracked deletions (runs and paragraph marks).
    pub deletions: usize,
    /// Tracked moves (each counted once, not as a deletion plus an insertion).
    pub moves: usize,
    /// Tracked formatting changes (`w:rPrChange`, `w:pPrChange`, …).
    pub formatting: usize,
    /// Review comments.
    pub comments: usize,
    /// Footnotes (the separators every file has are not counted).
    pub footnotes: usize,
    /// Endnotes (likewise).
    pub endnotes: usize,
}

impl Review {
    /// Tracked changes of every kind.
    pub fn tracked(&self) -> usize {
        self.insertions + self.deletions + self.moves + self.formatting
    }

    /// One sentence for the caller, or `None` for a clean file.
    pub fn note(&self, changes: Changes) -> Option<String> {
        let mut parts = Vec::new();
        if self.tracked() > 0 {
            let kinds: Vec<String> = [
                (self.insertions, "insertion"),
                (self.deletions, "deletion"),
                (self.moves, "move"),
                (self.formatting, "formatting change"),
            ]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, k)| plural(*n, k))
            .collect();
            let view = match changes {
                Changes::Accept => {
                    "the text shows them accepted; pass {changes: 'reject'} for the original or 'markup' to see them marked [+inserted+] [-deleted-]"
                }
                Changes::Reject => {
                    "the text shows them rejected (the original); pass {changes: 'accept'} for the document as it will read"
                }
                Changes::Markup => {
                    "the text shows them marked: [+inserted+] [-deleted-], a paragraph mark as [+¶+]/[-¶-]"
                }
            };
            parts.push(format!(
                "{} tracked change{} ({}) — {view}",
                self.tracked(),
                s(self.tracked()),
                kinds.join(", ")
            ));
        }
        let extra: Vec<String> = [(self.comments, "comment"), (self.footnotes, "footnote"), (self.endnotes, "endnote")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, k)| plural(*n, k))
            .collect();
        if !extra.is_empty() {
            parts.push(format!(
                "{} — not in `text`; their texts are in `comments`, `footnotes` and `endnotes`",
                extra.join(", ")
            ));
        }
        (!parts.is_empty()).then(|| format!("this document has {}", parts.join("; and ")))
    }
}

fn s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plural(n: usize, kind: &str) -> String {
    format!("{n} {kind}{}", s(n))
}

/// A comment's author and text.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Comment {
    /// `w:author`, empty when absent.
    pub author: String,
    /// Its paragraphs joined by newlines.
    pub text: String,
}

/// What [`extract`] returns.
#[derive(Debug, Clone, Serialize)]
pub struct Extracted {
    /// Non-empty paragraphs of the body in the chosen view.
    pub paragraphs: usize,
    /// Characters of `text`.
    pub characters: usize,
    /// The paragraphs joined by newlines.
    pub text: String,
    /// Counts of review material.
    pub review: Review,
    /// Comments, in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Comment>,
    /// Footnote texts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub footnotes: Vec<String>,
    /// Endnote texts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endnotes: Vec<String>,
    /// What the file carries besides the plain text, when anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(skip)]
    pub(crate) headings: Vec<Heading>,
    #[serde(skip)]
    pub(crate) tables: usize,
}

/// The status of a paragraph's own mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Plain,
    Inserted,
    Deleted,
}

/// The tag name at `rest` (which starts with `<`), and whether it closes / self-closes.
fn tag(rest: &str) -> Option<(&str, bool, bool)> {
    let end = rest.find('>')?;
    let inner = &rest[1..end];
    let closing = inner.starts_with('/');
    let name_start = usize::from(closing);
    let name_end =
        inner[name_start..].find(|c: char| c.is_whitespace() || c == '/').map_or(inner.len(), |i| i + name_start);
    Some((&inner[name_start..name_end], closing, inner.ends_with('/')))
}

/// The range of the paragraph's own `<w:pPr>` (nested `w:pPrChange/w:pPr` included).
fn ppr_range(p: &str) -> Option<(usize, usize)> {
    let start = p.find("<w:pPr>").or_else(|| p.find("<w:pPr "))?;
    let mut depth = 0usize;
    let mut at = start;
    while let Some(i) = p[at..].find('<') {
        let pos = at + i;
        let (name, closing, selfc) = tag(&p[pos..])?;
        if name == "w:pPr" && !selfc {
            if closing {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some((start, pos));
                }
            } else {
                depth += 1;
            }
        }
        at = pos + 1;
    }
    None
}

fn mark(p: &str) -> Mark {
    let Some((s, e)) = ppr_range(p) else { return Mark::Plain };
    let ppr = &p[s..e];
    // The mark's run properties are the pPr's own rPr (a pPrChange holds no rPr).
    let Some(r) = ppr.find("<w:rPr>").or_else(|| ppr.find("<w:rPr ")) else { return Mark::Plain };
    let rpr = &ppr[r..ppr[r..].find("</w:rPr>").map_or(ppr.len(), |x| r + x)];
    let has = |t: &str| rpr.contains(&format!("<{t} ")) || rpr.contains(&format!("<{t}/>"));
    if has("w:del") || has("w:moveFrom") {
        Mark::Deleted
    } else if has("w:ins") || has("w:moveTo") {
        Mark::Inserted
    } else {
        Mark::Plain
    }
}

/// One paragraph's text in a view (its own mark not included).
fn paragraph_text(p: &str, changes: Changes) -> String {
    let mut out = String::new();
    let (mut ins, mut del) = (0usize, 0usize);
    let mut opened: Vec<usize> = Vec::new();
    let skip = p.find("<w:pPr").and_then(|_| ppr_range(p));
    let mut at = 0;
    while let Some(i) = p[at..].find('<') {
        let pos = at + i;
        if let Some((s, e)) = skip.filter(|(s, e)| pos >= *s && pos < *e) {
            at = e.max(s + 1);
            continue;
        }
        let Some((name, closing, selfc)) = tag(&p[pos..]) else { break };
        let open_end = pos + p[pos..].find('>').unwrap_or(0) + 1;
        match (name, closing, selfc) {
            ("w:ins" | "w:moveTo", false, false) => {
                ins += 1;
                if changes == Changes::Markup {
                    out.push_str("[+");
                    opened.push(out.len());
                }
            }
            ("w:del" | "w:moveFrom", false, false) => {
                del += 1;
                if changes == Changes::Markup {
                    out.push_str("[-");
                    opened.push(out.len());
                }
            }
            ("w:ins" | "w:moveTo", true, _) | ("w:del" | "w:moveFrom", true, _) => {
                let insert = matches!(name, "w:ins" | "w:moveTo");
                if insert {
                    ins = ins.saturating_sub(1);
                } else {
                    del = del.saturating_sub(1);
                }
                if changes == Changes::Markup
                    && let Some(from) = opened.pop()
                {
                    if out.len() == from {
                        out.truncate(from - 2);
                    } else {
                        out.push_str(if insert { "+]" } else { "-]" });
                    }
                }
            }
            ("w:t" | "w:delText", false, false) => {
                let Some(c) = p[open_end..].find(&format!("</{name}>")) else { break };
                let visible = match changes {
                    Changes::Accept => del == 0,
                    Changes::Reject => ins == 0,
                    Changes::Markup => true,
                };
                if visible {
                    out.push_str(&unescape(&p[open_end..open_end + c]));
                }
                at = open_end + c;
                continue;
            }
            ("w:tab", false, _) if visible_here(changes, ins, del) => out.push('\t'),
            ("w:br" | "w:cr", false, _) if visible_here(changes, ins, del) => out.push('\n'),
            _ => {}
        }
        at = pos + 1;
    }
    out
}

fn visible_here(changes: Changes, ins: usize, del: usize) -> bool {
    match changes {
        Changes::Accept => del == 0,
        Changes::Reject => ins == 0,
        Changes::Markup => true,
    }
}

/// The body's paragraphs in a view (marks resolved), headings and table count.
fn body(xml: &str, changes: Changes) -> (Vec<String>, Vec<Heading>) {
    let mut paras = Vec::new();
    let mut headings = Vec::new();
    let mut pending = String::new();
    for (s, e) in paragraphs(xml) {
        let p = &xml[s..e];
        let mut text = std::mem::take(&mut pending);
        text.push_str(&paragraph_text(p, changes));
        let joins = match (mark(p), changes) {
            (Mark::Deleted, Changes::Accept) | (Mark::Inserted, Changes::Reject) => true,
            (Mark::Deleted, Changes::Markup) => {
                text.push_str("[-¶-]");
                false
            }
            (Mark::Inserted, Changes::Markup) => {
                text.push_str("[+¶+]");
                false
            }
            _ => false,
        };
        if joins {
            pending = text;
            continue;
        }
        if let Some(level) = heading_level(p).filter(|_| !text.trim().is_empty()) {
            headings.push(Heading { level, text: text.trim().to_string() });
        }
        if !text.trim().is_empty() {
            paras.push(text);
        }
    }
    if !pending.trim().is_empty() {
        paras.push(pending);
    }
    (paras, headings)
}

/// Counts opening tags `<name ` / `<name>` / `<name/>`.
fn count(xml: &str, name: &str) -> usize {
    let open = format!("<{name}");
    xml.match_indices(&open)
        .filter(|(i, _)| matches!(xml.as_bytes().get(i + open.len()), Some(b' ' | b'>' | b'/')))
        .count()
}

/// The elements `<name …>…</name>` of a part, each as (attributes, body).
fn elements<'a>(xml: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let open = format!("<{name}");
    let close = format!("</{name}>");
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = xml[at..].find(&open) {
        let start = at + i;
        if !matches!(xml.as_bytes().get(start + open.len()), Some(b' ' | b'>')) {
            at = start + open.len();
            continue;
        }
        let Some(e) = xml[start..].find('>') else { break };
        let attrs = &xml[start + open.len()..start + e];
        if attrs.ends_with('/') {
            at = start + e + 1;
            continue;
        }
        let Some(c) = xml[start + e..].find(&close) else { break };
        out.push((attrs, &xml[start + e + 1..start + e + c]));
        at = start + e + c + close.len();
    }
    out
}

fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("{name}=\"");
    let i = attrs.find(&key)? + key.len();
    Some(&attrs[i..i + attrs[i..].find('"')?])
}

fn notes(pkg: &mut Package, part: &str, name: &str, changes: Changes) -> Result<Vec<String>> {
    if !pkg.names().iter().any(|n| n == part) {
        return Ok(Vec::new());
    }
    let xml = pkg.read_text(part)?;
    Ok(elements(&xml, name)
        .into_iter()
        .filter(|(a, _)| {
            !matches!(attr(a, "w:type"), Some("separator" | "continuationSeparator" | "continuationNotice"))
        })
        .map(|(_, b)| body(b, changes).0.join("\n").trim().to_string())
        .collect())
}

/// Reads the body in a view, with the review counts and the texts of comments and notes.
pub fn extract(pkg: &mut Package, changes: Changes) -> Result<Extracted> {
    let xml = pkg.read_text("word/document.xml")?;
    let (paras, headings) = body(&xml, changes);
    let tables = count(&xml, "w:tbl");
    let moves = match count(&xml, "w:moveFromRangeStart") {
        0 => count(&xml, "w:moveFrom"),
        n => n,
    };
    let formatting = ["w:rPrChange", "w:pPrChange", "w:sectPrChange", "w:tblPrChange", "w:trPrChange", "w:tcPrChange"]
        .iter()
        .map(|t| count(&xml, t))
        .sum();
    let comments: Vec<Comment> = if pkg.names().iter().any(|n| n == "word/comments.xml") {
        let cx = pkg.read_text("word/comments.xml")?;
        elements(&cx, "w:comment")
            .into_iter()
            .map(|(a, b)| Comment {
                author: unescape(attr(a, "w:author").unwrap_or("")),
                text: body(b, changes).0.join("\n").trim().to_string(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let footnotes = notes(pkg, "word/footnotes.xml", "w:footnote", changes)?;
    let endnotes = notes(pkg, "word/endnotes.xml", "w:endnote", changes)?;
    let review = Review {
        insertions: count(&xml, "w:ins"),
        deletions: count(&xml, "w:del"),
        moves,
        formatting,
        comments: comments.len(),
        footnotes: footnotes.len(),
        endnotes: endnotes.len(),
    };
    let text = paras.join("\n");
    Ok(Extracted {
        paragraphs: paras.len(),
        characters: text.chars().count(),
        text,
        note: review.note(changes),
        review,
        comments,
        footnotes,
        endnotes,
        headings,
        tables,
    })
}
