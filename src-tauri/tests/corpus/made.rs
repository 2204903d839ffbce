//! The hostile files the corpus test makes itself, so a fresh clone (which has no
//! `../shared/corpus`) still covers them: truncated files of each structured kind, ZIP bombs
//! (high ratio, many entries, nested, and one inside an xlsx), images whose headers claim huge
//! dimensions, deeply nested JSON, XML and ZIP, names with control characters, and an empty file
//! of every kind. Each is made from scratch here: a small ZIP writer (stored or deflated
//! members), a hand-made PDF, and PNG/JPEG from the `image` crate.

use std::io::Cursor;

/// One made file: its path below the made folder, its bytes, and the category the expectation
/// table knows it by.
pub struct Made {
    /// The file's path below `made/`.
    pub name: String,
    /// Its content.
    pub bytes: Vec<u8>,
    /// The expectation table's category.
    pub category: &'static str,
}

fn made(category: &'static str, name: impl Into<String>, bytes: Vec<u8>) -> Made {
    Made { name: name.into(), bytes, category }
}

/// How a ZIP member is stored.
#[derive(Clone, Copy)]
pub enum Method {
    /// As is.
    Stored,
    /// Raw DEFLATE (level 9).
    Deflated,
}

/// A ZIP archive of `entries` (name, content, method), with a central directory.
pub fn zip(entries: &[(&str, &[u8], Method)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, data, method) in entries {
        let crc = crc32fast::hash(data);
        let (code, body) = match method {
            Method::Stored => (0u16, data.to_vec()),
            Method::Deflated => (8u16, miniz_oxide::deflate::compress_to_vec(data, 9)),
        };
        let offset = out.len() as u32;
        let common = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed
            v.extend_from_slice(&0u16.to_le_bytes()); // flags
            v.extend_from_slice(&code.to_le_bytes());
            v.extend_from_slice(&0u32.to_le_bytes()); // time, date
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&(body.len() as u32).to_le_bytes());
            v.extend_from_slice(&(data.len() as u32).to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(b"PK\x03\x04");
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&body);
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&20u16.to_le_bytes()); // version made by
        common(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    let count = entries.len().min(u16::MAX as usize) as u16;
    out.extend_from_slice(&central);
    out.extend_from_slice(b"PK\x05\x06");
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// A one-page PDF with a line of text, its xref table correct to the byte.
pub fn pdf() -> Vec<u8> {
    let content = b"BT /F1 24 Tf 72 720 Td (Made by the corpus test) Tj ET";
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>".to_string(),
        format!("<< /Length {} >>\nstream\n{}\nendstream", content.len(), String::from_utf8_lossy(content)),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
    for o in offsets {
        out.extend_from_slice(format!("{o:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n", objects.len() + 1).as_bytes(),
    );
    out
}

fn image(format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([(x * 4) as u8, (y * 5) as u8, 128]));
    let mut out = Cursor::new(Vec::new());
    // Encoding a small in-memory image cannot fail; an empty result fails the test's rows.
    let _ = image::DynamicImage::ImageRgb8(img).write_to(&mut out, format);
    out.into_inner()
}

/// A minimal xlsx: content types, workbook, one sheet; `shared` is the sharedStrings part.
pub fn xlsx(shared: &[u8], method: Method) -> Vec<u8> {
    let types = br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>"#;
    let rels = br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#;
    let workbook = br#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Made" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
    let wb_rels = br#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>"#;
    let sheet = br#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1"><v>42</v></c></row></sheetData></worksheet>"#;
    zip(&[
        ("[Content_Types].xml", types, Method::Deflated),
        ("_rels/.rels", rels, Method::Deflated),
        ("xl/workbook.xml", workbook, Method::Deflated),
        ("xl/_rels/workbook.xml.rels", wb_rels, Method::Deflated),
        ("xl/worksheets/sheet1.xml", sheet, Method::Deflated),
        ("xl/sharedStrings.xml", shared, method),
    ])
}

const SHARED: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>made</t></si></sst>"#;

fn half(bytes: Vec<u8>) -> Vec<u8> {
    bytes[..bytes.len() / 2].to_vec()
}

/// A PNG chunk with its CRC.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
    out
}

/// A PNG whose header claims `width × height` RGB pixels, followed by one small IDAT.
fn huge_png(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(chunk(b"IHDR", &ihdr));
    out.extend(chunk(b"IDAT", &miniz_oxide::deflate::compress_to_vec_zlib(&vec![0; 4096], 9)));
    out.extend(chunk(b"IEND", b""));
    out
}

