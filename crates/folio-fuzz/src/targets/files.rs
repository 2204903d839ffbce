//! The targets over file bytes: `describe` (every registered handler), `kinds` (the kind
//! table's detection) and `office_zip` (the ZIP reader behind Office summaries). The first
//! input byte chooses the file's extension, so one corpus covers every kind.

use folio_kinds::{FileKind, Handler, TABLE, extension};
use folio_vfs::VPath;

use super::{bucket, gist, handlers, tokens};
use crate::engine::Run;

/// Every extension the kind table knows, and a few it does not.
fn extensions() -> Vec<String> {
    let mut all: Vec<String> = TABLE.iter().flat_map(|r| r.extensions.iter().map(|e| (*e).to_owned())).collect();
    all.extend(["txt", "bin", "PDF", "Docx"].map(String::from));
    all
}

/// Splits an input into a file name and the file's bytes: the extension is the text before the
/// first NUL (`pdf\0%PDF-1.7…`), so mutations keep most inputs under their kind; without a NUL
/// the first byte picks one of `exts` (or none).
fn named(input: &[u8], exts: &[String]) -> (String, Vec<u8>) {
    if let Some(at) = input.iter().take(17).position(|b| *b == 0) {
        let ext: String = String::from_utf8_lossy(&input[..at])
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '_' })
            .collect();
        return (format!("/inbox/file.{ext}"), input[at + 1..].to_vec());
    }
    let (pick, bytes) = input.split_first().map_or((0, &[][..]), |(p, rest)| (*p as usize, rest));
    let name = match exts.get(pick % (exts.len() + 1)) {
        Some(ext) => format!("/inbox/file.{ext}"),
        None => "/inbox/file".to_owned(),
    };
    (name, bytes.to_vec())
}

fn signature_tokens() -> Vec<Vec<u8>> {
    let mut t = tokens(&[
        "%PDF-1.7\n",
        "%%EOF",
        "obj\n<<",
        ">>\nendobj\n",
        "/Type /Page",
        "/Count 1",
        "xref\n",
        "trailer\n<< /Root 1 0 R >>",
        "startxref\n",
        "stream\n",
        "endstream",
        "\u{89}PNG\r\n\u{1a}\n",
        "IHDR",
        "IDAT",
        "IEND",
        "GIF89a",
        "RIFF",
        "WEBPVP8 ",
        "Exif\0\0",
        "MM\0*",
        "II*\0",
    ]);
    t.extend([vec![0xFF, 0xD8, 0xFF, 0xE0], vec![0xFF, 0xE1], vec![0xFF, 0xC0], vec![0xD0, 0xCF, 0x11, 0xE0]]);
    t.extend(zip_dictionary());
    t
}

// ---- describe -------------------------------------------------------------------------------

pub(crate) fn describe_dictionary() -> Vec<Vec<u8>> {
    let mut t = signature_tokens();
    t.extend(extensions().into_iter().map(|e| format!("{e}\0").into_bytes()));
    t
}

pub(crate) fn describe_setup() -> Result<Run, String> {
    let handlers = handlers();
    if handlers.is_empty() {
        return Err("folio_host::HANDLERS is empty".into());
    }
    let exts = extensions();
    Ok(Box::new(move |input| {
        let (name, bytes) = named(input, &exts);
        let path = VPath::parse(&name).unwrap_or_else(|_| VPath::root());
        let mut sig = String::new();
        for h in &handlers {
            match h.describe(&path, &bytes) {
                Ok(v) => {
                    let keys = v.as_object().map(|o| o.len()).unwrap_or(0);
                    let kind = v.get("kind").and_then(|k| k.as_str()).unwrap_or("-");
                    sig.push_str(&format!("{}:ok:{kind}:{};", h.module(), bucket(keys)));
                }
                Err(e) => {
                    assert!(!e.trim().is_empty(), "env:{} describe failed with an empty message", h.module());
                    sig.push_str(&format!("{}:err:{};", h.module(), gist(&e, 6)));
                }
            }
        }
        sig
    }))
}

// ---- kinds ----------------------------------------------------------------------------------

