//! The preview commands through Tauri's mock runtime (no display): registered, wired to the
//! shared preview state, and answering on the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use serde_json::json;

mod mock;
use mock::{app, call};

#[test]
fn previews_need_a_folder_then_describe_files_and_read_tables() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sales.csv"), "region,units\nNorth,12\nSouth,7\n").unwrap();
    std::fs::write(dir.path().join("notes.md"), "# Notes\n").unwrap();
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/notes.md"}})).unwrap();
    assert_eq!((info.kind, info.size), (PreviewKind::Markdown, 8));
    let table: PreviewTableResponse =
        call(&app, "preview_table", json!({"params": {"path": "/sales.csv", "limit": 2}})).unwrap();
    assert_eq!((table.rows.len(), table.total_rows, table.truncated), (2, 3, true));
    let err =
        call::<PreviewPagesResponse>(&app, "preview_pages", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("only PDFs and Office documents have pages"), "{err}");
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/.env/x"}})).unwrap_err();
    assert!(err.contains("private settings zone"), "{err}");
}

/// Makes a fixture with the test machine's ffmpeg (the app itself never starts it).
fn ffmpeg_fixture(out: &std::path::Path, args: &[&str]) {
    let status = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .arg(out)
        .status()
        .expect("ffmpeg is needed for this test: sudo apt-get install ffmpeg");
    assert!(status.success(), "ffmpeg could not make {}", out.display());
}

/// The preview transcode runs on folio-media: an MPEG-4 Part 2 AVI becomes a VP8 webm whose
/// length folio-media's probe confirms, progress rises to the end, a damaged file fails naming
/// ffmpeg's own complaint, and neither leaves a scratch or partial file in the cache.
#[test]
fn the_preview_transcode_runs_on_folio_media_and_leaves_nothing_behind() {
    use folio_desktop::preview::Previews;
    use std::sync::{Arc, Mutex};
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let src = ["-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=25", "-c:v", "mpeg4", "-q:v", "5"];
    ffmpeg_fixture(&dir.path().join("legacy.avi"), &src);
    let mut broken = std::fs::read(dir.path().join("legacy.avi")).unwrap();
    broken.truncate(600);
    broken.extend(std::iter::repeat_n(0x5a, 4000));
    std::fs::write(dir.path().join("broken.avi"), broken).unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let session = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview).current().unwrap();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/legacy.avi"}})).unwrap();
    let media = info.media.unwrap();
    assert_eq!((media.probed_by.as_str(), media.video_codec.as_deref(), media.mime), ("ffprobe", Some("mpeg4"), None));
    let seen = Mutex::new(Vec::new());
    let made =
        previews.transcode(&session, "/legacy.avi", &|p| seen.lock().unwrap().push((p.seconds, p.fraction))).unwrap();
    assert!(!made.cached && made.mime == "video/webm; codecs=\"vp8, opus\"", "{made:?}");
    let seen = seen.into_inner().unwrap();
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "progress never goes back: {seen:?}");
    assert!(seen.last().and_then(|p| p.1).unwrap_or(0.0) > 0.9, "progress reaches the end: {seen:?}");
    let webm = previews.transcoded(&session, &folio_vfs::VPath::parse("/legacy.avi").unwrap()).unwrap();
    let ffmpeg = folio_media::Ffmpeg::discover(None).unwrap();
    let probed = folio_media::probe(&ffmpeg, &webm).unwrap();
    let video = probed.first(folio_media::StreamKind::Video).unwrap();
    assert_eq!((video.codec.as_str(), probed.size()), ("vp8", Some((320, 240))));
    assert!((probed.duration.unwrap() - 3.0).abs() <= 0.04 + 1e-9, "within a frame of 3 s: {:?}", probed.duration);

    let err = previews.transcode(&session, "/broken.avi", &|_| {}).unwrap_err().to_string();
    assert!(err.starts_with("ffmpeg could not convert /broken.avi to a webm preview: "), "{err}");
    let cache = webm.parent().unwrap();
    let left: Vec<String> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part") || n.ends_with(".src"))
        .collect();
    assert!(left.is_empty(), "no scratch or partial file is left: {left:?}");
}

