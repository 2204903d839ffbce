//! Shared formatting: byte sizes, counts, timestamps, line clipping, the response caps and the
//! base64 decoder behind `write_file`'s `encoding: "base64"`.

/// Longest line a response shows before clipping it.
pub const LINE_CLIP: usize = 2000;

/// `512B`, `1.5KB`, `3.2MB` (1024-based, one decimal).
pub fn fmt_bytes(n: u64) -> String {
    if n < 1024 {
        format!("{n}B")
    } else if n < 1024 * 1024 {
        format!("{:.1}KB", n as f64 / 1024.0)
    } else {
        format!("{:.1}MB", n as f64 / (1024.0 * 1024.0))
    }
}

/// A count with thousands separators (`12,345`).
pub fn fmt_count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// An ISO-8601 UTC timestamp (`2025-01-31T12:00:00.000Z`) for milliseconds since the epoch.
pub fn iso(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from a day count (Howard Hinnant's algorithm, restated).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Clips one line to [`LINE_CLIP`] characters, saying how much was cut.
pub fn clip_line(line: &str) -> (String, bool) {
    let count = line.chars().count();
    if count <= LINE_CLIP {
        return (line.to_owned(), false);
    }
    let head: String = line.chars().take(LINE_CLIP).collect();
    (format!("{head}… [+{} chars]", count - LINE_CLIP), true)
}

/// Shortest run of one character [`collapse_runs`] folds.
pub const RUN_MIN: usize = 40;

/// What [`collapse_runs`] folded.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Collapsed {
    /// Runs folded.
    pub runs: usize,
    /// Characters they held.
    pub chars: usize,
}

impl Collapsed {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: Collapsed) {
        self.runs += other.runs;
        self.chars += other.chars;
    }

    /// The note a reply carries when anything was folded: how many, and how to get them raw.
    pub fn note(&self) -> Option<String> {
        (self.runs > 0).then(|| {
            format!(
                "({} run{} of one repeated character ({} chars in all) shown as [count × 'c']; pass raw: true for the exact text)",
                fmt_count(self.runs),
                if self.runs == 1 { "" } else { "s" },
                fmt_count(self.chars)
            )
        })
    }
}

/// The marker a folded run is shown as: `[1,200 × '#']`.
pub fn run_marker(c: char, n: usize) -> String {
    format!("[{} × {c:?}]", fmt_count(n))
}

/// Folds every run of [`RUN_MIN`] or more of one character (line breaks excepted) into a
/// [`run_marker`], so a line of `#####` padding costs a few bytes of a reply, not a page.
pub fn collapse_runs(text: &str) -> (String, Collapsed) {
    let mut out = String::with_capacity(text.len().min(4096));
    let mut folded = Collapsed::default();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut n = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            n += 1;
        }
        if n >= RUN_MIN && c != '\n' && c != '\r' {
            out.push_str(&run_marker(c, n));
            folded.add(Collapsed { runs: 1, chars: n });
        } else {
            out.extend(std::iter::repeat_n(c, n));
        }
    }
    (out, folded)
}

/// The result of fitting text into a response budget.
pub struct Fitted {
    /// The kept text.
    pub text: String,
    /// True when lines were dropped or clipped.
    pub truncated: bool,
    /// Lines in the input.
    pub total: usize,
    /// Lines kept.
    pub shown: usize,
    /// Kept lines that were clipped at [`LINE_CLIP`] characters.
    pub clipped_lines: usize,
    /// Characters cut from the clipped lines.
    pub clipped_chars: usize,
}

impl Fitted {
    /// What was cut, in words: `3 more lines`, `1 line clipped (48,211 chars cut)`, or both —
    /// never "0 more lines".
    pub fn cut(&self) -> String {
        let more = self.total - self.shown;
        let mut parts = Vec::new();
        if more > 0 {
            parts.push(format!("{} more line{}", fmt_count(more), if more == 1 { "" } else { "s" }));
        }
        if self.clipped_lines > 0 {
            parts.push(format!(
                "{} line{} clipped at {} chars ({} chars cut)",
                fmt_count(self.clipped_lines),
                if self.clipped_lines == 1 { "" } else { "s" },
                fmt_count(LINE_CLIP),
                fmt_count(self.clipped_chars)
            ));
        }
        parts.join(" and ")
    }
}

/// Keeps whole lines while both the line budget and the character budget allow.
pub fn fit(text: &str, max_lines: usize, max_chars: usize) -> Fitted {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut kept = Vec::new();
    let mut chars = 0;
    let mut truncated = false;
    let (mut clipped_lines, mut clipped_chars) = (0, 0);
    for raw in &lines {
        let (line, clipped) = clip_line(raw);
        let len = line.chars().count() + 1;
        if kept.len() >= max_lines || chars + len > max_chars + 1 {
            truncated = true;
            break;
        }
        if clipped {
            truncated = true;
            clipped_lines += 1;
            clipped_chars += raw.chars().count() - LINE_CLIP;
        }
        chars += len;
        kept.push(line);
    }
    let shown = kept.len();
    Fitted { text: kept.join("\n"), truncated, total: lines.len(), shown, clipped_lines, clipped_chars }
}

/// True when the first 8 KiB hold a NUL byte.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|b| *b == 0)
}

/// Decodes standard base64 (whitespace ignored); `None` when it is not valid base64.
pub fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !clean.len().is_multiple_of(4) {
        return None;
    }
    let pad = clean.iter().rev().take_while(|b| **b == b'=').count();
    if pad > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for (ci, chunk) in clean.chunks(4).enumerate() {
        let last = ci == clean.len() / 4 - 1;
        let mut n = 0u32;
        for (i, b) in chunk.iter().enumerate() {
            let v = match b {
                b'A'..=b'Z' => b - b'A',
                b'a'..=b'z' => b - b'a' + 26,
                b'0'..=b'9' => b - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' if last && i >= 4 - pad => 0,
                _ => return None,
            };
            n = (n << 6) | u32::from(v);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = if last { 3 - pad } else { 3 };
        out.extend_from_slice(&bytes[..keep]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_codecs() {
        for (n, want) in [(0, "0B"), (1023, "1023B"), (1536, "1.5KB"), (4 * 1024 * 1024, "4.0MB")] {
            assert_eq!(fmt_bytes(n), want);
        }
        for (n, want) in [(5, "5"), (1234, "1,234"), (1_234_567, "1,234,567")] {
            assert_eq!(fmt_count(n), want);
        }
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(951_782_400_123), "2000-02-29T00:00:00.123Z");
        for (text, raw) in [
            ("", &b""[..]),
            ("YQ==", b"a"),
            ("YWI=", b"ab"),
            ("YWJj", b"abc"),
            ("aGVs\nbG8=", b"hello"),
            ("iVBORw0KGgo=", b"\x89PNG\r\n\x1a\n"),
        ] {
            assert_eq!(b64_decode(text).as_deref(), Some(raw));
        }
        assert!(b64_decode("not base64!").is_none());
        assert!(b64_decode("abc").is_none());
    }
}