pub(crate) fn kinds_dictionary() -> Vec<Vec<u8>> {
    let mut t = signature_tokens();
    t.extend(extensions().into_iter().map(|e| format!(".{e}").into_bytes()));
    t.extend(tokens(&["\0", "/", "\\", "..", "."]));
    t
}

pub(crate) fn kinds_setup() -> Result<Run, String> {
    Ok(Box::new(|input| {
        // The name up to the first NUL, then the file's head.
        let (name, head) = match input.iter().position(|b| *b == 0) {
            Some(at) => (String::from_utf8_lossy(&input[..at]).into_owned(), &input[at + 1..]),
            None => (String::from_utf8_lossy(input).into_owned(), &[][..]),
        };
        // describe reads the first KiB only; so does this.
        let head = &head[..head.len().min(1024)];
        let named = FileKind::from_name(&name);
        let magic = FileKind::from_magic(head);
        let detected = FileKind::detect(&name, head);
        assert!(
            detected == named || detected == magic,
            "detect({name:?}) = {detected:?}, neither {named:?} nor {magic:?}"
        );
        if let Some(k) = named.filter(|k| k.confirmed_by(head)) {
            assert_eq!(detected, Some(k), "{name:?}: the bytes confirm {k:?} but detect chose otherwise");
        }
        if let Some(ext) = extension(&name) {
            assert!(!ext.contains(['/', '\\', '.']), "extension({name:?}) = {ext:?}");
            assert_eq!(ext, ext.to_ascii_lowercase(), "extension({name:?}) is not lowercase");
            assert_eq!(FileKind::from_extension(&ext), named, "{name:?}: from_extension and from_name disagree");
        }
        for kind in [named, magic, detected].into_iter().flatten() {
            assert_eq!(kind.row().kind, kind, "{kind:?}'s row is another kind's");
            assert!(!kind.media_type().is_empty(), "{kind:?} has no media type");
        }
        let claim = folio_render::describe::claim(&name, head);
        let expected = matches!(detected.and_then(|k| k.handler()), Some(Handler::Render | Handler::Images));
        assert_eq!(claim.is_some(), expected, "claim({name:?}) = {claim:?} for a file detected as {detected:?}");
        format!("n{named:?};m{magic:?};d{detected:?};c{claim:?}")
    }))
}

// ---- office_zip -----------------------------------------------------------------------------

pub(crate) fn zip_dictionary() -> Vec<Vec<u8>> {
    let mut t = tokens(&[
        "PK\u{3}\u{4}",
        "PK\u{1}\u{2}",
        "PK\u{5}\u{6}",
        "PK\u{6}\u{6}",
        "PK\u{7}\u{8}",
        "word/document.xml",
        "xl/workbook.xml",
        "xl/worksheets/sheet1.xml",
        "ppt/presentation.xml",
        "ppt/slides/slide1.xml",
        "mimetype",
        "application/vnd.oasis.opendocument.text",
        "docProps/core.xml",
        "docProps/app.xml",
        "[Content_Types].xml",
        "<w:t>",
        "</w:t>",
        "<sheet name=\"",
        "<dc:title>",
        "&amp;",
        "../",
        "/etc/",
    ]);
    t.extend([vec![0xFF, 0xFF, 0xFF, 0xFF], vec![0x08, 0x00], vec![0x00, 0x00], vec![0x01, 0x00]]);
    t
}

pub(crate) fn office_setup() -> Result<Run, String> {
    let exts: Vec<String> =
        ["docx", "xlsx", "pptx", "odt", "ods", "odp", "xlsb", "doc", "rtf"].map(String::from).to_vec();
    Ok(Box::new(move |input| {
        let (name, bytes) = named(input, &exts);
        match folio_render::describe::describe_office(&name, &bytes) {
            Ok(v) => {
                let format = v.get("format").and_then(|f| f.as_str()).unwrap_or("-");
                // An OLE file's format is its extension, which the input makes up.
                let format = if exts.iter().any(|e| e == format) || format == "odf" { format } else { "other" };
                let entries = v.get("entries").and_then(|e| e.as_u64()).unwrap_or(0) as usize;
                let keys = v.as_object().map(|o| o.len()).unwrap_or(0);
                format!("ok {format};entries {};keys {format} {keys}", bucket(entries))
            }
            Err(e) => format!("err {}", gist(&e.to_string(), 8)),
        }
    }))
}
