//! The mutation gateway: the one path every change to the tree takes, whoever asks for it.
//!
//! A mutation passes, in order: the zone checks ([`Gateway::check`] — root, environment zones,
//! host read-only paths, derived and TypeScript paths under `/scripts`, and for `rm`/`mv` a zone
//! nested *below* the path), the size limits, the script-validation hook, then — under the
//! gateway lock — the version ring records the prior content, the tree is changed, and the
//! mutation counter moves. A failure before the tree is touched leaves no trace. An edit is
//! optimistic ([`Gateway::commit_edit`]): it validates outside the lock and commits only if the
//! file still holds the bytes the editor read, so `edit_file` can read again and retry.
//!
//! The lock is a plain mutex and is not re-entrant: public methods take it, private helpers
//! assume it is held. The environment's own state — the run log and checkpoints — is stored
//! through [`Gateway::write_state`]: only inside `/.env`, under the same size limits (so the tree
//! never grows past `limits.max_vfs_bytes` behind the limit's back, the reference's bug #12),
//! under the lock, and written crash-safe by the zone's tree (temp file, fsync, rename). It is
//! not versioned and not counted as a mutation. The version index and orientation still go to
//! the raw tree.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use folio_vfs::{Kind, Tree, VPath};

use crate::error::{EnvError, Result};
use crate::mounts::MountTree;
use crate::pipeline::{self, DtsPlan};
pub use crate::pipeline::{AcceptScripts, ScriptCheck, ScriptValidator, is_derived, is_script};
use crate::versions::{Revision, Side, Versions};

/// Size and depth limits. Every refusal caused by one names the field.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest single file, in bytes.
    pub max_file_bytes: u64,
    /// Largest whole tree (file versions included), in bytes.
    pub max_vfs_bytes: u64,
    /// Character budget of one verb response.
    pub max_tool_response_bytes: usize,
    /// Line budget of one verb response (and `read_file`'s page size).
    pub max_tool_response_lines: usize,
    /// Undo depth per file.
    pub max_versions_per_file: usize,
    /// Lines kept in `/.env/history.jsonl`.
    pub max_history_lines: usize,
    /// Wall-clock ceiling of one script run (and of one write-time validation), in milliseconds.
    /// `run_script`'s `timeout_ms` can lower it, never raise it.
    pub run_timeout_ms: u64,
    /// Heap ceiling of one script run, in MiB.
    pub script_memory_mb: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 32 * 1024 * 1024,
            max_vfs_bytes: 128 * 1024 * 1024,
            max_tool_response_bytes: 8192,
            max_tool_response_lines: 200,
            max_versions_per_file: 10,
            max_history_lines: 5000,
            run_timeout_ms: 30_000,
            script_memory_mb: 256,
        }
    }
}

/// Activity counters, read with [`Gateway::counters`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counters {
    /// Gateway mutations that changed the tree.
    pub mutations: u64,
    /// Mutations refused by a size limit.
    pub limit_hits: u64,
    /// Responses whose overflow was written to `/tmp`.
    pub spillovers: u64,
}

/// How a write treats the file already at its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteMode {
    /// The new bytes replace the file's content (the file is created when absent).
    Replace,
    /// The new bytes are added after the file's content (the file is created when absent).
    Append,
}

impl WriteMode {
    /// The operation's name in the version ring and in `history` (`write`, `append`).
    pub fn op(self) -> &'static str {
        match self {
            WriteMode::Replace => "write",
            WriteMode::Append => "append",
        }
    }
}

/// What a write or an edit did.
#[derive(Debug, Clone)]
pub struct Written {
    /// True when the file did not exist before.
    pub created: bool,
    /// Its size afterwards.
    pub size: u64,
    /// What the script check reported, for a `.js` under `/scripts`.
    pub script: Option<ScriptCheck>,
}

/// What `undo`/`redo` did.
pub struct Stepped {
    /// The revision that was restored.
    pub revision: Revision,
    /// True when the file exists afterwards.
    pub present: bool,
    /// Undo steps left.
    pub undo_left: usize,
    /// Redo steps left.
    pub redo_left: usize,
}

/// The single mutation path.
pub struct Gateway {
    tree: Arc<MountTree>,
    limits: Limits,
    read_only: Vec<VPath>,
    /// The whole folder is open read-only: only the agent-writable zones change.
    folder_read_only: bool,
    validator: Arc<dyn ScriptValidator>,
    versions: Mutex<Versions>,
    lock: Mutex<()>,
    mutations: AtomicU64,
    limit_hits: AtomicU64,
    spillovers: AtomicU64,
    /// The run log's line count and size as last appended (see [`crate::runlog::append`]), so an
    /// append need not read the log to know whether it must trim it.
    history: Mutex<Option<(usize, u64)>>,
    /// This environment's identity among all environments of the process.
    scope: u64,
}

