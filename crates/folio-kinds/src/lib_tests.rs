#![allow(clippy::unwrap_used)]

use super::*;

/// `detect(name, bytes)` is `expect`.
fn check(name: &str, bytes: &[u8], expect: Option<FileKind>) {
    assert_eq!(FileKind::detect(name, bytes), expect, "{name} starting {bytes:?}");
}

const PK: &[u8] = b"PK\x03\x04\x14\0\0\0";
const OLE_HEAD: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\0\0";

#[test]
fn kinds_are_detected_bytes_first_then_by_name() {
    use FileKind as K;
    let cases: &[(&str, &[u8], Option<FileKind>)] = &[
        // Signatures that identify a kind alone beat the name.
        ("/in/report.pdf", b"%PDF-1.7\n", Some(K::Pdf)),
        ("/in/odd.png", b"%PDF-1.4", Some(K::Pdf)),
        ("/in/scan.txt", b"%PDF-1.4", Some(K::Pdf)),
        ("/in/junk-first.pdf", b"\0\0garbage before %PDF-1.5", Some(K::Pdf)),
        ("/in/pic.PNG", b"\x89PNG\r\n\x1a\n....", Some(K::Png)),
        ("/in/photo.docx", b"\xFF\xD8\xFF\xE0", Some(K::Jpeg)),
        ("/in/anim", b"GIF89a", Some(K::Gif)),
        ("/in/p", b"RIFF\0\0\0\0WEBPVP8 ", Some(K::Webp)),
        ("/in/v", b"RIFF\0\0\0\0WAVEfmt ", Some(K::Wav)),
        ("/in/v", b"RIFF\0\0\0\0AVI LIST", Some(K::Avi)),
        ("/song", b"ID3\x04", Some(K::Mp3)),
        ("/song", b"\xFF\xFB\x90\x00", Some(K::Mp3)),
        ("/song", b"fLaC", Some(K::Flac)),
        ("/song", b"OggS", Some(K::Ogg)),
        ("/clip", b"\x1A\x45\xDF\xA3", Some(K::Webm)),
        ("/clip", b"\0\0\0\x20ftypisom", Some(K::Mp4)),
        ("/clip", b"\0\0\0\x20ftypqt  ", Some(K::Mov)),
        ("/voice", b"\0\0\0\x20ftypM4A ", Some(K::M4a)),
        ("/a", PK, Some(K::Zip)),
        ("/a", b"\x1F\x8B\x08", Some(K::Gzip)),
        ("/memo", b"{\\rtf1\\ansi", Some(K::Rtf)),
        // A container signature confirms the extension that names one of its kinds.
        ("/memo.docx", PK, Some(K::Docx)),
        ("/q3.XLSX", PK, Some(K::Xlsx)),
        ("/q3.xlsb", PK, Some(K::Xlsb)),
        ("/deck.odp", PK, Some(K::Odp)),
        ("/old.doc", OLE_HEAD, Some(K::Doc)),
        ("/old.xls", OLE_HEAD, Some(K::Xls)),
        ("/old.ppt", OLE_HEAD, Some(K::Ppt)),
        ("/locked.docx", OLE_HEAD, Some(K::Docx)),
        ("/memo.rtf", b"{\\rtf1", Some(K::Rtf)),
        ("/clip.mov", b"\0\0\0\x20ftypisom", Some(K::Mov)),
        ("/voice.m4a", b"\0\0\0\x20ftypmp42", Some(K::M4a)),
        ("/photo.heic", b"\0\0\0\x18ftypheic", Some(K::Heic)),
        ("/film.mkv", b"\x1A\x45\xDF\xA3", Some(K::Mkv)),
        ("/film.ogv", b"OggS", Some(K::Ogv)),
        ("/song.opus", b"OggS", Some(K::Ogg)),
        // A container under a name of another container's kind is the container.
        ("/fake.doc", PK, Some(K::Zip)),
        // An Outlook message is confirmed by the OLE container only under its own name; the
        // container never makes a legacy Office file mail, nor mail a Word file.
        ("/note.msg", OLE_HEAD, Some(K::Msg)),
        ("/old.doc", OLE_HEAD, Some(K::Doc)),
        ("/a", OLE_HEAD, None),
        ("/note.eml", b"From: a@b.c", Some(K::Eml)),
        ("/box.mbox", b"From a@b", Some(K::Mbox)),
        // No signature matches: the name decides, unconfirmed.
        ("/fake.pdf", b"hello, not a pdf", Some(K::Pdf)),
        ("/empty.docx", b"", Some(K::Docx)),
        ("/data.csv", b"a,b\n1,2\n", Some(K::Csv)),
        ("/README.md", b"# Hi", Some(K::Markdown)),
        ("/x.json", b"{}", Some(K::Json)),
        ("/scripts/clean.js", b"export default 1", Some(K::JavaScript)),
        ("/std/fs/index.d.ts", b"export", Some(K::Source)),
        ("/notes.txt", b"buy milk", Some(K::Text)),
        ("/page.HTM", b"<html>", Some(K::Html)),
        ("/logo.svg", b"<svg", Some(K::Svg)),
        ("/scan.tif", b"II*\0\x08\0\0\0", Some(K::Tiff)),
        ("/scan.TIFF", b"MM\0*\0\0\0\x08", Some(K::Tiff)),
        ("/no-name", b"II+\0\x08\0\0\0", Some(K::Tiff)),
        ("C:\\in\\memo.DOC", b"", Some(K::Doc)),
        // Neither.
        ("/Makefile", b"all:\n", None),
        ("/.bashrc", b"export A=1", None),
        ("/a.wat", b"\0\x01", None),
    ];
    for (name, bytes, expect) in cases {
        check(name, bytes, *expect);
    }
}

