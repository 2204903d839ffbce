//! What the overlay shows: the merge of the entries and the host folder for `stat`, `read` and
//! `list`. Nothing here writes.

use std::collections::BTreeMap;

use rusqlite::Connection;

use crate::error::{Result, VfsError};
use crate::ignore::IgnoreRules;
use crate::overlay::host::{HostRoot, HostState};
use crate::overlay::store::{self, Base, Blobs, EntryKind};
use crate::path::VPath;
use crate::tree::{DirEntry, Kind, Stat, sort_entries};

/// Everything a read needs, borrowed for one operation.
pub(crate) struct Ctx<'a> {
    pub(crate) conn: &'a Connection,
    pub(crate) blobs: &'a Blobs,
    pub(crate) host: &'a HostRoot,
    pub(crate) ignore: &'a IgnoreRules,
}

/// How the ancestors of a path affect it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shadow {
    /// Host content at the path shows through.
    Visible,
    /// An opaque directory above hides the host content; overlay entries still show.
    HostHidden,
    /// A whiteout or an overlay file above: nothing at the path exists.
    Gone,
}

/// Where a visible file's bytes are kept.
enum Source {
    /// A pending file: the content-addressed blob with this hash.
    Blob(String),
    /// An untouched file: the folder's own, read through the containment check.
    Host,
}