/// Gives every gateway (every environment) its own [`Gateway::scope`].
static SCOPES: AtomicU64 = AtomicU64::new(1);

fn take<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The guarded data stays consistent at every await-free step, so a poisoned lock is reused.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Gateway {
    /// A gateway over `tree`.
    pub fn new(
        tree: Arc<MountTree>,
        limits: Limits,
        read_only: Vec<VPath>,
        validator: Arc<dyn ScriptValidator>,
    ) -> Gateway {
        Gateway {
            tree,
            limits,
            read_only,
            folder_read_only: false,
            validator,
            versions: Mutex::new(Versions::default()),
            lock: Mutex::new(()),
            mutations: AtomicU64::new(0),
            limit_hits: AtomicU64::new(0),
            spillovers: AtomicU64::new(0),
            history: Mutex::new(None),
            scope: SCOPES.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// This environment's identity, unique in the process (host modules key per-environment
    /// state by it: env:motion's browser).
    pub fn scope(&self) -> u64 {
        self.scope
    }

    /// The raw tree, for reads and environment-owned writes.
    pub fn tree(&self) -> &MountTree {
        &self.tree
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Sets `limits.max_vfs_bytes` (for [`crate::Environment::open_folder`], which knows the
    /// folder's size only once the tree is assembled).
    pub(crate) fn set_tree_cap(&mut self, cap: u64) {
        self.limits.max_vfs_bytes = cap;
    }

    /// Opens the whole folder read-only: every change to the person's files is refused (with
    /// the way to reopen it writable); the agent-writable zones (`/tmp`) still work, and nothing
    /// ever becomes pending.
    pub(crate) fn set_folder_read_only(&mut self, on: bool) {
        self.folder_read_only = on;
    }

    /// Whether the whole folder is open read-only.
    pub fn folder_read_only(&self) -> bool {
        self.folder_read_only
    }

    /// The host's read-only paths.
    pub fn read_only(&self) -> &[VPath] {
        &self.read_only
    }

    /// The counters so far.
    pub fn counters(&self) -> Counters {
        Counters {
            mutations: self.mutations.load(Ordering::SeqCst),
            limit_hits: self.limit_hits.load(Ordering::SeqCst),
            spillovers: self.spillovers.load(Ordering::SeqCst),
        }
    }

    pub(crate) fn count_limit_hit(&self) {
        self.limit_hits.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn count_spillover(&self) {
        self.spillovers.fetch_add(1, Ordering::SeqCst);
    }

    /// Records a change the host made behind the environment's back (straight into the folder's
    /// tree, a discard): the mutation counter moves and the tree size is recounted at next need.
    pub fn note_external_change(&self) {
        self.tree.invalidate_size();
        self.bump();
    }

    /// Records a change the environment made through the raw tree (a checkpoint restore). The
    /// tree measured it as it happened, so only the mutation counter moves.
    pub(crate) fn note_restore(&self) {
        self.bump();
    }

    fn bump(&self) {
        self.mutations.fetch_add(1, Ordering::SeqCst);
    }

    /// Runs `f` with the version rings (for `history` and `diff`).
    pub fn with_versions<T>(&self, f: impl FnOnce(&mut Versions, &dyn Tree) -> T) -> T {
        f(&mut take(&self.versions), self.tree.as_ref())
    }

    /// Refuses a mutation `op` of `path` when a zone protects it (see the module docs).
    pub fn check(&self, path: &VPath, op: &'static str) -> Result<()> {
        if path.is_root() {
            return Err(EnvError::Root { op });
        }
        if let Some(zone) = crate::zone::Zone::of(path).filter(|z| !z.agent_writable()) {
            let (zone, why) = (zone.path(), zone.holds());
            return Err(EnvError::EnvZone { op, path: path.clone(), zone, why, name: path.name().to_owned() });
        }
        if self.folder_read_only && crate::zone::Zone::of(path).is_none() {
            return Err(EnvError::ReadOnlyFolder { op, path: path.clone(), name: path.name().to_owned() });
        }
        if let Some(zone) = self.read_only.iter().find(|z| path.is_under(z)) {
            return Err(EnvError::ReadOnlyPath {
                op,
                path: path.clone(),
                zone: zone.clone(),
                name: path.name().to_owned(),
            });
        }
        let scripts = VPath::parse("/scripts")?;
        if path.is_under(&scripts) {
            if path.segments().any(|s| s.ends_with(".d.ts")) {
                return Err(EnvError::Derived { op, path: path.clone() });
            }
            if path.extension() == Some("ts") {
                return Err(EnvError::TypeScript { op, path: path.clone() });
            }
        }
        Ok(())
    }

    /// For `rm` and `mv` sources: also refuses a directory that holds a protected zone.
    fn check_container(&self, path: &VPath, op: &'static str) -> Result<()> {
        self.check(path, op)?;
        if let Some(zone) = self.read_only.iter().find(|z| z.is_under(path)) {
            return Err(EnvError::ContainsZone { op, path: path.clone(), zone: zone.clone() });
        }
        Ok(())
    }

    /// The tree's size now: counted once, then kept current by the tree itself as each mutation
    /// lands (see the size accounting in [`MountTree`]).
    fn total(&self) -> Result<u64> {
        Ok(self.tree.total_size()?)
    }

    /// Refuses a file of `size` bytes at `path`, or a tree growing by `delta` past its cap.
    pub(crate) fn check_size(&self, path: &VPath, size: u64, delta: i64) -> Result<()> {
        let cap = self.limits.max_file_bytes;
        let err = if size > cap {
            Some(EnvError::FileTooLarge { path: path.clone(), size, cap })
        } else if delta > 0 {
            let would = self.total()? + delta as u64;
            (would > self.limits.max_vfs_bytes).then(|| EnvError::TreeTooLarge {
                path: path.clone(),
                would,
                cap: self.limits.max_vfs_bytes,
            })
        } else {
            None
        };
        match err {
            Some(e) => {
                self.limit_hits.fetch_add(1, Ordering::SeqCst);
                Err(e)
            }
            None => Ok(()),
        }
    }

    /// Runs the validator on a script's new content; `None` for paths outside the pipeline.
    fn validate(&self, path: &VPath, data: &[u8]) -> Result<Option<ScriptCheck>> {
        self.validate_in(path, data, self.tree.as_ref())
    }

    /// [`Gateway::validate`] against `tree`, a view of the tree as it will be (a checkpoint
    /// restore validates each script among the files coming back with it).
    pub(crate) fn validate_in(&self, path: &VPath, data: &[u8], tree: &dyn Tree) -> Result<Option<ScriptCheck>> {
        if !is_script(path) {
            return Ok(None);
        }
        self.validator
            .check(path, data, tree)
            .map(Some)
            .map_err(|reason| EnvError::ScriptRejected { path: path.clone(), reason })
    }

    /// Plans the `.d.ts` sibling of `path` for content that passed `check` (`None`: removal).
    pub(crate) fn plan_dts(&self, path: &VPath, check: Option<&ScriptCheck>) -> Result<Option<DtsPlan>> {
        pipeline::plan(self.tree.as_ref(), path, check, self.limits.max_file_bytes)
    }

    fn apply_dts(&self, plan: Option<DtsPlan>) -> Result<()> {
        pipeline::apply(self.tree.as_ref(), plan)
    }

    /// The current bytes of a file, `None` when absent; a directory is an error naming `op`.
    fn prior(&self, path: &VPath) -> Result<Option<Vec<u8>>> {
        match self.tree.stat(path)? {
            None => Ok(None),
            Some(s) if s.kind == Kind::Dir => Err(folio_vfs::VfsError::WriteOntoDirectory(path.clone()).into()),
            Some(_) => Ok(Some(self.tree.read(path)?)),
        }
    }

    /// Writes (or, with `append`, appends) `data` at `path`; returns whether the file was created
    /// and its new size. `expect` makes the write conditional on the current content (edits).
    pub fn write(&self, path: &VPath, data: &[u8], mode: WriteMode, expect: Option<&[u8]>) -> Result<(bool, u64)> {
        self.write_checked(path, data, mode, expect).map(|w| (w.created, w.size))
    }

    /// [`Gateway::write`], also returning what the script check reported.
    pub fn write_checked(&self, path: &VPath, data: &[u8], mode: WriteMode, expect: Option<&[u8]>) -> Result<Written> {
        self.check(path, "write")?;
        let _guard = take(&self.lock);
        let prior = self.prior(path)?;
        if let Some(expected) = expect
            && prior.as_deref() != Some(expected)
        {
            return Err(EnvError::refused(format!(
                "{path} changed while the edit was being prepared — read it again and reapply the change"
            )));
        }
        let content = match (&prior, mode) {
            (Some(old), WriteMode::Append) => [old.as_slice(), data].concat(),
            _ => data.to_vec(),
        };
        // The new content replaces the prior, which itself moves into a version blob, so the tree
        // grows by the full new length: (new − prior) + prior.
        self.check_size(path, content.len() as u64, 0)?;
        let script = self.validate(path, &content)?;
        self.replace_locked(path, prior.as_deref(), &content, script, mode.op())
    }

    /// The common tail of a write and an edit, under the lock: plan the derived `.d.ts`, check the
    /// tree's size (the prior content moves into a version blob, so the tree grows by the whole new
    /// length), record the version, write, apply the `.d.ts`, count the mutation.
    fn replace_locked(
        &self,
        path: &VPath,
        prior: Option<&[u8]>,
        content: &[u8],
        script: Option<ScriptCheck>,
        op: &'static str,
    ) -> Result<Written> {
        let derived = self.plan_dts(path, script.as_ref())?;
        let delta = content.len() as i64 + derived.as_ref().map_or(0, DtsPlan::growth);
        self.check_size(path, content.len() as u64, delta)?;
        take(&self.versions).record(self.tree.as_ref(), path, prior, op, self.limits.max_versions_per_file)?;
        // The prior was read under the lock, so its length is the size being replaced.
        self.tree.write_replacing(path, content, prior.map(|p| p.len() as u64))?;
        self.apply_dts(derived)?;
        self.bump();
        Ok(Written { created: prior.is_none(), size: content.len() as u64, script })
    }

    /// Commits an edit prepared against `expected`, the bytes the editor read: `content` is
    /// validated first, outside the lock (a slow script check must not stall other mutations),
    /// then under the lock the file is replaced only if it still holds exactly `expected`.
    /// Returns the new size, or `None` when something else rewrote the file in the meantime —
    /// the caller reads it again and reapplies its change.
    pub fn commit_edit(&self, path: &VPath, expected: &[u8], content: &[u8]) -> Result<Option<Written>> {
        self.check(path, "edit")?;
        self.check_size(path, content.len() as u64, 0)?;
        let script = self.validate(path, content)?;
        let _guard = take(&self.lock);
        let prior = self.prior(path)?;
        if prior.as_deref() != Some(expected) {
            return Ok(None);
        }
        self.replace_locked(path, prior.as_deref(), content, script, "edit").map(Some)
    }

    /// Runs `f` holding the gateway lock, for a multi-step change the environment makes itself
    /// (a checkpoint fork or restore, a run-log append), so no mutation interleaves with it. The
    /// lock is not re-entrant: `f` uses [`Gateway::write_state_locked`] and the unlocked checks,
    /// never the public mutation methods.
    pub(crate) fn exclusive<T>(&self, f: impl FnOnce() -> T) -> T {
        let _guard = take(&self.lock);
        f()
    }

    /// Stores the environment's own state (the run log, a checkpoint) at `path`: refused outside
    /// `/.env` ([`EnvError::StateOutsideEnv`]) and past `limits.max_file_bytes` or
    /// `limits.max_vfs_bytes` (naming the field), written crash-safe by the zone's tree. Not
    /// versioned, not counted as a mutation.
    pub fn write_state(&self, path: &VPath, data: &[u8]) -> Result<()> {
        let _guard = take(&self.lock);
        self.write_state_locked(path, data)
    }

    /// [`Gateway::write_state`] for a caller holding the lock ([`Gateway::exclusive`]).
    pub(crate) fn write_state_locked(&self, path: &VPath, data: &[u8]) -> Result<()> {
        if crate::zone::Zone::of(path) != Some(crate::zone::Zone::Env) || path.as_str() == "/.env" {
            return Err(EnvError::StateOutsideEnv { path: path.clone() });
        }
        let prior = match self.tree.stat(path)? {
            Some(s) if s.kind == Kind::Dir => return Err(folio_vfs::VfsError::WriteOntoDirectory(path.clone()).into()),
            Some(s) => Some(s.size),
            None => None,
        };
        let delta = data.len() as i64 - prior.unwrap_or(0) as i64;
        self.check_size(path, data.len() as u64, delta)?;
        self.tree.write_replacing(path, data, prior)?;
        Ok(())
    }

    /// Appends `data` to the state file `path` (the run log), under the same zone and size checks
    /// as [`Gateway::write_state`], for a caller holding the lock. The zone's tree appends in
    /// place and flushes, so the cost does not grow with the file.
    pub(crate) fn append_state_locked(&self, path: &VPath, data: &[u8]) -> Result<()> {
        if crate::zone::Zone::of(path) != Some(crate::zone::Zone::Env) || path.as_str() == "/.env" {
            return Err(EnvError::StateOutsideEnv { path: path.clone() });
        }
        let prior = match self.tree.stat(path)? {
            Some(s) if s.kind == Kind::Dir => return Err(folio_vfs::VfsError::WriteOntoDirectory(path.clone()).into()),
            Some(s) => s.size,
            None => 0,
        };
        self.check_size(path, prior + data.len() as u64, data.len() as i64)?;
        self.tree.append(path, data)?;
        Ok(())
    }

    /// The run log's cached line count, when the cache describes a log of `size` bytes (anything
    /// else — first use, a change behind the cache's back — reads the log again).
    pub(crate) fn history_shape(&self, size: u64) -> Option<usize> {
        take(&self.history).filter(|(_, s)| *s == size).map(|(count, _)| count)
    }

    /// Remembers the run log's line count and size after an append or a rewrite.
    pub(crate) fn set_history_shape(&self, count: usize, size: u64) {
        *take(&self.history) = Some((count, size));
    }

    /// Creates a directory (and its parents).
    pub fn mkdir(&self, path: &VPath) -> Result<()> {
        self.check(path, "mkdir")?;
        let _guard = take(&self.lock);
        self.tree.mkdir(path)?;
        self.bump();
        Ok(())
    }

    /// Removes a file, or a directory recursively; returns how many files went. Each file's prior
    /// content is recorded, so a directory removal is undoable file by file.
    pub fn rm(&self, path: &VPath) -> Result<usize> {
        self.check_container(path, "remove")?;
        let _guard = take(&self.lock);
        let is_file = self.tree.stat(path)?.is_some_and(|s| s.kind == Kind::File);
        let files: Vec<VPath> = self.tree.walk(path)?.into_iter().filter(|f| !is_derived(f)).collect();
        let derived = if is_file { self.plan_dts(path, None)? } else { None };
        {
            let mut versions = take(&self.versions);
            for file in &files {
                let data = self.tree.read(file)?;
                versions.record(self.tree.as_ref(), file, Some(&data), "rm", self.limits.max_versions_per_file)?;
            }
        }
        self.tree.rm(path)?;
        self.apply_dts(derived)?;
        self.bump();
        Ok(files.len())
    }

    /// Moves (`is_move`) or copies a file or directory; returns the number of files transferred.
    pub fn transfer(&self, from: &VPath, to: &VPath, is_move: bool) -> Result<usize> {
        let (op, dest_op) = if is_move { ("mv", "move to") } else { ("cp", "copy to") };
        if is_move {
            self.check_container(from, "move")?;
        }
        self.check(to, dest_op)?;
        let _guard = take(&self.lock);
        // Derived `.d.ts` siblings travel with a directory but are regenerated, never transferred.
        let (carried, pairs): (Vec<_>, Vec<_>) = folio_vfs::transfer_pairs(self.tree.as_ref(), op, from, to)?
            .into_iter()
            .partition(|(src, _)| is_derived(src));
        if pairs.is_empty() {
            return Err(EnvError::refused(format!(
                "{from} is an empty directory — there is nothing to {}",
                if is_move { "move" } else { "copy" }
            )));
        }
        let mut staged = Vec::with_capacity(pairs.len());
        let mut removals = Vec::new();
        let mut writes = Vec::new();
        let mut delta = 0i64;
        for (src, dst) in &pairs {
            self.check(dst, dest_op)?;
            // Refused by its size before it is read: a 2 GB file is never loaded to be refused.
            if let Some(stat) = self.tree.stat(src)? {
                self.check_size(dst, stat.size, 0)?;
            }
            let data = self.tree.read(src)?;
            self.check_size(dst, data.len() as u64, 0)?;
            let script = self.validate(dst, &data)?;
            if let Some(plan) = self.plan_dts(dst, script.as_ref())? {
                delta += plan.growth();
                writes.push(plan);
            }
            if is_move && let Some(plan) = self.plan_dts(src, None)? {
                removals.push(plan);
            }
            delta += data.len() as i64;
            let prior = self.prior(dst)?;
            staged.push((src, dst, data, prior));
        }
        for (_, dst) in &carried {
            removals.push(DtsPlan::removal(dst.clone()));
        }
        self.check_size(to, 0, delta)?;
        {
            let mut versions = take(&self.versions);
            let max = self.limits.max_versions_per_file;
            for (src, dst, data, prior) in &staged {
                versions.record(self.tree.as_ref(), dst, prior.as_deref(), op, max)?;
                if is_move {
                    versions.record(self.tree.as_ref(), src, Some(data), op, max)?;
                }
            }
        }
        if is_move {
            self.tree.mv(from, to)?
        } else {
            self.tree.cp(from, to)?
        }
        // Stale siblings go first (the moved-away sources', and any copied along with a
        // directory), then each destination script's fresh one is written.
        for plan in removals.into_iter().chain(writes) {
            self.apply_dts(Some(plan))?;
        }
        self.bump();
        Ok(pairs.len())
    }

    /// Restores the previous (`Side::Undo`) or next (`Side::Redo`) revision of one file.
    pub fn step(&self, path: &VPath, side: Side) -> Result<Stepped> {
        let op = if side == Side::Undo { "undo" } else { "redo" };
        self.check(path, op)?;
        let _guard = take(&self.lock);
        if let Some(s) = self.tree.stat(path)?
            && s.kind == Kind::Dir
        {
            return Err(EnvError::UndoDirectory { op, path: path.clone() });
        }
        let mut versions = take(&self.versions);
        let tree = self.tree.as_ref();
        let ring = versions.ring(tree, path).unwrap_or_default();
        let Some(next) = (if side == Side::Undo { ring.undo.last() } else { ring.redo.last() }) else {
            return Err(if side == Side::Undo {
                EnvError::NothingToUndo(path.clone())
            } else {
                EnvError::NothingToRedo(path.clone())
            });
        };
        // Validate the content about to come back before either ring moves.
        let derived = match versions.content(tree, next)? {
            Some(content) => {
                self.check_size(path, content.len() as u64, 0)?;
                let script = self.validate(path, &content)?;
                self.plan_dts(path, script.as_ref())?
            }
            None => self.plan_dts(path, None)?,
        };
        let current = self.prior(path)?;
        let max = self.limits.max_versions_per_file;
        let Some((revision, content)) = versions.step(tree, path, side, current.as_deref(), max)? else {
            return Err(EnvError::NothingToUndo(path.clone()));
        };
        match &content {
            Some(data) => tree.write(path, data)?,
            None if current.is_some() => tree.rm(path)?,
            None => {}
        }
        self.apply_dts(derived)?;
        let ring = versions.ring(tree, path).unwrap_or_default();
        self.bump();
        Ok(Stepped { revision, present: content.is_some(), undo_left: ring.undo.len(), redo_left: ring.redo.len() })
    }

    /// The host's door for a dropped file: stores `data` as `name` in `dir`, never overwriting —
    /// a taken name becomes `name-2.ext`, `name-3.ext`, … Read-only paths are open to it (seeding
    /// reference material is the point); environment zones are not. Returns where it landed.
    pub fn mount(&self, dir: &VPath, name: &str, data: &[u8]) -> Result<VPath> {
        if let Some(zone) = crate::zone::Zone::of(dir).filter(|z| !z.agent_writable()) {
            return Err(EnvError::refused(format!(
                "cannot mount into {dir}: {} is maintained by the environment — mount into /inbox (or another folder path) instead",
                zone.path()
            )));
        }
        if self.folder_read_only && crate::zone::Zone::of(dir).is_none() {
            return Err(EnvError::ReadOnlyFolder { op: "mount", path: dir.clone(), name: name.to_owned() });
        }
        let _guard = take(&self.lock);
        let first = dir.join(name)?;
        let (stem, ext) = match first.extension() {
            Some(ext) => (name[..name.len() - ext.len() - 1].to_owned(), format!(".{ext}")),
            None => (name.to_owned(), String::new()),
        };
        let mut target = first;
        let mut n = 1;
        while self.tree.exists(&target)? {
            n += 1;
            target = dir.join(&format!("{stem}-{n}{ext}"))?;
        }
        self.check_size(&target, data.len() as u64, data.len() as i64)?;
        let script = self.validate(&target, data)?;
        let derived = self.plan_dts(&target, script.as_ref())?;
        self.check_size(&target, data.len() as u64, derived.as_ref().map_or(0, DtsPlan::growth))?;
        self.tree.write(&target, data)?;
        self.apply_dts(derived)?;
        self.bump();
        Ok(target)
    }
}
