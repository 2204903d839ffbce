//! PDF reading and editing with lopdf: describe, page selection, split, merge, rotate,
//! metadata, and AcroForm read and fill. Text comes from PDFium ([`crate::pdftext`]).
//!
//! Every operation parses the whole file first and builds the output in memory, so a failure
//! leaves no partial file: the caller writes the bytes only when the operation succeeded. An
//! encrypted PDF is refused by name (describe reports it instead), with the qpdf command that
//! decrypts it.

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{Dictionary, Document, Object, ObjectId, StringFormat};
use serde_json::{Value, json};

use crate::error::{DocsError, Result, invalid};

fn damaged(path: &str, detail: impl Into<String>) -> DocsError {
    DocsError::Damaged {
        path: path.to_string(),
        detail: detail.into(),
        fix: "ask for an undamaged copy, or re-save it from a PDF viewer (Print → Save as PDF)".into(),
    }
}

/// Loads a PDF for editing: refuses encrypted and damaged files by name.
pub fn load(path: &str, bytes: &[u8]) -> Result<Document> {
    if !bytes.starts_with(b"%PDF") && !bytes[..bytes.len().min(1024)].windows(5).any(|w| w == b"%PDF-") {
        return Err(damaged(path, "does not start with %PDF — it is not a PDF"));
    }
    let doc = match Document::load_mem(bytes) {
        Ok(d) => d,
        Err(_) if has_encrypt(bytes) => return Err(DocsError::Encrypted { path: path.to_string() }),
        Err(e) => return Err(damaged(path, format!("lopdf cannot parse it ({e})"))),
    };
    if doc.is_encrypted() || doc.trailer.get(b"Encrypt").is_ok() {
        return Err(DocsError::Encrypted { path: path.to_string() });
    }
    if doc.get_pages().is_empty() {
        return Err(damaged(path, "has no pages"));
    }
    Ok(doc)
}

fn has_encrypt(bytes: &[u8]) -> bool {
    bytes.windows(8).any(|w| w == b"/Encrypt")
}

/// Serialises a document.
pub fn save(path: &str, doc: &mut Document) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    doc.save_to(&mut out).map_err(|e| damaged(path, format!("writing it failed ({e})")))?;
    Ok(out)
}

/// A PDF text string as Rust text (UTF-16BE with BOM, UTF-8 with BOM, else PDFDocEncoding as
/// Latin-1).
pub fn text_string(b: &[u8]) -> String {
    if b.starts_with(&[0xFE, 0xFF]) {
        let units: Vec<u16> = b[2..].chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
        return String::from_utf16_lossy(&units);
    }
    if let Some(rest) = b.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest).into_owned();
    }
    b.iter().map(|c| char::from(*c)).collect()
}

/// Rust text as a PDF text string (ASCII as is, anything else UTF-16BE).
pub fn pdf_string(s: &str) -> Object {
    if s.is_ascii() {
        return Object::String(s.as_bytes().to_vec(), StringFormat::Literal);
    }
    let mut b = vec![0xFE, 0xFF];
    for u in s.encode_utf16() {
        b.extend_from_slice(&u.to_be_bytes());
    }
    Object::String(b, StringFormat::Hexadecimal)
}

fn resolve<'a>(doc: &'a Document, o: &'a Object) -> &'a Object {
    doc.dereference(o).map(|(_, o)| o).unwrap_or(o)
}

fn inherited<'a>(doc: &'a Document, page: ObjectId, key: &[u8]) -> Option<&'a Object> {
    let mut id = page;
    for _ in 0..64 {
        let d = doc.get_dictionary(id).ok()?;
        if let Ok(v) = d.get(key) {
            return Some(resolve(doc, v));
        }
        id = d.get(b"Parent").and_then(Object::as_reference).ok()?;
    }
    None
}