impl Ctx<'_> {
    pub(crate) fn db<T>(&self, r: rusqlite::Result<T>) -> Result<T> {
        r.map_err(|e| self.blobs.err(e))
    }

    pub(crate) fn entry(&self, path: &VPath) -> Result<Option<store::Entry>> {
        self.db(store::get(self.conn, path))
    }

    pub(crate) fn shadow(&self, path: &VPath) -> Result<Shadow> {
        let mut shadow = Shadow::Visible;
        for ancestor in path.ancestors().iter().skip(1) {
            match self.entry(ancestor)? {
                Some(e) if e.kind == EntryKind::File || e.kind == EntryKind::Whiteout => return Ok(Shadow::Gone),
                Some(e) if e.opaque => shadow = Shadow::HostHidden,
                _ => {}
            }
        }
        Ok(shadow)
    }

    /// The refusal for an ignored path, if it is one.
    pub(crate) fn check_ignored(&self, path: &VPath) -> Result<()> {
        match self.ignore.rule_for(path) {
            Some(rule) => Err(VfsError::Ignored { path: path.clone(), rule }),
            None => Ok(()),
        }
    }

    pub(crate) fn stat(&self, path: &VPath) -> Result<Option<Stat>> {
        if path.is_root() {
            return Ok(Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 }));
        }
        if self.ignore.rule_for(path).is_some() {
            return Ok(None);
        }
        let shadow = self.shadow(path)?;
        if shadow == Shadow::Gone {
            return Ok(None);
        }
        match self.entry(path)? {
            Some(e) => Ok(match e.kind {
                EntryKind::File => Some(Stat { kind: Kind::File, size: e.size, mtime_ms: e.mtime_ms }),
                EntryKind::Dir => Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 }),
                EntryKind::Whiteout => None,
            }),
            None if shadow == Shadow::HostHidden => Ok(None),
            None => match self.host.state(path) {
                Ok(HostState::File { size, mtime_ns }) => {
                    Ok(Some(Stat { kind: Kind::File, size, mtime_ms: mtime_ns / 1_000_000 }))
                }
                Ok(HostState::Dir) => Ok(Some(Stat { kind: Kind::Dir, size: 0, mtime_ms: 0 })),
                Ok(HostState::Absent | HostState::Other) => Ok(None),
                Err(VfsError::EscapesFolder { .. }) => Ok(None),
                Err(other) => Err(other),
            },
        }
    }

    /// Where a file's bytes are, or the error a read of `path` gives.
    fn source(&self, path: &VPath) -> Result<Source> {
        if path.is_root() {
            return Err(VfsError::ReadDirectory(path.clone()));
        }
        self.check_ignored(path)?;
        let shadow = self.shadow(path)?;
        if shadow == Shadow::Gone {
            return Err(VfsError::NoSuchFile(path.clone()));
        }
        match self.entry(path)? {
            Some(e) => match (e.kind, e.blob) {
                (EntryKind::File, Some(blob)) => Ok(Source::Blob(blob)),
                (EntryKind::Dir, _) => Err(VfsError::ReadDirectory(path.clone())),
                _ => Err(VfsError::NoSuchFile(path.clone())),
            },
            None if shadow == Shadow::HostHidden => Err(VfsError::NoSuchFile(path.clone())),
            None => Ok(Source::Host),
        }
    }

    pub(crate) fn read(&self, path: &VPath) -> Result<Vec<u8>> {
        match self.source(path)? {
            Source::Blob(blob) => self.blobs.read_blob(&blob),
            Source::Host => self.host.read(path),
        }
    }

    /// The host file behind `path` when the folder's own bytes are what it shows (no pending
    /// change), after the containment check; `None` for a pending file. The errors of a read.
    pub(crate) fn host_file(&self, path: &VPath) -> Result<Option<std::path::PathBuf>> {
        match self.source(path)? {
            Source::Blob(_) => Ok(None),
            Source::Host => self.host.contained(path).map(Some),
        }
    }

    /// `len` bytes of a file from `offset`, read from its blob or the folder without the rest.
    pub(crate) fn read_range(&self, path: &VPath, offset: u64, len: u64) -> Result<Vec<u8>> {
        match self.source(path)? {
            Source::Blob(blob) => self.blobs.read_blob_range(&blob, offset, len),
            Source::Host => self.host.read_range(path, offset, len),
        }
    }

    pub(crate) fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>> {
        self.check_ignored(dir)?;
        match self.stat(dir)? {
            Some(Stat { kind: Kind::Dir, .. }) => {}
            Some(_) => return Err(VfsError::NotADirectory(dir.clone())),
            None => {
                // A directory hidden because it resolves outside the folder is named as such.
                self.host.contained(dir)?;
                return Err(VfsError::NoSuchDirectory(dir.clone()));
            }
        }
        let own = if dir.is_root() { None } else { self.entry(dir)? };
        let base_hidden = own.as_ref().is_some_and(|e| e.opaque || e.kind == EntryKind::File)
            || (!dir.is_root() && self.shadow(dir)? != Shadow::Visible);
        let mut merged: BTreeMap<String, DirEntry> = BTreeMap::new();
        if !base_hidden {
            for (name, state) in self.host.children(dir, |n| self.ignore.hides_name(n))? {
                let entry = match state {
                    HostState::File { size, .. } => DirEntry { name: name.clone(), kind: Kind::File, size },
                    HostState::Dir => DirEntry { name: name.clone(), kind: Kind::Dir, size: 0 },
                    HostState::Absent | HostState::Other => continue,
                };
                merged.insert(name, entry);
            }
        }
        for e in self.db(store::children(self.conn, dir))? {
            let name = e.path.name().to_owned();
            match e.kind {
                EntryKind::File => {
                    merged.insert(name.clone(), DirEntry { name, kind: Kind::File, size: e.size });
                }
                EntryKind::Dir => {
                    merged.insert(name.clone(), DirEntry { name, kind: Kind::Dir, size: 0 });
                }
                EntryKind::Whiteout => {
                    merged.remove(&name);
                }
            }
        }
        let mut out: Vec<DirEntry> = merged.into_values().collect();
        sort_entries(&mut out);
        Ok(out)
    }

    /// Every visible file at or below `root`.
    pub(crate) fn walk(&self, root: &VPath) -> Result<Vec<VPath>> {
        let mut out = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for entry in self.list(&dir)? {
                let child = dir.join(&entry.name)?;
                match entry.kind {
                    Kind::File => out.push(child),
                    Kind::Dir => stack.push(child),
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// What the host has at `path` now, as a base to remember when the overlay first shadows it.
    pub(crate) fn base_for(&self, path: &VPath, with_hash: bool) -> Result<Base> {
        if self.shadow(path)? != Shadow::Visible {
            return Ok(Base::Absent);
        }
        Ok(match self.host.state(path)? {
            HostState::File { .. } => match self.host.fingerprint(path, with_hash)? {
                Some(fp) => Base::File(fp),
                None => Base::Absent,
            },
            HostState::Dir => Base::Dir,
            HostState::Absent | HostState::Other => Base::Absent,
        })
    }
}
