//! `diff`: a file now against the version `undo` would restore, or against a checkpoint. A
//! plain line LCS with three lines of context; long unchanged runs collapse to one marker line.

use folio_vfs::{Tree, VPath};
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{is_binary, iso};

/// Tool description of `diff`.
pub const DIFF_DOC: &str = "Show how a file differs from the version `undo` would bring back, or from its state in a checkpoint (`checkpoint: name`). Lines: ' ' same, '-' was, '+' is now.";

/// Arguments of `diff`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiffArgs {
    /// The file.
    pub path: String,
    /// Compare with this checkpoint instead of the undo version.
    pub checkpoint: Option<String>,
}

const MAX_LINES: usize = 4000;
const CONTEXT: usize = 3;

fn lines(text: &str) -> Vec<&str> {
    if text.is_empty() { Vec::new() } else { text.split('\n').collect() }
}

/// A line diff of `a` (before) and `b` (after), `None` when either side is too long.
pub fn line_diff(a: &[&str], b: &[&str]) -> Option<String> {
    if a.len() > MAX_LINES || b.len() > MAX_LINES {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let mut ops: Vec<(char, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', a[i]));
            i += 1;
        } else {
            ops.push(('+', b[j]));
            j += 1;
        }
    }
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, (c, _))| *c != ' ').map(|(k, _)| k).collect();
    let near = |k: usize| changed.iter().any(|&c| c.abs_diff(k) <= CONTEXT);
    let mut out = Vec::new();
    let mut skipped = 0;
    for (k, (c, line)) in ops.iter().enumerate() {
        if *c == ' ' && !near(k) {
            skipped += 1;
            continue;
        }
        if skipped > 0 {
            out.push(format!("@@ {skipped} unchanged line{} @@", if skipped == 1 { "" } else { "s" }));
            skipped = 0;
        }
        out.push(format!("{c}{line}"));
    }
    if skipped > 0 {
        out.push(format!("@@ {skipped} unchanged line{} @@", if skipped == 1 { "" } else { "s" }));
    }
    Some(out.join("\n"))
}

/// `diff`.
pub fn diff(env: &Environment, args: DiffArgs) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let tree = env.tree();
    let (before, label) = match &args.checkpoint {
        Some(name) => (crate::checkpoint::file_in(env, name, &path)?, format!("checkpoint \"{name}\"")),
        None => {
            let found = env.gateway.with_versions(|v, t| -> Result<Option<(Option<Vec<u8>>, String)>> {
                let Some(rev) = v.ring(t, &path).and_then(|r| r.undo.last().cloned()) else { return Ok(None) };
                Ok(Some((v.content(t, &rev)?, format!("the version before \"{}\" ({})", rev.op, iso(rev.ts)))))
            })?;
            found.ok_or_else(|| {
                EnvError::refused(format!("no earlier version of {path} is recorded — nothing to compare against (diff against a checkpoint with {{ checkpoint: name }})"))
            })?
        }
    };
    let after = if tree.exists(&path)? { Some(tree.read(&path)?) } else { None };
    if before.as_deref().is_some_and(is_binary) || after.as_deref().is_some_and(is_binary) {
        return Err(EnvError::refused(format!(
            "{path} is a binary file — diff only handles text; describe it instead"
        )));
    }
    let text = |b: &Option<Vec<u8>>| b.as_ref().map(|d| String::from_utf8_lossy(d).into_owned());
    let (before, after) = (text(&before), text(&after));
    Ok(Reply::text(match (before, after) {
        (None, None) => {
            return Err(EnvError::refused(format!(
                "{path} does not exist now and did not exist in {label} — check the path with ls"
            )));
        }
        (None, Some(now)) => format!("{path} did not exist in {label} — it is new ({} lines).", lines(&now).len()),
        (Some(then), None) => {
            format!("{path} exists in {label} but not now — it was removed ({} lines then).", lines(&then).len())
        }
        (Some(then), Some(now)) if then == now => format!("{path} is unchanged since {label}"),
        (Some(then), Some(now)) => {
            let (a, b) = (lines(&then), lines(&now));
            match line_diff(&a, &b) {
                Some(d) => format!("{path} vs {label} (- was, + is now):\n{d}"),
                None => format!(
                    "(files too large to diff line by line: {} vs {} lines — read the ranges you care about instead)",
                    a.len(),
                    b.len()
                ),
            }
        }
    }))
}
