//! The run log, `/.env/history.jsonl`: one JSON line per script run, newest last, kept to
//! `max_history_lines` and to a byte budget of `min(max_file_bytes, max(64 KiB, lines × 256))`
//! (so a few runs with huge arguments cannot grow it without bound). The script runner appends to it; `history`, `grep` and orientation read it.
//! It is environment-owned: written to the raw tree, never rolled back by a checkpoint.

use folio_vfs::{Tree, VPath};
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// Where the log lives.
pub const PATH: &str = "/.env/history.jsonl";

/// One run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RunRecord {
    /// When it started (ISO-8601).
    pub ts: String,
    /// The script.
    pub script: String,
    /// The arguments it got.
    pub args: serde_json::Value,
    /// True when it finished without an error.
    pub ok: bool,
    /// `run` or `test`.
    pub kind: String,
    /// Wall-clock milliseconds.
    pub ms: u64,
    /// The start of its result (or error).
    pub preview: String,
    /// Where its overflow was written, if anywhere.
    pub spill: Option<String>,
}

/// The log's byte budget for `max_lines` lines and a `max_file_bytes` file cap.
pub fn byte_budget(max_lines: usize, max_file_bytes: u64) -> usize {
    let by_lines = (64 * 1024).max(max_lines.saturating_mul(256));
    by_lines.min(usize::try_from(max_file_bytes).unwrap_or(usize::MAX))
}

/// Appends a record, dropping the oldest lines beyond `max_lines`, then the oldest (always
/// keeping the newest) while the log is over its [`byte_budget`].
pub fn append(tree: &dyn Tree, record: &RunRecord, max_lines: usize, max_file_bytes: u64) -> Result<()> {
    let path = VPath::parse(PATH)?;
    let existing = tree.read(&path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let mut lines: Vec<String> = existing.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect();
    lines.push(serde_json::to_string(record).unwrap_or_default());
    let excess = lines.len().saturating_sub(max_lines.max(1));
    lines.drain(..excess);
    let budget = byte_budget(max_lines, max_file_bytes);
    let mut size: usize = lines.iter().map(|l| l.len() + 1).sum();
    let mut drop = 0;
    while size > budget && drop + 1 < lines.len() {
        size -= lines[drop].len() + 1;
        drop += 1;
    }
    lines.drain(..drop);
    tree.write(&path, format!("{}\n", lines.join("\n")).as_bytes())?;
    Ok(())
}

/// The last `n` records (unreadable lines skipped), oldest first.
pub fn tail(tree: &dyn Tree, n: usize) -> Vec<RunRecord> {
    let Ok(path) = VPath::parse(PATH) else { return Vec::new() };
    let Ok(bytes) = tree.read(&path) else { return Vec::new() };
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<RunRecord> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    all[all.len().saturating_sub(n)..].to_vec()
}
