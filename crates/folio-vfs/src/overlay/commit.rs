//! Commit and discard.
//!
//! A commit is journaled so that a crash at any instant leaves every file wholly old or wholly
//! new, and the next open knows what to do:
//!
//! 1. **Journal.** The steps (parent directories to create, files to delete, directories to remove
//!    or create, files to write) are stored in the index with state `preparing`.
//! 2. **Prepare.** Missing parent directories are created and each new file's content is written to
//!    a temp file *in its target directory* and fsynced. Nothing the person has is touched yet. A
//!    crash here is rolled back: temp files and the directories made for them are removed.
//! 3. **Apply.** The state becomes `applying`; deletions, directory removals and creations run,
//!    then each temp file is renamed over its target (atomic on every platform Folio supports),
//!    and the directories are fsynced. Every step first re-checks that the folder still holds what
//!    the entry's base recorded, so a file changed outside Folio meanwhile is skipped and stays
//!    pending as a conflict. A crash here is rolled forward: each step is idempotent (a temp file
//!    that is gone was renamed already).
//! 4. **Clean.** In one transaction the entries whose steps succeeded are removed (only if their
//!    revision is unchanged: a write that landed during the commit survives to the next one) and
//!    the journal is cleared.
//!
//! Conflicting changes are never written unless their path is named in `overwrite`.

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::PathBuf;

use crate::error::{Result, VfsError};
use crate::fault;
use crate::ignore::COMMIT_TEMP_PREFIX;
use crate::overlay::Overlay;
use crate::overlay::host::{self, HostState};
use crate::overlay::journal::{self, JournalState, Op, Step};
use crate::overlay::pending::{Conflict, LITTER, Planned};
use crate::overlay::store::{self, Base, EntryKind, now_ms};
use crate::overlay::view::{Ctx, Shadow};
use crate::path::VPath;

/// Which pending changes a commit or discard takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    /// Every pending change.
    All,
    /// The changes at or below each path (a rename is taken whole when either end is named).
    Paths(Vec<VPath>),
}

/// What a commit did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CommitReport {
    /// Files and directories now on disk with the agent's content.
    pub written: Vec<VPath>,
    /// Files and directories removed from disk.
    pub removed: Vec<VPath>,
    /// Changes left pending because the folder changed under them.
    pub conflicts: Vec<(VPath, Conflict)>,
    /// Changes still pending after the commit.
    pub pending_left: usize,
}

/// How one step ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    Done,
    Conflict(Conflict),
}

fn matches_any(path: &VPath, from: Option<&VPath>, roots: &[VPath]) -> bool {
    roots.iter().any(|r| path.is_under(r) || from.is_some_and(|f| f.is_under(r)))
}

fn rename_from(p: &Planned) -> Option<&VPath> {
    match &p.change.kind {
        crate::overlay::ChangeKind::Renamed { from } => Some(from),
        _ => None,
    }
}

/// The planned changes a selection takes; a named path with nothing pending is an error.
pub(crate) fn select(planned: Vec<Planned>, selection: &Selection) -> Result<Vec<Planned>> {
    let Selection::Paths(roots) = selection else { return Ok(planned) };
    for root in roots {
        if !planned.iter().any(|p| matches_any(&p.change.path, rename_from(p), std::slice::from_ref(root))) {
            return Err(VfsError::NotPending(root.clone()));
        }
    }
    Ok(planned.into_iter().filter(|p| matches_any(&p.change.path, rename_from(p), roots)).collect())
}

/// Threads that write and fsync temp files during prepare.
const PREPARE_THREADS: usize = 8;

fn depth(p: &VPath) -> usize {
    p.segments().count()
}

