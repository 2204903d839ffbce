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
fn describe_says_which_package_it_is_by_the_kind_table() {
    // `describe` keeps no list of Office formats: folio-kinds' rows say which parts (or which
    // ODF `mimetype`) make each kind, and the name wins only when its own package fits.
    let r = renderer();
    let workbook =
        || ("xl/workbook.xml", r#"<workbook><sheets><sheet name="S" sheetId="1"/></sheets></workbook>"#.into());
    let sheet = || ("xl/worksheets/sheet1.xml", "<worksheet/>".into());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("/in/m.xlsm", zip(&[workbook(), sheet(), ("xl/vbaProject.bin", "vba".into())]), "xlsm"),
        ("/in/no-macros.xlsm", zip(&[workbook(), sheet()]), "xlsx"),
        ("/in/renamed.docx", zip(&[workbook(), sheet()]), "xlsx"),
        ("/in/b.xlsb", zip(&[("xl/workbook.bin", "b".into()), ("xl/worksheets/sheet1.bin", "s".into())]), "xlsb"),
        ("/in/t.ods", zip(&[("mimetype", "application/vnd.oasis.opendocument.spreadsheet".into())]), "ods"),
        ("/in/t.odt", zip(&[("mimetype", "application/vnd.oasis.opendocument.text".into())]), "odt"),
        ("/in/d.odt", zip(&[("mimetype", "application/vnd.oasis.opendocument.graphics".into())]), "odf"),
    ];
    for (name, bytes, format) in cases {
        let info = folio_render::describe::describe(&r, name, &bytes).unwrap();
        assert_eq!(info["format"].as_str(), Some(format), "{name}: {info}");
    }
    let info = folio_render::describe::describe(
        &r,
        "/in/m.xlsm",
        &zip(&[workbook(), sheet(), ("xl/vbaProject.bin", "v".into())]),
    )
    .unwrap();
    assert_eq!((info["sheets"].as_u64(), &info["sheetNames"]), (Some(1), &serde_json::json!(["S"])));
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

/// A one-sheet .xlsx written by hand: a header row and a few rows of numbers, as inline strings
/// and values, with the content types and relationships LibreOffice needs to open it.
pub fn xlsx(rows: &[[&str; 3]]) -> Vec<u8> {
    let mut data = String::new();
    for (i, row) in rows.iter().enumerate() {
        let r = i + 1;
        data += &format!("<row r=\"{r}\">");
        for (col, cell) in ["A", "B", "C"].iter().zip(row) {
            if cell.parse::<f64>().is_ok() {
                data += &format!("<c r=\"{col}{r}\"><v>{cell}</v></c>");
            } else {
                data += &format!("<c r=\"{col}{r}\" t=\"inlineStr\"><is><t>{cell}</t></is></c>");
            }
        }
        data += "</row>";
    }
    xlsx_with(&data)
}

/// A one-sheet .xlsx ("Sales") whose `<sheetData>` is `data`.
pub fn xlsx_with(data: &str) -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.into()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.into()),
        ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/></sheets></workbook>"#.into()),
        ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>"#.into()),
        ("xl/worksheets/sheet1.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#)),
    ])
}

/// A two-slide presentation in flat ODF (one XML file): slide 1 has a red rectangle and a
/// title, slide 2 a line of text. LibreOffice turns it into a real .pptx for the tests.
const FODP: &str = r##"<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.presentation">
 <office:styles/>
 <office:automatic-styles>
  <style:style style:name="red" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="#d02020" draw:stroke="none"/></style:style>
  <style:style style:name="big" style:family="paragraph"><style:text-properties fo:font-size="40pt" fo:color="#000000"/></style:style>
 </office:automatic-styles>
 <office:master-styles><style:master-page style:name="Default"/></office:master-styles>
 <office:body><office:presentation>
  <draw:page draw:name="One" draw:master-page-name="Default">
   <draw:rect draw:style-name="red" svg:x="2cm" svg:y="2cm" svg:width="12cm" svg:height="7cm"/>
   <draw:frame svg:x="2cm" svg:y="11cm" svg:width="22cm" svg:height="4cm"><draw:text-box><text:p text:style-name="big">Quarterly results</text:p></draw:text-box></draw:frame>
  </draw:page>
  <draw:page draw:name="Two" draw:master-page-name="Default">
   <draw:frame svg:x="2cm" svg:y="3cm" svg:width="22cm" svg:height="4cm"><draw:text-box><text:p text:style-name="big">Next steps and owners</text:p></draw:text-box></draw:frame>
  </draw:page>
 </office:presentation></office:body>
