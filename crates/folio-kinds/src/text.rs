//! Text as it really arrives: which encoding and which line ending a file uses, and its text.
//!
//! [`decode`] reads, in this order: a byte-order mark (UTF-8, UTF-16 LE/BE — Excel's "Unicode
//! Text" is UTF-16 LE with a BOM); a NUL in the first 8 KiB without a BOM means binary, as
//! before; valid UTF-8; and otherwise a legacy 8-bit code page — Windows-1252 when a byte in
//! 0x80–0x9F is one of its printable characters (`€`, curly quotes, `…`), ISO-8859-1 (latin-1)
//! otherwise. A legacy file whose head is more than 1 % control characters is binary. The line
//! ending is counted, not guessed: LF, CRLF, CR (old Mac exports) or mixed.
//!
//! No dependency: UTF-16 is `char::decode_utf16` (a BOM alone or an odd byte count is not UTF-16), latin-1 is the identity on code points, and
//! Windows-1252 differs from it in one 32-entry table.

/// An encoding [`decode`] recognises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a BOM.
    Utf8,
    /// UTF-8 with a BOM (the BOM is not part of the text).
    Utf8Bom,
    /// UTF-16 little-endian with a BOM.
    Utf16Le,
    /// UTF-16 big-endian with a BOM.
    Utf16Be,
    /// Windows-1252.
    Windows1252,
    /// ISO-8859-1.
    Latin1,
}

impl Encoding {
    /// How replies name it (`utf-16le (BOM)`).
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8 (BOM)",
            Encoding::Utf16Le => "utf-16le (BOM)",
            Encoding::Utf16Be => "utf-16be (BOM)",
            Encoding::Windows1252 => "windows-1252",
            Encoding::Latin1 => "iso-8859-1 (latin-1)",
        }
    }
}

/// The line ending a text uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n`.
    Lf,
    /// `\r\n`.
    CrLf,
    /// `\r` alone (classic Mac).
    Cr,
    /// More than one kind.
    Mixed,
    /// No line break at all.
    None,
}

impl LineEnding {
    /// How replies name it.
    pub fn name(self) -> &'static str {
        match self {
            LineEnding::Lf => "LF",
            LineEnding::CrLf => "CRLF",
            LineEnding::Cr => "CR",
            LineEnding::Mixed => "mixed",
            LineEnding::None => "none",
        }
    }
}

/// A file read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    /// The text (without a BOM, line endings as stored).
    pub text: String,
    /// The encoding it was in.
    pub encoding: Encoding,
    /// The line ending it uses.
    pub line_ending: LineEnding,
}

impl Decoded {
    /// True for plain UTF-8 with LF (or no) line endings: nothing worth saying about it.
    pub fn is_plain(&self) -> bool {
        self.encoding == Encoding::Utf8 && matches!(self.line_ending, LineEnding::Lf | LineEnding::None)
    }

    /// `encoding: utf-16le (BOM), line endings: CR`.
    pub fn note(&self) -> String {
        format!("encoding: {}, line endings: {}", self.encoding.name(), self.line_ending.name())
    }

    /// The lines, split at CRLF, CR or LF alike (a final line ending ends the last line, as
    /// `str::lines` does, but an empty text is one empty line).
    pub fn lines(&self) -> Vec<&str> {
        split_lines(&self.text)
    }
}

/// Splits at CRLF, CR or LF; a trailing break yields a final empty line (as `split('\n')` does,
/// which the line-numbered readers rely on).
pub fn split_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            b'\r' => {
                out.push(&text[start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

/// Windows-1252's characters for 0x80–0x9F (`None`: undefined, decoded as the C1 control).
const CP1252: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

/// How much of the head decides binary.
const HEAD: usize = 8192;

fn line_ending(text: &str) -> LineEnding {
    let (mut lf, mut crlf, mut cr) = (0usize, 0usize, 0usize);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
            }
            b'\r' => cr += 1,
            b'\n' => lf += 1,
            _ => {}
        }
        i += 1;
    }
    match (lf > 0, crlf > 0, cr > 0) {
        (false, false, false) => LineEnding::None,
        (true, false, false) => LineEnding::Lf,
        (false, true, false) => LineEnding::CrLf,
        (false, false, true) => LineEnding::Cr,
        _ => LineEnding::Mixed,
    }
}

fn utf16(bytes: &[u8], little: bool) -> Option<String> {
    // A BOM alone, or an odd number of bytes after it, is no evidence of UTF-16 text.
    if bytes.is_empty() || bytes.len() % 2 == 1 {
        return None;
    }
    let units = bytes.chunks(2).map(|c| {
        let pair = [c[0], *c.get(1).unwrap_or(&0)];
        if little { u16::from_le_bytes(pair) } else { u16::from_be_bytes(pair) }
    });
    let text: String = char::decode_utf16(units).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
    // A BOM followed by NULs is not text (UTF-32, or binary that happens to start FF FE).
    (!text.chars().take(HEAD).any(|c| c == '\0')).then_some(text)
}

