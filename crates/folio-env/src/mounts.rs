//! The mount table: one [`Tree`] that is the agent's `/`.
//!
//! Paths under an environment zone (`crate::zone`: `/tmp`, `/std`, `/skills`, `/.env`) go to that zone's own
//! tree, rebased so the zone root is the zone tree's `/`; every other path goes to the folder's
//! tree. `list("/")` merges the folder's top level with the zone roots. A folder entry that has a
//! zone's name is shadowed here (the zone wins); [`MountTree::shadowed`] reports it so the
//! orientation file can say so instead of hiding it silently.
//!
//! Moves inside the folder are handed to the folder tree whole, so the overlay can record them as
//! renames; a move that crosses a mount boundary is copied and removed file by file.
//!
//! # Size accounting
//!
//! The tree's total size (what `limits.max_vfs_bytes` caps) is counted once, at first need, by
//! listing the whole tree, and from then on adjusted by what each mutation measurably changed:
//! a write by its new length minus the old file's size (one `stat`, or none when the gateway,
//! which has just read the old content, passes its size to [`MountTree::write_replacing`]), a removal by the bytes
//! under the removed path, a move by the bytes under its source and destination before and
//! after. Every mutation of any kind — the gateway's, the environment's own `/.env` writes, a
//! checkpoint restore — goes through this type, so the figure stays exact without ever walking
//! the whole tree again. The one thing it cannot see is a change made behind its back (the
//! person editing the real folder while the app runs); [`MountTree::invalidate_size`] forgets
//! the figure so the next need recounts it.
//!
//! The size lock is held across each measured mutation, so two mutations cannot interleave
//! their measurements. It is the innermost lock: nothing is locked while it is held.

use std::sync::{Arc, Mutex, MutexGuard};

use folio_vfs::{DirEntry, Kind, Stat, Tree, VPath, VfsError};

/// The composite tree: a folder with zone trees mounted over it.
pub struct MountTree {
    folder: Arc<dyn Tree>,
    zones: Vec<(VPath, Arc<dyn Tree>)>,
    /// Bytes of file content in the whole tree; `None` until first asked for, or after
    /// [`MountTree::invalidate_size`].
    size: Mutex<Option<u64>>,
}

fn applied(total: u64, before: u64, after: u64) -> u64 {
    total.saturating_sub(before).saturating_add(after)
}

impl MountTree {
    /// Mounts each `(zone root, tree)` over `folder`. Zone roots must be top-level paths.
    pub fn new(folder: Arc<dyn Tree>, zones: Vec<(VPath, Arc<dyn Tree>)>) -> MountTree {
        MountTree { folder, zones, size: Mutex::new(None) }
    }

    fn size_lock(&self) -> MutexGuard<'_, Option<u64>> {
        // The cached figure is a plain number, valid after every completed step, so a lock
        // poisoned by a panic elsewhere is reused.
        self.size.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets the cached tree size, so the next need recounts it by listing the whole tree. For
    /// hosts that changed the folder behind the environment's back (a discard, an outside edit).
    pub fn invalidate_size(&self) {
        *self.size_lock() = None;
    }

    /// The cached tree size, if it has been counted (for tests and diagnostics).
    pub fn cached_size(&self) -> Option<u64> {
        *self.size_lock()
    }

    /// Bytes of file content at or below `path` (0 when nothing is there), found by listing:
    /// each directory listing carries its files' sizes, so no file is stat'ed on its own.
    pub fn bytes_under(&self, path: &VPath) -> folio_vfs::Result<u64> {
        match self.stat(path)? {
            None => Ok(0),
            Some(s) if s.kind == Kind::File => Ok(s.size),
            Some(_) => self.dir_bytes(path),
        }
    }

    fn dir_bytes(&self, dir: &VPath) -> folio_vfs::Result<u64> {
        let mut total = 0;
        for entry in self.list(dir)? {
            total += match entry.kind {
                Kind::File => entry.size,
                Kind::Dir => self.dir_bytes(&dir.join(&entry.name)?)?,
            };
        }
        Ok(total)
    }

    /// The bytes under each of `roots` (which must not overlap).
    fn bytes_under_all(&self, roots: &[&VPath]) -> folio_vfs::Result<u64> {
        roots.iter().try_fold(0, |sum, root| Ok(sum + self.bytes_under(root)?))
    }

