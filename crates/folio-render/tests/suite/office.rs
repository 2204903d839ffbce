//! Office files: describe from the ZIP structure, and conversion through LibreOffice.

use folio_render::{DocKind, Pages, RasterOptions, Size};

use super::images::crc32;
use super::{renderer, rgb};

/// A stored (uncompressed) ZIP of `files`.
pub fn zip(files: &[(&str, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, body) in files {
        let (n, b) = (name.as_bytes(), body.as_bytes());
        let offset = out.len() as u32;
        let crc = crc32(b);
        let head = |sig: u32| {
            let mut h = sig.to_le_bytes().to_vec();
            h.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
            h
        };
        let mut local = head(0x0403_4b50);
        local.truncate(4);
        local.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        for v in [crc, b.len() as u32, b.len() as u32] {
            local.extend_from_slice(&v.to_le_bytes());
        }
        local.extend_from_slice(&(n.len() as u16).to_le_bytes());
        local.extend_from_slice(&[0, 0]);
        out.extend_from_slice(&local);
        out.extend_from_slice(n);
        out.extend_from_slice(b);
        let mut c = 0x0201_4b50u32.to_le_bytes().to_vec();
        c.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        for v in [crc, b.len() as u32, b.len() as u32] {
            c.extend_from_slice(&v.to_le_bytes());
        }
        c.extend_from_slice(&(n.len() as u16).to_le_bytes());
        c.extend_from_slice(&[0; 12]);
        c.extend_from_slice(&offset.to_le_bytes());
        c.extend_from_slice(n);
        central.extend_from_slice(&c);
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

/// A minimal .docx with one paragraph per entry.
pub fn docx(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs.iter().map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>")).collect();
    zip(&[
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>"#.into()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>"#.into()),
        ("word/document.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#)),
        ("docProps/core.xml", r#"<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Quarterly &amp; more</dc:title><dc:creator>Folio</dc:creator></cp:coreProperties>"#.into()),
    ])
}

#[test]
fn office_files_are_described_from_their_zip_structure() {
    let r = renderer();
    let info = folio_render::describe::describe(&r, "/in/a.docx", &docx(&["Hello", "World"])).unwrap();
    assert_eq!(info["kind"], "office");
    assert_eq!(info["format"], "docx");
    assert_eq!(info["paragraphs"], 2);
    assert_eq!(info["textSample"], "Hello World");
    assert_eq!(info["properties"]["title"], "Quarterly & more");
    let xlsx = zip(&[
        (
            "xl/workbook.xml",
            r#"<workbook><sheets><sheet name="Q1" sheetId="1"/><sheet name="Q2" sheetId="2"/></sheets></workbook>"#
                .into(),
        ),
        ("xl/worksheets/sheet1.xml", "<worksheet/>".into()),
        ("xl/worksheets/sheet2.xml", "<worksheet/>".into()),
    ]);
    let info = folio_render::describe::describe(&r, "/in/b.xlsx", &xlsx).unwrap();
    assert_eq!((info["format"].as_str(), info["sheets"].as_u64()), (Some("xlsx"), Some(2)));
    assert_eq!(info["sheetNames"], serde_json::json!(["Q1", "Q2"]));
    let pptx = zip(&[
        ("ppt/presentation.xml", "<p/>".into()),
        ("ppt/slides/slide1.xml", "<s/>".into()),
        ("ppt/slides/slide2.xml", "<s/>".into()),
        ("ppt/slides/_rels/slide1.xml.rels", "<r/>".into()),
    ]);
    let info = folio_render::describe::describe(&r, "/in/c.pptx", &pptx).unwrap();
    assert_eq!(info["slides"], 2);
    let err = folio_render::describe::describe(&r, "/in/d.docx", &zip(&[("x.txt", "x".into())])).unwrap_err();
    assert!(err.to_string().contains("not an Office document"), "{err}");
}

#[test]
fn a_docx_renders_through_libreoffice_when_installed() {
    let r = renderer();
    if folio_render::office::find_soffice(None, &r.host).is_err() {
        // scripts/install.sh installs libreoffice-writer-nogui on Debian; elsewhere it is optional.
        assert!(
            !std::path::Path::new("/etc/debian_version").exists(),
            "soffice must be installed by scripts/install.sh on Debian"
        );
        return;
    }
    let opts = RasterOptions { pages: Pages::List(vec![1]), size: Some(Size::Dpi(50.0)), ..RasterOptions::default() };
    let text: Vec<String> =
        (0..12).map(|i| format!("Line {i} of a paragraph written to leave ink on the page")).collect();
    let refs: Vec<&str> = text.iter().map(String::as_str).collect();
    let out = r.rasterize_bytes("/in/memo.docx", &docx(&refs), &opts).unwrap();
    assert_eq!(out.kind, DocKind::Office);
    assert!(out.page_count >= 1);
    assert_eq!(out.pages[0].file_name, "memo-p1.png");
    let img = rgb(&out.pages[0].bytes);
    let dark = img.pixels().filter(|p| p.0.iter().all(|&c| c < 128)).count();
    assert!(dark > 200, "the page should carry text ink, found {dark} dark pixels");
}