fn page_size(doc: &Document, page: ObjectId) -> [f64; 2] {
    let nums = inherited(doc, page, b"MediaBox")
        .and_then(|o| o.as_array().ok())
        .map(|a| a.iter().map(|v| resolve(doc, v).as_float().unwrap_or(0.0)).collect::<Vec<_>>())
        .unwrap_or_default();
    let (w, h) = if nums.len() == 4 { ((nums[2] - nums[0]).abs(), (nums[3] - nums[1]).abs()) } else { (612.0, 792.0) };
    let rot = inherited(doc, page, b"Rotate").and_then(|o| o.as_i64().ok()).unwrap_or(0);
    let (w, h) = if rot.rem_euclid(180) == 90 { (h, w) } else { (w, h) };
    [(f64::from(w) * 100.0).round() / 100.0, (f64::from(h) * 100.0).round() / 100.0]
}

/// `pdf.describe`: never refuses an encrypted file, reports it.
pub fn describe(path: &str, bytes: &[u8]) -> Result<Value> {
    let base = json!({"path": path, "format": "pdf", "bytes": bytes.len()});
    let doc = match Document::load_mem(bytes) {
        Ok(d) => d,
        Err(_) if has_encrypt(bytes) => {
            let mut v = base;
            v["encrypted"] = json!(true);
            v["needsPassword"] = json!(true);
            v["note"] = json!(
                "encrypted with a password: ask for a decrypted copy (qpdf --decrypt --password=… in.pdf out.pdf)"
            );
            return Ok(v);
        }
        Err(e) => return Err(damaged(path, format!("lopdf cannot parse it ({e})"))),
    };
    let pages = doc.get_pages();
    let sizes: Vec<[f64; 2]> = pages.values().take(200).map(|id| page_size(&doc, *id)).collect();
    let mut v = base;
    v["pages"] = json!(pages.len());
    v["pageSizes"] = json!(sizes);
    let info = doc.trailer.get(b"Info").ok().map(|o| resolve(&doc, o)).and_then(|o| o.as_dict().ok());
    for (key, name) in [
        ("title", "Title"),
        ("author", "Author"),
        ("subject", "Subject"),
        ("creator", "Creator"),
        ("producer", "Producer"),
    ] {
        let val = info
            .and_then(|d| d.get(name.as_bytes()).ok())
            .map(|o| resolve(&doc, o))
            .and_then(|o| o.as_str().ok())
            .map(text_string);
        v[key] = json!(val);
    }
    v["encrypted"] = json!(doc.is_encrypted() || doc.trailer.get(b"Encrypt").is_ok());
    let form = acroform(&doc);
    v["forms"] = json!({"fields": form.as_ref().map_or(0, |f| field_list(&doc, f).len()), "xfa": form.as_ref().is_some_and(|f| f.get(b"XFA").is_ok())});
    Ok(v)
}

/// Pages from `'1-3,7'`, `[1,3,7]` or a single number, 1-based, validated against `count`.
pub fn parse_pages(spec: &Value, count: u32) -> Result<Vec<u32>> {
    let out_of_range = |n: u64| invalid!("page {n} does not exist — the document has {count} page(s)");
    let mut pages = Vec::new();
    match spec {
        Value::Number(n) => pages.push(n.as_u64().ok_or_else(|| invalid!("pages must be positive integers, not {n}"))?),
        Value::Array(list) => {
            for p in list {
                pages.push(p.as_u64().ok_or_else(|| invalid!("pages must be positive integers, not {p}"))?);
            }
        }
        Value::String(s) => {
            for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let bad = || invalid!("pages {s:?}: {part:?} is not a page or a range like 2-5");
                if let Some((a, b)) = part.split_once('-') {
                    let a: u64 = a.trim().parse().map_err(|_| bad())?;
                    let b: u64 =
                        if b.trim().is_empty() { u64::from(count) } else { b.trim().parse().map_err(|_| bad())? };
                    if a > b {
                        return Err(bad());
                    }
                    if b > u64::from(count) {
                        return Err(out_of_range(b));
                    }
                    pages.extend(a..=b);
                } else {
                    pages.push(part.parse().map_err(|_| bad())?);
                }
            }
        }
        other => return Err(invalid!("pages must be like '1-3,7' or [1,3,7], not {other}")),
    }
    if pages.is_empty() {
        return Err(invalid!("no pages were named — the document has {count} page(s)"));
    }
    for p in &pages {
        if *p == 0 || *p > u64::from(count) {
            return Err(out_of_range(*p));
        }
    }
    Ok(pages.into_iter().map(|p| p as u32).collect())
}

