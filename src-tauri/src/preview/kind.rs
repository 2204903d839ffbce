//! Which preview a file gets and which media type its bytes are served with. What the file *is*
//! comes from the workspace's one kind table (`folio_kinds`: magic bytes first, then the
//! extension); this module only decides how each kind is shown, and falls back on "is it text?"
//! for files the table does not know.

use folio_kinds::{Family, FileKind};

use crate::api::PreviewKind;

/// How a kind is shown.
fn preview_kind(kind: FileKind) -> PreviewKind {
    match (kind, kind.family()) {
        (FileKind::Pdf, _) => PreviewKind::Pdf,
        (FileKind::Tiff, _) => PreviewKind::Tiff,
        (FileKind::Csv | FileKind::Tsv, _) => PreviewKind::Csv,
        (FileKind::Markdown, _) => PreviewKind::Markdown,
        (FileKind::Json | FileKind::GeoJson, _) => PreviewKind::Json,
        (FileKind::Eml | FileKind::Msg, _) => PreviewKind::Email,
        (_, Family::Spreadsheet) => PreviewKind::Spreadsheet,
        (_, Family::Document | Family::Presentation) => PreviewKind::Office,
        (_, Family::Image) => PreviewKind::Image,
        (_, Family::Video) => PreviewKind::Video,
        (_, Family::Audio) => PreviewKind::Audio,
        (_, Family::Archive) => PreviewKind::Binary,
        (_, Family::Code) => PreviewKind::Code,
        (_, Family::Text) => PreviewKind::Text,
    }
}

/// The media type a kind is served with over `folio://`: text is declared UTF-8, and an HTML page
/// the agent wrote is served as plain text, so it is shown as source and never runs in the
/// webview.
fn served_type(kind: FileKind) -> String {
    match kind.media_type() {
        "text/html" => "text/plain; charset=utf-8".into(),
        text if text.starts_with("text/") => format!("{text}; charset=utf-8"),
        other => other.into(),
    }
}

/// The lowercase extension of the last path component, if it has one.
pub fn extension(path: &str) -> Option<String> {
    folio_kinds::extension(path)
}

/// True when the bytes read as text: valid UTF-8 (a cut multi-byte character at the end is
/// fine) with no NUL byte.
pub fn looks_like_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    match std::str::from_utf8(head) {
        Ok(_) => true,
        Err(e) => e.error_len().is_none(),
    }
}

/// The preview kind and served media type of a file named `path` whose content starts with
/// `head` (the first few KB are enough).
pub fn classify(path: &str, head: &[u8]) -> (PreviewKind, String) {
    match FileKind::detect(path, head) {
        Some(kind) => (preview_kind(kind), served_type(kind)),
        None if looks_like_text(head) => (PreviewKind::Text, "text/plain; charset=utf-8".into()),
        None => (PreviewKind::Binary, "application/octet-stream".into()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn kinds_by_name_then_bytes() {
        let cases: &[(&str, &[u8], PreviewKind, &str)] = &[
            ("/out/chart.png", b"\x89PNG\r\n\x1a\n....", PreviewKind::Image, "image/png"),
            ("/out/CHART.PNG", b"\x89PNG\r\n\x1a\n....", PreviewKind::Image, "image/png"),
            ("/clip.mp4", b"\0\0\0\x20ftypisom", PreviewKind::Video, "video/mp4"),
            ("/clip.webm", b"\x1a\x45\xdf\xa3", PreviewKind::Video, "video/webm"),
            ("/song.opus", b"OggS", PreviewKind::Audio, "audio/ogg"),
            ("/report.pdf", b"%PDF-1.7", PreviewKind::Pdf, "application/pdf"),
            ("/scan.tif", b"II*\0\x08\0\0\0", PreviewKind::Tiff, "image/tiff"),
            ("/big.tiff", b"MM\0+\0\x08\0\0", PreviewKind::Tiff, "image/tiff"),
            // An SVG is an image (the scheme serves it drawn as a PNG).
            ("/logo.svg", b"<svg xmlns", PreviewKind::Image, "image/svg+xml"),
            (
                "/memo.docx",
                b"PK\x03\x04",
                PreviewKind::Office,
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            ),
            (
                "/q3.xlsx",
                b"PK\x03\x04",
                PreviewKind::Spreadsheet,
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ),
            ("/data.csv", b"a,b\n1,2\n", PreviewKind::Csv, "text/csv; charset=utf-8"),
            ("/README.md", b"# Hi", PreviewKind::Markdown, "text/markdown; charset=utf-8"),
            ("/x.json", b"{}", PreviewKind::Json, "application/json"),
            ("/scripts/clean.js", b"export default 1", PreviewKind::Code, "text/javascript; charset=utf-8"),
            ("/std/fs/index.d.ts", b"export", PreviewKind::Code, "text/plain; charset=utf-8"),
            ("/notes.txt", b"buy milk", PreviewKind::Text, "text/plain; charset=utf-8"),
            // A name that lies: the bytes win for text names.
            ("/scan.txt", b"%PDF-1.4", PreviewKind::Pdf, "application/pdf"),
            // No extension: the bytes decide.
            ("/Makefile", b"all:\n\ttrue\n", PreviewKind::Text, "text/plain; charset=utf-8"),
            ("/blob", b"\x1a\x45\xdf\xa3", PreviewKind::Video, "video/webm"),
            ("/.hidden", b"secret", PreviewKind::Text, "text/plain; charset=utf-8"),
            ("/a.bin", &[0, 159, 146, 150], PreviewKind::Binary, "application/octet-stream"),
            ("/a.unknownext", &[0xc3], PreviewKind::Text, "text/plain; charset=utf-8"),
            // Office Writer files, which two of the tables this one replaced did not know.
            ("/old.doc", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", PreviewKind::Office, "application/msword"),
            ("/memo.rtf", b"{\\rtf1", PreviewKind::Office, "application/rtf"),
            // Mail: a card (an Outlook message shares legacy Office's OLE signature; its name decides).
            ("/note.eml", b"From: a@b.c\r\n", PreviewKind::Email, "message/rfc822"),
            ("/note.msg", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", PreviewKind::Email, "application/vnd.ms-outlook"),
            // HTML is shown as source, never run.
            ("/page.html", b"<script>", PreviewKind::Code, "text/plain; charset=utf-8"),
        ];
        for (path, head, kind, mime) in cases {
            assert_eq!(classify(path, head), (*kind, mime.to_string()), "{path}");
        }
    }

    #[test]
    fn extensions_ignore_dotfiles_and_directories() {
        assert_eq!(extension("/a/b.TAR.GZ").as_deref(), Some("gz"));
        assert_eq!(extension("/.bashrc"), None);
        assert_eq!(extension("/dir.d/file"), None);
    }
}
