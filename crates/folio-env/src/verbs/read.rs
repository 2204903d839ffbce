//! `read_file`: numbered lines, a page at a time, with an explicit tail naming the next slice.

use folio_vfs::{Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{fit, fmt_bytes, fmt_count};
use folio_kinds::text::{Decoded, Encoding, LineEnding, decode};

/// Tool description of `read_file`.
pub const READ_DOC: &str = "Read a text file with line numbers. Large files come a page at a time; the reply says which `start_line` continues. Binary files are refused — use `describe`.";

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
    let decoded = read_text(env, "read_file", &path)?;
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
    let body: String = (start..=end).map(|n| format!("{n:>width$}\t{}", lines[n - 1])).collect::<Vec<_>>().join("\n");
    let fitted = fit(&body, usize::MAX, env.gateway.limits().max_tool_response_bytes);
    if fitted.shown < end - start + 1 {
        end = start + fitted.shown.max(1) - 1;
    }
    let mut out = String::new();
    if !decoded.is_plain() {
        out.push_str(&format!("({path}: {})\n", decoded.note()));
    }
    if end < total || start > 1 {
        out.push_str(&format!(
            "showing lines {}–{} of {} ({path})\n",
            fmt_count(start),
            fmt_count(end),
            fmt_count(total)
        ));
    }
    out.push_str(&fitted.text);
    if end < requested_end && end < total {
        out.push_str(&format!("\n… [{} more lines — slice with start_line={}]", fmt_count(total - end), end + 1));
    }
    Ok(Reply::text(out))
}