    /// Runs the mutation `op`, which changes nothing outside `roots` (disjoint subtrees), and
    /// adjusts the cached size by what the bytes under `roots` measured before and after. When
    /// the size has not been counted yet nothing is measured. A measurement that fails (the tree
    /// became unreadable half-way) drops the figure, so the next need recounts it.
    fn measured<T>(&self, roots: &[&VPath], op: impl FnOnce() -> folio_vfs::Result<T>) -> folio_vfs::Result<T> {
        let mut size = self.size_lock();
        let Some(total) = *size else { return op() };
        let Ok(before) = self.bytes_under_all(roots) else {
            *size = None;
            return op();
        };
        let result = op();
        *size = self.bytes_under_all(roots).ok().map(|after| applied(total, before, after));
        result
    }

    /// [`Tree::write`] for a caller that already knows the size of the file being replaced
    /// (`None`: there is none) and holds a lock every other writer of `path` takes too — the
    /// gateway, which has just read the prior content under its lock. It skips the `stat` a
    /// plain write measures the size delta with.
    pub fn write_replacing(&self, path: &VPath, data: &[u8], prior: Option<u64>) -> folio_vfs::Result<()> {
        let mut size = self.size_lock();
        let Some(total) = *size else { return self.route_write(path, data) };
        self.write_measured(&mut size, total, prior.unwrap_or(0), path, data)
    }

    /// Writes `data` over a file of `before` bytes and moves the cached `total` by the difference;
    /// when the write fails, what is there now is measured instead (one stat, on failure only).
    fn write_measured(
        &self,
        size: &mut Option<u64>,
        total: u64,
        before: u64,
        path: &VPath,
        data: &[u8],
    ) -> folio_vfs::Result<()> {
        let result = self.route_write(path, data);
        *size = match &result {
            Ok(()) => Some(applied(total, before, data.len() as u64)),
            Err(_) => match self.stat(path) {
                Ok(Some(s)) if s.kind == Kind::File => Some(applied(total, before, s.size)),
                Ok(None) => Some(applied(total, before, 0)),
                // Something unexpected is there now: recount at next need.
                _ => None,
            },
        };
        result
    }