impl Ctx<'_> {
    /// Turns the selected changes into journal steps.
    fn steps(&self, chosen: &[Planned], overwrite: &[VPath], token: i64) -> Result<Vec<Step>> {
        let mut steps: Vec<Step> = Vec::new();
        let mut push = |op: Op, path: &VPath, rev: i64, blob: Option<String>, base: Base, ow: bool| {
            let seq = steps.len() as i64 + 1;
            let tmp = (op == Op::Write).then(|| format!("{COMMIT_TEMP_PREFIX}{token}-{seq}.tmp"));
            steps.push(Step { seq, op, path: path.clone(), rev, blob, tmp, base, overwrite: ow });
        };
        for p in chosen {
            let ow = matches_any(&p.change.path, rename_from(p), overwrite);
            for e in &p.entries {
                match (e.kind, &e.base) {
                    (EntryKind::File, base) => {
                        if *base == Base::Dir {
                            push(Op::RmDir, &e.path, 0, None, Base::Dir, ow);
                        }
                        push(Op::Write, &e.path, e.rev, e.blob.clone(), base.clone(), ow);
                    }
                    (EntryKind::Whiteout, Base::Dir) => push(Op::RmDir, &e.path, e.rev, None, Base::Dir, ow),
                    (EntryKind::Whiteout, base) => push(Op::Delete, &e.path, e.rev, None, base.clone(), ow),
                    (EntryKind::Dir, Base::File(fp)) => {
                        push(Op::Delete, &e.path, 0, None, Base::File(fp.clone()), ow);
                        push(Op::MkDir, &e.path, e.rev, None, Base::Absent, ow);
                    }
                    (EntryKind::Dir, base) => push(Op::MkDir, &e.path, e.rev, None, base.clone(), ow),
                }
            }
        }
        // Parent directories the writes need that the folder lacks, made during prepare.
        let mut parents = BTreeSet::new();
        for s in steps.iter().filter(|s| s.op == Op::Write) {
            for ancestor in s.path.ancestors().into_iter().skip(1) {
                if !parents.contains(&ancestor) && self.host.state(&ancestor)? != HostState::Dir {
                    parents.insert(ancestor);
                }
            }
        }
        let mut all: Vec<Step> = parents
            .into_iter()
            .map(|path| Step {
                seq: 0,
                op: Op::MkParent,
                path,
                rev: 0,
                blob: None,
                tmp: None,
                base: Base::Absent,
                overwrite: false,
            })
            .collect();
        all.extend(steps);
        for (i, s) in all.iter_mut().enumerate() {
            s.seq = i as i64 + 1;
        }
        Ok(all)
    }
}

impl Overlay {
    fn temp_path(&self, step: &Step) -> Option<PathBuf> {
        let parent = step.path.parent()?;
        Some(self.host.join(&parent).join(step.tmp.as_ref()?))
    }