</office:document>
"##;

/// LibreOffice with every application this test needs, or the test fails naming the fix on
/// Debian (where scripts/install.sh installs it) and is skipped elsewhere.
fn soffice_or_skip(r: &folio_render::Renderer) -> Option<std::path::PathBuf> {
    match folio_render::office::find_soffice(None, &r.host) {
        Ok(path) => Some(path),
        Err(tried) => {
            assert!(
                !std::path::Path::new("/etc/debian_version").exists(),
                "soffice must be installed by scripts/install.sh on Debian; looked at {tried}"
            );
            None
        }
    }
}

/// Pixels well away from white.
fn ink(img: &image::RgbImage) -> usize {
    img.pixels().filter(|p| p.0.iter().any(|&c| c < 160)).count()
}

#[test]
fn an_xlsx_renders_through_libreoffice_calc() {
    let r = renderer();
    if soffice_or_skip(&r).is_none() {
        return;
    }
    let book = xlsx(&[
        ["Region", "Quarter", "Revenue"],
        ["North", "Q1", "120500"],
        ["South", "Q1", "98250"],
        ["East", "Q2", "143700"],
        ["West", "Q2", "87125"],
    ]);
    let opts = RasterOptions { size: Some(Size::Dpi(100.0)), ..RasterOptions::default() };
    let out = r.rasterize_bytes("/in/sales.xlsx", &book, &opts).unwrap();
    assert_eq!(out.kind, DocKind::Office);
    assert_eq!(out.page_count, 1, "five rows fit one page");
    assert_eq!(out.pages[0].file_name, "sales-p1.png");
    let img = rgb(&out.pages[0].bytes);
    // Calc prints the used range at the top left: the cells' text is ink there, and nowhere
    // near the bottom of the page.
    let (w, h) = (img.width(), img.height());
    let top = image::imageops::crop_imm(&img, 0, 0, w, h / 4).to_image();
    let bottom = image::imageops::crop_imm(&img, 0, h / 2, w, h / 2).to_image();
    assert!(ink(&top) > 300, "the cells should leave text on the page, found {} inked pixels", ink(&top));
    assert_eq!(ink(&bottom), 0, "nothing below the five rows");
}

#[test]
fn a_pptx_renders_through_libreoffice_impress() {
    let r = renderer();
    let Some(soffice) = soffice_or_skip(&r) else {
        return;
    };
    let deck = folio_render::office::convert(
        "/in/deck.fodp",
        FODP.as_bytes(),
        &soffice,
        &r.office_profile,
        &r.office_limits(),
        "pptx",
    )
    .unwrap();
    assert!(deck.starts_with(b"PK\x03\x04"), "LibreOffice wrote a pptx (a ZIP)");
    let info = folio_render::describe::describe(&r, "/in/deck.pptx", &deck).unwrap();
    assert_eq!(info["slides"], 2, "{info}");
    let opts = RasterOptions { size: Some(Size::Width(800)), ..RasterOptions::default() };
    let out = r.rasterize_bytes("/in/deck.pptx", &deck, &opts).unwrap();
    assert_eq!((out.kind, out.page_count, out.pages.len()), (DocKind::Office, 2, 2));
    let one = rgb(&out.pages[0].bytes);
    let two = rgb(&out.pages[1].bytes);
    assert_eq!(one.width(), 800);
    let red = |img: &image::RgbImage| img.pixels().filter(|p| p[0] > 180 && p[1] < 80 && p[2] < 80).count();
    // The rectangle covers about 12×7 cm of a 28×15.75 cm slide: thousands of red pixels.
    assert!(red(&one) > 20_000, "slide 1 shows the red rectangle, found {} red pixels", red(&one));
    assert!(ink(&one) > red(&one) + 500, "slide 1 also carries the title's text");
    assert_eq!(red(&two), 0, "slide 2 has no rectangle");
    assert!(ink(&two) > 500, "slide 2 carries its line of text, found {}", ink(&two));
}