/// True when more than 1 % of the head is control bytes no text file holds.
fn mostly_controls(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(HEAD)];
    let odd = head.iter().filter(|b| **b < 0x20 && !matches!(**b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a | 0x1b)).count();
    odd * 100 > head.len()
}

/// Reads `bytes` as text, or `None` when they are binary (see the module essay).
pub fn decode(bytes: &[u8]) -> Option<Decoded> {
    let (text, encoding) = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        (String::from_utf8_lossy(rest).into_owned(), Encoding::Utf8Bom)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFF\xFE") {
        (utf16(rest, true)?, Encoding::Utf16Le)
    } else if let Some(rest) = bytes.strip_prefix(b"\xFE\xFF") {
        (utf16(rest, false)?, Encoding::Utf16Be)
    } else if bytes.iter().take(HEAD).any(|b| *b == 0) {
        return None;
    } else if let Ok(s) = std::str::from_utf8(bytes) {
        (s.to_owned(), Encoding::Utf8)
    } else {
        if mostly_controls(bytes) {
            return None;
        }
        let cp1252 = bytes.iter().any(|b| (0x80..0xA0).contains(b) && CP1252[usize::from(b - 0x80)].is_some());
        let text = bytes
            .iter()
            .map(|&b| match b {
                0x80..=0x9F if cp1252 => CP1252[usize::from(b - 0x80)].unwrap_or(char::from(b)),
                _ => char::from(b),
            })
            .collect();
        (text, if cp1252 { Encoding::Windows1252 } else { Encoding::Latin1 })
    };
    let line_ending = line_ending(&text);
    Some(Decoded { text, encoding, line_ending })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str) -> Vec<u8> {
        let mut out = vec![0xFF, 0xFE];
        out.extend(s.encode_utf16().flat_map(u16::to_le_bytes));
        out
    }

    fn utf16be(s: &str) -> Vec<u8> {
        let mut out = vec![0xFE, 0xFF];
        out.extend(s.encode_utf16().flat_map(u16::to_be_bytes));
        out
    }

    /// `(bytes, Some((text, encoding, line ending)))`, or `None` for binary.
    fn check(bytes: &[u8], expect: Option<(&str, &str, &str)>) {
        let got = decode(bytes).map(|d| (d.text.clone(), d.encoding.name(), d.line_ending.name()));
        let want = expect.map(|(t, e, l)| (t.to_owned(), e, l));
        assert_eq!(got, want, "{bytes:02x?}");
    }

    #[test]
    fn encodings_and_line_endings_are_named() {
        check(b"a,b\n1,2\n", Some(("a,b\n1,2\n", "utf-8", "LF")));
        check(b"one line", Some(("one line", "utf-8", "none")));
        check(b"\xEF\xBB\xBFname\r\nJos\xC3\xA9\r\n", Some(("name\r\nJosé\r\n", "utf-8 (BOM)", "CRLF")));
        check(&utf16le("a\tשלום\r\n1\t2\r\n"), Some(("a\tשלום\r\n1\t2\r\n", "utf-16le (BOM)", "CRLF")));
        check(&utf16be("x\ry\r"), Some(("x\ry\r", "utf-16be (BOM)", "CR")));
        check(b"caf\xE9\r\nna\xEFve\r\n", Some(("café\r\nnaïve\r\n", "iso-8859-1 (latin-1)", "CRLF")));
        check(b"\x93quoted\x94 \x80 5\x85\n", Some(("“quoted” € 5…\n", "windows-1252", "LF")));
        check(b"a\rb\nc\r\n", Some(("a\rb\nc\r\n", "utf-8", "mixed")));
        check(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", None);
        check(b"\x01\x02\x03\x04\x05\x06\x07\x08\xff\xfe", None);
        check(b"\xFF\xFE\0\0\0\0\0\0", None);
        check(b"\xFF\xFE", None);
        check(b"\xFF\xFEA\0B", None);
    }

    #[test]
    fn lines_split_at_every_ending() {
        assert_eq!(split_lines("a\rb\r\nc\nd"), ["a", "b", "c", "d"]);
        assert_eq!(split_lines("a\r"), ["a", ""]);
        assert_eq!(split_lines(""), [""]);
        let rows: String = (0..1800).map(|i| format!("{i},x\r")).collect();
        assert_eq!(split_lines(&rows).len(), 1801);
    }
}