/// A GIF whose screen and single frame claim `w × h`, with a two-code LZW body.
fn huge_gif(w: u16, h: u16) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 255, 255, 255]); // 2-colour global table
    out.push(b',');
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&[0, 2, 2, 0x4c, 0x01, 0, b';']);
    out
}

/// Every made file.
pub fn all() -> Vec<Made> {
    let small = b"col,val\na,1\nb,2\n";
    let mut files = vec![
        made("made-truncated", "truncated/half.pdf", half(pdf())),
        made("made-truncated", "truncated/half.png", half(image(image::ImageFormat::Png))),
        made("made-truncated", "truncated/half.jpg", half(image(image::ImageFormat::Jpeg))),
        made(
            "made-truncated",
            "truncated/half.zip",
            half(zip(&[("a.csv", small, Method::Deflated), ("b.txt", b"hello", Method::Stored)])),
        ),
        made("made-truncated", "truncated/half.xlsx", half(xlsx(SHARED, Method::Deflated))),
        made("made-control", "control/whole.pdf", pdf()),
        made("made-control", "control/whole.xlsx", xlsx(SHARED, Method::Deflated)),
    ];
    // Bombs: a 128 MiB member deflated to about an eighth of a megabyte; 20,000 entries; a bomb
    // three archives deep; and the same ratio inside an xlsx's shared strings.
    let zeros = vec![0u8; 128 << 20];
    files.push(made("made-bomb", "bomb/ratio-1000.zip", zip(&[("zeros.bin", &zeros, Method::Deflated)])));
    let mut spaces = SHARED[..SHARED.len() - "</sst>".len()].to_vec();
    spaces.resize(spaces.len() + (64 << 20), b' ');
    spaces.extend_from_slice(b"</sst>");
    files.push(made("made-bomb", "bomb/shared-strings-64mb.xlsx", xlsx(&spaces, Method::Deflated)));
    drop((zeros, spaces));
    let names: Vec<String> = (0..20_000).map(|i| format!("e/{i:05}.txt")).collect();
    let entries: Vec<(&str, &[u8], Method)> = names.iter().map(|n| (n.as_str(), &b""[..], Method::Stored)).collect();
    files.push(made("made-bomb", "bomb/entries-20000.zip", zip(&entries)));
    let inner = zip(&[("zeros.bin", &vec![0u8; 64 << 20], Method::Deflated)]);
    let middle = zip(&[("inner.zip", &inner, Method::Stored), ("inner2.zip", &inner, Method::Stored)]);
    files.push(made("made-bomb", "bomb/nested.zip", zip(&[("middle.zip", &middle, Method::Deflated)])));
    // Huge dimensions.
    files.push(made("made-huge", "huge/100000x100000.png", huge_png(100_000, 100_000)));
    files.push(made("made-huge", "huge/65535x65535.gif", huge_gif(65_535, 65_535)));
    // Deep nesting.
    let depth = 100_000;
    files.push(made("made-deep", "deep/nested.json", ["[".repeat(depth), "]".repeat(depth)].concat().into_bytes()));
    files.push(made(
        "made-deep",
        "deep/nested.xml",
        ["<?xml version=\"1.0\"?>".into(), "<a>".repeat(depth), "</a>".repeat(depth)].concat().into_bytes(),
    ));
    let mut deep_zip = b"bottom".to_vec();
    for level in 0..40 {
        deep_zip = zip(&[(&format!("level{level}.zip"), &deep_zip, Method::Stored)]);
    }
    files.push(made("made-deep", "deep/nested-40.zip", deep_zip));
    // Names with control characters (Linux allows every byte but `/` and NUL; NUL is tried
    // too and recorded as refused by the OS).
    files.push(made("made-name", "names/new\nline.txt", b"a name with a newline\n".to_vec()));
    files.push(made("made-name", "names/bell\u{7}.pdf", pdf()));
    // An empty file of every kind.
    for ext in [
        "pdf", "png", "jpg", "gif", "webp", "tiff", "heic", "svg", "docx", "doc", "xlsx", "xls", "xlsb", "ods", "pptx",
        "csv", "tsv", "json", "xml", "md", "txt", "zip", "tar", "gz", "mp4", "webm", "mp3", "wav",
    ] {
        files.push(made("made-empty", format!("empty/empty.{ext}"), Vec::new()));
    }
    files
}
