//! The overlay's mutations, each run inside one `BEGIN IMMEDIATE` transaction so that a write
//! from the desktop app and one from a `folio` process never interleave their checks.

use crate::error::{Result, VfsError};
use crate::overlay::host::HostState;
use crate::overlay::store::{self, Base, Entry, EntryKind};
use crate::overlay::view::{Ctx, Shadow};
use crate::path::VPath;
use crate::tree::{Kind, Stat};

/// How a write sets the entry's rename origin.
pub(crate) enum Origin {
    /// Keep what the entry had (a plain write).
    Keep,
    /// Set exactly this (a move).
    Set(Option<VPath>),
}

impl Ctx<'_> {
    /// Makes `dir` exist as a directory for an operation on `target`.
    pub(crate) fn ensure_dir(&self, dir: &VPath, op: &'static str, target: &VPath) -> Result<()> {
        if dir.is_root() {
            return Ok(());
        }
        match self.stat(dir)? {
            Some(Stat { kind: Kind::Dir, .. }) => return Ok(()),
            Some(_) => return Err(VfsError::AncestorIsFile { op, path: target.clone(), ancestor: dir.clone() }),
            None => {}
        }
        self.host.contained(dir)?;
        let entry = match self.entry(dir)? {
            Some(Entry { kind: EntryKind::Whiteout, base, .. }) => {
                let opaque = base == Base::Dir;
                Entry { opaque, ..Entry::new(dir.clone(), EntryKind::Dir, base) }
            }
            Some(Entry { kind: EntryKind::File, .. }) => {
                return Err(VfsError::AncestorIsFile { op, path: target.clone(), ancestor: dir.clone() });
            }
            _ => {
                let base = match self.shadow(dir)? {
                    Shadow::Visible => match self.host.state(dir)? {
                        HostState::Dir => Base::Dir,
                        _ => Base::Absent,
                    },
                    _ => Base::Absent,
                };
                Entry::new(dir.clone(), EntryKind::Dir, base)
            }
        };
        self.db(store::put(self.conn, &entry))?;
        Ok(())
    }

    pub(crate) fn write_entry(&self, path: &VPath, blob: String, size: u64, origin: Origin) -> Result<()> {
        if path.is_root() {
            return Err(VfsError::WriteOntoDirectory(path.clone()));
        }
        self.check_ignored(path)?;
        let host = self.host.contained(path)?;
        for ancestor in path.ancestors() {
            self.ensure_dir(&ancestor, "write", path)?;
        }
        // One look at the entry and, only when there is none, one at the disk: the ancestors now
        // exist as directories, so the path is visible unless an opaque directory hides the disk.
        let (base, kept_origin) = match self.entry(path)? {
            Some(e) if e.kind == EntryKind::Dir => return Err(VfsError::WriteOntoDirectory(path.clone())),
            Some(e) if e.kind == EntryKind::File => (e.base, e.renamed_from),
            Some(e) => (e.base, None),
            None if self.shadow(path)? != Shadow::Visible => (Base::Absent, None),
            None => match self.host.state_at(&host)? {
                HostState::Dir => return Err(VfsError::WriteOntoDirectory(path.clone())),
                HostState::File { .. } => match self.host.fingerprint_at(&host, true)? {
                    Some(fp) => (Base::File(fp), None),
                    None => (Base::Absent, None),
                },
                HostState::Absent | HostState::Other => (Base::Absent, None),
            },
        };
        let renamed_from = match origin {
            Origin::Keep => kept_origin,
            Origin::Set(from) => from,
        };
        let entry = Entry { blob: Some(blob), size, renamed_from, ..Entry::new(path.clone(), EntryKind::File, base) };
        self.db(store::put(self.conn, &entry))?;
        Ok(())
    }

    pub(crate) fn make_dir(&self, path: &VPath) -> Result<()> {
        self.check_ignored(path)?;
        match self.stat(path)? {
            Some(Stat { kind: Kind::Dir, .. }) => Ok(()),
            Some(_) => Err(VfsError::MkdirOnFile(path.clone())),
            None => {
                for ancestor in path.ancestors() {
                    self.ensure_dir(&ancestor, "mkdir", path)?;
                }
                self.ensure_dir(path, "mkdir", path)
            }
        }
    }

    /// Shadows one visible file with a whiteout (or drops an overlay-only file).
    fn remove_file(&self, path: &VPath, with_hash: bool) -> Result<()> {
        match self.entry(path)? {
            Some(Entry { kind: EntryKind::File, base: Base::Absent, .. }) => self.db(store::delete(self.conn, path)),
            Some(Entry { kind: EntryKind::File, base, .. }) => {
                self.db(store::put(self.conn, &Entry::new(path.clone(), EntryKind::Whiteout, base))).map(drop)
            }
            _ => match self.base_for(path, with_hash)? {
                Base::Absent => self.db(store::delete(self.conn, path)),
                base => self.db(store::put(self.conn, &Entry::new(path.clone(), EntryKind::Whiteout, base))).map(drop),
            },
        }
    }

    pub(crate) fn remove(&self, path: &VPath) -> Result<()> {
        if path.is_root() {
            return Err(VfsError::RemoveRoot);
        }
        self.check_ignored(path)?;
        match self.stat(path)? {
            None => Err(VfsError::NoSuchEntry(path.clone())),
            Some(Stat { kind: Kind::File, .. }) => self.remove_file(path, true),
            Some(Stat { kind: Kind::Dir, .. }) => {
                // Every visible file gets its own whiteout with the fingerprint it had, so a file
                // the person edits meanwhile is caught at commit. Bulk removals skip the hash.
                for file in self.walk(path)? {
                    self.remove_file(&file, false)?;
                }
                for e in self.db(store::below(self.conn, path))? {
                    if e.kind == EntryKind::Dir {
                        self.db(store::delete(self.conn, &e.path))?;
                    }
                }
                let own = self.entry(path)?;
                let base = match own {
                    Some(e) => e.base,
                    None => self.base_for(path, false)?,
                };
                match base {
                    Base::Absent => self.db(store::delete(self.conn, path)),
                    base => {
                        let opaque = base == Base::Dir;
                        let entry = Entry { opaque, ..Entry::new(path.clone(), EntryKind::Whiteout, base) };
                        self.db(store::put(self.conn, &entry)).map(drop)
                    }
                }
            }
        }
    }
}