#[test]
fn doc_and_rtf_are_office_writer_documents_rendered_by_env_render() {
    // The tables this one replaced disagreed here: two called .doc and .rtf Office files, three
    // did not know them.
    for (name, bytes) in [("/a.doc", OLE_HEAD), ("/a.rtf", b"{\\rtf1".as_slice()), ("/a.doc", b"".as_slice())] {
        let kind = FileKind::detect(name, bytes).unwrap();
        assert_eq!(kind.office(), Some(OfficeApp::Writer), "{name}");
        assert_eq!(kind.handler(), Some(Handler::Render), "{name}");
        assert_eq!(kind.family(), Family::Document, "{name}");
    }
    assert_eq!(FileKind::Doc.media_type(), "application/msword");
    assert_eq!(FileKind::Rtf.media_type(), "application/rtf");
    assert!(Handler::Render.extensions().contains(&"doc") && Handler::Render.extensions().contains(&"rtf"));
}

#[test]
fn each_kind_has_one_row_at_its_index_and_each_extension_one_kind() {
    let mut seen = std::collections::BTreeSet::new();
    for (i, row) in TABLE.iter().enumerate() {
        assert_eq!(row.kind as usize, i, "{:?} is out of order in TABLE", row.kind);
        assert!(!row.extensions.is_empty() && !row.media_type.contains(';'), "{:?}", row.kind);
        for ext in row.extensions {
            assert_eq!(ext.to_ascii_lowercase(), *ext, "{:?}", row.kind);
            assert!(seen.insert(*ext), ".{ext} is named by two rows");
        }
        assert_eq!(FileKind::from_extension(row.extensions[0]), Some(row.kind));
        // A kind LibreOffice renders is rendered by env:render and can be confirmed by its bytes.
        if row.office.is_some() {
            assert_eq!(row.handler, Some(Handler::Render), "{:?}", row.kind);
            assert!(row.kind.has_signature(), "{:?}", row.kind);
        }
    }
    assert_eq!(TABLE.last().map(|r| r.kind), Some(FileKind::Source), "a kind was added to the enum without a row");
}

