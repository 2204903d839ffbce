//! `pdf.stamp`: a text stamp or watermark drawn over pages of an existing PDF.
//!
//! The stamp's font (DejaVu Sans, subset to the stamp's glyphs, with ToUnicode) and its
//! transparency state are written by pdf-writer into a tiny carrier PDF numbered past the
//! target's last object, whose objects lopdf then moves into the target as they are. Each chosen page gets its old content
//! wrapped in `q … Q` (so its graphics state cannot leak into the stamp) and one more content
//! stream that draws the text under resource names of its own (`FolioStamp0`, `FolioGS0`).

use folio_fonts::Face;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};
use pdf_writer::{Finish, Pdf, Ref};
use serde_json::Value;

use crate::error::{DocsError, Result, invalid};
use crate::pdffont::FontUse;
use crate::pdfops::{load, parse_pages, save};

/// Where the stamp goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Position {
    Center,
    TopLeft,
    Top,
    TopRight,
    BottomLeft,
    Bottom,
    BottomRight,
}

const POSITIONS: &[(&str, Position)] = &[
    ("center", Position::Center),
    ("top-left", Position::TopLeft),
    ("top", Position::Top),
    ("top-right", Position::TopRight),
    ("bottom-left", Position::BottomLeft),
    ("bottom", Position::Bottom),
    ("bottom-right", Position::BottomRight),
];

/// The carrier PDF: the font and the ExtGState as indirect objects.
/// Its objects are numbered from `base` on, so they can move into the target as they are.
fn carrier(font: &FontUse, opacity: f32, base: i32) -> Result<Vec<u8>> {
    let mut pdf = Pdf::new();
    let (catalog, tree, font_id, gs) = (Ref::new(base), Ref::new(base + 1), Ref::new(base + 2), Ref::new(base + 3));
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids(std::iter::empty()).count(0);
    pdf.ext_graphics(gs).non_stroking_alpha(opacity).stroking_alpha(opacity).finish();
    let mut n = base + 3;
    let mut next = || {
        n += 1;
        Ref::new(n)
    };
    font.write(&mut pdf, font_id, &mut next, "FOLIOS")?;
    Ok(pdf.finish())
}

fn num(v: &Value, key: &str, default: f32, range: std::ops::RangeInclusive<f32>) -> Result<f32> {
    match v.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(x) => match x.as_f64().map(|f| f as f32) {
            Some(f) if range.contains(&f) => Ok(f),
            _ => Err(invalid!("stamp: {key} must be a number from {} to {}, not {x}", range.start(), range.end())),
        },
    }
}

/// Stamps `bytes`; returns the new PDF and how many pages were stamped.
pub fn stamp(path: &str, bytes: &[u8], opts: &Value) -> Result<(Vec<u8>, usize)> {
    let text = opts.get("text").and_then(Value::as_str).filter(|t| !t.trim().is_empty()).ok_or_else(|| {
        invalid!("stamp(in, out, {{text, position?, size?, opacity?, rotate?, pages?}}): text is missing")
    })?;
    let missing = Face::Sans.missing(text);
    if !missing.is_empty() {
        return Err(DocsError::MissingGlyphs {
            place: "the stamp text".into(),
            chars: folio_fonts::describe_chars(&missing),
        });
    }
    let position = match opts.get("position").and_then(Value::as_str) {
        None => Position::BottomRight,
        Some(p) => POSITIONS.iter().find(|(n, _)| *n == p).map(|(_, v)| *v).ok_or_else(|| {
            invalid!(
                "stamp: position {p:?} is not one of {}",
                POSITIONS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            )
        })?,
    };
    let size = num(opts, "size", 24.0, 4.0..=400.0)?;
    let opacity = num(opts, "opacity", 0.35, 0.0..=1.0)?;
    let rotate = num(opts, "rotate", if position == Position::Center { 45.0 } else { 0.0 }, -360.0..=360.0)?;
    let mut doc = load(path, bytes)?;
    let pages = doc.get_pages();
    let chosen: Vec<u32> = match opts.get("pages") {
        None | Some(Value::Null) => pages.keys().copied().collect(),
        Some(p) => parse_pages(p, pages.len() as u32)?,
    };
    let mut font = FontUse::new(Face::Sans)?;
    let codes = font.encode(text);
    let width = font.width(text, size);
    let base = i32::try_from(doc.max_id + 1).map_err(|_| invalid!("{path}: too many objects to stamp"))?;
    let carrier = Document::load_mem(&carrier(&font, opacity, base)?)
        .map_err(|e| invalid!("stamp: the stamp's font could not be prepared ({e}) — hint: report this as a bug"))?;
    let (font_ref, gs_ref) = import(&mut doc, carrier)?;
    let hex: String = codes.iter().map(|b| format!("{b:02X}")).collect();
    let (sin, cos) = rotate.to_radians().sin_cos();
    for n in &chosen {
        let Some(page) = pages.get(n).copied() else { continue };
        let [x0, y0, x1, y1] = media_box(&doc, page);
        let m = 36.0;
        let (cx, cy) = match position {
            Position::Center => ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
            Position::TopLeft => (x0 + m + width / 2.0, y1 - m - size * 0.35),
            Position::Top => ((x0 + x1) / 2.0, y1 - m - size * 0.35),
            Position::TopRight => (x1 - m - width / 2.0, y1 - m - size * 0.35),
            Position::BottomLeft => (x0 + m + width / 2.0, y0 + m + size * 0.35),
            Position::Bottom => ((x0 + x1) / 2.0, y0 + m + size * 0.35),
            Position::BottomRight => (x1 - m - width / 2.0, y0 + m + size * 0.35),
        };
        let (dx, dy) = (-width / 2.0, -size * 0.35);
        let e = cx + dx * cos - dy * sin;
        let f = cy + dx * sin + dy * cos;
        let content = format!(
            "q /FolioGS0 gs 0.45 0.45 0.45 rg BT /FolioStamp0 {size:.2} Tf {cos:.5} {sin:.5} {:.5} {cos:.5} {e:.2} {f:.2} Tm <{hex}> Tj ET Q\n",
            -sin
        );
        let open = doc.add_object(Stream::new(Dictionary::new(), b"q\n".to_vec()));
        let close = doc.add_object(Stream::new(Dictionary::new(), b"Q\n".to_vec()));
        let mut s = Stream::new(Dictionary::new(), content.into_bytes());
        let _ = s.compress();
        let stamp_id = doc.add_object(s);
        let old: Vec<Object> = doc.get_page_contents(page).into_iter().map(Object::Reference).collect();
        let resources = page_resources(&doc, page);
        let dict = doc.get_dictionary_mut(page).map_err(|e| invalid!("{path}: page {n} is broken ({e})"))?;
        let mut contents = vec![Object::Reference(open)];
        contents.extend(old);
        contents.push(Object::Reference(close));
        contents.push(Object::Reference(stamp_id));
        dict.set("Contents", contents);
        let mut res = resources;
        add_entry(&mut res, b"Font", "FolioStamp0", font_ref);
        add_entry(&mut res, b"ExtGState", "FolioGS0", gs_ref);
        dict.set("Resources", res);
    }
    Ok((save(path, &mut doc)?, chosen.len()))
}

