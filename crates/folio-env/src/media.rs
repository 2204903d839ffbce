//! Media types for delivered files: one table by extension (documents, data, archives, images,
//! audio, video), and a magic-byte sniff used only when a file has no extension.

/// Media type by lowercased extension (without the dot).
const TABLE: &[(&str, &str)] = &[
    ("pdf", "application/pdf"),
    ("docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ("pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    ("csv", "text/csv"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
    ("json", "application/json"),
    ("html", "text/html"),
    ("htm", "text/html"),
    ("xml", "application/xml"),
    ("zip", "application/zip"),
    ("tar", "application/x-tar"),
    ("gz", "application/gzip"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("svg", "image/svg+xml"),
    ("mp4", "video/mp4"),
    ("webm", "video/webm"),
    ("mov", "video/quicktime"),
    ("mkv", "video/x-matroska"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
    ("m4a", "audio/mp4"),
    ("ogg", "audio/ogg"),
];

/// The media type of a file named with `extension` (any case); unknown extensions are
/// `application/octet-stream`. Without an extension, the bytes decide.
pub fn media_type(extension: Option<&str>, bytes: &[u8]) -> String {
    match extension {
        Some(ext) => {
            let ext = ext.to_lowercase();
            TABLE.iter().find(|(e, _)| *e == ext).map_or("application/octet-stream", |(_, m)| m).to_owned()
        }
        None => sniff(bytes).unwrap_or("application/octet-stream").to_owned(),
    }
}

/// Recognises common formats by their leading bytes.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    let at = |offset: usize, sig: &[u8]| bytes.len() >= offset + sig.len() && &bytes[offset..offset + sig.len()] == sig;
    if at(0, b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if at(0, b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if at(0, b"GIF8") {
        Some("image/gif")
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        Some("image/webp")
    } else if at(0, b"%PDF-") {
        Some("application/pdf")
    } else if at(4, b"ftyp") {
        Some("video/mp4")
    } else if at(0, b"\x1a\x45\xdf\xa3") {
        Some("video/webm")
    } else if at(0, b"PK\x03\x04") {
        Some("application/zip")
    } else if at(0, b"\x1f\x8b") {
        Some("application/gzip")
    } else {
        None
    }
}