/// A new PDF holding `pages` of `bytes` (in document order).
pub fn extract_pages(path: &str, bytes: &[u8], pages: &Value) -> Result<(Vec<u8>, Vec<u32>)> {
    let mut doc = load(path, bytes)?;
    let count = doc.get_pages().len() as u32;
    let keep: BTreeSet<u32> = parse_pages(pages, count)?.into_iter().collect();
    let drop: Vec<u32> = (1..=count).filter(|p| !keep.contains(p)).collect();
    doc.delete_pages(&drop);
    doc.prune_objects();
    Ok((save(path, &mut doc)?, keep.into_iter().collect()))
}

/// One PDF per page.
pub fn split(path: &str, bytes: &[u8]) -> Result<Vec<Vec<u8>>> {
    let count = load(path, bytes)?.get_pages().len() as u32;
    (1..=count).map(|n| extract_pages(path, bytes, &json!(n)).map(|(b, _)| b)).collect()
}

/// Rotates `pages` (all when `None`) by `degrees` (a multiple of 90).
pub fn rotate(path: &str, bytes: &[u8], degrees: i64, pages: Option<&Value>) -> Result<(Vec<u8>, usize)> {
    if degrees % 90 != 0 {
        return Err(invalid!("rotate: degrees must be a multiple of 90, not {degrees}"));
    }
    let mut doc = load(path, bytes)?;
    let all = doc.get_pages();
    let chosen: Vec<u32> = match pages {
        Some(p) if !p.is_null() => parse_pages(p, all.len() as u32)?,
        _ => all.keys().copied().collect(),
    };
    for n in &chosen {
        let Some(id) = all.get(n).copied() else { continue };
        let now = inherited(&doc, id, b"Rotate").and_then(|o| o.as_i64().ok()).unwrap_or(0);
        let dict =
            doc.get_dictionary_mut(id).map_err(|e| damaged(path, format!("page {n} is not a dictionary ({e})")))?;
        dict.set("Rotate", Object::Integer((now + degrees).rem_euclid(360)));
    }
    Ok((save(path, &mut doc)?, chosen.len()))
}

/// Sets Info entries from `meta` (`title`, `author`, `subject`, `keywords` (string or list),
/// `creator`, `producer`).
pub fn set_metadata(path: &str, bytes: &[u8], meta: &Value) -> Result<Vec<u8>> {
    let Value::Object(m) = meta else {
        return Err(invalid!("setMetadata: meta must be an object like {{title, author, subject, keywords}}"));
    };
    let mut doc = load(path, bytes)?;
    let info_id = match doc.trailer.get(b"Info").and_then(Object::as_reference) {
        Ok(id) => id,
        Err(_) => {
            let id = doc.add_object(Dictionary::new());
            doc.trailer.set("Info", id);
            id
        }
    };
    let dict = doc.get_dictionary_mut(info_id).map_err(|e| damaged(path, format!("its Info entry is broken ({e})")))?;
    for (key, v) in m {
        let name = match key.as_str() {
            "title" => "Title",
            "author" => "Author",
            "subject" => "Subject",
            "keywords" => "Keywords",
            "creator" => "Creator",
            "producer" => "Producer",
            other => {
                return Err(invalid!(
                    "setMetadata: {other:?} is not a metadata field — use title, author, subject, keywords, creator, producer"
                ));
            }
        };
        let text = match v {
            Value::String(s) => s.clone(),
            Value::Array(a) => a
                .iter()
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .collect::<Vec<_>>()
                .join(", "),
            Value::Null => {
                dict.remove(name.as_bytes());
                continue;
            }
            other => other.to_string(),
        };
        dict.set(name, pdf_string(&text));
    }
    save(path, &mut doc)
}

