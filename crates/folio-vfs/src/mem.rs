//! [`MemTree`]: a tree held entirely in memory. It backs tests, the environment's scratch zones
//! when no state directory is wanted, and checkpoints being compared. Content is shared
//! (`Arc<[u8]>`) so snapshots and copies are cheap.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::error::{Result, VfsError};
use crate::path::VPath;
use crate::tree::{DirEntry, Kind, Stat, Tree, sort_entries};

/// An in-memory tree.
#[derive(Default)]
pub struct MemTree {
    state: Mutex<MemState>,
}

#[derive(Default, Clone)]
struct MemState {
    files: BTreeMap<VPath, (Arc<[u8]>, i64)>,
    dirs: BTreeSet<VPath>,
    total: u64,
}

impl MemTree {
    /// An empty tree holding only `/`.
    pub fn new() -> MemTree {
        MemTree::default()
    }

    fn state(&self) -> MutexGuard<'_, MemState> {
        // A panic while holding the lock cannot leave the maps half-updated in a way that matters
        // more than losing the tree, so a poisoned lock is simply taken over.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl MemState {
    fn kind(&self, path: &VPath) -> Option<Kind> {
        if path.is_root() || self.dirs.contains(path) {
            Some(Kind::Dir)
        } else if self.files.contains_key(path) {
            Some(Kind::File)
        } else {
            None
        }
    }

    fn ensure_parents(&mut self, op: &'static str, path: &VPath) -> Result<()> {
        for ancestor in path.ancestors() {
            if self.files.contains_key(&ancestor) {
                return Err(VfsError::AncestorIsFile { op, path: path.clone(), ancestor });
            }
        }
        for ancestor in path.ancestors() {
            if !ancestor.is_root() {
                self.dirs.insert(ancestor);
            }
        }
        Ok(())
    }
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl Tree for MemTree {
    fn read(&self, path: &VPath) -> Result<Vec<u8>> {
        let state = self.state();
        match state.files.get(path) {
            Some((data, _)) => Ok(data.to_vec()),
            None if state.kind(path) == Some(Kind::Dir) => Err(VfsError::ReadDirectory(path.clone())),
            None => Err(VfsError::NoSuchFile(path.clone())),
        }
    }

    fn read_range(&self, path: &VPath, offset: u64, len: u64) -> Result<Vec<u8>> {
        let state = self.state();
        match state.files.get(path) {
            Some((data, _)) => {
                let (start, count) = crate::range::clamp(data.len() as u64, offset, len);
                Ok(data[start as usize..(start + count) as usize].to_vec())
            }
            None if state.kind(path) == Some(Kind::Dir) => Err(VfsError::ReadDirectory(path.clone())),
            None => Err(VfsError::NoSuchFile(path.clone())),
        }
    }

    fn write(&self, path: &VPath, data: &[u8]) -> Result<()> {
        let mut state = self.state();
        if state.kind(path) == Some(Kind::Dir) {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        state.ensure_parents("write", path)?;
        let previous = state.files.insert(path.clone(), (Arc::from(data), now_ms()));
        state.total = state.total - previous.map_or(0, |(d, _)| d.len() as u64) + data.len() as u64;
        Ok(())
    }

    fn rm(&self, path: &VPath) -> Result<()> {
        if path.is_root() {
            return Err(VfsError::RemoveRoot);
        }
        let mut state = self.state();
        match state.kind(path) {
            None => Err(VfsError::NoSuchEntry(path.clone())),
            Some(Kind::File) => {
                if let Some((data, _)) = state.files.remove(path) {
                    state.total -= data.len() as u64;
                }
                Ok(())
            }
            Some(Kind::Dir) => {
                let doomed: Vec<VPath> = state.files.keys().filter(|p| p.is_under(path)).cloned().collect();
                for p in doomed {
                    if let Some((data, _)) = state.files.remove(&p) {
                        state.total -= data.len() as u64;
                    }
                }
                state.dirs.retain(|d| !d.is_under(path));
                Ok(())
            }
        }
    }

    fn mkdir(&self, path: &VPath) -> Result<()> {
        let mut state = self.state();
        match state.kind(path) {
            Some(Kind::Dir) => Ok(()),
            Some(Kind::File) => Err(VfsError::MkdirOnFile(path.clone())),
            None => {
                state.ensure_parents("mkdir", path)?;
                state.dirs.insert(path.clone());
                Ok(())
            }
        }
    }

    fn stat(&self, path: &VPath) -> Result<Option<Stat>> {
        let state = self.state();
        Ok(match state.files.get(path) {
            Some((data, mtime)) => Some(Stat { kind: Kind::File, size: data.len() as u64, mtime_ms: *mtime }),
            None if state.kind(path) == Some(Kind::Dir) => Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 }),
            None => None,
        })
    }

    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>> {
        let state = self.state();
        match state.kind(dir) {
            None => return Err(VfsError::NoSuchDirectory(dir.clone())),
            Some(Kind::File) => return Err(VfsError::NotADirectory(dir.clone())),
            Some(Kind::Dir) => {}
        }
        let mut out = Vec::new();
        for d in &state.dirs {
            if d.parent().as_ref() == Some(dir) {
                out.push(DirEntry { name: d.name().to_owned(), kind: Kind::Dir, size: 0 });
            }
        }
        for (p, (data, _)) in &state.files {
            if p.parent().as_ref() == Some(dir) {
                out.push(DirEntry { name: p.name().to_owned(), kind: Kind::File, size: data.len() as u64 });
            }
        }
        sort_entries(&mut out);
        Ok(out)
    }

    fn total_size(&self) -> Result<u64> {
        Ok(self.state().total)
    }
}
