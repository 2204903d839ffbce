//! The run log, `/.env/history.jsonl`: one JSON line per script run, newest last, kept to
//! `max_history_lines` and to a byte budget of `min(max_file_bytes, max(64 KiB, lines × 256))`
//! (so a few runs with huge arguments cannot grow it without bound). The script runner appends to it; `history`, `grep` and orientation read it.
//! It is environment-owned, never rolled back by a checkpoint, and written through
//! [`Gateway::write_state`] under the gateway lock: inside `/.env` only, within
//! `limits.max_vfs_bytes` (a full tree refuses the append by name rather than growing past its
//! cap), and crash-safe — the whole log is rewritten to a temporary file, flushed and renamed, so
//! a crash leaves the old log or the new one, never a torn line. Two runs finishing at once
//! cannot lose each other's record, because the read and the rewrite happen under the lock.

use folio_vfs::{Tree, VPath};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::gateway::Gateway;

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
pub fn append(gateway: &Gateway, record: &RunRecord) -> Result<()> {
    let path = VPath::parse(PATH)?;
    let (max_lines, max_file_bytes) = (gateway.limits().max_history_lines, gateway.limits().max_file_bytes);
    gateway.exclusive(|| {
        let body = appended(gateway.tree(), &path, record, max_lines, max_file_bytes);
        gateway.write_state_locked(&path, body.as_bytes())
    })
}

/// The log's new text: the old lines and `record`, trimmed to the line and byte budgets.
fn appended(tree: &dyn Tree, path: &VPath, record: &RunRecord, max_lines: usize, max_file_bytes: u64) -> String {
    let existing = tree.read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let mut lines: Vec<String> = existing.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect();
    lines.push(fitted_line(record, max_file_bytes));
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
    format!("{}\n", lines.join("\n"))
}

/// `record` as one log line that, with its newline, fits in `max_file_bytes`: a record over it
/// (a huge preview or arguments) keeps its script, status and timing, its preview and arguments
/// clipped, so the newest run is always recorded and the log never passes the file cap.
fn fitted_line(record: &RunRecord, max_file_bytes: u64) -> String {
    let cap = usize::try_from(max_file_bytes).unwrap_or(usize::MAX).saturating_sub(1);
    let line = serde_json::to_string(record).unwrap_or_default();
    if line.len() <= cap {
        return line;
    }
    let mut slim = record.clone();
    let args_len = slim.args.to_string().len();
    if args_len > 64 {
        slim.args = serde_json::Value::String(format!(
            "[{args_len} chars of arguments not kept: the record was over the file cap]"
        ));
    }
    let mut keep = slim.preview.chars().count();
    loop {
        let line = serde_json::to_string(&slim).unwrap_or_default();
        if line.len() <= cap || keep == 0 {
            return line;
        }
        keep = keep.saturating_sub((line.len() - cap).max(keep / 8).max(1));
        slim.preview = format!("{}… [clipped]", record.preview.chars().take(keep).collect::<String>());
        if keep == 0 {
            slim.preview.clear();
        }
    }
}

/// The last `n` records (unreadable lines skipped), oldest first.
pub fn tail(tree: &dyn Tree, n: usize) -> Vec<RunRecord> {
    let Ok(path) = VPath::parse(PATH) else { return Vec::new() };
    let Ok(bytes) = tree.read(&path) else { return Vec::new() };
    let text = String::from_utf8_lossy(&bytes);
    let all: Vec<RunRecord> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    all[all.len().saturating_sub(n)..].to_vec()
}
