//! `undo`, `redo` and `history`.

use folio_vfs::VPath;
use schemars::JsonSchema;
use serde::Deserialize;

use super::Reply;
use crate::env::Environment;
use crate::error::{EnvError, Result};
use crate::format::{fmt_bytes, fmt_count, iso};
use crate::versions::Side;

/// Tool description of `undo`.
pub const UNDO_DOC: &str = "Put one file back to the version before its last change (write, edit, rm, mv, cp). Works per file; repeat to go further back.";
/// Tool description of `redo`.
pub const REDO_DOC: &str = "Re-apply the change the last `undo` of this file took back.";
/// Tool description of `history`.
pub const HISTORY_DOC: &str = "Without `path`: the most recent script runs. With `path`: that file's saved versions (what `undo` and `redo` would restore).";

/// Arguments of `undo` and `redo`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepArgs {
    /// The file.
    pub path: String,
}

/// Arguments of `history`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HistoryArgs {
    /// A file whose versions to list; omit for the run log.
    pub path: Option<String>,
    /// How many entries (1–100, default 20).
    pub limit: Option<u64>,
}

/// `undo` and `redo`.
pub fn step(env: &Environment, args: StepArgs, side: Side) -> Result<Reply> {
    let path = VPath::parse(&args.path)?;
    let done = env.gateway.step(&path, side)?;
    let state = if done.present { "file restored" } else { "file removed (this undid its creation)" };
    let ts = iso(done.revision.ts);
    Ok(Reply::text(match side {
        Side::Undo => format!(
            "reverted {path} to the version saved before \"{}\" ({ts}); {state}. {} more undo step(s), {} redo step(s) available.",
            done.revision.op, done.undo_left, done.redo_left
        ),
        Side::Redo => format!(
            "redid {path} ({ts}); {state}. {} undo step(s), {} more redo step(s) available.",
            done.undo_left, done.redo_left
        ),
    }))
}

/// `history`.
pub fn history(env: &Environment, args: HistoryArgs) -> Result<Reply> {
    let limit = args.limit.unwrap_or(20).clamp(1, 100) as usize;
    if let Some(raw) = args.path {
        let path = VPath::parse(&raw)?;
        let Some(ring) =
            env.gateway.with_versions(|v, t| v.ring(t, &path)).filter(|r| !r.undo.is_empty() || !r.redo.is_empty())
        else {
            return Err(EnvError::refused(format!(
                "no recorded versions for {path} — it has not been changed through this environment yet"
            )));
        };
        let mut lines = vec![format!("{path}: {} version(s) behind, {} ahead", ring.undo.len(), ring.redo.len())];
        let size =
            |r: &crate::versions::Revision| if r.blob.is_some() { fmt_bytes(r.size) } else { "(absent)".to_owned() };
        for r in ring.undo.iter().rev().take(limit) {
            lines.push(format!("  undo<- {}  {:<6}  {}", iso(r.ts), r.op, size(r)));
        }
        for r in ring.redo.iter().rev().take(limit) {
            lines.push(format!("  redo-> {}  {:<6}  {}", iso(r.ts), r.op, size(r)));
        }
        return Ok(Reply::text(lines.join("\n")));
    }
    let (all, skipped) = crate::runlog::read(env.tree());
    let runs = &all[all.len().saturating_sub(limit)..];
    // A line torn by a crash mid-append (or edited by hand) is skipped, and said.
    let note = match skipped {
        0 => String::new(),
        n => format!(
            "\n({n} line{} of {} could not be read — a record torn by a crash mid-append — and {} skipped; the runs around it are intact)",
            if n == 1 { "" } else { "s" },
            crate::runlog::PATH,
            if n == 1 { "is" } else { "are" }
        ),
    };
    if runs.is_empty() {
        return Ok(Reply::text(format!("no runs recorded yet{note}")));
    }
    let lines: Vec<String> = runs
        .iter()
        .map(|r| {
            let status = if !r.ok {
                "FAIL"
            } else if r.kind == "test" {
                "test"
            } else {
                "ok  "
            };
            let spill = r.spill.as_ref().map(|s| format!(" spill={s}")).unwrap_or_default();
            format!(
                "{}  {status} {}ms  {} args={}{spill}  {}",
                r.ts,
                fmt_count(r.ms as usize),
                r.script,
                r.args,
                r.preview
            )
            .trim_end()
            .to_owned()
        })
        .collect();
    Ok(Reply::text(format!("{}{note}", lines.join("\n"))))
}
