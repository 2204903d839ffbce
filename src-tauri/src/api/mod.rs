//! The payloads of the app's commands and notifications. Every command is named
//! `<resource>_<method>` (the UI calls it `resource.method`), takes a `*Params` and answers a
//! `*Response`; streams carry `*Notification`s. Field names are camelCase on the wire, and the
//! UI's TypeScript types in `ui/src/bindings/` are generated from these definitions and
//! those of the submodules, one per concern
//! ([`typescript`]); a test fails when that file is stale.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod agent;
mod error;
mod mcp;
mod preview;
mod privacy;
mod provenance;
mod review;
mod updates;
pub use agent::*;
pub use error::*;
pub use mcp::*;
pub use preview::*;
pub use privacy::*;
pub use provenance::*;
pub use review::*;
pub use updates::*;

/// Opens a folder: the person's real folder, over which the agent works in a sandbox.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderOpenParams {
    /// The folder on disk.
    pub path: String,
    /// Open it read-only: the agent reads everything and changes nothing in it (its `/tmp`
    /// still works), so nothing ever becomes pending. `None`: the choice remembered for this
    /// folder in the recent list (writable when there is none).
    #[serde(default)]
    pub read_only: Option<bool>,
}

/// What opening a folder found.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FolderOpenResponse {
    /// The folder's absolute path.
    pub folder: String,
    /// Its last path component, for the title bar.
    pub name: String,
    /// What the environment warned about when it opened (missing tools, skipped settings).
    pub warnings: Vec<String>,
    /// What crash recovery did, when it had to.
    pub recovery: Option<String>,
    /// True when the folder is open read-only (every change to it is refused, nothing pends).
    pub read_only: bool,
}

/// Which folder is open and what is pending in it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StatusGetResponse {
    /// The open folder, or `None` before one is opened.
    pub folder: Option<String>,
    /// Every pending change, in path order.
    pub changes: Vec<PendingChange>,
    /// How many of them are in conflict.
    pub conflicts: u32,
    /// A message to show once (why the folder on the command line did not open).
    pub notice: Option<String>,
    /// What opening the folder named on the command line answered (its warnings — a server
    /// that did not mount, a torn cache — and a crash recovery), given once, as `folder.open`
    /// answers a folder opened from the window.
    pub opened: Option<FolderOpenResponse>,
    /// True when the open folder is open read-only: nothing can become pending.
    pub read_only: bool,
}

/// What a pending change does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ChangeKindName {
    /// A new file or directory.
    Added,
    /// A file whose content changed.
    Modified,
    /// A file or directory removed.
    Deleted,
    /// A move (`from` says where from).
    Renamed,
}

/// One pending change, as the review panel lists it.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PendingChange {
    /// The agent's path (`/out/report.md`).
    pub path: String,
    /// What it does.
    pub kind: ChangeKindName,
    /// The source of a rename.
    pub from: Option<String>,
    /// True for a directory.
    pub is_dir: bool,
    /// Bytes after the change.
    #[ts(type = "number | null")]
    pub size: Option<u64>,
    /// Bytes of the folder's file before the change.
    #[ts(type = "number | null")]
    pub base_size: Option<u64>,
    /// Why committing it would overwrite something changed outside Folio, if it would.
    pub conflict: Option<String>,
}

/// Lists one directory of the agent's view of the folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeListParams {
    /// The directory (`/` for the top).
    pub path: String,
}

/// The badge a tree row shows for its pending change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum Badge {
    /// New, not yet in the folder.
    Added,
    /// Changed (or, for a directory, holds changes).
    Modified,
    /// Removed, still in the folder until committed.
    Deleted,
    /// Changed both here and outside Folio.
    Conflict,
}

/// One row of the tree.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeEntry {
    /// The file or directory name.
    pub name: String,
    /// The agent's path.
    pub path: String,
    /// True for a directory.
    pub is_dir: bool,
    /// Bytes (0 for directories).
    #[ts(type = "number")]
    pub size: u64,
    /// The pending-change badge, if any.
    pub badge: Option<Badge>,
    /// Set on the root of an environment zone (`/tmp`, `/std`, `/skills`): not one of the
    /// person's folders, never part of a commit, listed apart.
    pub zone: Option<TreeZone>,
}

/// What the tree says about an environment zone's row.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeZone {
    /// What the zone holds ("holds the generated module documentation").
    pub holds: String,
    /// True when the agent may change what is in it.
    pub writable: bool,
}

/// The rows of one directory: directories first, then files, each sorted by name.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TreeListResponse {
    /// The directory listed.
    pub path: String,
    /// Its rows.
    pub entries: Vec<TreeEntry>,
}

/// Reads a file for the preview pane.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FileReadParams {
    /// The agent's path.
    pub path: String,
}

