//! The deck reader: slides in the order `ppt/presentation.xml` lists them (through its
//! relationships, never by file name), each slide's title (its `title`/`ctrTitle` placeholder),
//! body paragraphs (runs joined; table rows as `a | b | c`), and its notes found through the
//! slide's own `notesSlide` relationship. Date, footer, slide-number and header placeholders are
//! chrome and left out, and masters and layouts are never read for text.

use roxmltree::{Document, Node};
use serde::Serialize;

use crate::error::{Result, SlidesError};
use crate::zipio::Package;

/// One slide's text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlideText {
    /// 1-based position in the deck.
    pub slide: usize,
    /// The title, empty when the slide has none.
    pub title: String,
    /// Body paragraphs, in shape order.
    pub body: Vec<String>,
    /// The speaker notes, empty when none.
    pub notes: String,
}

/// A deck's summary for `describe` and `ls`.
#[derive(Debug, Clone, Serialize)]
pub struct DeckSummary {
    /// Always `pptx`.
    pub format: &'static str,
    /// The file's size.
    pub bytes: u64,
    /// How many slides.
    pub slides: usize,
    /// Each slide's title (empty when none).
    pub titles: Vec<String>,
    /// Words on slides and in notes.
    pub words: usize,
    /// Media files (`ppt/media/`).
    pub media: usize,
    /// Chart parts.
    pub charts: usize,
    /// Slides with notes.
    pub notes: usize,
}

const CHROME: &[&str] = &["dt", "ftr", "sldNum", "hdr", "sldImg"];

/// Resolves a relationship target against the directory of the part that holds it.
pub fn resolve(base_part: &str, target: &str) -> String {
    if let Some(abs) = target.strip_prefix('/') {
        return abs.to_string();
    }
    let mut parts: Vec<&str> = base_part.split('/').collect();
    parts.pop();
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

/// The relationships part of `part`.
pub fn rels_of(part: &str) -> String {
    match part.rsplit_once('/') {
        Some((dir, file)) => format!("{dir}/_rels/{file}.rels"),
        None => format!("_rels/{part}.rels"),
    }
}

fn parse<'a>(pkg: &Package<'_>, part: &str, xml: &'a str) -> Result<Document<'a>> {
    Document::parse(xml).map_err(|e| SlidesError::Damaged {
        path: pkg.path.clone(),
        part: part.to_string(),
        detail: e.to_string(),
    })
}

/// `(Id, Type, Target resolved)` of a part's relationships.
pub fn relationships(pkg: &mut Package<'_>, part: &str) -> Result<Vec<(String, String, String)>> {
    let rp = rels_of(part);
    let Some(xml) = pkg.text(&rp)? else { return Ok(Vec::new()) };
    let doc = parse(pkg, &rp, &xml)?;
    Ok(doc
        .descendants()
        .filter(|n| n.has_tag_name("Relationship") || n.tag_name().name() == "Relationship")
        .filter(|n| n.attribute("TargetMode") != Some("External"))
        .map(|n| {
            (
                n.attribute("Id").unwrap_or_default().to_string(),
                n.attribute("Type").unwrap_or_default().to_string(),
                resolve(part, n.attribute("Target").unwrap_or_default()),
            )
        })
        .collect())
}

/// The slide parts, in presentation order.
pub fn slide_parts(pkg: &mut Package<'_>) -> Result<Vec<String>> {
    let part = "ppt/presentation.xml";
    let xml = pkg.text(part)?.unwrap_or_default();
    let doc = parse(pkg, part, &xml)?;
    let rels = relationships(pkg, part)?;
    let mut out = Vec::new();
    for id in doc.descendants().filter(|n| n.tag_name().name() == "sldId") {
        let rid = id.attributes().find(|a| a.name() == "id" && a.namespace().is_some()).map(|a| a.value());
        if let Some((_, _, target)) =
            rels.iter().find(|(i, _, _)| Some(i.as_str()) == rid).filter(|(_, _, t)| pkg.has(t))
        {
            out.push(target.clone());
        }
    }
    Ok(out)
}

fn para_text(p: Node<'_, '_>) -> String {
    let mut s = String::new();
    for n in p.descendants() {
        match n.tag_name().name() {
            "t" => s.push_str(n.text().unwrap_or_default()),
            "br" => s.push(' '),
            _ => {}
        }
    }
    s.trim().to_string()
}

fn placeholder(sp: Node<'_, '_>) -> Option<String> {
    sp.descendants().find(|n| n.tag_name().name() == "ph").map(|n| n.attribute("type").unwrap_or("body").to_string())
}

fn slide_text(doc: &Document<'_>) -> (String, Vec<String>) {
    let mut title = String::new();
    let mut body = Vec::new();
    for n in doc.descendants() {
        match n.tag_name().name() {
            "sp" if n.tag_name().namespace().is_some_and(|ns| ns.contains("presentationml")) => {
                let ph = placeholder(n);
                if ph.as_deref().is_some_and(|t| CHROME.contains(&t)) {
                    continue;
                }
                let paras: Vec<String> = n
                    .descendants()
                    .filter(|d| {
                        d.tag_name().name() == "p"
                            && d.tag_name().namespace().is_some_and(|ns| ns.contains("drawingml"))
                    })
                    .map(para_text)
                    .filter(|t| !t.is_empty())
                    .collect();
                if matches!(ph.as_deref(), Some("title" | "ctrTitle")) && title.is_empty() {
                    title = paras.join(" ");
                } else {
                    body.extend(paras);
                }
            }
            "tr" => {
                let cells: Vec<String> = n
                    .children()
                    .filter(|c| c.tag_name().name() == "tc")
                    .map(|c| {
                        c.descendants()
                            .filter(|d| d.tag_name().name() == "p")
                            .map(para_text)
                            .collect::<Vec<_>>()
                            .join(" ")
                            .trim()
                            .to_string()
                    })
                    .collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    body.push(cells.join(" | "));
                }
            }
            _ => {}
        }
    }
    (title, body)
}

