//! `write_file` and `edit_file`.

use folio_vfs::{Kind, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{b64_decode, fmt_bytes, is_binary};
use crate::gateway::WriteMode;

/// Tool description of `write_file`.
pub const WRITE_DOC: &str = "Create or replace a file (parent directories are created for you). `append: true` adds to the end instead. Binary content: pass base64 with `encoding: \"base64\"`. Every write can be undone with `undo`.";
/// Tool description of `edit_file`.
pub const EDIT_DOC: &str = "Replace one exact piece of text in a file. `old_str` must occur exactly once — include enough surrounding text to make it unique. Undo with `undo`.";

/// Arguments of `write_file`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteArgs {
    /// Absolute path of the file, e.g. /out/report.md.
    pub path: String,
    /// The text to store (base64 when `encoding` is "base64").
    #[schemars(with = "String")]
    pub content: Value,
    /// Add to the end of the file instead of replacing it.
    #[serde(default)]
    pub append: bool,
    /// "utf8" (the default) or "base64".
    pub encoding: Option<String>,
}

/// Arguments of `edit_file`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EditArgs {
    /// The file to edit.
    pub path: String,
    /// The exact text to replace; it must occur exactly once.
    pub old_str: String,
    /// The replacement text.
    pub new_str: String,
}

/// `write_file`.
pub fn write_file(env: &Environment, args: WriteArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let text = match &args.content {
        Value::String(s) => s,
        other => {
            let kind = match other {
                Value::Object(_) => "an object",
                Value::Array(_) => "an array",
                Value::Null => "null",
                Value::Bool(_) => "a boolean",
                _ => "a number",
            };
            return Err(EnvError::args(
                "write_file",
                format!(
                    "content must be a string, got {kind}. Serialize it first — content: JSON.stringify(value, null, 2) — or pass base64 with encoding: \"base64\""
                ),
            ));
        }
    };
    let bytes = match args.encoding.as_deref() {
        None | Some("utf8") | Some("utf-8") => text.as_bytes().to_vec(),
        Some("base64") => b64_decode(text).ok_or_else(|| {
            EnvError::args(
                "write_file",
                format!("content is not valid base64, so {path} was not written rather than half-decoded — check for a truncated string or a data: prefix"),
            )
        })?,
        Some(other) => {
            return Err(EnvError::args("write_file", format!("encoding must be \"utf8\" or \"base64\", got \"{other}\"")));
        }
    };
    let mode = if args.append { WriteMode::Append } else { WriteMode::Replace };
    let written = env.gateway.write_checked(&path, &bytes, mode, None)?;
    let verb = match (written.created, args.append) {
        (true, _) => "created",
        (false, true) => "appended to",
        (false, false) => "wrote",
    };
    let text = format!("{verb} {path} ({})", fmt_bytes(written.size));
    Ok(Reply::text(with_script_note(text, written.script.as_ref())))
}

/// Appends what the script pipeline did to a success text: " — .d.ts regenerated" for a script
/// that has one, " — validated; run it with run_tests" for a test, then the JSDoc nudge.
pub(crate) fn with_script_note(mut text: String, check: Option<&crate::gateway::ScriptCheck>) -> String {
    let Some(check) = check else { return text };
    if check.dts.is_some() {
        text.push_str(" — .d.ts regenerated");
    } else if check.test {
        text.push_str(" — validated; run it with run_tests");
    }
    if let Some(nudge) = &check.nudge {
        text.push('\n');
        text.push_str(nudge);
    }
    text
}

/// How many times `edit_file` prepares its change before giving up on a file that keeps being
/// rewritten underneath it.
pub const EDIT_ATTEMPTS: usize = 3;

