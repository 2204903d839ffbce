//! `read_file`: numbered lines, a page at a time, with an explicit tail naming the next slice —
//! or, for a file whose lines are too long to page by line (a one-line spill file, a minified
//! JSON), a window of bytes from `start_byte`. Both fold long runs of one character (40 or more
//! `#` or spaces, the padding of a wide CSV) into a marker `[1,200 × '#']` with a note, so such a
//! file reads in one call instead of six lines a page; `raw: true` shows the exact text.

use folio_vfs::{Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{Collapsed, LINE_CLIP, RUN_MIN, collapse_runs, fit, fmt_bytes, fmt_count, run_marker};
use folio_kinds::text::{Decoded, Encoding, LineEnding, decode};

/// Tool description of `read_file`.
pub const READ_DOC: &str = "Read a text file with line numbers. Large files come a page at a time; the reply says which `start_line` continues. A file with very long lines (a one-line spill file, minified JSON) pages by bytes instead: `start_byte` (0-based, counted in the text as UTF-8) and `max_bytes` (at most one reply, 8,192 by default) — the reply names the next `start_byte`. Give lines or bytes, not both. Runs of 40 or more of one character (`#####`, spaces) are shown as [count × 'c'] with a note; `raw: true` shows them as they are. Binary files are refused — use `describe`.";

/// Arguments of `read_file`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadArgs {
    /// The file to read.
    pub path: String,
    /// First line to show (1-based, default 1).
    pub start_line: Option<u64>,
    /// Last line to show (inclusive, default: as far as the page allows).
    pub end_line: Option<u64>,
    /// Page by bytes instead of lines: the first byte to show (0-based, counted in the text as
    /// UTF-8; moved back to the start of its character).
    pub start_byte: Option<u64>,
    /// With `start_byte`: bytes to show at most (default and maximum: one reply, 8,192).
    pub max_bytes: Option<u64>,
    /// Show runs of one repeated character as they are instead of `[count × 'c']` (default false).
    pub raw: Option<bool>,
}

/// Reads a file as text for the agent: regenerates the orientation file when that is what is
/// asked for, explains a wrong `/std` path, and refuses binary content.
pub(crate) fn read_text(env: &Environment, verb: &'static str, path: &VPath) -> Result<Decoded> {
    let tree = env.tree();
    if path.as_str() == crate::orientation::PATH {
        let text = crate::orientation::build(env);
        // Persisting is a courtesy for grep and the host; a failure must not fail the read.
        let _ = tree.write(path, text.as_bytes());
        return Ok(Decoded { line_ending: LineEnding::Lf, encoding: Encoding::Utf8, text });
    }
    if tree.stat(path)?.is_none() && path.is_under(&VPath::parse("/std")?) {
        return Err(std_hint(env, path));
    }
    // The head decides binary and the size decides too large before the file is read whole.
    let size = tree.stat(path)?.map_or(0, |s| s.size);
    let head = tree.read_range(path, 0, 8192)?;
    if decode(&head).is_none() {
        return Err(EnvError::Binary { verb, path: path.clone(), size: fmt_bytes(size) });
    }
    let cap = env.gateway.limits().max_file_bytes;
    if size > cap {
        return Err(EnvError::TooLargeToRead { verb, path: path.clone(), size, cap });
    }
    let bytes = tree.read(path)?;
    decode(&bytes).ok_or_else(|| EnvError::Binary { verb, path: path.clone(), size: fmt_bytes(bytes.len() as u64) })
}

