//! The copy-on-write overlay over a real folder, persisted in a per-folder state directory.
//!
//! Reads fall through to the folder; writes, removals, renames and new directories are recorded as
//! entries (see `store`) and reach the disk only through [`Overlay::commit`]. The entries survive
//! the process ending and a crash, so a second process (the `folio` CLI beside the desktop app)
//! sees the same pending work. See `commit` for the journal that makes a commit crash-safe, and
//! `pending` for how conflicts with changes made outside Folio are found.

mod commit;
pub(crate) mod host;
mod journal;
mod mutate;
mod pending;
mod recovery;
pub(crate) mod store;
mod view;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

pub use commit::{CommitReport, Selection};
pub use host::{CaseMode, Fingerprint, NormalisationMode, Probe, detect_case_insensitive, probe_folder};
pub use pending::{Change, ChangeKind, Conflict};
pub use recovery::{Recovery, RecoveryOutcome};
pub use watch::{HostChange, HostWatch};

use crate::error::{Result, VfsError};
use crate::ignore::IgnoreRules;
use crate::names::NameRules;
use crate::path::VPath;
use crate::tree::{DirEntry, Stat, Tree};
use host::HostRoot;
use mutate::Origin;
use store::{EntryKind, Store};
use view::Ctx;

/// How to open an [`Overlay`].
#[derive(Debug, Clone, Default)]
pub struct OverlayOptions {
    /// Where per-folder state lives (`<root>/folders/<name>-<hash>/`). Default: `FOLIO_STATE_DIR`,
    /// else the OS app-data directory (`~/.local/share/folio` on Linux).
    pub state_root: Option<PathBuf>,
    /// Refuse every mutation and every commit.
    pub read_only: bool,
    /// Names hidden from the tree; `None` means [`IgnoreRules::default`].
    pub ignore: Option<IgnoreRules>,
    /// How names that differ only in case are treated.
    pub case: CaseMode,
    /// How names that differ only in Unicode normalisation are treated.
    pub normalisation: NormalisationMode,
}

/// A real folder seen through Folio's pending changes.
pub struct Overlay {
    host: HostRoot,
    store: Mutex<Store>,
    ignore: IgnoreRules,
    read_only: bool,
    state_dir: PathBuf,
    recovery: Option<Recovery>,
}

/// The state root used when none is given: `FOLIO_STATE_DIR`, else the OS app-data directory.
pub fn default_state_root() -> Result<PathBuf> {
    if let Some(dir) = std::env::var_os("FOLIO_STATE_DIR").filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    dirs::data_dir().map(|d| d.join("folio")).ok_or_else(|| VfsError::Store {
        location: "(no app-data directory)".to_owned(),
        detail: "this system reports no per-user data directory".to_owned(),
        hint: "pass --state-dir DIR or set FOLIO_STATE_DIR",
    })
}

/// The state directory of `folder` (already canonical) under `state_root`.
pub fn folder_state_dir(state_root: &Path, folder: &Path) -> PathBuf {
    let hash = blake3::hash(folder.to_string_lossy().as_bytes()).to_hex();
    let name: String = folder
        .file_name()
        .map(|n| {
            n.to_string_lossy()
                .chars()
                .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
                .collect()
        })
        .unwrap_or_else(|| "root".to_owned());
    state_root.join("folders").join(format!("{name}-{}", &hash.as_str()[..16]))
}

impl Overlay {
    /// Opens `folder` with its pending changes, finishing or rolling back a commit that a crash
    /// interrupted (see [`Overlay::recovery`]).
    pub fn open(folder: &Path, options: OverlayOptions) -> Result<Overlay> {
        let host = HostRoot::open(folder, options.case, options.normalisation, options.read_only)?;
        let state_root = match options.state_root {
            Some(root) => root,
            None => default_state_root()?,
        };
        let state_dir = folder_state_dir(&state_root, &host.root);
        std::fs::create_dir_all(&state_dir).map_err(|e| store::store_err(&state_dir, e))?;
        let marker = state_dir.join("folder.json");
        if !marker.exists() {
            let body = serde_json::json!({ "folder": host.root.display().to_string() }).to_string();
            std::fs::write(&marker, body).map_err(|e| store::store_err(&marker, e))?;
        }
        let store = Store::open(&state_dir)?;
        let mut overlay = Overlay {
            host,
            store: Mutex::new(store),
            ignore: options.ignore.unwrap_or_default(),
            read_only: options.read_only,
            state_dir,
            recovery: None,
        };
        overlay.recovery = overlay.recover()?;
        Ok(overlay)
    }

