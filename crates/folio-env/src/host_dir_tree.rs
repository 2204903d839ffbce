//! [`HostDirTree`]: a [`Tree`] kept in a plain host directory, used for the environment-owned
//! zones (`/tmp`, `/.env`, `/std`, `/skills`) that live in the folder's state directory.
//!
//! Every write goes to a temporary sibling first and is renamed into place, so a crash leaves
//! either the old or the new content, never half a file. A [`HostDirTree::durable`] tree also
//! flushes the temporary file before the rename and the directory after it, so the new content
//! survives a power cut too (about half a millisecond a write; `/.env` pays it, `/tmp` does not). The directory is private to Folio, so
//! there is no symlink containment to police: nothing but this code creates entries there.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use folio_vfs::{DirEntry, Kind, Stat, Tree, VPath, VfsError};

/// A tree stored in a host directory that only Folio writes to.
pub struct HostDirTree {
    root: PathBuf,
    temp_counter: AtomicU64,
    durable: bool,
}

fn host_err(op: &'static str, path: &Path, source: std::io::Error) -> VfsError {
    VfsError::Host {
        op,
        path: path.display().to_string(),
        source,
        hint: "check that Folio's state directory is writable and the disk is not full",
    }
}

fn mtime_ms(meta: &std::fs::Metadata) -> i64 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_millis() as i64)
}

impl HostDirTree {
    /// Opens (creating when needed) the directory `root` as a tree.
    pub fn open(root: &Path) -> folio_vfs::Result<HostDirTree> {
        std::fs::create_dir_all(root).map_err(|e| host_err("create", root, e))?;
        Ok(HostDirTree { root: root.to_path_buf(), temp_counter: AtomicU64::new(0), durable: false })
    }

    /// Flushes each write to disk before it replaces the old file (see the module docs).
    pub fn durable(mut self, on: bool) -> HostDirTree {
        self.durable = on;
        self
    }

    fn write_temp(&self, temp: &Path, data: &[u8]) -> std::io::Result<()> {
        if !self.durable {
            return std::fs::write(temp, data);
        }
        let mut file = std::fs::File::create(temp)?;
        std::io::Write::write_all(&mut file, data)?;
        file.sync_all()
    }

    /// Flushes the directory entry a rename just changed (durable trees only; where a directory
    /// cannot be opened for syncing, the rename itself is what there is).
    fn sync_dir(&self, dir: Option<&Path>) {
        if let (true, Some(dir)) = (self.durable, dir)
            && let Ok(handle) = std::fs::File::open(dir)
        {
            let _ = handle.sync_all();
        }
    }

    fn host(&self, path: &VPath) -> PathBuf {
        let mut out = self.root.clone();
        for segment in path.segments() {
            out.push(segment);
        }
        out
    }

    fn kind(&self, path: &VPath) -> Option<Kind> {
        match std::fs::metadata(self.host(path)) {
            Ok(m) if m.is_dir() => Some(Kind::Dir),
            Ok(m) if m.is_file() => Some(Kind::File),
            _ => None,
        }
    }

    fn ensure_parents(&self, op: &'static str, path: &VPath) -> folio_vfs::Result<()> {
        for ancestor in path.ancestors() {
            if self.kind(&ancestor) == Some(Kind::File) {
                return Err(VfsError::AncestorIsFile { op, path: path.clone(), ancestor });
            }
        }
        if let Some(parent) = path.parent() {
            let host = self.host(&parent);
            std::fs::create_dir_all(&host).map_err(|e| host_err("mkdir", &host, e))?;
        }
        Ok(())
    }
}

impl Tree for HostDirTree {
    fn read(&self, path: &VPath) -> folio_vfs::Result<Vec<u8>> {
        match self.kind(path) {
            Some(Kind::File) => {
                let host = self.host(path);
                std::fs::read(&host).map_err(|e| host_err("read", &host, e))
            }
            Some(Kind::Dir) => Err(VfsError::ReadDirectory(path.clone())),
            None => Err(VfsError::NoSuchFile(path.clone())),
        }
    }