/// Concatenates PDFs, in order.
pub fn merge(inputs: &[(String, Vec<u8>)]) -> Result<Vec<u8>> {
    if inputs.len() < 2 {
        return Err(invalid!("merge needs at least two input PDFs, got {}", inputs.len()));
    }
    let mut max_id = 1;
    let mut pages: Vec<(ObjectId, Dictionary)> = Vec::new();
    let mut objects: BTreeMap<ObjectId, Object> = BTreeMap::new();
    for (path, bytes) in inputs {
        let mut doc = load(path, bytes)?;
        doc.renumber_objects_with(max_id);
        max_id = doc.max_id + 1;
        for id in doc.get_pages().values() {
            let mut d = doc.get_dictionary(*id).map_err(|e| damaged(path, format!("a page is broken ({e})")))?.clone();
            for key in [&b"MediaBox"[..], b"Resources", b"CropBox", b"Rotate"] {
                if d.get(key).is_err()
                    && let Some(v) = inherited(&doc, *id, key)
                {
                    d.set(key.to_vec(), v.clone());
                }
            }
            pages.push((*id, d));
        }
        objects.extend(doc.objects);
    }
    let mut out = Document::with_version("1.7");
    for (id, obj) in objects {
        let kind = obj.type_name().ok().map(<[u8]>::to_vec);
        if matches!(kind.as_deref(), Some(b"Catalog" | b"Pages" | b"Outlines" | b"Outline")) {
            continue;
        }
        out.objects.insert(id, obj);
    }
    let tree: ObjectId = (max_id, 0);
    let catalog: ObjectId = (max_id + 1, 0);
    let kids: Vec<Object> = pages.iter().map(|(id, _)| Object::Reference(*id)).collect();
    let count = pages.len() as i64;
    for (id, mut d) in pages {
        d.set("Parent", tree);
        out.objects.insert(id, Object::Dictionary(d));
    }
    let mut tree_dict = Dictionary::new();
    tree_dict.set("Type", Object::Name(b"Pages".to_vec()));
    tree_dict.set("Kids", kids);
    tree_dict.set("Count", count);
    out.objects.insert(tree, Object::Dictionary(tree_dict));
    let mut cat = Dictionary::new();
    cat.set("Type", Object::Name(b"Catalog".to_vec()));
    cat.set("Pages", tree);
    out.objects.insert(catalog, Object::Dictionary(cat));
    out.trailer.set("Root", catalog);
    out.max_id = max_id + 1;
    out.renumber_objects();
    save("the merged PDF", &mut out)
}

fn acroform(doc: &Document) -> Option<Dictionary> {
    let cat = doc.catalog().ok()?;
    let af = resolve(doc, cat.get(b"AcroForm").ok()?);
    af.as_dict().ok().cloned()
}

/// One terminal field: (full name, object id, merged dictionary of inheritable keys).
fn field_list(doc: &Document, form: &Dictionary) -> Vec<(String, ObjectId, Dictionary)> {
    let mut out = Vec::new();
    let Ok(fields) = form.get(b"Fields").map(|o| resolve(doc, o)).and_then(Object::as_array) else { return out };
    let mut stack: Vec<(ObjectId, String, Dictionary, u32)> = fields
        .iter()
        .rev()
        .filter_map(|f| f.as_reference().ok())
        .map(|id| (id, String::new(), Dictionary::new(), 0))
        .collect();
    while let Some((id, prefix, inherited_keys, depth)) = stack.pop() {
        let Ok(d) = doc.get_dictionary(id) else { continue };
        if depth > 32 || out.len() > 5000 {
            break;
        }
        let part = d.get(b"T").ok().and_then(|o| resolve(doc, o).as_str().ok()).map(text_string);
        let name = match (&part, prefix.is_empty()) {
            (Some(p), true) => p.clone(),
            (Some(p), false) => format!("{prefix}.{p}"),
            (None, _) => prefix.clone(),
        };
        let mut keys = inherited_keys.clone();
        for k in [&b"FT"[..], b"Ff", b"V", b"Opt"] {
            if let Ok(v) = d.get(k) {
                keys.set(k.to_vec(), resolve(doc, v).clone());
            }
        }
        let kids: Vec<ObjectId> = d
            .get(b"Kids")
            .ok()
            .and_then(|o| resolve(doc, o).as_array().ok())
            .map(|a| a.iter().filter_map(|k| k.as_reference().ok()).collect())
            .unwrap_or_default();
        // Kids that have names are fields; nameless kids are widgets of this field.
        let named_kids: Vec<ObjectId> =
            kids.iter().copied().filter(|k| doc.get_dictionary(*k).is_ok_and(|kd| kd.get(b"T").is_ok())).collect();
        if named_kids.is_empty() {
            out.push((name, id, keys));
        } else {
            for k in named_kids.into_iter().rev() {
                stack.push((k, name.clone(), keys.clone(), depth + 1));
            }
        }
    }
    out
}

