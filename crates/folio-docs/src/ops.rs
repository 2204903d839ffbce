//! The bindings of env:documents as plain functions over a [`DocFs`] and JSON arguments, so
//! the script layer only adapts and tests can call them directly. One table ([`BINDINGS`])
//! names each binding, whether it writes, and its function.
//!
//! Every writing binding builds its output completely in memory and writes it in one call at
//! the end, so a failure leaves no partial file.

use std::sync::Arc;

use folio_render::Renderer;
use serde_json::{Value, json};

use crate::docxread::{self, DEFAULT_CAP, Parts};
use crate::docxtext::Changes;
use crate::error::{DocsError, Result, invalid};
use crate::spec::{Block, Doc, ImageSource};
use crate::{docxwrite, pdfops, pdftext, pdfwrite};

/// The tree, as the operations see it.
pub trait DocFs {
    /// Reads a file.
    fn read(&self, path: &str) -> std::result::Result<Vec<u8>, String>;
    /// Writes a file (creating its parent directories).
    fn write(&self, path: &str, bytes: &[u8]) -> std::result::Result<(), String>;
}

/// What a call has.
pub struct Call<'a> {
    /// The tree.
    pub fs: &'a dyn DocFs,
    /// PDFium and LibreOffice, for text extraction.
    pub renderer: &'a Arc<Renderer>,
    /// The inflate cap for ZIP reads.
    pub cap: u64,
    /// The run's budget, for long work (text of many pages).
    pub budget: &'a folio_budget::RunBudget,
}

/// One binding.
pub struct Binding {
    /// The native name (`pdf_create`); the script sees `pdf.create`.
    pub name: &'static str,
    /// True when it writes files.
    pub writes: bool,
    /// The operation.
    pub run: fn(&Call<'_>, &[Value]) -> Result<Value>,
}

/// Every binding.
pub const BINDINGS: &[Binding] = &[
    Binding { name: "describe", writes: false, run: describe },
    Binding { name: "pdf_create", writes: true, run: pdf_create },
    Binding { name: "pdf_describe", writes: false, run: pdf_describe },
    Binding { name: "pdf_extractText", writes: false, run: pdf_extract_text },
    Binding { name: "pdf_merge", writes: true, run: pdf_merge },
    Binding { name: "pdf_split", writes: true, run: pdf_split },
    Binding { name: "pdf_extractPages", writes: true, run: pdf_extract_pages },
    Binding { name: "pdf_rotate", writes: true, run: pdf_rotate },
    Binding { name: "pdf_stamp", writes: true, run: pdf_stamp },
    Binding { name: "pdf_setMetadata", writes: true, run: pdf_set_metadata },
    Binding { name: "pdf_readForm", writes: false, run: pdf_read_form },
    Binding { name: "pdf_fillForm", writes: true, run: pdf_fill_form },
    Binding { name: "docx_create", writes: true, run: docx_create },
    Binding { name: "docx_describe", writes: false, run: docx_describe },
    Binding { name: "docx_extractText", writes: false, run: docx_extract_text },
    Binding { name: "docx_replaceText", writes: true, run: docx_replace_text },
];

fn arg_str<'a>(args: &'a [Value], i: usize, what: &str) -> Result<&'a str> {
    args.get(i).and_then(Value::as_str).ok_or_else(|| invalid!("argument {} ({what}) must be a path string", i + 1))
}

fn read(call: &Call<'_>, path: &str) -> Result<Vec<u8>> {
    call.fs.read(path).map_err(DocsError::Fs)
}

fn write(call: &Call<'_>, path: &str, bytes: &[u8]) -> Result<()> {
    call.fs.write(path, bytes).map_err(DocsError::Fs)
}

/// Parses a spec and reads its images from the tree.
pub fn load_spec(call: &Call<'_>, spec: &Value) -> Result<Doc> {
    let mut doc = Doc::parse(spec)?;
    for (i, path) in doc.image_paths() {
        let bytes = read(call, &path).map_err(|e| invalid!("content[{i}].image {path}: {e}"))?;
        if let Some(Block::Image { source, .. }) = doc.blocks.get_mut(i) {
            *source = ImageSource::Bytes(bytes);
        }
    }
    Ok(doc)
}

