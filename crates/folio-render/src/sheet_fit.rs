//! A workbook as `view_image` shows it: each sheet fit to the page width, not LibreOffice's
//! print pages (a wide sheet printed as is spreads over pages 1 to N, so a chart or the right
//! half of a table looks clipped on page 1).
//!
//! [`fit_to_width`] rewrites a copy of an xlsx package — never the person's file — so every
//! worksheet says "fit to 1 page wide, as many tall as needed" (`<sheetPr><pageSetUpPr
//! fitToPage="1"/>` and `<pageSetup fitToWidth="1" fitToHeight="0"/>`, landscape), with manual
//! column breaks dropped. The copy is written as a stored ZIP; every other part is unchanged.

use crate::zipdir;

/// The largest part read back (a worksheet's XML).
const PART_CAP: usize = 256 * 1024 * 1024;

/// Elements that follow `<pageSetup>` in a worksheet (ECMA-376 order): the new one goes before
/// the first of these that is present.
const AFTER_PAGE_SETUP: &[&str] = &[
    "<headerFooter",
    "<rowBreaks",
    "<colBreaks",
    "<customProperties",
    "<cellWatches",
    "<ignoredErrors",
    "<smartTags",
    "<drawing",
    "<legacyDrawing",
    "<legacyDrawingHF",
    "<drawingHF",
    "<picture",
    "<oleObjects",
    "<controls",
    "<webPublishItems",
    "<tableParts",
    "<extLst",
    "</worksheet>",
];

/// A copy of the xlsx `bytes` whose worksheets print fit to width; `None` when it is not a
/// package this can read (the caller renders the original).
pub fn fit_to_width(bytes: &[u8]) -> Option<Vec<u8>> {
    let entries = zipdir::entries(bytes).ok()?;
    let mut parts = Vec::with_capacity(entries.len());
    for e in &entries {
        let data = zipdir::read(bytes, &entries, &e.name, PART_CAP).ok()?;
        let data = if e.name.starts_with("xl/worksheets/") && e.name.ends_with(".xml") {
            fit_sheet(std::str::from_utf8(&data).ok()?)?.into_bytes()
        } else {
            data
        };
        parts.push((e.name.clone(), data));
    }
    Some(stored_zip(&parts))
}

/// One worksheet's XML, fit to width.
fn fit_sheet(xml: &str) -> Option<String> {
    let mut s = drop_element(xml, "<pageSetup");
    s = drop_element(&s, "<colBreaks");
    // <sheetPr> is the worksheet's first child; its <pageSetUpPr> its last.
    s = drop_element(&s, "<pageSetUpPr");
    let fit = "<pageSetUpPr fitToPage=\"1\"/>";
    if let Some(at) = find_tag(&s, "<sheetPr") {
        let end = at + s[at..].find('>')?;
        if s[..end].ends_with('/') {
            s.replace_range(end - 1..=end, &format!(">{fit}</sheetPr>"));
        } else {
            let close = at + s[at..].find("</sheetPr>")?;
            s.insert_str(close, fit);
        }
    } else {
        let root = s.find("<worksheet")?;
        let end = root + s[root..].find('>')?;
        s.insert_str(end + 1, &format!("<sheetPr>{fit}</sheetPr>"));
    }
    let setup = "<pageSetup orientation=\"landscape\" fitToWidth=\"1\" fitToHeight=\"0\"/>";
    let at = AFTER_PAGE_SETUP.iter().filter_map(|t| find_tag(&s, t)).min()?;
    s.insert_str(at, setup);
    Some(s)
}

/// Where the element `open` (`<name`, followed by a space, `>` or `/`) starts.
fn find_tag(s: &str, open: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find(open) {
        let at = from + i;
        match s[at + open.len()..].chars().next() {
            Some(' ' | '>' | '/') | None => return Some(at),
            _ => from = at + open.len(),
        }
    }
    None
}

/// `xml` without the element `open` (empty or with content), if present.
fn drop_element(xml: &str, open: &str) -> String {
    let Some(at) = find_tag(xml, open) else { return xml.to_owned() };
    let Some(gt) = xml[at..].find('>').map(|i| at + i) else { return xml.to_owned() };
    let end = if xml[..gt].ends_with('/') {
        gt + 1
    } else {
        let close = format!("</{}>", &open[1..]);
        match xml[gt..].find(&close) {
            Some(i) => gt + i + close.len(),
            None => return xml.to_owned(),
        }
    };
    format!("{}{}", &xml[..at], &xml[end..])
}

/// A stored (uncompressed) ZIP of `parts`.
fn stored_zip(parts: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, body) in parts {
        let (n, offset, crc) = (name.as_bytes(), out.len() as u32, crc32fast::hash(body));
        let sizes = [crc, body.len() as u32, body.len() as u32];
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        sizes.iter().for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
        out.extend_from_slice(&(n.len() as u16).to_le_bytes());
        out.extend_from_slice(&[0, 0]);
        out.extend_from_slice(n);
        out.extend_from_slice(body);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        sizes.iter().for_each(|v| central.extend_from_slice(&v.to_le_bytes()));
        central.extend_from_slice(&(n.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(n);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(parts.len() as u16).to_le_bytes());
    out.extend_from_slice(&(parts.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}