    pub(crate) fn commit_lock(&self) -> Result<fs::File> {
        let path = self.state_dir.join("commit.lock");
        let file = fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| store::store_err(&path, e))?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(fs::TryLockError::WouldBlock) => Err(VfsError::CommitBusy(self.host.root.display().to_string())),
            Err(fs::TryLockError::Error(e)) => Err(store::store_err(&path, e)),
        }
    }

    /// Writes the selected pending changes to the folder. Conflicting changes are left pending
    /// (and listed in the report) unless their path, or a directory above it, is in `overwrite`.
    pub fn commit(&self, selection: &Selection, overwrite: &[VPath]) -> Result<CommitReport> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op: "commit", path: VPath::root() });
        }
        let _lock = self.commit_lock()?;
        if self.with_conn(journal::state)?.is_some() {
            self.recover_locked()?;
        }
        let token = now_ms();
        let mut report = CommitReport::default();
        let steps = self.read_ctx(|ctx| {
            let chosen = select(ctx.plan()?, selection)?;
            for root in overwrite {
                if !chosen.iter().any(|p| matches_any(&p.change.path, rename_from(p), std::slice::from_ref(root))) {
                    return Err(VfsError::NotPending(root.clone()));
                }
            }
            let mut clean = Vec::new();
            for p in chosen {
                match &p.change.conflict {
                    Some(c) if !matches_any(&p.change.path, rename_from(&p), overwrite) => {
                        report.conflicts.push((p.change.path.clone(), c.clone()));
                    }
                    // A file another program holds open cannot be replaced or removed: the whole
                    // change (both halves of a rename) waits, so nothing is half-applied.
                    _ if p.entries.iter().any(|e| host::held_open(&self.host.join(&e.path))) => {
                        report.conflicts.push((p.change.path.clone(), Conflict::HeldOpen));
                    }
                    _ => clean.push(p),
                }
            }
            ctx.steps(&clean, overwrite, token)
        })?;
        if !steps.is_empty() {
            self.with_conn(|conn| journal::begin(conn, token, &steps))?;
            fault::hit("commit.journaled");
            if let Err(err) = self.prepare(&steps) {
                self.roll_back(&steps);
                self.with_conn(journal::clear)?;
                return Err(err);
            }
            self.with_conn(|conn| journal::set_state(conn, JournalState::Applying))?;
            fault::hit("commit.prepared");
            let outcomes = self.apply(&steps)?;
            self.finish(&steps, &outcomes, &mut report)?;
        }
        report.pending_left = self.pending()?.len();
        let _ = self.lock().collect_garbage();
        Ok(report)
    }

    pub(crate) fn with_conn<T>(&self, f: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>) -> Result<T> {
        let store = self.lock();
        f(&store.conn).map_err(|e| store.err(e))
    }

    /// Phase 2: parent directories and durable temp files.
    fn prepare(&self, steps: &[Step]) -> Result<()> {
        for s in steps.iter().filter(|s| s.op == Op::MkParent) {
            let host = self.host.contained(&s.path)?;
            match fs::create_dir(&host) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && host.is_dir() => {}
                Err(e) => return Err(VfsError::host("create directory", &host, e)),
            }
        }
        // Temp files are written and fsynced by a few threads at once: fsync is bound by the
        // device's flush latency, and concurrent flushes share it (1,000 files: ~1 s serial,
        // ~0.1 s with eight threads on the reference machine).
        let writes: Vec<&Step> = steps.iter().filter(|s| s.op == Op::Write).collect();
        for s in &writes {
            if let Some(parent) = s.path.parent() {
                self.host.contained(&parent)?;
            }
        }
        let store = self.lock();
        let blobs = &store.blobs;
        let chunk = writes.len().div_ceil(PREPARE_THREADS).max(1);
        let results: Vec<Result<Vec<PathBuf>>> = std::thread::scope(|scope| {
            // Every writer is spawned before any is joined, which is the point of the threads.
            #[allow(clippy::needless_collect)]
            let handles: Vec<_> = writes
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut dirs = Vec::new();
                        for s in part {
                            let (Some(tmp), Some(blob)) = (self.temp_path(s), s.blob.as_ref()) else { continue };
                            blobs.copy_blob_to(blob, &tmp).map_err(|e| VfsError::host("write", &tmp, e))?;
                            if let Some(dir) = tmp.parent() {
                                dirs.push(dir.to_path_buf());
                            }
                            fault::hit("commit.temp-written");
                        }
                        Ok(dirs)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err(store.err("a temp-file writer thread panicked"))))
                .collect()
        });
        drop(store);
        let mut dirs = HashSet::new();
        for result in results {
            dirs.extend(result?);
        }
        for dir in dirs {
            sync_dir(&dir);
        }
        Ok(())
    }

    /// Undoes `prepare`: removes temp files and the parent directories made for them.
    pub(crate) fn roll_back(&self, steps: &[Step]) {
        for s in steps.iter().filter(|s| s.op == Op::Write) {
            if let Some(tmp) = self.temp_path(s) {
                let _ = fs::remove_file(tmp);
            }
        }
        let mut made: Vec<&Step> = steps.iter().filter(|s| s.op == Op::MkParent).collect();
        made.sort_by_key(|s| std::cmp::Reverse(depth(&s.path)));
        for s in made {
            // Only an empty directory is removed: anything else there is not ours to remove.
            let _ = fs::remove_dir(self.host.join(&s.path));
        }
    }

    /// Phase 3: the steps that change what the person sees. Idempotent, so recovery reruns it.
    pub(crate) fn apply(&self, steps: &[Step]) -> Result<Vec<(i64, Outcome)>> {
        let mut outcomes = Vec::new();
        let mut touched = HashSet::new();
        let mut ordered: Vec<&Step> = steps.iter().filter(|s| s.op != Op::MkParent).collect();
        ordered.sort_by_key(|s| match s.op {
            Op::Delete => (0, 0),
            Op::RmDir => (1, usize::MAX - depth(&s.path)),
            Op::MkDir => (2, depth(&s.path)),
            Op::Write | Op::MkParent => (3, 0),
        });
        for s in ordered {
            let outcome = self.apply_step(s)?;
            if outcome == Outcome::Done
                && let Some(parent) = s.path.parent()
            {
                touched.insert(self.host.join(&parent));
            }
            outcomes.push((s.seq, outcome));
        }
        for dir in touched {
            sync_dir(&dir);
        }
        fault::hit("commit.applied");
        Ok(outcomes)
    }

    fn apply_step(&self, s: &Step) -> Result<Outcome> {
        let host = match self.host.contained(&s.path) {
            Ok(host) => host,
            Err(VfsError::EscapesFolder { .. }) => return Ok(Outcome::Conflict(Conflict::OutsideFolder)),
            Err(other) => return Err(other),
        };
        let state = self.host.state(&s.path)?;
        match s.op {
            Op::MkParent => Ok(Outcome::Done),
            Op::Delete => match state {
                HostState::Absent => Ok(Outcome::Done),
                HostState::File { .. } => {
                    let unchanged = match &s.base {
                        Base::File(fp) => self.host.matches(&s.path, fp)?,
                        _ => false,
                    };
                    if !unchanged && !s.overwrite {
                        return Ok(Outcome::Conflict(Conflict::EditedOutside));
                    }
                    match remove_file(&host) {
                        Err(e) if host::is_lock_error(&e) || fault::held(&host) => {
                            return Ok(Outcome::Conflict(Conflict::HeldOpen));
                        }
                        other => other.map_err(|e| VfsError::host("remove", &host, e))?,
                    }
                    fault::hit("commit.deleted");
                    Ok(Outcome::Done)
                }
                HostState::Dir | HostState::Other => Ok(Outcome::Conflict(Conflict::ReplacedOutside)),
            },
            Op::RmDir => match state {
                HostState::Absent => Ok(Outcome::Done),
                HostState::Dir => {
                    let left = remove_litter_tree(&host);
                    if left == 0 {
                        return Ok(Outcome::Done);
                    }
                    if s.overwrite {
                        fs::remove_dir_all(&host).map_err(|e| VfsError::host("remove", &host, e))?;
                        return Ok(Outcome::Done);
                    }
                    Ok(Outcome::Conflict(Conflict::NewFilesInside { count: left }))
                }
                HostState::File { .. } | HostState::Other => Ok(Outcome::Conflict(Conflict::ReplacedOutside)),
            },
            Op::MkDir => match state {
                HostState::Dir => Ok(Outcome::Done),
                HostState::Absent => {
                    fs::create_dir_all(&host).map_err(|e| VfsError::host("create directory", &host, e))?;
                    fault::hit("commit.dir-made");
                    Ok(Outcome::Done)
                }
                _ => Ok(Outcome::Conflict(Conflict::ReplacedOutside)),
            },
            Op::Write => {
                let Some(tmp) = self.temp_path(s) else { return Ok(Outcome::Done) };
                if !tmp.exists() {
                    // Renamed by the run that crashed.
                    return Ok(Outcome::Done);
                }
                let conflict = match (&s.base, &state) {
                    (_, HostState::Dir) => Some(Conflict::ReplacedOutside),
                    (Base::File(fp), HostState::File { .. }) => {
                        (!self.host.matches(&s.path, fp)?).then_some(Conflict::EditedOutside)
                    }
                    (Base::File(_), HostState::Absent) => Some(Conflict::DeletedOutside),
                    (Base::Absent | Base::Dir, HostState::Absent) => None,
                    (_, _) => Some(Conflict::CreatedOutside),
                };
                match conflict {
                    Some(Conflict::ReplacedOutside) => {
                        let _ = fs::remove_file(&tmp);
                        Ok(Outcome::Conflict(Conflict::ReplacedOutside))
                    }
                    Some(c) if !s.overwrite => {
                        let _ = fs::remove_file(&tmp);
                        Ok(Outcome::Conflict(c))
                    }
                    _ => {
                        match replace(&tmp, &host) {
                            // Held open since the check before the commit: the temp file goes,
                            // the person's file is untouched, the change stays pending.
                            Err(e) if host::is_lock_error(&e) || fault::held(&host) => {
                                let _ = fs::remove_file(&tmp);
                                return Ok(Outcome::Conflict(Conflict::HeldOpen));
                            }
                            other => other.map_err(|e| VfsError::host("replace", &host, e))?,
                        }
                        fault::hit("commit.renamed");
                        Ok(Outcome::Done)
                    }
                }
            }
        }
    }

    /// Phase 4: drops the committed entries and the journal in one transaction.
    pub(crate) fn finish(&self, steps: &[Step], outcomes: &[(i64, Outcome)], report: &mut CommitReport) -> Result<()> {
        let mut guard = self.lock();
        let store::Store { conn, blobs } = &mut *guard;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| store::store_err(&self.state_dir, e))?;
        let db = |e: rusqlite::Error| store::store_err(&self.state_dir, e);
        let ctx = Ctx { conn: &tx, blobs, host: &self.host, ignore: &self.ignore };
        for (seq, outcome) in outcomes {
            let Some(s) = steps.iter().find(|s| s.seq == *seq) else { continue };
            match outcome {
                Outcome::Done => {
                    if s.rev != 0 && !store::delete_if_rev(&tx, &s.path, s.rev).map_err(db)? {
                        // The entry changed while the commit ran: it stays pending, measured
                        // against what this commit just put on disk, which is now its base.
                        if let Some(mut e) = store::get(&tx, &s.path).map_err(db)? {
                            e.base = ctx.base_for(&s.path, true)?;
                            store::put(&tx, &e).map_err(db)?;
                        }
                    }
                    match s.op {
                        Op::Write | Op::MkDir => report.written.push(s.path.clone()),
                        Op::Delete | Op::RmDir if s.rev != 0 => report.removed.push(s.path.clone()),
                        _ => {}
                    }
                }
                Outcome::Conflict(c) => report.conflicts.push((s.path.clone(), c.clone())),
            }
        }
        // Directory bookkeeping that the folder now satisfies is dropped: directories the agent
        // made that exist on disk, and opaque directories with no removals left beneath them.
        for e in store::all(&tx).map_err(db)? {
            if e.kind != EntryKind::Dir {
                continue;
            }
            let on_disk = self.host.state(&e.path).ok() == Some(HostState::Dir);
            if !on_disk || ctx.shadow(&e.path)? != Shadow::Visible {
                continue;
            }
            let removals_below = store::below(&tx, &e.path).map_err(db)?.iter().any(|b| b.kind == EntryKind::Whiteout);
            if !e.opaque || !removals_below {
                store::delete(&tx, &e.path).map_err(db)?;
            }
        }
        journal::clear(&tx).map_err(db)?;
        tx.commit().map_err(db)?;
        drop(guard);
        report.written.sort();
        report.written.dedup();
        report.removed.sort();
        report.conflicts.sort_by(|a, b| a.0.cmp(&b.0));
        report.conflicts.dedup();
        fault::hit("commit.cleaned");
        Ok(())
    }

    /// Drops the selected pending changes; the folder is not touched. Returns the paths dropped.
    pub fn discard(&self, selection: &Selection) -> Result<Vec<VPath>> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op: "discard", path: VPath::root() });
        }
        let chosen = self.read_ctx(|ctx| select(ctx.plan()?, selection))?;
        let mut store = self.lock();
        let db = |e: rusqlite::Error| store::store_err(&self.state_dir, e);
        let tx = store.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db)?;
        let mut dropped = Vec::new();
        match selection {
            Selection::All => {
                tx.execute("DELETE FROM entries", []).map_err(db)?;
                dropped = chosen.iter().map(|p| p.change.path.clone()).collect();
            }
            Selection::Paths(roots) => {
                for p in &chosen {
                    for e in &p.entries {
                        store::delete(&tx, &e.path).map_err(db)?;
                    }
                    dropped.push(p.change.path.clone());
                }
                for root in roots {
                    for e in store::below(&tx, root).map_err(db)? {
                        store::delete(&tx, &e.path).map_err(db)?;
                    }
                    // Directories the agent made only to hold what was just discarded go too.
                    for ancestor in root.ancestors().into_iter().rev() {
                        let Some(e) = store::get(&tx, &ancestor).map_err(db)? else { continue };
                        let empty = store::below(&tx, &ancestor).map_err(db)?.is_empty();
                        if e.kind == EntryKind::Dir && e.base == Base::Absent && empty {
                            store::delete(&tx, &ancestor).map_err(db)?;
                        }
                    }
                }
            }
        }
        tx.commit().map_err(db)?;
        let _ = store.collect_garbage();
        drop(store);
        dropped.sort();
        Ok(dropped)
    }
}