/// `edit_file`: reads the file, replaces the one occurrence of `old_str`, and commits only if the
/// file still holds what was read (see [`crate::Gateway::commit_edit`]); otherwise it starts over,
/// up to [`EDIT_ATTEMPTS`] times.
pub fn edit_file(env: &Environment, args: EditArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    env.gateway.check(&path, "edit")?;
    if args.old_str.is_empty() {
        return Err(EnvError::args(
            "edit_file",
            "old_str must be non-empty — to add text, write_file with append: true, or replace a neighbouring line",
        ));
    }
    for _ in 0..EDIT_ATTEMPTS {
        let (bytes, updated) = prepare_edit(env, &path, &args)?;
        if let Some(w) = env.gateway.commit_edit(&path, &bytes, &updated)? {
            let text = format!("edited {path} (1 replacement, now {})", fmt_bytes(w.size));
            return Ok(Reply::text(with_script_note(text, w.script.as_ref())));
        }
    }
    Err(EnvError::refused(format!(
        "could not edit {path}: it was rewritten by something else {EDIT_ATTEMPTS} times while this edit was being prepared. Read it again and reapply the change against its current contents."
    )))
}

/// Reads `path` and applies the edit to it; returns the bytes read and the edited bytes. The
/// match is made on the file's bytes, so a file that is not valid UTF-8 (a Latin-1 CSV) keeps
/// every byte outside the replaced text — decoding it first would turn each of them into U+FFFD.
fn prepare_edit(env: &Environment, path: &VPath, args: &EditArgs) -> Result<(Vec<u8>, Vec<u8>)> {
    let tree = env.tree();
    match folio_vfs::Tree::stat(tree, path)? {
        None => return Err(VfsError::NoSuchFile(path.clone()).into()),
        Some(s) if s.kind == Kind::Dir => {
            return Err(EnvError::refused(format!("cannot edit {path}: it is a directory — name a file inside it")));
        }
        Some(_) => {}
    }
    let bytes = folio_vfs::Tree::read(tree, path)?;
    if is_binary(&bytes) {
        return Err(EnvError::Binary { verb: "edit_file", path: path.clone(), size: fmt_bytes(bytes.len() as u64) });
    }
    match occurrences(&bytes, &args.old_str) {
        (0, _) | (_, None) => Err(EnvError::refused(format!(
            "old_str not found in {path} (0 matches). Read the file and copy the exact text to replace, whitespace included."
        ))),
        (1, Some(at)) => {
            let mut updated = Vec::with_capacity(bytes.len() - args.old_str.len() + args.new_str.len());
            updated.extend_from_slice(&bytes[..at]);
            updated.extend_from_slice(args.new_str.as_bytes());
            updated.extend_from_slice(&bytes[at + args.old_str.len()..]);
            Ok((bytes, updated))
        }
        (n, _) => Err(EnvError::refused(format!(
            "old_str matches {n} times in {path}; it must match exactly once. Include more surrounding context to disambiguate."
        ))),
    }
}

/// How often `needle` occurs in `bytes` (without overlaps, as `str::matches` counts) and where
/// the first occurrence starts. Only the valid UTF-8 runs are searched: `needle` is valid UTF-8,
/// so no occurrence can include a byte that is not.
fn occurrences(bytes: &[u8], needle: &str) -> (usize, Option<usize>) {
    let (mut count, mut first, mut offset) = (0, None, 0);
    for chunk in bytes.utf8_chunks() {
        for (at, _) in chunk.valid().match_indices(needle) {
            first.get_or_insert(offset + at);
            count += 1;
        }
        offset += chunk.valid().len() + chunk.invalid().len();
    }
    (count, first)
}

#[cfg(test)]
mod tests {
    use super::occurrences;

    #[test]
    fn occurrences_are_found_in_the_bytes_and_never_in_invalid_ones() {
        type Case<'a> = (&'a [u8], &'a str, (usize, Option<usize>));
        let cases: &[Case<'_>] = &[
            (b"alpha beta", "beta", (1, Some(6))),
            (b"aaaa", "aa", (2, Some(0))),
            (b"caf\xe9 au lait", "lait", (1, Some(8))),
            (b"caf\xe9 au lait", "\u{fffd}", (0, None)),
            (b"\xff\xfeab\xc3ab", "ab", (2, Some(2))),
            (b"", "x", (0, None)),
        ];
        for (bytes, needle, want) in cases {
            assert_eq!(occurrences(bytes, needle), *want, "{needle:?} in {bytes:?}");
        }
    }
}
