//! `describe`: what a file or directory is, before reading it. A registered handler that claims
//! the file (magic bytes first, then extension) supplies the summary; otherwise a generic one.

use folio_vfs::{Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Reply;
use crate::env::Environment;
use crate::error::Result;

/// Tool description of `describe`.
pub const DESCRIBE_DOC: &str = "Summarise a file or directory as JSON before reading it: kind, size, line count and a preview for text, the leading bytes and the module that opens it for binary formats.";

/// How many of a directory's entries `describe` names.
const DIR_NAMES: usize = 50;

/// How much of a file over the size cap `describe` reads: its head.
const HEAD_BYTES: u64 = 64 * 1024;

/// Arguments of `describe`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeArgs {
    /// The file or directory.
    pub path: String,
}

/// `describe`.
pub fn describe(env: &Environment, args: DescribeArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let tree = env.tree();
    let summary = match tree.stat(&path)? {
        None => return Err(VfsError::NoSuchEntry(path).into()),
        Some(s) if s.kind == Kind::Dir => {
            let entries = tree.list(&path)?;
            let dirs = entries.iter().filter(|e| e.kind == Kind::Dir).count();
            // The entries by name (a directory with a trailing `/`), at most DIR_NAMES of them,
            // with the count of the rest and the way to see them.
            let names: Vec<String> = entries
                .iter()
                .take(DIR_NAMES)
                .map(|e| if e.kind == Kind::Dir { format!("{}/", e.name) } else { e.name.clone() })
                .collect();
            let mut out = json!({"path": path, "kind": "directory", "entries": entries.len(), "files": entries.len() - dirs, "directories": dirs, "names": names});
            if entries.len() > DIR_NAMES {
                out["names_note"] = json!(format!(
                    "first {DIR_NAMES} of {} entries named; `ls` with a glob lists the rest",
                    entries.len()
                ));
            }
            out
        }
        Some(s) if s.size > env.gateway.limits().max_file_bytes => {
            // Past the cap the file is described from its head, never read whole (a 2 GB disk
            // image would otherwise be loaded to say it is binary).
            let head = tree.read_range(&path, 0, HEAD_BYTES)?;
            let decoded = folio_kinds::text::decode(&head);
            let binary = decoded.is_none();
            let cap = env.gateway.limits().max_file_bytes;
            let mut out = json!({"path": path, "kind": "file", "bytes": s.size, "binary": binary,
                "note": format!("described from its first {HEAD_BYTES} bytes: the file is over the {cap}-byte cap a module's describe reads whole (limits.max_file_bytes)")});
            if binary {
                let lead: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
                out["head"] = json!(lead.join(" "));
                if let Some(media) = crate::media::sniff(&head) {
                    out["media_type"] = json!(media);
                }
            } else if let Some(d) = &decoded {
                let preview: String =
                    d.lines().into_iter().take(5).collect::<Vec<_>>().join("\n").chars().take(500).collect();
                out["encoding"] = json!(d.encoding.name());
                out["line_endings"] = json!(d.line_ending.name());
                out["preview"] = json!(preview);
            }
            out
        }
        Some(_) => {
            let bytes = tree.read(&path)?;
            let decoded = folio_kinds::text::decode(&bytes);
            let binary = decoded.is_none();
            let mut generic = json!({"path": path, "kind": "file", "bytes": bytes.len(), "binary": binary});
            if let Some(d) = &decoded {
                let lines = d.lines();
                let preview: String =
                    lines.iter().take(5).copied().collect::<Vec<_>>().join("\n").chars().take(500).collect();
                generic["lines"] = json!(lines.len());
                generic["encoding"] = json!(d.encoding.name());
                generic["line_endings"] = json!(d.line_ending.name());
                generic["preview"] = json!(preview);
            } else {
                let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
                generic["head"] = json!(head.join(" "));
                if let Some(media) = crate::media::sniff(&bytes) {
                    generic["media_type"] = json!(media);
                }
            }
            let head: Vec<u8> = bytes.iter().take(64).copied().collect();
            let mut summary = match crate::seams::claim(&env.opts.handlers, &path, &head) {
                Some(handler) => {
                    let module = format!("env:{}", handler.module());
                    match handler.describe(&path, &bytes) {
                        Ok(Value::Object(found)) => {
                            let mut out = json!({"path": path, "module": module});
                            for (k, v) in found {
                                out[k] = v;
                            }
                            out
                        }
                        Ok(other) => json!({"path": path, "module": module, "summary": other}),
                        Err(reason) => {
                            generic["module"] = json!(module);
                            generic["module_error"] = json!(format!("{module}.describe: {reason}"));
                            generic
                        }
                    }
                }
                None => {
                    if binary {
                        generic["note"] = json!(unclaimed_note(env));
                    }
                    generic
                }
            };
            // The other claimants may add what they know (env:ocr: this scan needs OCR, and how).
            for handler in crate::seams::claimants(&env.opts.handlers, &path, &head) {
                for (k, v) in handler.describe_more(&path, &bytes).unwrap_or_default() {
                    if summary.get(&k).is_none() {
                        summary[k] = v;
                    }
                }
            }
            summary
        }
    };
    let text = fit_summary(env, &path, &summary);
    Ok(Reply { text, data: summary })
}