/// Removes OS litter below `dir` and every directory left empty, `dir` included. Returns how many
/// other entries remain.
fn remove_litter_tree(dir: &std::path::Path) -> usize {
    let mut left = 0;
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                left += remove_litter_tree(&path);
            } else if LITTER.iter().any(|l| entry.file_name() == *l) {
                if fs::remove_file(&path).is_err() {
                    left += 1;
                }
            } else {
                left += 1;
            }
        }
    }
    if left == 0 && fs::remove_dir(dir).is_err() && dir.exists() {
        left += 1;
    }
    left
}

/// `fs::rename`, failing as a sharing violation would when a test holds the target open.
fn replace(tmp: &std::path::Path, host: &std::path::Path) -> std::io::Result<()> {
    if fault::held(host) {
        return Err(std::io::Error::other("held open by another program (simulated)"));
    }
    fs::rename(tmp, host)
}

/// `fs::remove_file`, failing as a sharing violation would when a test holds the file open.
fn remove_file(host: &std::path::Path) -> std::io::Result<()> {
    if fault::held(host) {
        return Err(std::io::Error::other("held open by another program (simulated)"));
    }
    fs::remove_file(host)
}

fn sync_dir(dir: &std::path::Path) {
    // Directory fsync makes the renames durable on Linux; other platforms sync renames themselves
    // or refuse to open a directory, which is not an error worth failing a commit for.
    if let Ok(handle) = fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}
