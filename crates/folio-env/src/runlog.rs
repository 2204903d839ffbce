//! The run log, `/.env/history.jsonl`: one JSON line per script run, newest last, kept to
//! `max_history_lines` and to a byte budget of `min(max_file_bytes, max(64 KiB, lines × 256))`
//! (so a few runs with huge arguments cannot grow it without bound). The script runner appends to it; `history`, `grep` and orientation read it.
//! It is environment-owned, never rolled back by a checkpoint, and written through
//! [`Gateway::write_state`] under the gateway lock: inside `/.env` only, within
//! `limits.max_vfs_bytes` (a full tree refuses the append by name rather than growing past its
//! cap). A run appends its one line (`O_APPEND`, then flushed to disk), so the cost of a run does
//! not grow with the log; the log is rewritten whole (a temporary file, flushed and renamed) only
//! when it reaches a budget, and then trimmed to nine tenths of it. A crash mid-append can leave
//! a torn last line: the next append starts a fresh line after it, and readers skip it and say
//! so ([`read`]). Two runs finishing at once cannot lose each other's record, because the
//! append happens under the gateway lock.

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

/// Appends a record: one `O_APPEND` write of its line, flushed to disk, so a warm run costs the
/// same at the 5,000th record as at the first. Only when the log would pass `max_lines` or its
/// [`byte_budget`] is it rewritten whole (crash-safe, a temporary file renamed into place),
/// trimmed to nine tenths of both (always keeping the newest), so the rewrite is paid once per
/// tenth of the log, not once per run. A torn last line (a crash mid-append) is left as a line of
/// its own, skipped by readers with a note ([`read`]).
pub fn append(gateway: &Gateway, record: &RunRecord) -> Result<()> {
    let path = VPath::parse(PATH)?;
    let (max_lines, max_file_bytes) = (gateway.limits().max_history_lines.max(1), gateway.limits().max_file_bytes);
    let budget = byte_budget(max_lines, max_file_bytes);
    let line = fitted_line(record, max_file_bytes);
    gateway.exclusive(|| {
        let tree = gateway.tree();
        let size = tree.stat(&path)?.map_or(0, |s| s.size);
        let (count, torn) = match gateway.history_shape(size) {
            Some(count) => (count, false),
            None => shape(tree, &path, size),
        };
        let add = format!("{}{line}\n", if torn { "\n" } else { "" });
        if count + 1 > max_lines || size as usize + add.len() > budget {
            let body = compacted(tree, &path, &line, max_lines, budget);
            gateway.write_state_locked(&path, body.as_bytes())?;
            gateway.set_history_shape(body.lines().count(), body.len() as u64);
        } else {
            gateway.append_state_locked(&path, add.as_bytes())?;
            gateway.set_history_shape(count + 1, size + add.len() as u64);
        }
        Ok(())
    })
}

/// The log's line count and whether its last line is torn (no final newline), read once per
/// environment (afterwards the gateway keeps the count).
fn shape(tree: &dyn Tree, path: &VPath, size: u64) -> (usize, bool) {
    if size == 0 {
        return (0, false);
    }
    let bytes = tree.read(path).unwrap_or_default();
    let count = bytes.split(|b| *b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count();
    (count, bytes.last().is_some_and(|b| *b != b'\n'))
}

/// The log rewritten: its readable lines and `line`, trimmed to nine tenths of the line and byte
/// budgets, oldest first out, the newest always kept.
fn compacted(tree: &dyn Tree, path: &VPath, line: &str, max_lines: usize, budget: usize) -> String {
    let existing = tree.read(path).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
    let mut lines: Vec<&str> = existing.lines().filter(|l| serde_json::from_str::<RunRecord>(l).is_ok()).collect();
    lines.push(line);
    let keep_lines = (max_lines - max_lines / 10).max(1);
    let keep_bytes = budget - budget / 10;
    let excess = lines.len().saturating_sub(keep_lines);
    lines.drain(..excess);
    let mut size: usize = lines.iter().map(|l| l.len() + 1).sum();
    let mut drop = 0;
    while size > keep_bytes && drop + 1 < lines.len() {
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

/// Every readable record, oldest first, and how many lines could not be read (a record torn by
/// a crash mid-append, or a line edited by hand), which a reader must say rather than hide.
pub fn read(tree: &dyn Tree) -> (Vec<RunRecord>, usize) {
    let Ok(path) = VPath::parse(PATH) else { return (Vec::new(), 0) };
    let Ok(bytes) = tree.read(&path) else { return (Vec::new(), 0) };
    let text = String::from_utf8_lossy(&bytes);
    let mut skipped = 0;
    let all = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let parsed = serde_json::from_str(l).ok();
            skipped += usize::from(parsed.is_none());
            parsed
        })
        .collect();
    (all, skipped)
}

/// The last `n` records (unreadable lines skipped), oldest first.
pub fn tail(tree: &dyn Tree, n: usize) -> Vec<RunRecord> {
    let (all, _) = read(tree);
    all[all.len().saturating_sub(n)..].to_vec()
}