/// With LibreOffice hidden from discovery, each kind of Office file is refused before anything
/// runs, with the doctor's fix naming the package that opens that kind.
#[test]
fn each_office_kind_is_refused_with_its_own_package_when_libreoffice_is_hidden() {
    let mut r = renderer();
    r.host = folio_render::HostPaths::isolated(folio_render::Platform::Linux);
    let book = xlsx(&[["a", "b", "1"]]);
    for (name, bytes, package) in [
        ("/in/memo.docx", docx(&["Hello"]), "libreoffice-writer-nogui"),
        ("/in/sales.xlsx", book, "libreoffice-calc-nogui"),
        ("/in/deck.pptx", zip(&[("ppt/presentation.xml", "<p/>".into())]), "libreoffice-impress-nogui"),
    ] {
        let err = r.rasterize_bytes(name, &bytes, &RasterOptions::default()).unwrap_err();
        assert!(matches!(err, folio_render::RenderError::OfficeMissing { .. }), "{name}: {err}");
        let msg = err.to_string();
        assert!(msg.starts_with(&format!("{name} needs LibreOffice to render")), "{msg}");
        assert!(msg.contains(&format!("hint: sudo apt-get install --no-install-recommends {package} ")), "{msg}");
    }
}

/// A LibreOffice that has Writer but not Calc or Impress (how Debian installs it when only
/// libreoffice-writer-nogui was asked for) refuses a workbook and a deck up front, naming the
/// missing application's package; the doctor's row says which applications are there. Built as
/// a fake installation layout: program/soffice and share/registry/*.xcd.
#[cfg(unix)]
#[test]
fn a_missing_libreoffice_application_is_refused_up_front_and_shown_by_the_doctor() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("program");
    let registry = dir.path().join("share/registry");
    std::fs::create_dir_all(&program).unwrap();
    std::fs::create_dir_all(&registry).unwrap();
    for file in ["main.xcd", "writer.xcd"] {
        std::fs::write(registry.join(file), "<oor:data/>").unwrap();
    }
    let soffice = program.join("soffice");
    // Answers --version; any conversion produces nothing (a real one would fail the same way
    // for a workbook without Calc, only later and less clearly).
    std::fs::write(&soffice, "#!/bin/sh\necho 'LibreOffice 9.9.9 test'\n").unwrap();
    std::fs::set_permissions(&soffice, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(folio_render::office::installed_apps(&soffice), Some(vec![folio_render::OfficeApp::Writer]));

    let mut r = renderer();
    r.host = folio_render::HostPaths::isolated(folio_render::Platform::Linux);
    r.soffice_path = Some(soffice);
    for (name, bytes, app, package) in [
        ("/in/sales.xlsx", xlsx(&[["a", "b", "1"]]), "Calc", "libreoffice-calc-nogui"),
        ("/in/deck.pptx", zip(&[("ppt/presentation.xml", "<p/>".into())]), "Impress", "libreoffice-impress-nogui"),
    ] {
        let msg = r.rasterize_bytes(name, &bytes, &RasterOptions::default()).unwrap_err().to_string();
        assert!(msg.contains(&format!("has Writer but not {app}, which opens this kind of file")), "{msg}");
        assert!(msg.contains(&format!("hint: sudo apt-get install --no-install-recommends {package} ")), "{msg}");
    }
    // Writer is there, so a .docx gets as far as running soffice, which makes no PDF.
    let msg = r.rasterize_bytes("/in/memo.docx", &docx(&["Hi"]), &RasterOptions::default()).unwrap_err().to_string();
    assert!(msg.contains("LibreOffice could not convert it to PDF: no pdf file appeared"), "{msg}");

    let row = folio_render::capabilities(&r).into_iter().find(|c| c.name == "libreoffice").unwrap();
    assert!(!row.ok && !row.required, "{row:?}");
    assert!(row.detail.contains("(LibreOffice 9.9.9 test) has Writer only"), "{}", row.detail);
    assert!(
        row.detail.contains(".xlsx/.ods/.xls files need Calc; .pptx/.odp/.ppt files need Impress"),
        "{}",
        row.detail
    );
    assert!(
        row.fix.starts_with(
            "sudo apt-get install --no-install-recommends libreoffice-calc-nogui libreoffice-impress-nogui "
        ),
        "{}",
        row.fix
    );
}

