//! [`Staged`]: a read-only view of the tree as it will be once a set of planned changes lands,
//! so a checkpoint restore validates each script among the files coming back with it (a script
//! importing `./lib/x.js` that the restore also brings back resolves).

use std::collections::BTreeMap;

use folio_vfs::{DirEntry, Kind, Stat, Tree, VPath, VfsError};

/// `base` with `planned` laid over it: `Some(bytes)` is a file's coming content, `None` a
/// removal. Writes are refused: validation only reads.
pub(crate) struct Staged<'a> {
    pub base: &'a dyn Tree,
    pub planned: &'a BTreeMap<VPath, Option<Vec<u8>>>,
}

impl Staged<'_> {
    fn holds_planned_below(&self, dir: &VPath) -> bool {
        self.planned.iter().any(|(p, c)| c.is_some() && p != dir && p.is_under(dir))
    }
}

impl Tree for Staged<'_> {
    fn read(&self, path: &VPath) -> folio_vfs::Result<Vec<u8>> {
        match self.planned.get(path) {
            Some(Some(data)) => Ok(data.clone()),
            Some(None) => Err(VfsError::NoSuchFile(path.clone())),
            None => self.base.read(path),
        }
    }

    fn write(&self, path: &VPath, _: &[u8]) -> folio_vfs::Result<()> {
        Err(VfsError::ReadOnly { op: "write", path: path.clone() })
    }

    fn rm(&self, path: &VPath) -> folio_vfs::Result<()> {
        Err(VfsError::ReadOnly { op: "remove", path: path.clone() })
    }

    fn mkdir(&self, path: &VPath) -> folio_vfs::Result<()> {
        Err(VfsError::ReadOnly { op: "mkdir", path: path.clone() })
    }

    fn stat(&self, path: &VPath) -> folio_vfs::Result<Option<Stat>> {
        match self.planned.get(path) {
            Some(Some(data)) => Ok(Some(Stat { kind: Kind::File, size: data.len() as u64, mtime_ms: 0 })),
            Some(None) => Ok(None),
            None => match self.base.stat(path)? {
                None if self.holds_planned_below(path) => Ok(Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 })),
                other => Ok(other),
            },
        }
    }

    fn list(&self, dir: &VPath) -> folio_vfs::Result<Vec<DirEntry>> {
        let mut entries = match self.base.list(dir) {
            Ok(entries) => entries,
            Err(_) if self.holds_planned_below(dir) => Vec::new(),
            Err(e) => return Err(e),
        };
        let child = |p: &VPath| p.parent().as_ref() == Some(dir);
        entries.retain(|e| dir.join(&e.name).map_or(true, |p| !matches!(self.planned.get(&p), Some(None))));
        for (path, content) in self.planned {
            let Some(data) = content else { continue };
            if child(path) {
                entries.retain(|e| e.name != path.name());
                entries.push(DirEntry { name: path.name().to_owned(), kind: Kind::File, size: data.len() as u64 });
            } else if path.is_under(dir) {
                // A planned file deeper down implies the directory on the way to it.
                let Some(rest) = path.rebase(dir, &VPath::root()) else { continue };
                let Some(first) = rest.segments().next() else { continue };
                if !entries.iter().any(|e| e.name == first) {
                    entries.push(DirEntry { name: first.to_owned(), kind: Kind::Dir, size: 0 });
                }
            }
        }
        entries.sort_by(|a, b| {
            let rank = |k: Kind| if k == Kind::Dir { 0 } else { 1 };
            rank(a.kind).cmp(&rank(b.kind)).then_with(|| a.name.cmp(&b.name))
        });
        Ok(entries)
    }
}