fn field_type(keys: &Dictionary) -> &'static str {
    let ff = keys.get(b"Ff").and_then(Object::as_i64).unwrap_or(0);
    match keys.get(b"FT").and_then(Object::as_name).unwrap_or(b"") {
        b"Tx" => "text",
        b"Btn" if ff & (1 << 16) != 0 => "button",
        b"Btn" if ff & (1 << 15) != 0 => "radio",
        b"Btn" => "checkbox",
        b"Ch" if ff & (1 << 17) != 0 => "dropdown",
        b"Ch" => "optionlist",
        b"Sig" => "signature",
        _ => "text",
    }
}

fn value_json(o: Option<&Object>) -> Value {
    match o {
        Some(Object::String(s, _)) => json!(text_string(s)),
        Some(Object::Name(n)) => json!(String::from_utf8_lossy(n)),
        Some(Object::Array(a)) => Value::Array(a.iter().map(|x| value_json(Some(x))).collect()),
        _ => Value::Null,
    }
}

/// `pdf.readForm`.
pub fn read_form(path: &str, bytes: &[u8]) -> Result<Value> {
    let doc = load(path, bytes)?;
    let Some(form) = acroform(&doc) else {
        return Ok(json!({"fields": [], "xfa": false, "note": "this PDF has no form (no AcroForm)"}));
    };
    let xfa = form.get(b"XFA").is_ok();
    let fields: Vec<Value> = field_list(&doc, &form)
        .into_iter()
        .map(|(name, _, keys)| {
            let ff = keys.get(b"Ff").and_then(Object::as_i64).unwrap_or(0);
            let mut f = json!({"name": name, "type": field_type(&keys), "value": value_json(keys.get(b"V").ok()), "readOnly": ff & 1 != 0, "required": ff & 2 != 0});
            if let Ok(Object::Array(opts)) = keys.get(b"Opt") {
                f["options"] = Value::Array(opts.iter().map(|o| match o {
                    Object::Array(pair) => value_json(pair.last()),
                    other => value_json(Some(other)),
                }).collect());
            }
            f
        })
        .collect();
    let mut v = json!({"fields": fields, "xfa": xfa});
    if xfa {
        v["note"] = json!(
            "this form also carries XFA; fillForm refuses it unless {allowXfa: true}, and viewers that prefer XFA may not show AcroForm values"
        );
    }
    Ok(v)
}

/// The "on" state name of a checkbox widget (the appearance key that is not `Off`).
fn on_state(doc: &Document, id: ObjectId) -> Vec<u8> {
    let mut ids = vec![id];
    if let Ok(d) = doc.get_dictionary(id)
        && let Ok(kids) = d.get(b"Kids").and_then(Object::as_array)
    {
        ids.extend(kids.iter().filter_map(|k| k.as_reference().ok()));
    }
    for i in ids {
        let n = doc
            .get_dictionary(i)
            .ok()
            .and_then(|d| d.get(b"AP").ok())
            .and_then(|ap| resolve(doc, ap).as_dict().ok())
            .and_then(|ap| ap.get(b"N").ok())
            .and_then(|n| resolve(doc, n).as_dict().ok());
        if let Some(n) = n
            && let Some((k, _)) = n.iter().find(|(k, _)| k.as_slice() != b"Off")
        {
            return k.clone();
        }
    }
    b"Yes".to_vec()
}