#[test]
fn lookups_by_extension_media_type_and_application() {
    type Facts = (&'static str, Family, Option<OfficeApp>);
    let cases: &[(&str, Option<Facts>)] = &[
        ("PDF", Some(("application/pdf", Family::Document, None))),
        (
            ".xlsx",
            Some((
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                Family::Spreadsheet,
                Some(OfficeApp::Calc),
            )),
        ),
        (
            "odp",
            Some(("application/vnd.oasis.opendocument.presentation", Family::Presentation, Some(OfficeApp::Impress))),
        ),
        ("jpeg", Some(("image/jpeg", Family::Image, None))),
        ("mkv", Some(("video/x-matroska", Family::Video, None))),
        ("m4a", Some(("audio/mp4", Family::Audio, None))),
        ("gz", Some(("application/gzip", Family::Archive, None))),
        ("csv", Some(("text/csv", Family::Spreadsheet, None))),
        ("wat", None),
    ];
    for (ext, expect) in cases {
        let got = FileKind::from_extension(ext).map(|k| (k.media_type(), k.family(), k.office()));
        assert_eq!(got, *expect, "{ext}");
    }
    assert_eq!(OfficeApp::Writer.extension_list(), ".docx/.odt/.doc/.rtf");
    assert_eq!(OfficeApp::Impress.extension_list(), ".pptx/.odp/.ppt");
    assert!(OfficeApp::Calc.extension_list().ends_with(".xlsx/.ods/.xls"));
}

#[test]
fn handlers_claim_their_kinds_by_extension_and_distinguishing_signature() {
    assert_eq!(Handler::Images.extensions(), ["png", "jpg", "jpeg", "gif", "webp", "svg", "tif", "tiff"]);
    let sigs = Handler::Images.signatures();
    assert!(sigs.contains(&(8, b"WEBP".as_slice())) && !sigs.contains(&(0, b"RIFF".as_slice())), "{sigs:?}");
    // Classic TIFF and BigTIFF, in both byte orders.
    for tiff in [b"II*\0", b"MM\0*", b"II+\0", b"MM\0+"] {
        assert!(sigs.contains(&(0, tiff.as_slice())), "{sigs:?}");
        assert_eq!(FileKind::from_magic(tiff), Some(FileKind::Tiff));
    }
    let render = Handler::Render.signatures();
    assert!(render.contains(&(0, b"%PDF-".as_slice())) && render.contains(&(0, b"{\\rtf".as_slice())), "{render:?}");
    assert!(!render.iter().any(|(_, b)| b.starts_with(b"PK")), "a ZIP is not claimed for env:render by its bytes");
    assert_eq!((Handler::Render.module(), Handler::Images.module()), ("render", "images"));
}

#[test]
fn extensions_ignore_dotfiles_and_directories() {
    let cases: &[(&str, Option<&str>)] = &[
        ("/a/b.TAR.GZ", Some("gz")),
        ("/.bashrc", None),
        ("/dir.d/file", None),
        ("C:\\in\\Memo.Docx", Some("docx")),
        ("trailing.", None),
    ];
    for (name, want) in cases {
        assert_eq!(extension(name).as_deref(), *want, "{name}");
    }
}

/// The corpus's macro-enabled and binary workbooks are workbooks (Calc opens them), detected
/// from their real bytes. Skipped with a reason when the corpus is absent.
#[test]
fn corpus_xlsm_and_xlsb_are_workbooks() {
    let root = std::env::var_os("FOLIO_CORPUS")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    for (file, want) in [
        ("spreadsheets/vba-macros.xlsm", FileKind::Xlsm),
        ("spreadsheets/formula-stress-every-function.xlsb", FileKind::Xlsb),
    ] {
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            eprintln!("skipped {file}: the corpus is absent (set FOLIO_CORPUS)");
            return;
        };
        let kind = FileKind::detect(file, &bytes[..bytes.len().min(1024)]);
        assert_eq!(kind, Some(want), "{file}");
        assert!(want.confirmed_by(&bytes[..64]), "{file}");
        assert_eq!(want.family(), Family::Spreadsheet, "{file}");
        assert_eq!(want.office(), Some(OfficeApp::Calc), "{file}");
    }
}