    fn read_range(&self, path: &VPath, offset: u64, len: u64) -> folio_vfs::Result<Vec<u8>> {
        match self.kind(path) {
            Some(Kind::File) => {
                let host = self.host(path);
                folio_vfs::range::read_file_range(&host, offset, len).map_err(|e| host_err("read", &host, e))
            }
            Some(Kind::Dir) => Err(VfsError::ReadDirectory(path.clone())),
            None => Err(VfsError::NoSuchFile(path.clone())),
        }
    }

    fn write(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        if self.kind(path) == Some(Kind::Dir) {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        self.ensure_parents("write", path)?;
        let target = self.host(path);
        let n = self.temp_counter.fetch_add(1, Ordering::Relaxed);
        let temp = target.with_file_name(format!(".folio-tmp-{}-{n}", std::process::id()));
        self.write_temp(&temp, data).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            host_err("write", &temp, e)
        })?;
        std::fs::rename(&temp, &target).map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            host_err("write", &target, e)
        })?;
        self.sync_dir(target.parent());
        Ok(())
    }

    /// Appends in place (`O_APPEND`), flushed to disk on a durable tree: a crash can leave the
    /// file with a torn tail, never without what was there before (readers of an append-only log
    /// skip a torn last line).
    fn append(&self, path: &VPath, data: &[u8]) -> folio_vfs::Result<()> {
        if self.kind(path) == Some(Kind::Dir) {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        self.ensure_parents("append", path)?;
        let target = self.host(path);
        let created = !target.exists();
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&target)
            .map_err(|e| host_err("append", &target, e))?;
        std::io::Write::write_all(&mut file, data).map_err(|e| host_err("append", &target, e))?;
        if self.durable {
            file.sync_data().map_err(|e| host_err("append", &target, e))?;
            if created {
                self.sync_dir(target.parent());
            }
        }
        Ok(())
    }

    fn rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        let host = self.host(path);
        match self.kind(path) {
            None => Err(VfsError::NoSuchEntry(path.clone())),
            Some(Kind::File) => std::fs::remove_file(&host).map_err(|e| host_err("remove", &host, e)),
            // Removing the zone root empties it: the zone itself always exists.
            Some(Kind::Dir) if path.is_root() => {
                for entry in self.list(path)? {
                    self.rm(&path.join(&entry.name)?)?;
                }
                Ok(())
            }
            Some(Kind::Dir) => std::fs::remove_dir_all(&host).map_err(|e| host_err("remove", &host, e)),
        }
    }

    fn mkdir(&self, path: &VPath) -> folio_vfs::Result<()> {
        match self.kind(path) {
            Some(Kind::Dir) => Ok(()),
            Some(Kind::File) => Err(VfsError::MkdirOnFile(path.clone())),
            None => {
                self.ensure_parents("mkdir", path)?;
                let host = self.host(path);
                std::fs::create_dir_all(&host).map_err(|e| host_err("mkdir", &host, e))
            }
        }
    }

    fn stat(&self, path: &VPath) -> folio_vfs::Result<Option<Stat>> {
        Ok(match std::fs::metadata(self.host(path)) {
            Ok(m) if m.is_dir() => Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 }),
            Ok(m) if m.is_file() => Some(Stat { kind: Kind::File, size: m.len(), mtime_ms: mtime_ms(&m) }),
            _ => None,
        })
    }

    fn list(&self, dir: &VPath) -> folio_vfs::Result<Vec<DirEntry>> {
        match self.kind(dir) {
            None => return Err(VfsError::NoSuchDirectory(dir.clone())),
            Some(Kind::File) => return Err(VfsError::NotADirectory(dir.clone())),
            Some(Kind::Dir) => {}
        }
        let host = self.host(dir);
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&host).map_err(|e| host_err("list", &host, e))? {
            let entry = entry.map_err(|e| host_err("list", &host, e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(".folio-tmp-") {
                continue;
            }
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                out.push(DirEntry { name, kind: Kind::Dir, size: 0 });
            } else if meta.is_file() {
                out.push(DirEntry { name, kind: Kind::File, size: meta.len() });
            }
        }
        out.sort_by(|a, b| {
            let rank = |k: Kind| if k == Kind::Dir { 0 } else { 1 };
            rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.name.cmp(&b.name))
        });
        Ok(out)
    }
}