/// A file's preview.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FileReadResponse {
    /// The agent's path.
    pub path: String,
    /// The file's size in bytes.
    #[ts(type = "number")]
    pub size: u64,
    /// The media type guessed from the name and bytes.
    pub media_type: String,
    /// The text (up to the preview limit), or `None` for a binary file.
    pub text: Option<String>,
    /// True when `text` stops at the preview limit.
    pub truncated: bool,
}

/// Commits selected pending changes to the folder.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CommitApplyParams {
    /// The changes to write (each path and everything below it).
    pub paths: Vec<String>,
    /// Conflicting paths whose agent version may overwrite the folder's.
    #[serde(default)]
    pub overwrite: Vec<String>,
}

/// A change a commit skipped because of a conflict.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SkippedChange {
    /// The agent's path.
    pub path: String,
    /// Why it was skipped.
    pub reason: String,
}

/// What a commit did.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CommitApplyResponse {
    /// Files written into the folder.
    pub written: Vec<String>,
    /// Paths removed from the folder.
    pub removed: Vec<String>,
    /// Changes left pending because of conflicts.
    pub skipped: Vec<SkippedChange>,
    /// Changes still pending after the commit.
    pub pending_left: u32,
}

/// Throws selected pending changes away; the folder is not touched.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DiscardApplyParams {
    /// The changes to drop (each path and everything below it).
    pub paths: Vec<String>,
}

/// What a discard dropped.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DiscardApplyResponse {
    /// The changes dropped.
    pub discarded: Vec<String>,
}

/// One script of the catalogue (`/scripts`).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptInfo {
    /// The script's path (`/scripts/clean.js`).
    pub path: String,
    /// Its file name.
    pub name: String,
    /// Its one-line summary (the first sentence of its doc comment).
    pub summary: String,
}

/// The script catalogue.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptsListResponse {
    /// Every script, by name.
    pub scripts: Vec<ScriptInfo>,
}

/// Runs one script, as the agent's `run_script` would.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptsRunParams {
    /// The script's path.
    pub path: String,
    /// The object its default export receives (`{}` when absent).
    #[serde(default)]
    #[ts(type = "Record<string, unknown> | null")]
    pub args: Option<serde_json::Value>,
}

/// A console line a running script printed, or its long job's progress, streamed while it runs.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptProgressNotification {
    /// The run's id.
    pub run_id: String,
    /// True for `console.error` / `console.warn`.
    pub is_error: bool,
    /// The line (for a job's progress, its human line: `/in/a.pdf: 12/300 pages, about 31 s left`).
    pub text: String,
    /// Set when the line is a long job's progress, not console output: it replaces the job's
    /// previous line (a progress bar) instead of joining the console transcript.
    pub job: Option<JobProgressNotice>,
}

/// What a long job counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum JobUnit {
    /// Rendered pages.
    Page,
    /// Whole files (a LibreOffice conversion, archive entries).
    File,
    /// Video frames.
    Frame,
    /// Seconds of media.
    Second,
    /// Spreadsheet rows.
    Row,
}

/// A long native job's progress (a PDF's pages rendering, a LibreOffice conversion), for the
/// progress bar on the tool row and on the script catalogue's run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct JobProgressNotice {
    /// Who is working (`env:render.rasterize /in/report.pdf`).
    pub job: String,
    /// Units finished.
    #[ts(type = "number")]
    pub done: u64,
    /// Units in the whole job.
    #[ts(type = "number")]
    pub total: u64,
    /// What is counted.
    pub unit: JobUnit,
    /// The unit's name as the total reads (`pages`, `file`).
    pub units: String,
    /// Milliseconds still expected, when known.
    #[ts(type = "number | null")]
    pub eta_ms: Option<u64>,
    /// Milliseconds since the job started.
    #[ts(type = "number")]
    pub elapsed_ms: u64,
    /// The time left in words while the job runs (`about 31 s left`), `None` once done or unknown.
    pub left: Option<String>,
}

impl From<&folio_budget::JobProgress> for JobProgressNotice {
    fn from(p: &folio_budget::JobProgress) -> JobProgressNotice {
        use folio_budget::Unit;
        let unit = match p.unit {
            Unit::Page => JobUnit::Page,
            Unit::File => JobUnit::File,
            Unit::Frame => JobUnit::Frame,
            Unit::Second => JobUnit::Second,
            Unit::Row => JobUnit::Row,
        };
        let left = match p.eta_ms {
            Some(ms) if p.done < p.total => Some(format!("about {} left", folio_budget::duration_words(ms))),
            _ => None,
        };
        JobProgressNotice {
            job: p.job.clone(),
            done: p.done,
            total: p.total,
            unit,
            units: p.unit.name(p.total).to_owned(),
            eta_ms: p.eta_ms,
            elapsed_ms: p.elapsed_ms,
            left,
        }
    }
}

