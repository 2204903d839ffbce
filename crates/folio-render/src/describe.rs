//! `describe` summaries: what a file is and what is in it, cheaply. PDFs through PDFium (page
//! count, page size, metadata, a text sample, encryption), images from their headers, Office
//! files from their ZIP structure alone (no LibreOffice; legacy OLE and RTF files are named, not
//! read). Which files are claimed is the workspace's kind table (`folio_kinds`): magic bytes
//! first, then the extension.

use folio_kinds::{FileKind, Handler, Package, extension};
use serde_json::{Value, json};

use crate::error::{RenderError, Result};
use crate::images;
use crate::rasterize::Renderer;
use crate::zipdir;

/// What [`describe`] would treat a file as (`pdf`, `image` or `office`), or `None` when it does
/// not claim it: the kinds the workspace's table gives to `env:render` or `env:images` (media is
/// folio-media's).
pub fn claim(name: &str, bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(1024)];
    let kind = FileKind::detect(name, head)?;
    match kind.handler()? {
        Handler::Images => Some("image"),
        Handler::Render if kind == FileKind::Pdf => Some("pdf"),
        Handler::Render => Some("office"),
        Handler::Media => None,
    }
}

/// A JSON summary of the file `bytes` called `name`.
pub fn describe(renderer: &Renderer, name: &str, bytes: &[u8]) -> Result<Value> {
    match claim(name, bytes) {
        Some("pdf") => {
            let info = renderer.pdfium()?.describe(name, bytes)?;
            let mut v = serde_json::to_value(info).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("kind".into(), json!("pdf"));
            }
            Ok(v)
        }
        Some("image") => {
            let info = images::describe(name, bytes)?;
            let mut v = serde_json::to_value(info).unwrap_or(Value::Null);
            if let Value::Object(m) = &mut v {
                m.insert("kind".into(), json!("image"));
            }
            Ok(v)
        }
        Some(_) => describe_office(name, bytes),
        None => {
            let mut exts = Handler::Render.extensions();
            exts.extend(Handler::Images.extensions());
            Err(RenderError::Unsupported {
                path: name.to_string(),
                why: format!("describe handles PDF, images and Office files (.{})", exts.join(" .")),
            })
        }
    }
}

fn office_error(name: &str, detail: String) -> RenderError {
    RenderError::Image {
        path: name.to_string(),
        detail,
        fix: "check that the file was saved completely by an Office application; if it is password-protected, ask for an unprotected copy".into(),
    }
}

/// The text of every `<tag …>text</tag>` in `xml`, in order.
fn elements<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let after = &rest[i + open.len()..];
        // The tag name must end here (so `<w:t` does not match `<w:tab`).
        if !after.starts_with(['>', ' ', '/']) {
            rest = after;
            continue;
        }
        let Some(gt) = after.find('>') else { break };
        if after[..gt].ends_with('/') {
            rest = &after[gt + 1..];
            continue;
        }
        let body = &after[gt + 1..];
        let Some(end) = body.find(&close) else { break };
        out.push(&body[..end]);
        rest = &body[end + close.len()..];
    }
    out
}

fn attr_values<'a>(xml: &'a str, tag: &str, attr: &str) -> Vec<&'a str> {
    let open = format!("<{tag} ");
    let key = format!(" {attr}=\"");
    xml.match_indices(&open)
        .filter_map(|(i, _)| {
            let el = &xml[i..i + xml[i..].find('>')?];
            let at = el.find(&key)? + key.len();
            Some(&el[at..at + el[at..].find('"')?])
        })
        .collect()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&")
}

