//! The overlay's mutations, each run inside one `BEGIN IMMEDIATE` transaction so that a write
//! from the desktop app and one from a `folio` process never interleave their checks.
//!
//! A mutation that creates a name checks it against the folder's rules (`crate::names`) first: a
//! name Windows cannot hold is refused with the reason, and on a folder that folds case a name
//! that is another spelling of an entry on disk or pending is refused naming that entry — unless
//! that entry is being removed in the same overlay (the other half of a rename that changes only
//! the case), in which case the new name's base is absent and the commit removes the old
//! spelling before it writes the new one.

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
                let visible = self.shadow(dir)? == Shadow::Visible;
                let other_removed = self.check_spelling(dir, visible)?;
                let base = match visible && !other_removed {
                    true => match self.host.state(dir)? {
                        HostState::Dir => Base::Dir,
                        _ => Base::Absent,
                    },
                    false => Base::Absent,
                };
                if base == Base::Absent {
                    self.check_portable(dir)?;
                }
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
            None => {
                let visible = self.shadow(path)? == Shadow::Visible;
                let other_removed = self.check_spelling(path, visible)?;
                let state = if visible && !other_removed { self.host.state_at(&host)? } else { HostState::Absent };
                match state {
                    HostState::Dir => return Err(VfsError::WriteOntoDirectory(path.clone())),
                    HostState::File { .. } => match self.host.fingerprint_at(&host, true)? {
                        Some(fp) => (Base::File(fp), None),
                        None => (Base::Absent, None),
                    },
                    HostState::Absent | HostState::Other => {
                        self.check_portable(path)?;
                        (Base::Absent, None)
                    }
                }
            }
        };
        let renamed_from = match origin {
            Origin::Keep => kept_origin,
            Origin::Set(from) => from,
        };
        let entry = Entry { blob: Some(blob), size, renamed_from, ..Entry::new(path.clone(), EntryKind::File, base) };
        self.db(store::put(self.conn, &entry))?;
        Ok(())
    }

    /// Refuses a new name the folder, or a Windows machine it may sync to, cannot hold.
    fn check_portable(&self, path: &VPath) -> Result<()> {
        match self.host.names.unportable(path.name()) {
            Some(reason) if !path.is_root() => Err(VfsError::UnportableName { path: path.clone(), reason }),
            _ => Ok(()),
        }
    }

    /// On a folder that folds names, refuses `path` when it is another spelling of a pending entry
    /// or (when the disk shows through, `visible`) of an entry on disk. True when the disk holds
    /// it under another spelling that this overlay removes: the path is then new.
    fn check_spelling(&self, path: &VPath, visible: bool) -> Result<bool> {
        let names = self.host.names;
        if !names.folds() || path.is_root() {
            return Ok(false);
        }
        let parent = path.parent().unwrap_or_else(VPath::root);
        let name = path.name();
        let ignores = |other: &str| match names.fold_case && other.to_lowercase() == name.to_lowercase() {
            true => "case",
            false => "Unicode normalisation",
        };
        for e in self.db(store::children(self.conn, &parent))? {
            if e.kind != EntryKind::Whiteout && e.path != *path && names.same(e.path.name(), name) {
                let ignores = ignores(e.path.name());
                return Err(VfsError::NameCollision {
                    path: path.clone(),
                    existing: e.path,
                    ignores,
                    state: "is pending",
                });
            }
        }
        if !visible {
            return Ok(false);
        }
        let Some(other) = self.host.other_spelling(&parent, name)? else { return Ok(false) };
        let existing = parent.join(&other)?;
        match self.entry(&existing)? {
            Some(e) if e.kind == EntryKind::Whiteout => Ok(true),
            _ => Err(VfsError::NameCollision {
                path: path.clone(),
                ignores: ignores(&other),
                existing,
                state: "is in the folder",
            }),
        }
    }

    /// `path` as this folder spells what it names. Where the folder ignores normalisation every
    /// segment takes the spelling of the entry pending or on disk (an NFC request finds the NFD
    /// name, and the commit keeps the disk's name); where it ignores case, so do the directories
    /// above a new name (`/inbox/new.txt` lands in the folder's `/Inbox/`). The last segment's
    /// case is kept: another case of an existing name is refused by [`Ctx::check_spelling`].
    pub(crate) fn spell(&self, path: &VPath, for_write: bool) -> Result<VPath> {
        let names = self.host.names;
        let unicode = names.fold_unicode && !path.as_str().is_ascii();
        let case = names.fold_case && for_write;
        if !(unicode || case) || path.is_root() {
            return Ok(path.clone());
        }
        let segments: Vec<&str> = path.segments().collect();
        let mut out = VPath::root();
        for (i, segment) in segments.iter().enumerate() {
            let last = i + 1 == segments.len();
            let rules = if last || !case { crate::names::NameRules { fold_case: false, ..names } } else { names };
            let exact = out.join(segment)?;
            let mut spelled = None;
            if rules.folds() && self.entry(&exact)?.is_none() {
                let key = rules.key(segment);
                spelled = self
                    .db(store::children(self.conn, &out))?
                    .into_iter()
                    .find(|e| e.kind != EntryKind::Whiteout && rules.key(e.path.name()) == key)
                    .map(|e| e.path);
                if spelled.is_none()
                    && let Some(other) = self.host.other_spelling(&out, segment)?
                    && rules.key(&other) == key
                {
                    spelled = Some(out.join(&other)?);
                }
            }
            out = spelled.unwrap_or(exact);
        }
        Ok(out)
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