/// Explains a missing path under `/std`: a module spelled with `env:`, or a symbol mistaken for
/// a module, or a plain miss.
fn std_hint(env: &Environment, path: &VPath) -> EnvError {
    let tree = env.tree();
    let modules: Vec<String> = crate::docs::modules(env).into_iter().map(|(name, _)| name).collect();
    let Some(word) = path.segments().nth(1) else {
        return VfsError::NoSuchFile(path.clone()).into();
    };
    if modules.iter().any(|m| m == word) {
        return VfsError::NoSuchFile(path.clone()).into();
    }
    let catalogue = modules.iter().map(|m| format!("env:{m}")).collect::<Vec<_>>().join(", ");
    if let Some(bare) = word.strip_prefix("env:")
        && modules.iter().any(|m| m == bare)
    {
        return EnvError::refused(format!(
            "no such file: {path} — /std holds one directory per module, named without the \"env:\" prefix: you want /std/{bare}/index.d.ts"
        ));
    }
    let needle = format!(" {word}");
    let owners: Vec<&String> = modules
        .iter()
        .filter(|m| {
            VPath::parse(&format!("/std/{m}/index.d.ts")).ok().and_then(|p| tree.read(&p).ok()).is_some_and(|d| {
                String::from_utf8_lossy(&d).lines().any(|l| l.starts_with("export") && l.contains(&needle))
            })
        })
        .collect();
    match owners.first() {
        Some(first) => EnvError::refused(format!(
            "no module named \"{word}\" — but \"{word}\" is exported by {}. Read /std/{first}/index.d.ts, and import it as: import {{ {word} }} from 'env:{first}';",
            owners.iter().map(|m| format!("env:{m}")).collect::<Vec<_>>().join(" and ")
        )),
        None => EnvError::refused(format!(
            "no module named \"{word}\" (looked for {path}). Registered modules: {catalogue}. /std/README.md indexes them."
        )),
    }
}

/// `read_file`.
pub fn read_file(env: &Environment, args: ReadArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    if args.start_byte.is_some() && (args.start_line.is_some() || args.end_line.is_some()) {
        return Err(EnvError::refused(
            "read_file pages by lines (start_line, end_line) or by bytes (start_byte, max_bytes), not both — drop one pair",
        ));
    }
    if args.max_bytes.is_some() && args.start_byte.is_none() {
        return Err(EnvError::refused(
            "max_bytes goes with start_byte (paging by bytes) — add start_byte: 0, or page by lines with start_line/end_line",
        ));
    }
    let decoded = read_text(env, "read_file", &path)?;
    let raw = args.raw.unwrap_or(false);
    let mut out = String::new();
    if !decoded.is_plain() {
        out.push_str(&format!("({path}: {})\n", decoded.note()));
    }
    match args.start_byte {
        Some(start) => by_bytes(env, &path, &decoded.text, start, args.max_bytes, raw, out),
        None => by_lines(env, &path, &decoded, &args, raw, out),
    }
}

/// Numbered lines from `start_line`, a page at a time.
fn by_lines(
    env: &Environment,
    path: &VPath,
    decoded: &Decoded,
    args: &ReadArgs,
    raw: bool,
    mut out: String,
) -> Result<Reply> {
    let text = decoded.text.as_str();
    let lines = decoded.lines();
    let total = lines.len();
    let page = env.gateway.limits().max_tool_response_lines.max(1);
    let start = args.start_line.unwrap_or(1).max(1) as usize;
    if start > total {
        return Err(EnvError::refused(format!(
            "start_line {start} is past the end of {path} ({} lines) — read from start_line=1, or a start_line up to {total}",
            fmt_count(total)
        )));
    }
    let requested_end = args.end_line.map_or(total, |e| e as usize);
    if requested_end < start {
        return Err(EnvError::refused(format!(
            "end_line {requested_end} is before start_line {start} — give an end_line of at least {start}"
        )));
    }
    let mut end = requested_end.min(total).min(start + page - 1);
    let width = end.to_string().len();
    let mut folded = Vec::with_capacity(end - start + 1);
    let shown: Vec<String> = (start..=end)
        .map(|n| {
            let (line, f) =
                if raw { (lines[n - 1].to_owned(), Collapsed::default()) } else { collapse_runs(lines[n - 1]) };
            folded.push(f);
            format!("{n:>width$}\t{line}")
        })
        .collect();
    let fitted = fit(&shown.join("\n"), usize::MAX, env.gateway.limits().max_tool_response_bytes);
    if fitted.shown < end - start + 1 {
        end = start + fitted.shown.max(1) - 1;
    }
    let mut collapsed = Collapsed::default();
    folded.iter().take(end - start + 1).for_each(|f| collapsed.add(*f));
    if end < total || start > 1 {
        out.push_str(&format!(
            "showing lines {}–{} of {} ({path})\n",
            fmt_count(start),
            fmt_count(end),
            fmt_count(total)
        ));
    }
    if let Some(note) = collapsed.note() {
        out.push_str(&note);
        out.push('\n');
    }
    out.push_str(&fitted.text);
    if end < requested_end && end < total {
        out.push_str(&format!("\n… [{} more lines — slice with start_line={}]", fmt_count(total - end), end + 1));
    }
    // A line clipped at LINE_CLIP chars is read on by bytes, from where it starts.
    if let Some(n) = (start..=end).find(|&n| shown[n - start].chars().count() > LINE_CLIP + width + 1) {
        let at = lines[n - 1].as_ptr() as usize - text.as_ptr() as usize;
        out.push_str(&format!(
            "\n… [line {n} is {} long and clipped at {} chars — read it by bytes: start_byte={at}]",
            fmt_bytes(lines[n - 1].len() as u64),
            fmt_count(LINE_CLIP)
        ));
    }
    Ok(Reply::text(out))
}