/// Summarises an Office file from its ZIP entries and small XML parts. Which kind of package it
/// is comes from the kind table (`FileKind::from_package`: the parts or `mimetype` each Office
/// kind's row names), not from a list here.
pub fn describe_office(name: &str, bytes: &[u8]) -> Result<Value> {
    let named = FileKind::from_name(name);
    let format = extension(name).unwrap_or_default();
    let head = &bytes[..bytes.len().min(1024)];
    if FileKind::Rtf.confirmed_by(head) {
        return Ok(json!({"kind": "office", "format": "rtf", "container": "rtf", "bytes": bytes.len()}));
    }
    match named.filter(|k| k.office().is_some()).map(|k| (k.confirmed_by(head), k.package_in(head))) {
        // An OLE file that is the named kind's own format: .doc, .xls, .ppt.
        Some((true, None)) => {
            return Ok(json!({
                "kind": "office",
                "format": format,
                "container": "ole",
                "note": "a legacy binary Office file: describe reads no more of it without LibreOffice; rasterize it (env:render) to see its pages",
            }));
        }
        Some((_, Some(Package::Encrypted))) => {
            return Ok(json!({
                "kind": "office",
                "format": format,
                "container": "ole",
                "encrypted": true,
                "note": "an OLE container under an Office extension: a password-protected document (or a legacy .doc/.xls/.ppt renamed); its contents cannot be read without the password",
            }));
        }
        _ => {}
    }
    let entries = zipdir::entries(bytes).map_err(|e| office_error(name, e))?;
    let has = |n: &str| entries.iter().any(|e| e.name == n);
    let part =
        |n: &str| zipdir::read(bytes, &entries, n, 8 << 20).ok().map(|b| String::from_utf8_lossy(&b).into_owned());
    let numbered = |prefix: &str, suffix: &str| {
        entries
            .iter()
            .filter(|e| {
                e.name
                    .strip_prefix(prefix)
                    .and_then(|r| r.strip_suffix(suffix))
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count()
    };
    let mut v = json!({"kind": "office", "entries": entries.len()});
    let mimetype = if has("mimetype") { part("mimetype") } else { None };
    let kind = FileKind::from_package(named, has, mimetype.as_deref());
    let format = match (kind, mimetype.as_deref()) {
        (Some(kind), _) => kind.extensions().first().copied().unwrap_or_default(),
        // An OpenDocument package of a kind Folio has no row for (a drawing, a formula).
        (None, Some(m)) if m.trim().starts_with("application/vnd.oasis.opendocument.") => "odf",
        (None, _) => {
            return Err(office_error(
                name,
                "a ZIP archive, but not an Office document (no word/, xl/, ppt/ or ODF mimetype)".into(),
            ));
        }
    };
    v["format"] = json!(format);
    v["media"] =
        json!(entries.iter().filter(|e| e.name.contains("/media/") || e.name.starts_with("Pictures/")).count());
    match kind {
        Some(FileKind::Docx) => {
            if let Some(doc) = part("word/document.xml") {
                v["paragraphs"] = json!(elements(&doc, "w:p").len());
                let text: String = elements(&doc, "w:t").iter().map(|t| unescape(t)).collect::<Vec<_>>().join(" ");
                v["textSample"] =
                    json!(text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(300).collect::<String>());
            }
        }
        Some(FileKind::Xlsx | FileKind::Xlsm) => {
            v["sheets"] = json!(numbered("xl/worksheets/sheet", ".xml"));
            if let Some(wb) = part("xl/workbook.xml") {
                v["sheetNames"] =
                    json!(attr_values(&wb, "sheet", "name").into_iter().map(unescape).collect::<Vec<_>>());
            }
        }
        Some(FileKind::Xlsb) => v["sheets"] = json!(numbered("xl/worksheets/sheet", ".bin")),
        Some(FileKind::Pptx) => v["slides"] = json!(numbered("ppt/slides/slide", ".xml")),
        _ => {}
    }
    let mut props = serde_json::Map::new();
    if let Some(core) = part("docProps/core.xml") {
        for (key, tag) in [
            ("title", "dc:title"),
            ("creator", "dc:creator"),
            ("lastModifiedBy", "cp:lastModifiedBy"),
            ("modified", "dcterms:modified"),
        ] {
            if let Some(t) = elements(&core, tag).first().filter(|t| !t.trim().is_empty()) {
                props.insert(key.into(), json!(unescape(t)));
            }
        }
    }
    if let Some(app) = part("docProps/app.xml") {
        for (key, tag) in [("pages", "Pages"), ("words", "Words"), ("slides", "Slides"), ("application", "Application")]
        {
            if let Some(t) = elements(&app, tag).first() {
                props.insert(key.into(), t.parse::<u64>().map_or_else(|_| json!(unescape(t)), |n| json!(n)));
            }
        }
    }
    v["properties"] = Value::Object(props);
    Ok(v)
}