    fn route_write(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        if path.is_root() || self.zone_at(path).is_some() {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        let (tree, inner) = self.route(path);
        tree.write(&inner, data).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn route_rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        let (tree, inner) = self.route(path);
        tree.rm(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    /// The folder's own tree (what a commit publishes).
    pub fn folder(&self) -> &Arc<dyn Tree> {
        &self.folder
    }

    /// The tree and the path inside it that `path` routes to.
    fn route(&self, path: &VPath) -> (&dyn Tree, VPath) {
        for (root, tree) in &self.zones {
            if path.is_under(root) && !root.is_root() {
                let inner = path.rebase(root, &VPath::root()).unwrap_or_else(VPath::root);
                return (tree.as_ref(), inner);
            }
        }
        (self.folder.as_ref(), path.clone())
    }

    /// The zone mounted at `path` exactly, if any.
    fn zone_at(&self, path: &VPath) -> Option<&Arc<dyn Tree>> {
        self.zones.iter().find(|(root, _)| root == path).map(|(_, tree)| tree)
    }

    /// Maps a zone tree's error paths back to the agent's paths, so messages name what was asked.
    fn outer_err(&self, err: VfsError, asked: &VPath, inner: &VPath) -> VfsError {
        if asked == inner {
            return err;
        }
        let fix = |p: VPath| if &p == inner { asked.clone() } else { p };
        match err {
            VfsError::NoSuchFile(p) => VfsError::NoSuchFile(fix(p)),
            VfsError::ReadDirectory(p) => VfsError::ReadDirectory(fix(p)),
            VfsError::WriteOntoDirectory(p) => VfsError::WriteOntoDirectory(fix(p)),
            VfsError::NoSuchEntry(p) => VfsError::NoSuchEntry(fix(p)),
            VfsError::NotADirectory(p) => VfsError::NotADirectory(fix(p)),
            VfsError::NoSuchDirectory(p) => VfsError::NoSuchDirectory(fix(p)),
            VfsError::MkdirOnFile(p) => VfsError::MkdirOnFile(fix(p)),
            other => other,
        }
    }

    /// Top-level folder entries hidden behind a zone of the same name.
    pub fn shadowed(&self) -> Vec<(VPath, Kind)> {
        let mut out = Vec::new();
        for (root, _) in &self.zones {
            if let Ok(Some(stat)) = self.folder.stat(root) {
                out.push((root.clone(), stat.kind));
            }
        }
        out
    }

    fn is_zone_path(&self, path: &VPath) -> bool {
        self.zones.iter().any(|(root, _)| path.is_under(root))
    }
}

impl Tree for MountTree {
    fn read(&self, path: &VPath) -> folio_vfs::Result<Vec<u8>> {
        let (tree, inner) = self.route(path);
        tree.read(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn read_range(&self, path: &VPath, offset: u64, len: u64) -> folio_vfs::Result<Vec<u8>> {
        let (tree, inner) = self.route(path);
        tree.read_range(&inner, offset, len).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn write(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        let mut size = self.size_lock();
        let Some(total) = *size else { return self.route_write(path, data) };
        // A write replaces one file: the delta is its new length minus what was there (one stat).
        let before = match self.stat(path) {
            Ok(Some(s)) if s.kind == Kind::File => s.size,
            Ok(None) => 0,
            // Writing onto a directory fails without changing anything.
            Ok(Some(_)) => return self.route_write(path, data),
            Err(_) => {
                *size = None;
                return self.route_write(path, data);
            }
        };
        self.write_measured(&mut size, total, before, path, data)
    }

    fn append(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        if path.is_root() || self.zone_at(path).is_some() {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        let mut size = self.size_lock();
        let (tree, inner) = self.route(path);
        let result = tree.append(&inner, data).map_err(|e| self.outer_err(e, path, &inner));
        // An append grows one file by exactly its data; a failed one may have written part.
        if let Some(total) = *size {
            *size = result.is_ok().then(|| total + data.len() as u64);
        }
        result
    }

    fn rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        self.measured(&[path], || self.route_rm(path))
    }

    fn mkdir(&self, path: &VPath) -> folio_vfs::Result<()> {
        let (tree, inner) = self.route(path);
        tree.mkdir(&inner).map_err(|e| self.outer_err(e, path, &inner))
    }

    fn stat(&self, path: &VPath) -> folio_vfs::Result<Option<Stat>> {
        let (tree, inner) = self.route(path);
        tree.stat(&inner)
    }

    fn list(&self, dir: &VPath) -> folio_vfs::Result<Vec<DirEntry>> {
        let (tree, inner) = self.route(dir);
        let mut entries = tree.list(&inner).map_err(|e| self.outer_err(e, dir, &inner))?;
        if dir.is_root() {
            entries.retain(|e| !self.zones.iter().any(|(root, _)| root.name() == e.name));
            for (root, _) in &self.zones {
                entries.push(DirEntry { name: root.name().to_owned(), kind: Kind::Dir, size: 0 });
            }
            entries.sort_by(|a, b| {
                let rank = |k: Kind| if k == Kind::Dir { 0 } else { 1 };
                rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.name.cmp(&b.name))
            });
        }
        Ok(entries)
    }

    fn mv(&self, from: &VPath, to: &VPath) -> folio_vfs::Result<()> {
        // Measure the smallest set of disjoint subtrees that holds both ends.
        let roots: Vec<&VPath> = if from.is_under(to) {
            vec![to]
        } else if to.is_under(from) {
            vec![from]
        } else {
            vec![from, to]
        };
        self.measured(&roots, || {
            if !self.is_zone_path(from) && !self.is_zone_path(to) && !from.is_root() {
                return self.folder.mv(from, to);
            }
            let pairs = folio_vfs::transfer_pairs(self, "mv", from, to)?;
            for (src, dst) in &pairs {
                let data = self.read(src)?;
                self.route_write(dst, &data)?;
            }
            self.route_rm(from)
        })
    }

    fn total_size(&self) -> folio_vfs::Result<u64> {
        let mut size = self.size_lock();
        if let Some(total) = *size {
            return Ok(total);
        }
        let total = self.dir_bytes(&VPath::root())?;
        *size = Some(total);
        Ok(total)
    }
}