/// `classify(name, bytes)` is `expect`: a kind, or a refusal containing the text.
fn check(name: &str, bytes: &[u8], expect: Result<DocKind, &str>) {
    match (folio_render::rasterize::classify(name, bytes), expect) {
        (Ok(got), Ok(want)) => assert_eq!(got, want, "{name}"),
        (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{name}: {e}"),
        (got, want) => panic!("{name}: got {got:?}, want {want:?}"),
    }
}

#[test]
fn render_and_describe_agree_with_the_kind_table_on_legacy_office_and_rtf() {
    let ole = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\0\0\0\0";
    let cases: &[(&str, &[u8], Result<DocKind, &str>)] = &[
        ("/in/old.doc", ole, Ok(DocKind::Office)),
        ("/in/old.xls", ole, Ok(DocKind::Office)),
        ("/in/old.ppt", ole, Ok(DocKind::Office)),
        ("/in/memo.rtf", b"{\\rtf1\\ansi hello}", Ok(DocKind::Office)),
        ("/in/locked.docx", ole, Ok(DocKind::Office)),
        ("/in/scan.docx", b"%PDF-1.7", Ok(DocKind::Pdf)),
        ("/in/fake.doc", b"plain text", Err("named .doc but its bytes are not an Office document")),
        ("/in/fake.rtf", b"", Err("the file is empty")),
        ("/in/notes.txt", b"plain text", Err("its bytes match no supported format")),
    ];
    for (name, bytes, expect) in cases {
        check(name, bytes, *expect);
    }
    let r = renderer();
    let doc = folio_render::describe::describe(&r, "/in/old.doc", ole).unwrap();
    assert_eq!(
        (doc["kind"].as_str(), doc["format"].as_str(), doc["container"].as_str()),
        (Some("office"), Some("doc"), Some("ole"))
    );
    assert!(doc.get("encrypted").is_none(), "a legacy .doc is not reported as encrypted: {doc}");
    let rtf = folio_render::describe::describe(&r, "/in/memo.rtf", b"{\\rtf1 hi}").unwrap();
    assert_eq!((rtf["kind"].as_str(), rtf["format"].as_str()), (Some("office"), Some("rtf")));
    let locked = folio_render::describe::describe(&r, "/in/locked.docx", ole).unwrap();
    assert_eq!(locked["encrypted"], true);
    let err = folio_render::describe::describe(&r, "/in/a.wat", b"x").unwrap_err().to_string();
    assert!(err.contains(".doc") && err.contains(".rtf") && err.contains(".webp"), "{err}");
}

/// view_image shows a workbook as its sheets fit to the page width, not LibreOffice's print
/// page 1 of N: a 30-column sheet that prints over several pages is one page once fit
/// (issue 28 item 5).
#[test]
fn view_image_shows_a_wide_sheet_fit_to_width_not_print_page_one_of_n() {
    use folio_env::FileHandler;
    let r = renderer();
    if soffice_or_skip(&r).is_none() {
        return;
    }
    let cols: Vec<String> =
        (0..30u8).map(|i| format!("{}{}", (b'A' + i / 26) as char, (b'A' + i % 26) as char)).collect();
    let mut data = String::new();
    for row in 1..=12 {
        data += &format!("<row r=\"{row}\">");
        for (c, _) in cols.iter().enumerate() {
            let name = if c < 26 {
                format!("{}", (b'A' + c as u8) as char)
            } else {
                format!("A{}", (b'A' + (c - 26) as u8) as char)
            };
            data += &format!("<c r=\"{name}{row}\"><v>{}</v></c>", 100_000 + row * 1000 + c);
        }
        data += "</row>";
    }
    let book = xlsx_with(&data);
    let printed = r.rasterize_bytes("/in/wide.xlsx", &book, &RasterOptions::default()).unwrap();
    assert!(printed.page_count > 1, "the test needs a sheet that prints over pages: {}", printed.page_count);
    let fitted = folio_render::sheet_fit::fit_to_width(&book).unwrap();
    let xml = String::from_utf8_lossy(&fitted);
    assert!(
        xml.contains("<sheetPr><pageSetUpPr fitToPage=\"1\"/></sheetPr>") && xml.contains("fitToWidth=\"1\""),
        "{xml}"
    );
    let handler = folio_render::handler::RenderHandler::new(std::sync::Arc::new(r));
    let path = folio_vfs::VPath::parse("/in/wide.xlsx").unwrap();
    let page = handler.render_page(&path, &book, 1).unwrap().unwrap();
    assert_eq!(page.page_count, 1, "fit to width, the sheet is one page (printed: {})", printed.page_count);
}