/// Moves the carrier's objects into `doc`; returns the font's and the ExtGState's ids.
fn import(doc: &mut Document, carrier: Document) -> Result<(ObjectId, ObjectId)> {
    let mut font = None;
    let mut gs = None;
    for (id, obj) in carrier.objects {
        let kind =
            obj.as_dict().ok().and_then(|d| d.get(b"Type").ok()).and_then(|t| t.as_name().ok()).map(<[u8]>::to_vec);
        let subtype =
            obj.as_dict().ok().and_then(|d| d.get(b"Subtype").ok()).and_then(|t| t.as_name().ok()).map(<[u8]>::to_vec);
        match kind.as_deref() {
            Some(b"Catalog" | b"Pages") => continue,
            Some(b"Font") if subtype.as_deref() == Some(b"Type0") => font = Some(id),
            Some(b"ExtGState") => gs = Some(id),
            _ => {}
        }
        doc.max_id = doc.max_id.max(id.0);
        doc.objects.insert(id, obj);
    }
    match (font, gs) {
        (Some(f), Some(g)) => Ok((f, g)),
        _ => Err(invalid!("stamp: the stamp's font could not be prepared — hint: report this as a bug")),
    }
}

fn media_box(doc: &Document, page: ObjectId) -> [f32; 4] {
    let mut id = page;
    for _ in 0..64 {
        let Ok(d) = doc.get_dictionary(id) else { break };
        if let Ok(mb) = d.get(b"MediaBox") {
            let mb = doc.dereference(mb).map(|(_, o)| o).unwrap_or(mb);
            if let Ok(a) = mb.as_array() {
                let v: Vec<f32> = a
                    .iter()
                    .map(|x| doc.dereference(x).map(|(_, o)| o).unwrap_or(x).as_float().unwrap_or(0.0))
                    .collect();
                if v.len() == 4 {
                    return [v[0].min(v[2]), v[1].min(v[3]), v[0].max(v[2]), v[1].max(v[3])];
                }
            }
        }
        let Ok(parent) = d.get(b"Parent").and_then(Object::as_reference) else { break };
        id = parent;
    }
    [0.0, 0.0, 612.0, 792.0]
}

/// The page's resources (own or inherited), resolved into a dictionary it can own.
fn page_resources(doc: &Document, page: ObjectId) -> Dictionary {
    let mut id = page;
    for _ in 0..64 {
        let Ok(d) = doc.get_dictionary(id) else { break };
        if let Ok(r) = d.get(b"Resources") {
            let r = doc.dereference(r).map(|(_, o)| o).unwrap_or(r);
            let mut dict = r.as_dict().cloned().unwrap_or_default();
            // Sub-dictionaries that are references are resolved so they can be extended here.
            for key in [&b"Font"[..], b"ExtGState"] {
                if let Ok(Object::Reference(sub)) = dict.get(key)
                    && let Ok(sd) = doc.get_dictionary(*sub)
                {
                    dict.set(key.to_vec(), Object::Dictionary(sd.clone()));
                }
            }
            return dict;
        }
        let Ok(parent) = d.get(b"Parent").and_then(Object::as_reference) else { break };
        id = parent;
    }
    Dictionary::new()
}

fn add_entry(res: &mut Dictionary, key: &[u8], name: &str, id: ObjectId) {
    let mut sub = res.get(key).ok().and_then(|o| o.as_dict().ok()).cloned().unwrap_or_default();
    sub.set(name, Object::Reference(id));
    res.set(key.to_vec(), Object::Dictionary(sub));
}