/// `pdf.describe` with PDFium as the second reader: a file lopdf cannot parse (a broken xref
/// PDFium repairs), one encrypted without a user password (PDFium opens it), or one where
/// lopdf finds no pages, is described by PDFium when it is present.
pub fn describe_pdf(renderer: &Renderer, path: &str, bytes: &[u8]) -> Result<Value> {
    let first = pdfops::describe(path, bytes);
    if let Ok(v) = &first
        && v["needsPassword"] != true
        && v["pages"].as_u64().unwrap_or(0) > 0
    {
        return first;
    }
    let Ok(engine) = renderer.pdfium() else { return first };
    let Ok(info) = engine.describe(path, bytes) else { return first };
    if info.page_count.unwrap_or(0) == 0 && !info.needs_password {
        return first;
    }
    let meta = |k: &str| info.metadata.get(k).cloned();
    let mut v = json!({
        "path": path, "format": "pdf", "bytes": bytes.len(), "pages": info.page_count,
        "pageSizes": info.page_size_pt.map(|s| vec![[f64::from(s[0]), f64::from(s[1])]]).unwrap_or_default(),
        "title": meta("title"), "author": meta("author"), "subject": meta("subject"), "creator": meta("creator"), "producer": meta("producer"),
        "encrypted": info.encrypted, "needsPassword": info.needs_password, "reader": "pdfium",
    });
    v["note"] = json!(match (&first, info.needs_password) {
        (_, true) => "encrypted with a password: ask for a decrypted copy (qpdf --decrypt --password=… in.pdf out.pdf)".to_string(),
        (Err(e), false) => format!("read by PDFium; editing needs a repaired copy: {e}"),
        (Ok(_), false) if info.encrypted => "encrypted without a user password: readable, but editing is refused (qpdf --decrypt in.pdf out.pdf removes the encryption)".to_string(),
        (Ok(_), false) => "read by PDFium; its page tree is damaged for editing".to_string(),
    });
    Ok(v)
}

fn describe(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    let bytes = read(call, path)?;
    if bytes.starts_with(b"%PDF") {
        describe_pdf(call.renderer, path, &bytes)
    } else if bytes.starts_with(b"PK") || bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]) {
        Ok(serde_json::to_value(docxread::describe(path, bytes, call.cap)?).unwrap_or(Value::Null))
    } else if path.to_ascii_lowercase().ends_with(".pdf") {
        describe_pdf(call.renderer, path, &bytes)
    } else {
        Err(invalid!(
            "{path} starts with neither %PDF nor a ZIP header — it is not a PDF or DOCX; describe it with the file tools"
        ))
    }
}

fn pdf_create(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "output path")?;
    let doc = load_spec(call, args.get(1).unwrap_or(&Value::Null))?;
    let bytes = pdfwrite::write_pdf(&doc)?;
    write(call, path, &bytes)?;
    let pages = pdfops::describe(path, &bytes)?.get("pages").cloned().unwrap_or(Value::Null);
    Ok(json!({"path": path, "pages": pages, "bytes": bytes.len()}))
}

fn pdf_describe(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    describe_pdf(call.renderer, path, &read(call, path)?)
}

fn pdf_extract_text(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    let bytes = read(call, path)?;
    let engine = call.renderer.pdfium()?;
    let pages = match args.get(1).and_then(|o| o.get("pages")) {
        None | Some(Value::Null) => None,
        Some(spec) => {
            let count = folio_render::pdf::page_count(&engine, path, &bytes).map_err(|e| match e {
                folio_render::RenderError::Encrypted { .. } => DocsError::Encrypted { path: path.to_string() },
                other => DocsError::Render(other),
            })?;
            Some(pdfops::parse_pages(spec, count)?)
        }
    };
    let out = pdftext::extract_within(&engine, call.budget, path, &bytes, pages.as_deref())?;
    Ok(serde_json::to_value(out).unwrap_or(Value::Null))
}

fn pdf_merge(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let Some(Value::Array(list)) = args.first() else {
        return Err(invalid!("merge(inputs, out): inputs must be an array of PDF paths"));
    };
    let out = arg_str(args, 1, "output path")?;
    let inputs = list
        .iter()
        .map(|p| {
            let p = p.as_str().ok_or_else(|| invalid!("merge: every input must be a path string"))?;
            Ok((p.to_string(), read(call, p)?))
        })
        .collect::<Result<Vec<_>>>()?;
    let bytes = pdfops::merge(&inputs)?;
    write(call, out, &bytes)?;
    Ok(json!({"path": out, "inputs": inputs.len(), "bytes": bytes.len()}))
}

fn stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

fn pdf_split(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "input path")?;
    let dir = arg_str(args, 1, "output directory")?.trim_end_matches('/');
    let parts = pdfops::split(path, &read(call, path)?)?;
    let mut paths = Vec::new();
    for (i, b) in parts.iter().enumerate() {
        let p = format!("{dir}/{}-{}.pdf", stem(path), i + 1);
        write(call, &p, b)?;
        paths.push(p);
    }
    Ok(json!({"paths": paths, "pages": parts.len()}))
}

fn pdf_extract_pages(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "input path")?;
    let out = arg_str(args, 1, "output path")?;
    let pages = args
        .get(2)
        .ok_or_else(|| invalid!("extractPages(in, out, pages): pages is missing, e.g. '1-3,7' or [1,3,7]"))?;
    let (bytes, kept) = pdfops::extract_pages(path, &read(call, path)?, pages)?;
    write(call, out, &bytes)?;
    Ok(json!({"path": out, "pages": kept}))
}

fn pdf_rotate(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "input path")?;
    let out = arg_str(args, 1, "output path")?;
    let degrees = args
        .get(2)
        .and_then(Value::as_i64)
        .ok_or_else(|| invalid!("rotate(in, out, degrees, pages?): degrees must be 90, 180 or 270"))?;
    let (bytes, n) = pdfops::rotate(path, &read(call, path)?, degrees, args.get(3))?;
    write(call, out, &bytes)?;
    Ok(json!({"path": out, "rotated": n}))
}