/// Exactly one crate knows ffmpeg: the app's own code starts no process for media.
#[test]
fn the_app_starts_no_ffmpeg_or_ffprobe_itself() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".rs") && !name.ends_with("_tests.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                if code.contains("Command::new") || code.contains("process::Command") {
                    offenders.push(path.display().to_string());
                }
            }
        }
    }
    assert!(offenders.is_empty(), "only folio-media starts ffmpeg/ffprobe; these start processes: {offenders:?}");
}

/// A ZIP of `parts` (an OOXML package), written with the zip crate the app reads them with.
fn package(parts: &[(&str, String)]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, body) in parts {
        w.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
        w.write_all(body.as_bytes()).unwrap();
    }
    w.finish().unwrap().into_inner()
}

const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="TARGET"/></Relationships>"#;

/// Two sheets: "Sales" whose formula carries its saved result, "Notes" whose formula was saved
/// without one (as a library that does not calculate writes it).
fn two_sheet_workbook() -> Vec<u8> {
    let sheet = |data: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{data}</sheetData></worksheet>"#
        )
    };
    let ws = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";
    package(&[
        ("[Content_Types].xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="{ws}"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="{ws}"/></Types>"#)),
        ("_rels/.rels", RELS.replace("TARGET", "xl/workbook.xml")),
        ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sales" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>"#.into()),
        ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>"#.into()),
        ("xl/worksheets/sheet1.xml", sheet(r#"<row r="1"><c r="A1" t="inlineStr"><is><t>Units</t></is></c><c r="B1" t="inlineStr"><is><t>Price</t></is></c><c r="C1" t="inlineStr"><is><t>Total</t></is></c></row><row r="2"><c r="A2"><v>3</v></c><c r="B2"><v>4</v></c><c r="C2"><f>A2*B2</f><v>12</v></c></row>"#)),
        ("xl/worksheets/sheet2.xml", sheet(r#"<row r="1"><c r="A1"><v>5</v></c><c r="B1"><f>A1*2</f></c></row>"#)),
    ])
}

#[test]
fn a_workbook_previews_a_tab_per_sheet_with_saved_results_and_names_formulas_without_one() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("book.xlsx"), two_sheet_workbook()).unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/book.xlsx"}})).unwrap();
    assert_eq!(info.kind, PreviewKind::Spreadsheet);
    let check = |sheet: Option<&str>, shown: &str, rows: Vec<Vec<&str>>, uncalculated: Vec<[u32; 2]>| {
        let t: PreviewTableResponse =
            call(&app, "preview_table", json!({"params": {"path": "/book.xlsx", "sheet": sheet}})).unwrap();
        assert_eq!(t.sheets, vec!["Sales", "Notes"], "a tab per sheet");
        assert_eq!(t.sheet.as_deref(), Some(shown));
        assert_eq!(t.rows, rows, "{shown}");
        assert_eq!(t.uncalculated, uncalculated, "{shown}");
    };
    check(None, "Sales", vec![vec!["Units", "Price", "Total"], vec!["3", "4", "12"]], vec![]);
    check(Some("Notes"), "Notes", vec![vec!["5", "=A1*2"]], vec![[0, 1]]);
    let err =
        call::<PreviewTableResponse>(&app, "preview_table", json!({"params": {"path": "/book.xlsx", "sheet": "Q9"}}))
            .unwrap_err();
    assert!(err.contains("no sheet named \"Q9\"") && err.contains("Sales, Notes"), "{err}");
}

/// A .docx with one paragraph per entry.
fn memo(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs.iter().map(|p| format!("<w:p><w:r><w:t>{p}</w:t></w:r></w:p>")).collect();
    package(&[
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#.into()),
        ("_rels/.rels", RELS.replace("TARGET", "word/document.xml")),
        ("word/document.xml", format!(r#"<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}</w:body></w:document>"#)),
    ])
}

/// DOCX and PPTX preview page by page through the warm LibreOffice: the first document starts
/// it, and it is still the same instance that answers the deck.
#[test]
fn docx_and_pptx_preview_page_by_page_through_the_warm_libreoffice() {
    use folio_desktop::preview::{Previews, Version};
    use std::sync::Arc;
    let app = app();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();
    if let Err(tried) = folio_render::office::find_soffice(None, &previews.renderer.host) {
        assert!(!std::path::Path::new("/etc/debian_version").exists(), "scripts/install.sh installs LibreOffice");
        println!("skipped: no LibreOffice ({tried})");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos().to_string();
    std::fs::write(dir.path().join("memo.docx"), memo(&["Quarterly memo", &nanos])).unwrap();
    let corpus = std::env::var_os("FOLIO_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    let deck = std::fs::read(corpus.join("presentations/tables-3-slides.pptx")).ok();
    if let Some(deck) = &deck {
        std::fs::write(dir.path().join("deck.pptx"), deck).unwrap();
    } else {
        println!("the deck part is skipped: no corpus at {}", corpus.display());
    }
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let session = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview).current().unwrap();
    let png_width = |png: &[u8]| u32::from_be_bytes(png[16..20].try_into().unwrap());

    let pages: PreviewPagesResponse = call(&app, "preview_pages", json!({"params": {"path": "/memo.docx"}})).unwrap();
    assert_eq!(pages.page_count, 1);
    let at = folio_vfs::VPath::parse("/memo.docx").unwrap();
    let png = previews.page_png(&session, &at, Version::Current, 1, 400).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png_width(&png) == 400);
    let warm = folio_render::office_server::instance_pid(&previews.renderer.office_profile);
    if folio_render::office_server::enabled() {
        assert!(warm.is_some(), "the conversion left a warm LibreOffice for the next one");
    }
    if deck.is_some() {
        let pages: PreviewPagesResponse =
            call(&app, "preview_pages", json!({"params": {"path": "/deck.pptx"}})).unwrap();
        assert_eq!(pages.page_count, 3, "a page per slide");
        let at = folio_vfs::VPath::parse("/deck.pptx").unwrap();
        for page in 1..=3 {
            let png = previews.page_png(&session, &at, Version::Current, page, 320).unwrap();
            assert!(png.starts_with(b"\x89PNG") && png_width(&png) == 320, "slide {page}");
        }
        assert_eq!(
            folio_render::office_server::instance_pid(&previews.renderer.office_profile),
            warm,
            "the same instance"
        );
    }
}

/// A TIFF of uncompressed 8-bit RGB pages `(width, height, colour)`, written byte by byte (the
/// app's own TIFF reader is what is tested, so the fixture does not use it).
fn tiff(pages: &[(u32, u32, [u8; 3])]) -> Vec<u8> {
    let mut out = b"II*\0\0\0\0\0".to_vec();
    let mut link = 4;
    for &(w, h, colour) in pages {
        let ifd = out.len() as u32;
        out[link..link + 4].copy_from_slice(&ifd.to_le_bytes());
        let bits = ifd + 2 + 12 * 9 + 4;
        let data = bits + 6;
        // (tag, type, count, value): type 3 is a short, 4 a long; BitsPerSample points at 3 shorts.
        let entries: [(u16, u16, u32, u32); 9] = [
            (256, 4, 1, w),
            (257, 4, 1, h),
            (258, 3, 3, bits),
            (259, 3, 1, 1),
            (262, 3, 1, 2),
            (273, 4, 1, data),
            (277, 3, 1, 3),
            (278, 4, 1, h),
            (279, 4, 1, w * h * 3),
        ];
        out.extend(9u16.to_le_bytes());
        for (tag, ty, count, value) in entries {
            out.extend(tag.to_le_bytes());
            out.extend(ty.to_le_bytes());
            out.extend(count.to_le_bytes());
            out.extend(value.to_le_bytes());
        }
        link = out.len();
        out.extend(0u32.to_le_bytes());
        out.extend([8u8, 0, 8, 0, 8, 0]);
        out.extend((0..w * h).flat_map(|_| colour));
    }
    out
}

/// A multi-page TIFF previews page by page like a PDF: its kind, its page count and first page's
/// size, each page as a PNG of its own pixels (a page wider than the pane's width shrunk to it, a
/// smaller one not enlarged), and a page past the end refused with the count.
#[test]
fn a_tiff_previews_page_by_page() {
    use folio_desktop::preview::{Previews, Version};
    use std::sync::Arc;
    let app = app();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();
    let dir = tempfile::tempdir().unwrap();
    let pages = [(40, 20, [200, 10, 10]), (30, 60, [10, 10, 200]), (900, 30, [10, 200, 10])];
    std::fs::write(dir.path().join("scan.tiff"), tiff(&pages)).unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let session = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview).current().unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/scan.tiff"}})).unwrap();
    assert_eq!((info.kind, info.media_type.as_str()), (PreviewKind::Tiff, "image/tiff"));
    let got: PreviewPagesResponse = call(&app, "preview_pages", json!({"params": {"path": "/scan.tiff"}})).unwrap();
    assert_eq!((got.page_count, got.page_size_pt), (3, Some([40.0, 20.0])));
    let at = folio_vfs::VPath::parse("/scan.tiff").unwrap();
    // (page, asked width, expected size, a pixel's colour)
    for (page, width, size, colour) in
        [(1, 400, (40, 20), [200, 10, 10]), (2, 400, (30, 60), [10, 10, 200]), (3, 300, (300, 10), [10, 200, 10])]
    {
        let png = previews.page_png(&session, &at, Version::Current, page, width).unwrap();
        let img = image::load_from_memory(&png).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), size, "page {page}");
        assert_eq!(img.get_pixel(size.0 / 2, size.1 / 2).0, colour, "page {page}");
    }
    let err = previews.page_png(&session, &at, Version::Current, 4, 400).unwrap_err().to_string();
    assert!(err.contains("has 3 page(s); page 4 does not exist"), "{err}");
}

#[test]
fn an_email_is_a_card_whose_attachments_open_from_the_scratch_zone_and_a_scan_is_flagged_and_read() {
    let corpus =
        std::path::PathBuf::from(std::env::var("FOLIO_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into()));
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(corpus.join("documents/outlook-email-with-pdf-attachment.msg"), dir.path().join("mail.msg")).unwrap();
    std::fs::copy(corpus.join("pdf/scanned-form-2pages-image-only.pdf"), dir.path().join("form.pdf")).unwrap();
    std::fs::copy(corpus.join("pdf/minimal-1page-pdftex.pdf"), dir.path().join("text.pdf")).unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/mail.msg"}})).unwrap();
    assert_eq!(info.kind, PreviewKind::Email);
    let mail: PreviewEmailResponse = call(&app, "preview_email", json!({"params": {"path": "/mail.msg"}})).unwrap();
    assert_eq!(mail.subject, "test email");
    assert_eq!(mail.from.as_deref(), Some("Nick Booth <nick.booth@pof.com.au>"));
    assert!(mail.date.is_some() && !mail.to.is_empty(), "{mail:?}");
    let names: Vec<&str> = mail.attachments.iter().map(|a| a.name.as_str()).collect();
    assert!(names.contains(&"smbprn.00009008.KdcPjl.pdf"), "{names:?}");
    assert!(mail.attachments.iter().any(|a| a.embedded), "the embedded message is listed: {names:?}");
    let pdf = mail.attachments.iter().find(|a| a.name.ends_with(".pdf")).unwrap().index;
    let opened: PreviewEmailAttachmentResponse =
        call(&app, "preview_email_attachment", json!({"params": {"path": "/mail.msg", "index": pdf}})).unwrap();
    assert!(opened.path.starts_with("/tmp/attachments/") && opened.path.ends_with("/smbprn.00009008.KdcPjl.pdf"));
    let again: PreviewEmailAttachmentResponse =
        call(&app, "preview_email_attachment", json!({"params": {"path": "/mail.msg", "index": pdf}})).unwrap();
    assert_eq!(again.path, opened.path, "a second click finds the same copy");
    let shown: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": opened.path}})).unwrap();
    assert_eq!(shown.kind, PreviewKind::Pdf);
    let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
    assert_eq!(entries.len(), 3, "the folder is unchanged: {entries:?}");
    let err = call::<PreviewEmailAttachmentResponse>(
        &app,
        "preview_email_attachment",
        json!({"params": {"path": "/mail.msg", "index": 9}}),
    )
    .unwrap_err();
    assert!(err.contains("there is no attachment 9"), "{err}");

    // A PDF with no text layer is a scan; one with text is not.
    let scan: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/form.pdf"}})).unwrap();
    let text: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/text.pdf"}})).unwrap();
    assert_eq!((scan.kind, scan.scan, text.scan), (PreviewKind::Pdf, true, false));
    let ocr: PreviewOcrResponse =
        call(&app, "preview_ocr", json!({"params": {"path": "/form.pdf", "page": 1}})).unwrap();
    assert!(ocr.text.contains("technical inspection") && !ocr.cached && ocr.page_count == 2, "{ocr:?}");
    let cached: PreviewOcrResponse =
        call(&app, "preview_ocr", json!({"params": {"path": "/form.pdf", "page": 1}})).unwrap();
    assert!(cached.cached && cached.text == ocr.text, "{cached:?}");
}
