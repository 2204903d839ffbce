//! Which container a file is, by content first: the compound-file signature is mail only when
//! the file has `__substg1.0_` property streams (legacy Word/Excel/PowerPoint share the
//! signature and are never claimed); an RFC 5322 header block with a decisive header in the
//! first 8 KiB is a message, and more than one `From ` separator line makes it a mailbox. Only
//! when the content says nothing does the extension decide.

use crate::model::Format;

/// The compound-file (OLE) signature.
pub const OLE: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Headers that make a header block a message's.
const DECISIVE: &[&str] =
    &["from", "to", "subject", "date", "message-id", "received", "return-path", "delivered-to", "mime-version"];

/// The format the bytes say, if they say one.
pub fn by_content(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(OLE) {
        return crate::msg::is_msg(bytes).then_some(Format::Msg);
    }
    if mbox_count(bytes) > 1 {
        return Some(Format::Mbox);
    }
    header_block(bytes).then_some(Format::Eml)
}

/// The format by content, else by `path`'s extension.
pub fn detect(path: &str, bytes: &[u8]) -> Option<Format> {
    let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match by_content(bytes) {
        Some(Format::Eml) if ext == "mbox" && mbox_count(bytes) == 1 => Some(Format::Mbox),
        Some(f) => Some(f),
        None if bytes.starts_with(OLE) => None,
        None => match ext.as_str() {
            "eml" => Some(Format::Eml),
            "mbox" => Some(Format::Mbox),
            _ => None,
        },
    }
}

/// Messages in an mbox: lines beginning `From ` at the start or after a blank line.
pub fn mbox_count(bytes: &[u8]) -> usize {
    let mut count = 0;
    let mut prev_blank = true;
    for line in bytes.split(|b| *b == b'\n') {
        if prev_blank && line.starts_with(b"From ") {
            count += 1;
        }
        prev_blank = line.iter().all(|b| *b == b'\r');
    }
    count
}

/// True when the first 8 KiB open with a header block holding a decisive header.
fn header_block(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(8192)]);
    let mut decisive = false;
    for (i, line) in head.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            break;
        }
        if i == 0 && line.starts_with("From ") || line.starts_with([' ', '\t']) {
            continue;
        }
        let Some((name, _)) = line.split_once(':') else { return false };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return false;
        }
        decisive |= DECISIVE.contains(&name.to_ascii_lowercase().as_str());
    }
    decisive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_decides_before_the_extension() {
        let eml = b"From: a@b.c\r\nSubject: hi\r\n\r\nbody";
        let mbox = b"From a@b Mon Jan 1\nSubject: 1\n\nx\n\nFrom c@d Tue Jan 2\nSubject: 2\n\ny\n";
        let cases: &[(&str, &[u8], Option<Format>)] = &[
            ("/x.txt", eml, Some(Format::Eml)),
            ("/x.eml", b"hello world", Some(Format::Eml)),
            ("/x.txt", b"hello world", None),
            ("/x.txt", b"Key: value\n\nnot mail", None),
            ("/x.eml", mbox, Some(Format::Mbox)),
            ("/x.mbox", b"From a@b Mon\nFrom: a@b.c\n\nx", Some(Format::Mbox)),
            // A legacy Office file shares the OLE signature: never mail, whatever its name.
            ("/x.msg", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1rest-of-a-doc", None),
        ];
        for (path, bytes, want) in cases {
            assert_eq!(detect(path, bytes), *want, "{path}");
        }
    }
}