    /// The folder's real path.
    pub fn root(&self) -> &Path {
        &self.host.root
    }

    /// Where this folder's pending changes are kept.
    pub fn state_dir(&self) -> &Path {
        &self.state_dir
    }

    /// What the folder itself holds at `path` now, ignoring pending changes: the "before" of a
    /// before/after view. Like every disk access it goes through the containment check, so a
    /// path that resolves outside the folder is refused by name.
    pub fn read_disk(&self, path: &VPath) -> Result<Vec<u8>> {
        self.host.read(path)
    }

    /// True when the host folder folds case (see [`CaseMode`]).
    pub fn case_insensitive(&self) -> bool {
        self.host.names.fold_case
    }

    /// How the folder compares names and which it can hold (see [`NameRules`]).
    pub fn name_rules(&self) -> NameRules {
        self.host.names
    }

    /// What opening did about a commit a crash had interrupted, if there was one.
    pub fn recovery(&self) -> Option<&Recovery> {
        self.recovery.as_ref()
    }

    fn lock(&self) -> MutexGuard<'_, Store> {
        // The store holds no invariant a panic could break half-way: every change is inside an
        // SQLite transaction, which rolls back when dropped.
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn read_ctx<T>(&self, f: impl FnOnce(&Ctx<'_>) -> Result<T>) -> Result<T> {
        let store = self.lock();
        let ctx = Ctx { conn: &store.conn, blobs: &store.blobs, host: &self.host, ignore: &self.ignore };
        f(&ctx)
    }

    fn write_ctx<T>(&self, op: &'static str, path: &VPath, f: impl FnOnce(&Ctx<'_>) -> Result<T>) -> Result<T> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op, path: path.clone() });
        }
        let mut guard = self.lock();
        let Store { conn, blobs } = &mut *guard;
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| store::store_err(&self.state_dir, e))?;
        let out = {
            let ctx = Ctx { conn: &tx, blobs, host: &self.host, ignore: &self.ignore };
            f(&ctx)?
        };
        tx.commit().map_err(|e| store::store_err(&self.state_dir, e))?;
        Ok(out)
    }

    fn put_blob(&self, data: &[u8]) -> Result<String> {
        self.lock().put_blob(data)
    }

    /// The blob and size a copy of `src` needs: a pending file's own blob, or the folder's file
    /// streamed into a new blob a chunk at a time (a 2 GB file is never held in memory, and the
    /// store stays unlocked while it copies).
    fn stage_copy(&self, src: &VPath) -> Result<(String, u64)> {
        if let Some(e) = self.read_ctx(|ctx| ctx.entry(src))?
            && e.kind == EntryKind::File
            && let Some(blob) = e.blob
        {
            return Ok((blob, e.size));
        }
        match self.read_ctx(|ctx| ctx.host_file(src))? {
            Some(host) => {
                let blobs = self.lock().blobs.clone();
                blobs.put_blob_from_file(&host)?.map_err(|e| host::read_err(src, &host, e))
            }
            None => {
                let data = self.read(src)?;
                Ok((self.put_blob(&data)?, data.len() as u64))
            }
        }
    }

    /// How many entries the overlay holds (changes, including directory bookkeeping).
    pub fn entry_count(&self) -> Result<u64> {
        let store = self.lock();
        store::count(&store.conn).map(|n| n as u64).map_err(|e| store.err(e))
    }
}

impl Tree for Overlay {
    fn read(&self, path: &VPath) -> Result<Vec<u8>> {
        self.read_ctx(|ctx| ctx.read(&ctx.spell(path, false)?))
    }

    fn read_range(&self, path: &VPath, offset: u64, len: u64) -> Result<Vec<u8>> {
        self.read_ctx(|ctx| ctx.read_range(&ctx.spell(path, false)?, offset, len))
    }