fn notes_text(doc: &Document<'_>) -> String {
    doc.descendants()
        .filter(|n| n.tag_name().name() == "sp" && placeholder(*n).as_deref() == Some("body"))
        .flat_map(|sp| sp.descendants().filter(|d| d.tag_name().name() == "p").map(para_text).collect::<Vec<_>>())
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The notes part of `slide`, through its relationships.
pub fn notes_part(pkg: &mut Package<'_>, slide: &str) -> Result<Option<String>> {
    Ok(relationships(pkg, slide)?.into_iter().find(|(_, t, _)| t.ends_with("/notesSlide")).map(|(_, _, p)| p))
}

/// Every slide's text.
pub fn extract(path: &str, bytes: &[u8]) -> Result<Vec<SlideText>> {
    let mut pkg = Package::open(path, bytes)?;
    let slides = slide_parts(&mut pkg)?;
    let mut out = Vec::with_capacity(slides.len());
    for (i, part) in slides.iter().enumerate() {
        let xml = pkg.text(part)?.unwrap_or_default();
        let doc = parse(&pkg, part, &xml)?;
        let (title, body) = slide_text(&doc);
        let notes = match notes_part(&mut pkg, part)? {
            Some(np) => match pkg.text(&np)? {
                Some(nx) => notes_text(&parse(&pkg, &np, &nx)?),
                None => String::new(),
            },
            None => String::new(),
        };
        out.push(SlideText { slide: i + 1, title, body, notes });
    }
    Ok(out)
}

/// The deck's summary.
pub fn describe(path: &str, bytes: &[u8]) -> Result<DeckSummary> {
    let slides = extract(path, bytes)?;
    let pkg = Package::open(path, bytes)?;
    let names = pkg.names();
    let words = slides
        .iter()
        .map(|s| {
            let count = |t: &str| t.split_whitespace().count();
            count(&s.title) + s.body.iter().map(|b| count(b)).sum::<usize>() + count(&s.notes)
        })
        .sum();
    Ok(DeckSummary {
        format: "pptx",
        bytes: bytes.len() as u64,
        slides: slides.len(),
        titles: slides.iter().map(|s| s.title.clone()).collect(),
        words,
        media: names.iter().filter(|n| n.starts_with("ppt/media/")).count(),
        charts: names.iter().filter(|n| n.starts_with("ppt/charts/chart") && n.ends_with(".xml")).count(),
        notes: slides.iter().filter(|s| !s.notes.is_empty()).count(),
    })
}

/// The deck as Markdown: `## Slide N: Title`, body lines as a list, notes quoted.
pub fn outline(path: &str, bytes: &[u8]) -> Result<String> {
    let mut md = String::new();
    for s in extract(path, bytes)? {
        md.push_str(&format!("## Slide {}: {}\n\n", s.slide, if s.title.is_empty() { "(untitled)" } else { &s.title }));
        for b in &s.body {
            md.push_str(&format!("- {b}\n"));
        }
        if !s.body.is_empty() {
            md.push('\n');
        }
        if !s.notes.is_empty() {
            for l in s.notes.lines() {
                md.push_str(&format!("> {l}\n"));
            }
            md.push('\n');
        }
    }
    Ok(md)
}

/// The text of a deck for `grep`: its outline.
pub fn extract_text(bytes: &[u8]) -> Result<String> {
    outline("deck.pptx", bytes)
}
