//! `ls`: the tree with sizes, where scripts carry their JSDoc one-liner (so `ls /scripts` is the
//! capability catalogue) and files a module claims say how to open them (and what a handler says of them in a few words:
//! a message's sender and subject).

use folio_vfs::{Kind, Tree, VPath, VfsError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::Result;
use crate::format::{fit, fmt_bytes};

/// Tool description of `ls`.
pub const LS_DOC: &str = "List a directory (default /) with file sizes; `depth` (1–10) recurses. Scripts show their one-line description, /std entries show what each module does.";

/// Arguments of `ls`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LsArgs {
    /// The directory (or file) to list; default /.
    pub path: Option<String>,
    /// How many levels to show, 1 to 10 (default 1).
    pub depth: Option<u64>,
}

/// The note `ls` prints after an entry, if any.
fn describe_entry(env: &Environment, path: &VPath, kind: Kind) -> Option<String> {
    let tree = env.tree();
    if kind == Kind::Dir {
        if path.parent().is_some_and(|p| p.as_str() == "/std") {
            return crate::docs::module_description(env, path.name());
        }
        return None;
    }
    let scripts = VPath::parse("/scripts").ok()?;
    let lib = VPath::parse("/scripts/lib").ok()?;
    if path.is_under(&scripts) && !path.is_under(&lib) && path.extension() == Some("js") {
        let summary = crate::scripts::script_summary(tree, path);
        if path.name().ends_with(".test.js") {
            return Some(summary.map_or_else(|| "[test]".to_owned(), |s| format!("[test] {s}")));
        }
        return summary;
    }
    if env.opts.handlers.is_empty() {
        return None;
    }
    // Only the head: a listing must not read every file it names.
    let head = tree.read_range(path, 0, 64).ok()?;
    let handler = crate::seams::claim(&env.opts.handlers, path, &head)?;
    let size = tree.stat(path).ok().flatten().map_or(0, |s| s.size);
    Some(match handler.listing(path, size, &|| tree.read(path).ok()) {
        Some(said) => format!("{said} — open with env:{}", handler.module()),
        None => format!("open with env:{}", handler.module()),
    })
}

/// `ls`.
pub fn ls(env: &Environment, args: LsArgs) -> Result<Reply> {
    let raw = args.path.unwrap_or_else(|| "/".to_owned());
    let root = VPath::parse(&raw)?;
    let depth = args.depth.unwrap_or(1).clamp(1, 10) as usize;
    let tree = env.tree();
    let line = |path: &VPath, kind: Kind, size: u64, level: usize| {
        let indent = "  ".repeat(level);
        let name = if kind == Kind::Dir {
            format!("{}/", path.name())
        } else {
            format!("{} ({})", path.name(), fmt_bytes(size))
        };
        match describe_entry(env, path, kind) {
            Some(note) => format!("{indent}{name} — {note}"),
            None => format!("{indent}{name}"),
        }
    };
    let mut lines = Vec::new();
    match tree.stat(&root)? {
        None => return Err(VfsError::NoSuchEntry(root).into()),
        Some(s) if s.kind == Kind::File => lines.push(line(&root, Kind::File, s.size, 0)),
        Some(_) => {
            let mut ordered = Vec::new();
            walk(tree, &root, 0, depth, &mut ordered)?;
            for (entry, kind, size, level) in ordered {
                lines.push(match entry {
                    Ok(path) => line(&path, kind, size, level),
                    Err(name) => format!(
                        "{}{name:?} — its name has control characters, so no path reaches it — hint: rename it outside Folio",
                        "  ".repeat(level)
                    ),
                });
            }
        }
    }
    if lines.is_empty() {
        return Ok(Reply::text(format!("{raw} is empty")));
    }
    let limits = env.gateway.limits();
    let body = lines.join("\n");
    let fitted = fit(&body, limits.max_tool_response_lines, limits.max_tool_response_bytes);
    let mut out = format!("{raw}\n{}", fitted.text);
    if fitted.shown < fitted.total {
        out.push_str(&format!(
            "\n… [{} more entries — list a subdirectory or lower depth]",
            fitted.total - fitted.shown
        ));
    }
    Ok(Reply::text(out))
}

/// One listed entry: its path, or (`Err`) the name of an entry no path can hold (a control
/// character in a name on disk), which is listed with a fix rather than failing the listing.
type Listed = (std::result::Result<VPath, String>, Kind, u64, usize);

fn walk(tree: &dyn Tree, dir: &VPath, level: usize, depth: usize, out: &mut Vec<Listed>) -> Result<()> {
    for e in tree.list(dir)? {
        let Ok(child) = dir.join(&e.name) else {
            out.push((Err(e.name), e.kind, e.size, level));
            continue;
        };
        out.push((Ok(child.clone()), e.kind, e.size, level));
        if e.kind == Kind::Dir && level + 1 < depth {
            walk(tree, &child, level + 1, depth, out)?;
        }
    }
    Ok(())
}