    fn write(&self, path: &VPath, data: &[u8]) -> Result<()> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op: "write", path: path.clone() });
        }
        let blob = self.put_blob(data)?;
        self.write_ctx("write", path, |ctx| {
            ctx.write_entry(&ctx.spell(path, true)?, blob, data.len() as u64, Origin::Keep)
        })
    }

    fn rm(&self, path: &VPath) -> Result<()> {
        self.write_ctx("remove", path, |ctx| ctx.remove(&ctx.spell(path, true)?))
    }

    fn mkdir(&self, path: &VPath) -> Result<()> {
        self.write_ctx("mkdir", path, |ctx| ctx.make_dir(&ctx.spell(path, true)?))
    }

    fn stat(&self, path: &VPath) -> Result<Option<Stat>> {
        self.read_ctx(|ctx| ctx.stat(&ctx.spell(path, false)?))
    }

    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>> {
        self.read_ctx(|ctx| ctx.list(&ctx.spell(dir, false)?))
    }

    fn walk(&self, root: &VPath) -> Result<Vec<VPath>> {
        self.read_ctx(|ctx| {
            let root = ctx.spell(root, false)?;
            match ctx.stat(&root)? {
                None => Err(VfsError::NoSuchEntry(root.clone())),
                Some(s) if s.kind == crate::tree::Kind::File => Ok(vec![root.clone()]),
                Some(_) => ctx.walk(&root),
            }
        })
    }

    /// A copy shares a pending file's blob, and streams a folder file into one (see
    /// `stage_copy`), so copying a huge file costs one chunk of memory.
    fn cp(&self, from: &VPath, to: &VPath) -> Result<()> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op: "copy", path: to.clone() });
        }
        let (from, to) = self.read_ctx(|ctx| Ok((ctx.spell(from, false)?, ctx.spell(to, true)?)))?;
        for (src, dst) in crate::tree::transfer_pairs(self, "cp", &from, &to)? {
            let (blob, size) = self.stage_copy(&src)?;
            self.write_ctx("copy", &dst, |ctx| ctx.write_entry(&dst, blob, size, Origin::Keep))?;
        }
        Ok(())
    }

    /// A move is recorded as a rename: the destination remembers where it came from, so review
    /// shows `renamed` and commit applies both halves together. The source is removed before the
    /// destination is written, so a rename that changes only the case of a file's name passes
    /// the spelling check on a folder that ignores case (see `mutate`).
    fn mv(&self, from: &VPath, to: &VPath) -> Result<()> {
        if self.read_only {
            return Err(VfsError::ReadOnly { op: "move", path: from.clone() });
        }
        let (from, to) = self.read_ctx(|ctx| Ok((ctx.spell(from, false)?, ctx.spell(to, true)?)))?;
        let (from, to) = (&from, &to);
        let names = self.host.names;
        if names.fold_case
            && from != to
            && names.same(from.as_str(), to.as_str())
            && self.stat(from)?.is_some_and(|s| s.kind == crate::tree::Kind::Dir)
        {
            return Err(VfsError::CaseOnlyDirRename { from: from.clone(), to: to.clone() });
        }
        let pairs = crate::tree::transfer_pairs(self, "mv", from, to)?;
        let mut staged = Vec::with_capacity(pairs.len());
        for (src, dst) in pairs {
            let (blob, size) = self.stage_copy(&src)?;
            staged.push((src, dst, blob, size));
        }
        self.write_ctx("move", from, |ctx| {
            let mut moves = Vec::with_capacity(staged.len());
            for (src, dst, blob, size) in staged {
                let origin = match ctx.entry(&src)? {
                    Some(e) if e.kind == EntryKind::File && e.base == store::Base::Absent => e.renamed_from,
                    Some(e) if e.kind == EntryKind::File => Some(e.renamed_from.unwrap_or(src)),
                    _ => Some(src),
                };
                moves.push((dst, blob, size, origin));
            }
            ctx.remove(from)?;
            for (dst, blob, size, origin) in moves {
                ctx.write_entry(&dst, blob, size, Origin::Set(origin))?;
            }
            Ok(())
        })
    }
}
