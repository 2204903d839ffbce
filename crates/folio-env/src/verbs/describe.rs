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
            json!({"path": path, "kind": "directory", "entries": entries.len(), "files": entries.len() - dirs, "directories": dirs})
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
            match crate::seams::claim(&env.opts.handlers, &path, &head) {
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
                        let names: Vec<String> =
                            env.opts.handlers.iter().map(|h| format!("env:{}", h.module())).collect();
                        generic["note"] = json!(if names.is_empty() {
                            "no registered module claims this file".to_owned()
                        } else {
                            format!("no registered module claims this file — registered handlers: {}", names.join(", "))
                        });
                    }
                    generic
                }
            }
        }
    };
    let text = serde_json::to_string_pretty(&summary).unwrap_or_default();
    Ok(Reply { text, data: summary })
}