/// How a script run ended.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScriptsRunResponse {
    /// The script.
    pub path: String,
    /// True when the default export returned without throwing.
    pub ok: bool,
    /// The result as text.
    pub result_text: Option<String>,
    /// The error, when it failed.
    pub error: Option<String>,
    /// Wall-clock milliseconds.
    #[ts(type = "number")]
    pub duration_ms: u64,
    /// Changes pending after the run.
    pub pending: u32,
}

/// The folder, tree, file, script, commit and discard payloads defined in this file.
fn core_decls() -> Vec<String> {
    vec![
        FolderOpenParams::decl(),
        FolderOpenResponse::decl(),
        StatusGetResponse::decl(),
        ChangeKindName::decl(),
        PendingChange::decl(),
        TreeListParams::decl(),
        Badge::decl(),
        TreeZone::decl(),
        TreeEntry::decl(),
        TreeListResponse::decl(),
        FileReadParams::decl(),
        FileReadResponse::decl(),
        CommitApplyParams::decl(),
        SkippedChange::decl(),
        CommitApplyResponse::decl(),
        DiscardApplyParams::decl(),
        DiscardApplyResponse::decl(),
        ScriptInfo::decl(),
        ScriptsListResponse::decl(),
        ScriptsRunParams::decl(),
        ScriptProgressNotification::decl(),
        JobUnit::decl(),
        JobProgressNotice::decl(),
        ScriptsRunResponse::decl(),
    ]
    .into_iter()
    .chain(error::decls())
    .collect()
}

const HEADER: &str = "// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.\n// Do not edit by hand.\n";

/// The name a ts-rs declaration declares (`type Name = …`).
fn declared_name(decl: &str) -> &str {
    let rest = decl.trim_start().strip_prefix("type ").unwrap_or(decl);
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    &rest[..end]
}

/// The UI's TypeScript types, one file per concern under `ui/src/bindings/` plus an `index.ts`
/// that re-exports them all: `(file name, contents)`. Each submodule of payloads contributes its
/// own declarations; a file imports the names it uses from its siblings.
pub fn typescript() -> Vec<(String, String)> {
    let groups = [
        ("core", core_decls()),
        ("agent", agent::decls()),
        ("mcp", mcp::decls()),
        ("preview", preview::decls()),
        ("privacy", privacy::decls()),
        ("provenance", provenance::decls()),
        ("review", review::review_decls()),
        ("updates", updates::decls()),
    ];
    let owner: Vec<(&str, &str)> =
        groups.iter().flat_map(|(group, items)| items.iter().map(move |d| (declared_name(d), *group))).collect();
    let mut files = Vec::new();
    for (group, items) in &groups {
        let body: String = items.iter().map(|d| format!("\nexport {d}\n")).collect();
        let used: std::collections::BTreeSet<&str> =
            body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
        let mut imports = String::new();
        for (other, _) in groups.iter().filter(|(other, _)| other != group) {
            let names: Vec<&str> =
                owner.iter().filter(|(name, g)| g == other && used.contains(name)).map(|(name, _)| *name).collect();
            if !names.is_empty() {
                imports.push_str(&format!("import type {{ {} }} from \"./{other}\";\n", names.join(", ")));
            }
        }
        files.push((format!("{group}.ts"), format!("{HEADER}{imports}{body}")));
    }
    let index: String = groups.iter().map(|(group, _)| format!("export * from \"./{group}\";\n")).collect();
    files.push(("index.ts".to_string(), format!("{HEADER}{index}")));
    files
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// `ui/src/bindings/` must hold exactly what the Rust types generate. Fix a failure with
    /// `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
    #[test]
    fn bindings_are_fresh() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings");
        let want = super::typescript();
        if std::env::var_os("UPDATE_BINDINGS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            for entry in std::fs::read_dir(&dir).unwrap() {
                std::fs::remove_file(entry.unwrap().path()).unwrap();
            }
            for (name, text) in &want {
                std::fs::write(dir.join(name), text).unwrap();
            }
        }
        let mut have: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        have.sort();
        let mut names: Vec<String> = want.iter().map(|(n, _)| n.clone()).collect();
        names.sort();
        let stale = "ui/src/bindings/ is stale — regenerate it with `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`";
        assert_eq!(have, names, "{stale}");
        for (name, text) in &want {
            assert!(std::fs::read_to_string(dir.join(name)).unwrap_or_default() == *text, "{name}: {stale}");
        }
    }

    #[test]
    fn a_declaration_names_its_type() {
        assert_eq!(super::declared_name("type FolderOpenParams = { path: string, };"), "FolderOpenParams");
        assert_eq!(super::declared_name("type Badge = \"added\" | \"modified\";"), "Badge");
    }
}