#[test]
fn diff_shapes_follow_what_folio_can_render_read_and_decode() {
    use DiffShape as D;
    for (name, shape) in [
        ("/a.pdf", D::Pages),
        ("/a.docx", D::Pages),
        ("/a.pptx", D::Pages),
        ("/a.odt", D::Pages),
        ("/a.odp", D::Pages),
        ("/a.xlsx", D::Cells),
        ("/a.xlsm", D::Cells),
        ("/a.xls", D::Cells),
        ("/a.ods", D::Cells),
        ("/a.csv", D::Cells),
        ("/a.png", D::Image),
        ("/a.jpg", D::Image),
        ("/a.webp", D::Image),
        ("/a.gif", D::Image),
        ("/a.tiff", D::Image),
        ("/a.svg", D::Image),
        ("/a.mp4", D::Video),
        ("/a.webm", D::Video),
        ("/a.mov", D::Video),
        ("/a.zip", D::Archive),
        ("/a.tar", D::Archive),
        ("/a.tar.gz", D::Archive),
        ("/a.md", D::Text),
        ("/a.js", D::Text),
        ("/a.mp3", D::Binary),
        ("/a.heic", D::Binary),
    ] {
        assert_eq!(FileKind::from_name(name).map(FileKind::diff_shape), Some(shape), "{name}");
    }
    // An image is compared as pixels exactly when env:images decodes it.
    for row in TABLE.iter().filter(|r| r.family == Family::Image) {
        assert_eq!(row.diff == D::Image, row.handler == Some(Handler::Images), "{}", row.label);
    }
    // Every document and deck is rendered to pages, by PDFium or LibreOffice.
    for row in TABLE.iter().filter(|r| matches!(r.family, Family::Document | Family::Presentation)) {
        assert_eq!(row.diff, D::Pages, "{}", row.label);
        assert!(row.kind == FileKind::Pdf || row.office.is_some(), "{}", row.label);
    }
}

#[test]
fn a_package_says_which_office_kind_it_is() {
    use FileKind as K;
    let parts = |present: &'static [&'static str]| move |p: &str| present.contains(&p);
    let ooxml: &[(Option<FileKind>, &'static [&'static str], Option<FileKind>)] = &[
        (None, &["word/document.xml"], Some(K::Docx)),
        (None, &["xl/workbook.xml"], Some(K::Xlsx)),
        (None, &["xl/workbook.xml", "xl/vbaProject.bin"], Some(K::Xlsm)),
        (None, &["xl/workbook.bin"], Some(K::Xlsb)),
        (None, &["ppt/presentation.xml"], Some(K::Pptx)),
        (None, &["content.xml"], None),
        // The name wins when its package fits; an .xlsm without macros reads as the workbook it is.
        (Some(K::Xlsm), &["xl/workbook.xml", "xl/vbaProject.bin"], Some(K::Xlsm)),
        (Some(K::Xlsm), &["xl/workbook.xml"], Some(K::Xlsx)),
        (Some(K::Docx), &["xl/workbook.xml"], Some(K::Xlsx)),
        (Some(K::Pdf), &["ppt/presentation.xml"], Some(K::Pptx)),
    ];
    for (named, present, expect) in ooxml {
        assert_eq!(FileKind::from_package(*named, parts(present), None), *expect, "{named:?} holding {present:?}");
    }
    let none = |_: &str| false;
    for (mimetype, expect) in [
        ("application/vnd.oasis.opendocument.text", Some(K::Odt)),
        ("application/vnd.oasis.opendocument.spreadsheet\n", Some(K::Ods)),
        ("application/vnd.oasis.opendocument.presentation", Some(K::Odp)),
        ("application/vnd.oasis.opendocument.graphics", None),
        ("application/zip", None),
    ] {
        assert_eq!(FileKind::from_package(None, none, Some(mimetype)), expect, "{mimetype:?}");
    }
    // Every Office kind that comes in a ZIP says what its package holds, so describe can tell
    // which it is without a list of its own.
    for row in TABLE.iter().filter(|r| r.office.is_some() && r.kind.confirmed_by(PK)) {
        assert!(row.kind.package_in(PK).is_some(), "{} has no package entry", row.label);
    }
}

#[test]
fn an_ole_file_is_a_legacy_document_or_an_encrypted_package() {
    use FileKind as K;
    for kind in [K::Doc, K::Xls, K::Ppt] {
        assert!(kind.confirmed_by(OLE_HEAD), "{kind:?}");
        assert_eq!(kind.package_in(OLE_HEAD), None, "{kind:?}: the OLE file is its own format");
    }
    for kind in [K::Docx, K::Xlsx, K::Xlsm, K::Xlsb, K::Pptx] {
        assert_eq!(kind.package_in(OLE_HEAD), Some(Package::Encrypted), "{kind:?}");
    }
    assert_eq!(K::Odt.package_in(OLE_HEAD), None);
    assert_eq!(K::Pdf.package_in(b"%PDF-1.7"), None);
}
