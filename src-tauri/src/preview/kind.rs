//! Which preview a file gets and which media type its bytes are served with: one table by
//! extension, then the bytes (magic numbers, then "is it text?") for names the table does not know.

use crate::api::PreviewKind;

/// Extension → (preview kind, media type served over `folio://`).
const TABLE: &[(&str, PreviewKind, &str)] = &[
    ("png", PreviewKind::Image, "image/png"),
    ("jpg", PreviewKind::Image, "image/jpeg"),
    ("jpeg", PreviewKind::Image, "image/jpeg"),
    ("gif", PreviewKind::Image, "image/gif"),
    ("webp", PreviewKind::Image, "image/webp"),
    ("svg", PreviewKind::Image, "image/svg+xml"),
    ("bmp", PreviewKind::Image, "image/bmp"),
    ("avif", PreviewKind::Image, "image/avif"),
    ("ico", PreviewKind::Image, "image/x-icon"),
    ("mp4", PreviewKind::Video, "video/mp4"),
    ("m4v", PreviewKind::Video, "video/mp4"),
    ("mov", PreviewKind::Video, "video/quicktime"),
    ("webm", PreviewKind::Video, "video/webm"),
    ("mkv", PreviewKind::Video, "video/x-matroska"),
    ("avi", PreviewKind::Video, "video/x-msvideo"),
    ("ogv", PreviewKind::Video, "video/ogg"),
    ("mpg", PreviewKind::Video, "video/mpeg"),
    ("mpeg", PreviewKind::Video, "video/mpeg"),
    ("wmv", PreviewKind::Video, "video/x-ms-wmv"),
    ("mp3", PreviewKind::Audio, "audio/mpeg"),
    ("m4a", PreviewKind::Audio, "audio/mp4"),
    ("aac", PreviewKind::Audio, "audio/aac"),
    ("ogg", PreviewKind::Audio, "audio/ogg"),
    ("oga", PreviewKind::Audio, "audio/ogg"),
    ("opus", PreviewKind::Audio, "audio/ogg"),
    ("wav", PreviewKind::Audio, "audio/wav"),
    ("flac", PreviewKind::Audio, "audio/flac"),
    ("weba", PreviewKind::Audio, "audio/webm"),
    ("wma", PreviewKind::Audio, "audio/x-ms-wma"),
    ("pdf", PreviewKind::Pdf, "application/pdf"),
    ("docx", PreviewKind::Office, "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ("doc", PreviewKind::Office, "application/msword"),
    ("pptx", PreviewKind::Office, "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    ("ppt", PreviewKind::Office, "application/vnd.ms-powerpoint"),
    ("odt", PreviewKind::Office, "application/vnd.oasis.opendocument.text"),
    ("odp", PreviewKind::Office, "application/vnd.oasis.opendocument.presentation"),
    ("rtf", PreviewKind::Office, "application/rtf"),
    ("xlsx", PreviewKind::Spreadsheet, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("xlsm", PreviewKind::Spreadsheet, "application/vnd.ms-excel.sheet.macroEnabled.12"),
    ("xls", PreviewKind::Spreadsheet, "application/vnd.ms-excel"),
    ("ods", PreviewKind::Spreadsheet, "application/vnd.oasis.opendocument.spreadsheet"),
    ("csv", PreviewKind::Csv, "text/csv; charset=utf-8"),
    ("tsv", PreviewKind::Csv, "text/tab-separated-values; charset=utf-8"),
    ("md", PreviewKind::Markdown, "text/markdown; charset=utf-8"),
    ("markdown", PreviewKind::Markdown, "text/markdown; charset=utf-8"),
    ("json", PreviewKind::Json, "application/json"),
    ("geojson", PreviewKind::Json, "application/geo+json"),
    ("js", PreviewKind::Code, "text/javascript; charset=utf-8"),
    ("mjs", PreviewKind::Code, "text/javascript; charset=utf-8"),
    ("ts", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("tsx", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("jsx", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("py", PreviewKind::Code, "text/x-python; charset=utf-8"),
    ("rs", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("sh", PreviewKind::Code, "text/x-shellscript; charset=utf-8"),
    ("sql", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("r", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("css", PreviewKind::Code, "text/css; charset=utf-8"),
    ("html", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("htm", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("xml", PreviewKind::Code, "application/xml"),
    ("yaml", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("yml", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("toml", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("ini", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("d.ts", PreviewKind::Code, "text/plain; charset=utf-8"),
    ("txt", PreviewKind::Text, "text/plain; charset=utf-8"),
    ("log", PreviewKind::Text, "text/plain; charset=utf-8"),
];

/// The lowercase extension of the last path component, if it has one.
pub fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.').filter(|(stem, _)| !stem.is_empty()).map(|(_, ext)| ext.to_ascii_lowercase())
}

/// Recognises media and documents by their first bytes.
fn sniff(bytes: &[u8]) -> Option<(PreviewKind, &'static str)> {
    let at = |offset: usize, sig: &[u8]| bytes.get(offset..offset + sig.len()) == Some(sig);
    let found = if at(0, b"\x89PNG\r\n\x1a\n") {
        (PreviewKind::Image, "image/png")
    } else if at(0, b"\xff\xd8\xff") {
        (PreviewKind::Image, "image/jpeg")
    } else if at(0, b"GIF8") {
        (PreviewKind::Image, "image/gif")
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        (PreviewKind::Image, "image/webp")
    } else if at(0, b"%PDF-") {
        (PreviewKind::Pdf, "application/pdf")
    } else if at(4, b"ftyp") && (at(8, b"M4A ") || at(8, b"M4B ")) {
        (PreviewKind::Audio, "audio/mp4")
    } else if at(4, b"ftyp") {
        (PreviewKind::Video, "video/mp4")
    } else if at(0, b"\x1a\x45\xdf\xa3") {
        (PreviewKind::Video, "video/webm")
    } else if at(0, b"OggS") {
        (PreviewKind::Audio, "audio/ogg")
    } else if at(0, b"ID3") || (bytes.len() > 1 && bytes[0] == 0xff && bytes[1] & 0xe0 == 0xe0) {
        (PreviewKind::Audio, "audio/mpeg")
    } else if at(0, b"fLaC") {
        (PreviewKind::Audio, "audio/flac")
    } else if at(0, b"RIFF") && at(8, b"WAVE") {
        (PreviewKind::Audio, "audio/wav")
    } else if at(0, b"RIFF") && at(8, b"AVI ") {
        (PreviewKind::Video, "video/x-msvideo")
    } else {
        return None;
    };
    Some(found)
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
    let ext = extension(path);
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    if name.ends_with(".d.ts") {
        return (PreviewKind::Code, "text/plain; charset=utf-8".into());
    }
    if let Some(ext) = &ext
        && let Some((_, kind, mime)) = TABLE.iter().find(|(e, _, _)| e == ext)
    {
        // A name can lie; a PDF or image named .txt is still shown as what its bytes are.
        if let (PreviewKind::Text | PreviewKind::Code, Some((kind, mime))) = (kind, sniff(head)) {
            return (kind, mime.into());
        }
        return (*kind, (*mime).into());
    }
    if let Some((kind, mime)) = sniff(head) {
        return (kind, mime.into());
    }
    if looks_like_text(head) {
        return (PreviewKind::Text, "text/plain; charset=utf-8".into());
    }
    (PreviewKind::Binary, "application/octet-stream".into())
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