/// What a binary file no module claims can still be: each module that reads files, once, with
/// the extensions it reads, and the way forward (a misnamed file gets its extension; anything
/// else is read as bytes in a script).
pub(crate) fn unclaimed_note(env: &Environment) -> String {
    let mut seen: Vec<(String, Vec<String>)> = Vec::new();
    for h in &env.opts.handlers {
        let name = format!("env:{}", h.module());
        let exts = h.extensions();
        match seen.iter_mut().find(|(n, _)| *n == name) {
            Some((_, have)) => {
                for e in exts {
                    if !have.contains(&e) {
                        have.push(e);
                    }
                }
            }
            None => seen.push((name, exts)),
        }
    }
    let read_bytes = "read its bytes in a script with `readBytes(path)` from env:fs";
    if seen.is_empty() {
        return format!("no module here reads this format — {read_bytes}");
    }
    let listed: Vec<String> = seen
        .iter()
        .map(|(n, exts)| if exts.is_empty() { n.clone() } else { format!("{n} ({})", exts.join(" ")) })
        .collect();
    format!(
        "no module here reads this format (neither its name nor its first bytes match one). The modules that read files: {}. If it is one of those formats under another name, `cp` it to a name with that extension and describe the copy; otherwise {read_bytes}",
        listed.join("; ")
    )
}

/// The summary as text within `limits.max_tool_response_bytes`: pretty JSON when it fits, else
/// compact JSON, else compact JSON with its longest arrays and strings shortened until it fits —
/// each shortening says how much it left out, and the whole summary is written to
/// `/tmp/describe-<name>.json` for `read_file` or a script.
fn fit_summary(env: &Environment, path: &VPath, summary: &Value) -> String {
    let budget = env.gateway.limits().max_tool_response_bytes.max(1000);
    let pretty = serde_json::to_string_pretty(summary).unwrap_or_default();
    if pretty.len() <= budget {
        return pretty;
    }
    let compact = summary.to_string();
    if compact.len() <= budget {
        return compact;
    }
    let safe: String = path.as_str().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let target = format!("/tmp/describe{safe}.json");
    let spilled = VPath::parse(&target)
        .map_err(crate::error::EnvError::from)
        .and_then(|p| env.gateway.write(&p, pretty.as_bytes(), crate::gateway::WriteMode::Replace, None));
    let whole = match spilled {
        Ok(_) => format!("the whole summary ({} bytes) is in {target}", pretty.len()),
        Err(e) => format!("the whole summary ({} bytes) could not be written to {target}: {e}", pretty.len()),
    };
    let mut base = summary.clone();
    if let Value::Object(map) = &mut base {
        map.insert("shortened".to_owned(), json!(format!("over the {budget}-byte reply cap (limits.max_tool_response_bytes): long lists and strings are cut, each saying how much; {whole}")));
    }
    let mut keep = 64usize;
    let mut short = shorten(&base, keep);
    while short.to_string().len() > budget && keep > 1 {
        keep /= 2;
        short = shorten(&base, keep);
    }
    let mut text = short.to_string();
    if text.len() > budget {
        let mut cut = budget.saturating_sub(120);
        while cut > 0 && !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str(&format!("… [cut at {cut} of {} bytes; {whole}]", compact.len()));
    }
    text
}

/// `value` with every array cut to its first `keep` items (plus a string naming how many more)
/// and every string to `keep * 8` characters.
fn shorten(value: &Value, keep: usize) -> Value {
    match value {
        Value::Array(items) => {
            let mut out: Vec<Value> = items.iter().take(keep.max(1)).map(|v| shorten(v, keep)).collect();
            if items.len() > out.len() {
                out.push(json!(format!("… {} more", items.len() - out.len())));
            }
            Value::Array(out)
        }
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), shorten(v, keep))).collect()),
        Value::String(s) if s.chars().count() > (keep * 8).max(40) && !s.starts_with("over the ") => {
            let n = s.chars().count();
            let head: String = s.chars().take((keep * 8).max(40)).collect();
            json!(format!("{head}… [+{} chars]", n - head.chars().count()))
        }
        other => other.clone(),
    }
}
