//! The commit journal: the steps of one commit, stored in the index before any of them touches
//! the folder, and its state (`preparing` while temp files are written, `applying` once they are
//! all durable). `recovery` reads it back after a crash.

use rusqlite::{Connection, params};

use crate::overlay::store::{Base, base_columns, base_from};
use crate::path::VPath;

/// How far a journaled commit got: it decides whether recovery rolls it back or completes it.
/// Stored as its [`JournalState::name`] in the `journal.state` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum JournalState {
    /// Temp files are being written; nothing in the folder was replaced yet. Recovery rolls back.
    Preparing,
    /// Every temp file is durable and the renames are under way. Recovery completes them.
    Applying,
}

impl JournalState {
    /// The column's text.
    pub(crate) fn name(self) -> &'static str {
        match self {
            JournalState::Preparing => "preparing",
            JournalState::Applying => "applying",
        }
    }

    /// The state a column holds. Text Folio did not write counts as [`JournalState::Preparing`]:
    /// rolling back is the safe side, since no step of it is known to have replaced a file.
    pub(crate) fn parse(text: &str) -> JournalState {
        if text == JournalState::Applying.name() { JournalState::Applying } else { JournalState::Preparing }
    }
}

/// What one step does to the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    /// Create a missing parent directory before temp files are written (undone on rollback).
    MkParent,
    /// Remove a file.
    Delete,
    /// Remove a directory that holds nothing but OS litter.
    RmDir,
    /// Create a directory.
    MkDir,
    /// Rename the prepared temp file over the target.
    Write,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::MkParent => "mkparent",
            Op::Delete => "delete",
            Op::RmDir => "rmdir",
            Op::MkDir => "mkdir",
            Op::Write => "write",
        }
    }

    fn parse(s: &str) -> Option<Op> {
        Some(match s {
            "mkparent" => Op::MkParent,
            "delete" => Op::Delete,
            "rmdir" => Op::RmDir,
            "mkdir" => Op::MkDir,
            "write" => Op::Write,
            _ => return None,
        })
    }
}

/// One journaled step.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    pub(crate) seq: i64,
    pub(crate) op: Op,
    pub(crate) path: VPath,
    /// The entry revision this step commits; 0 when the step removes no entry.
    pub(crate) rev: i64,
    pub(crate) blob: Option<String>,
    /// The temp file's name, in the target's directory.
    pub(crate) tmp: Option<String>,
    /// What the folder must still have at `path` for the step to go ahead.
    pub(crate) base: Base,
    pub(crate) overwrite: bool,
}

pub(crate) fn begin(conn: &Connection, started_ms: i64, steps: &[Step]) -> rusqlite::Result<()> {
    let tx = conn.unchecked_transaction()?;
    tx.execute(
        "INSERT INTO journal(id, state, started_ms, pid) VALUES (1, ?1, ?2, ?3)",
        params![JournalState::Preparing.name(), started_ms, std::process::id()],
    )?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO journal_steps(seq, step, path, rev, blob, tmp, base_kind, base_size, base_mtime_ns, base_hash, overwrite)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    for s in steps {
        let (bk, bs, bm, bh) = base_columns(&s.base);
        insert.execute(params![
            s.seq,
            s.op.name(),
            s.path.as_str(),
            s.rev,
            s.blob,
            s.tmp,
            bk,
            bs,
            bm,
            bh,
            s.overwrite as i64
        ])?;
    }
    drop(insert);
    tx.commit()
}

pub(crate) fn set_state(conn: &Connection, state: JournalState) -> rusqlite::Result<()> {
    conn.execute("UPDATE journal SET state = ?1 WHERE id = 1", [state.name()]).map(drop)
}

/// The journaled commit's state and the pid that wrote it, if a commit is journaled.
pub(crate) fn state(conn: &Connection) -> rusqlite::Result<Option<(JournalState, i64)>> {
    use rusqlite::OptionalExtension;
    conn.query_row("SELECT state, pid FROM journal WHERE id = 1", [], |r| {
        Ok((JournalState::parse(&r.get::<_, String>(0)?), r.get(1)?))
    })
    .optional()
}

pub(crate) fn clear(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch("DELETE FROM journal_steps; DELETE FROM journal;")
}

pub(crate) fn load(conn: &Connection) -> rusqlite::Result<Vec<Step>> {
    let mut stmt = conn.prepare(
        "SELECT seq, step, path, rev, blob, tmp, base_kind, base_size, base_mtime_ns, base_hash, overwrite FROM journal_steps ORDER BY seq",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, Option<String>>(4)?,
            r.get::<_, Option<String>>(5)?,
            base_from(r.get(6)?, r.get(7)?, r.get(8)?, r.get(9)?),
            r.get::<_, i64>(10)? != 0,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, op, path, rev, blob, tmp, base, overwrite) = row?;
        // A step that does not parse was not written by Folio; it is skipped, and its entry stays
        // pending, which is the safe side.
        if let (Some(op), Ok(path)) = (Op::parse(&op), VPath::parse(&path)) {
            out.push(Step { seq, op, path, rev, blob, tmp, base, overwrite });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::JournalState::{self, Applying, Preparing};

    /// The column's text is the on-disk contract: journals written before the enum still read.
    #[test]
    fn the_state_column_keeps_its_text() {
        let check = |text: &str, state: JournalState| assert_eq!(JournalState::parse(text), state, "{text}");
        check("preparing", Preparing);
        check("applying", Applying);
        check("something else", Preparing);
        assert_eq!((Preparing.name(), Applying.name()), ("preparing", "applying"));
    }
}