fn pdf_stamp(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "input path")?;
    let out = arg_str(args, 1, "output path")?;
    let opts = args.get(2).unwrap_or(&Value::Null);
    let (bytes, n) = crate::pdfstamp::stamp(path, &read(call, path)?, opts)?;
    write(call, out, &bytes)?;
    Ok(json!({"path": out, "stamped": n}))
}

fn pdf_set_metadata(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "input path")?;
    let meta = args.get(1).unwrap_or(&Value::Null);
    let out = args.get(2).and_then(Value::as_str).unwrap_or(path);
    let bytes = pdfops::set_metadata(path, &read(call, path)?, meta)?;
    write(call, out, &bytes)?;
    Ok(json!({"path": out}))
}

fn pdf_read_form(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    pdfops::read_form(path, &read(call, path)?)
}

fn pdf_fill_form(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    let values = args.get(1).unwrap_or(&Value::Null);
    let opts = args.get(2).cloned().unwrap_or(Value::Null);
    let flatten = opts.get("flatten").and_then(Value::as_bool) == Some(true);
    let qpdf = if flatten {
        crate::qpdf::check_values(values)?;
        Some(crate::qpdf::require()?)
    } else {
        None
    };
    let out = opts.get("output").and_then(Value::as_str).unwrap_or(path);
    let allow = opts.get("allowXfa").and_then(Value::as_bool).unwrap_or(false);
    let (mut bytes, filled) = pdfops::fill_form(path, &read(call, path)?, values, allow)?;
    if let Some(qpdf) = &qpdf {
        bytes = crate::qpdf::flatten(qpdf, path, &bytes, call.budget)?;
    }
    write(call, out, &bytes)?;
    Ok(json!({"path": out, "filled": filled, "flattened": flatten}))
}

fn docx_create(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "output path")?;
    let doc = load_spec(call, args.get(1).unwrap_or(&Value::Null))?;
    let bytes = docxwrite::write_docx(&doc)?;
    write(call, path, &bytes)?;
    Ok(json!({"path": path, "bytes": bytes.len()}))
}

fn docx_describe(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    Ok(serde_json::to_value(docxread::describe(path, read(call, path)?, call.cap)?).unwrap_or(Value::Null))
}

fn docx_extract_text(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    let opts = args.get(1).cloned().unwrap_or(Value::Null);
    let changes = match opts.get("changes") {
        None | Some(Value::Null) => Changes::Accept,
        Some(Value::String(s)) => Changes::parse(s)?,
        Some(other) => {
            return Err(invalid!("extractText: changes must be 'accept', 'reject' or 'markup', not {other}"));
        }
    };
    let x = docxread::extract(path, read(call, path)?, call.cap, changes)?;
    Ok(serde_json::to_value(x).unwrap_or(Value::Null))
}

fn docx_replace_text(call: &Call<'_>, args: &[Value]) -> Result<Value> {
    let path = arg_str(args, 0, "path")?;
    let pairs: Vec<(String, String)> = match args.get(1) {
        Some(Value::Object(m)) => {
            m.iter().map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), String::from))).collect()
        }
        Some(Value::Array(list)) => list
            .iter()
            .map(|p| match (p.get("find").and_then(Value::as_str), p.get("replace")) {
                (Some(f), Some(r)) => Ok((f.to_string(), r.as_str().map_or_else(|| r.to_string(), String::from))),
                _ => Err(invalid!("replaceText: each pair must be {{find, replace}}")),
            })
            .collect::<Result<_>>()?,
        _ => return Err(invalid!("replaceText(path, {{find: replace}} or [{{find, replace}}], opts?)")),
    };
    let opts = args.get(2).cloned().unwrap_or(Value::Null);
    let out = opts.get("output").and_then(Value::as_str).unwrap_or(path);
    let parts = match opts.get("parts").and_then(Value::as_str) {
        None | Some("all") => Parts::All,
        Some("body") => Parts::Body,
        Some(other) => return Err(invalid!("replaceText: parts must be 'all' or 'body', not {other:?}")),
    };
    let (bytes, done) = docxread::replace(path, read(call, path)?, &pairs, parts, out, call.cap)?;
    write(call, out, &bytes)?;
    Ok(serde_json::to_value(done).unwrap_or(Value::Null))
}

/// The text of a PDF or DOCX, for grep inside documents: PDF through PDFium (pages joined by
/// form feeds), DOCX from its body with tracked changes accepted.
pub fn extract_text(renderer: &Renderer, name: &str, bytes: &[u8]) -> Result<String> {
    if bytes.starts_with(b"%PDF") {
        let engine = renderer.pdfium()?;
        return Ok(pdftext::extract(&engine, name, bytes, None)?.text);
    }
    docxread::extract(name, bytes.to_vec(), DEFAULT_CAP, Changes::Accept).map(|x| x.text)
}