/// `pdf.fillForm`: sets values and asks viewers to regenerate appearances.
pub fn fill_form(path: &str, bytes: &[u8], values: &Value, allow_xfa: bool) -> Result<(Vec<u8>, usize)> {
    let Value::Object(values) = values else {
        return Err(invalid!("fillForm: values must be an object {{fieldName: value}}"));
    };
    let mut doc = load(path, bytes)?;
    let Some(form) = acroform(&doc) else {
        return Err(invalid!("fillForm: {path} has no form fields (no AcroForm) — hint: check with readForm"));
    };
    if form.get(b"XFA").is_ok() && !allow_xfa {
        return Err(invalid!(
            "fillForm: {path} is an XFA form; values written to its AcroForm fields may not show in viewers that prefer XFA — hint: pass {{allowXfa: true}} to fill the AcroForm anyway"
        ));
    }
    let fields = field_list(&doc, &form);
    let mut plan = Vec::new();
    for (name, v) in values {
        let Some((_, id, keys)) = fields.iter().find(|(n, _, _)| n == name) else {
            let names: Vec<&str> = fields.iter().take(20).map(|(n, _, _)| n.as_str()).collect();
            return Err(invalid!("fillForm: {path} has no field {name:?} — its fields are: {}", names.join(", ")));
        };
        plan.push((*id, field_type(keys), v.clone(), name.clone()));
    }
    for (id, kind, v, name) in &plan {
        let value = match (*kind, v) {
            ("checkbox", Value::Bool(on)) => {
                let state = if *on { on_state(&doc, *id) } else { b"Off".to_vec() };
                set_as(&mut doc, *id, &state);
                Object::Name(state)
            }
            ("checkbox" | "radio", Value::String(s)) => {
                set_as(&mut doc, *id, s.as_bytes());
                Object::Name(s.as_bytes().to_vec())
            }
            ("button" | "signature", _) => {
                return Err(invalid!("fillForm: field {name:?} is a {kind} and takes no value"));
            }
            (_, Value::String(s)) => pdf_string(s),
            (_, Value::Number(n)) => pdf_string(&n.to_string()),
            (_, Value::Bool(b)) => pdf_string(if *b { "Yes" } else { "Off" }),
            (_, other) => {
                return Err(invalid!(
                    "fillForm: the value for {name:?} must be a string, number or boolean, not {other}"
                ));
            }
        };
        let d = doc.get_dictionary_mut(*id).map_err(|e| damaged(path, format!("field {name:?} is broken ({e})")))?;
        d.set("V", value);
    }
    if let Ok(cat) = doc.catalog()
        && let Ok(af) = cat.get(b"AcroForm")
    {
        match af.as_reference() {
            Ok(af_id) => {
                if let Ok(d) = doc.get_dictionary_mut(af_id) {
                    d.set("NeedAppearances", true);
                }
            }
            Err(_) => {
                let root = doc
                    .trailer
                    .get(b"Root")
                    .and_then(Object::as_reference)
                    .map_err(|e| damaged(path, e.to_string()))?;
                if let Ok(Object::Dictionary(af)) = doc.get_dictionary_mut(root).and_then(|c| c.get_mut(b"AcroForm")) {
                    af.set("NeedAppearances", true);
                }
            }
        }
    }
    Ok((save(path, &mut doc)?, plan.len()))
}

fn set_as(doc: &mut Document, id: ObjectId, state: &[u8]) {
    let kids: Vec<ObjectId> = doc
        .get_dictionary(id)
        .ok()
        .and_then(|d| d.get(b"Kids").ok())
        .and_then(|k| k.as_array().ok())
        .map(|a| a.iter().filter_map(|k| k.as_reference().ok()).collect())
        .unwrap_or_default();
    for w in std::iter::once(id).chain(kids) {
        if let Ok(d) = doc.get_dictionary_mut(w)
            && d.get(b"AP").is_ok()
        {
            d.set("AS", Object::Name(state.to_vec()));
        }
    }
}