/// A window of the text from byte `start`, within one reply.
fn by_bytes(
    env: &Environment,
    path: &VPath,
    text: &str,
    start: u64,
    max_bytes: Option<u64>,
    raw: bool,
    mut out: String,
) -> Result<Reply> {
    let total = text.len();
    let page = env.gateway.limits().max_tool_response_bytes.max(256);
    if start as usize >= total && !(start == 0 && total == 0) {
        return Err(EnvError::refused(format!(
            "start_byte {start} is past the end of {path} ({} bytes of text) — give a start_byte below {total}",
            fmt_count(total)
        )));
    }
    let asked = max_bytes.map_or(page, |m| usize::try_from(m).unwrap_or(usize::MAX));
    if asked == 0 {
        return Err(EnvError::refused(
            "max_bytes 0 shows nothing — give at least 1 (at most one reply, 8,192 by default)",
        ));
    }
    let budget = asked.min(page);
    let mut from = start as usize;
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let (shown, end, collapsed) = window(text, from, budget, raw);
    let line = folio_kinds::text::split_lines(&text[..from]).len();
    out.push_str(&format!(
        "showing bytes {}–{} of {} ({path}; byte {} is on line {})",
        fmt_count(from),
        fmt_count(end),
        fmt_count(total),
        fmt_count(from),
        fmt_count(line)
    ));
    if asked > page {
        out.push_str(&format!(" — max_bytes {} is over one reply; showing {}", fmt_count(asked), fmt_count(page)));
    }
    out.push('\n');
    if let Some(note) = collapsed.note() {
        out.push_str(&note);
        out.push('\n');
    }
    out.push_str(&shown);
    if end < total {
        out.push_str(&format!("\n… [{} more bytes — continue with start_byte={end}]", fmt_count(total - end)));
    }
    Ok(Reply::text(out))
}

/// The text from byte `start` that fits `budget` bytes of reply (runs of one character folded
/// unless `raw`), where it ends, and what was folded. Always shows at least one character.
fn window(text: &str, start: usize, budget: usize, raw: bool) -> (String, usize, Collapsed) {
    let mut out = String::new();
    let mut folded = Collapsed::default();
    let rest = &text[start..];
    let mut iter = rest.char_indices().peekable();
    let mut end = start;
    while let Some((i, c)) = iter.next() {
        let mut n = 1;
        let mut after = i + c.len_utf8();
        if !raw {
            while let Some(&(j, d)) = iter.peek() {
                if d != c {
                    break;
                }
                iter.next();
                n += 1;
                after = j + d.len_utf8();
            }
        }
        if !raw && n >= RUN_MIN && c != '\n' && c != '\r' {
            let marker = run_marker(c, n);
            if !out.is_empty() && out.len() + marker.len() > budget {
                break;
            }
            out.push_str(&marker);
            folded.add(Collapsed { runs: 1, chars: n });
            end = start + after;
            continue;
        }
        for _ in 0..n {
            if !out.is_empty() && out.len() + c.len_utf8() > budget {
                return (out, end, folded);
            }
            out.push(c);
            end += c.len_utf8();
        }
    }
    (out, end, folded)
}
