//! `pending()`: every change the overlay holds, and whether it conflicts with what the person did
//! to the folder outside Folio since the overlay first shadowed the path.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::error::{Result, VfsError};
use crate::overlay::Overlay;
use crate::overlay::host::HostState;
use crate::overlay::store::{self, Base, Entry, EntryKind};
use crate::overlay::view::Ctx;
use crate::path::VPath;

/// What a pending change does to the folder.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ChangeKind {
    /// A file or directory the folder does not have.
    Added,
    /// New content for an existing file (or a directory where a file was).
    Modified,
    /// A file or directory that will be removed.
    Deleted,
    /// Moved here from `from`, which will be removed in the same commit.
    Renamed {
        /// The original path.
        from: VPath,
    },
}

/// Why a change cannot be committed without overwriting something the person did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Conflict {
    /// The file on disk was edited outside Folio after the agent changed it.
    EditedOutside,
    /// The file on disk was deleted outside Folio after the agent changed it.
    DeletedOutside,
    /// Something was created on disk at this path outside Folio after the agent wrote here.
    CreatedOutside,
    /// A file became a directory on disk, or the other way round.
    ReplacedOutside,
    /// A directory the agent removed holds files Folio never saw.
    NewFilesInside {
        /// How many.
        count: usize,
    },
    /// On this case-insensitive folder the name collides with another one.
    CaseCollision {
        /// The colliding path.
        existing: String,
    },
    /// The path now resolves outside the folder (a directory was replaced by a link).
    OutsideFolder,
    /// Another program holds the file open and locks it (a Windows sharing or lock violation):
    /// nothing was written, the change stays pending.
    HeldOpen,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Conflict::EditedOutside => f.write_str("edited outside Folio after the agent changed it"),
            Conflict::DeletedOutside => f.write_str("deleted outside Folio after the agent changed it"),
            Conflict::CreatedOutside => f.write_str("created outside Folio after the agent wrote here"),
            Conflict::ReplacedOutside => {
                f.write_str("replaced outside Folio (a file became a directory or the reverse)")
            }
            Conflict::NewFilesInside { count } => {
                write!(f, "{count} file(s) Folio never saw were added inside it outside Folio")
            }
            Conflict::CaseCollision { existing } => {
                write!(f, "this folder ignores case, and the name collides with {existing}")
            }
            Conflict::OutsideFolder => f.write_str("it now resolves outside the folder"),
            Conflict::HeldOpen => f.write_str(
                "another program has the file open (Excel, Word or a viewer) and locks it — close it there and commit again",
            ),
        }
    }
}

/// One pending change, as review shows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// Where the change lands.
    pub path: VPath,
    /// What it does.
    #[serde(flatten)]
    pub kind: ChangeKind,
    /// True for a directory.
    pub is_dir: bool,
    /// Bytes after the change (files that remain).
    pub size: Option<u64>,
    /// Bytes of the host file when the overlay first shadowed it.
    pub base_size: Option<u64>,
    /// Set when committing would overwrite something changed outside Folio.
    pub conflict: Option<Conflict>,
}

/// A change with the entries that make it up (a rename is the destination and the source's
/// whiteout).
pub(crate) struct Planned {
    pub(crate) change: Change,
    pub(crate) entries: Vec<Entry>,
}

/// File names that are OS litter: removed along with a directory the agent removed.
pub(crate) const LITTER: &[&str] = &[".DS_Store", "Thumbs.db", "desktop.ini"];

impl Ctx<'_> {
    /// The conflict, if any, between what the entry expects on disk and what is there.
    pub(crate) fn check_base(&self, path: &VPath, base: &Base, for_dir: bool) -> Result<Option<Conflict>> {
        // On a folder that folds names, a new path the disk holds under another spelling is that
        // entry: a collision, unless the overlay removes that spelling (a rename by case only).
        if *base == Base::Absent
            && self.host.names.folds()
            && let Some(parent) = path.parent()
        {
            match self.host.other_spelling(&parent, path.name()) {
                Ok(Some(other)) => {
                    let existing = parent.join(&other)?;
                    return Ok(match self.entry(&existing)? {
                        Some(e) if e.kind == EntryKind::Whiteout => None,
                        _ => Some(Conflict::CaseCollision { existing: existing.to_string() }),
                    });
                }
                Ok(None) => {}
                Err(VfsError::EscapesFolder { .. }) => return Ok(Some(Conflict::OutsideFolder)),
                Err(other) => return Err(other),
            }
        }
        let state = match self.host.state(path) {
            Ok(state) => state,
            Err(VfsError::EscapesFolder { .. }) => return Ok(Some(Conflict::OutsideFolder)),
            Err(other) => return Err(other),
        };
        Ok(match (base, state) {
            (Base::Absent, HostState::Absent) => None,
            (Base::Absent, HostState::Dir) if for_dir => None,
            (Base::Absent, _) => Some(Conflict::CreatedOutside),
            (Base::File(fp), HostState::File { .. }) => {
                if self.host.matches(path, fp)? {
                    None
                } else {
                    Some(Conflict::EditedOutside)
                }
            }
            (Base::File(_), HostState::Absent) => Some(Conflict::DeletedOutside),
            (Base::File(_), _) => Some(Conflict::ReplacedOutside),
            (Base::Dir, HostState::Dir | HostState::Absent) => None,
            (Base::Dir, _) => Some(Conflict::ReplacedOutside),
        })
    }

    /// Host files below `dir` that no whiteout accounts for (litter excluded).
    fn unseen_files_below(&self, dir: &VPath, whiteouts: &BTreeMap<VPath, ()>) -> Result<usize> {
        let mut count = 0;
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            for (name, state) in self.host.children(&d, |n| LITTER.contains(&n))? {
                let child = d.join(&name)?;
                match state {
                    HostState::Dir => stack.push(child),
                    _ if whiteouts.contains_key(&child) => {}
                    _ => count += 1,
                }
            }
        }
        Ok(count)
    }

    pub(crate) fn plan(&self) -> Result<Vec<Planned>> {
        let entries = self.db(store::all(self.conn))?;
        let by_path: HashMap<VPath, Entry> = entries.iter().map(|e| (e.path.clone(), e.clone())).collect();
        let whiteouts: BTreeMap<VPath, ()> =
            entries.iter().filter(|e| e.kind == EntryKind::Whiteout).map(|e| (e.path.clone(), ())).collect();
        let moved_away = rename_sources(&entries);
        let mut added_names: HashMap<String, VPath> = HashMap::new();
        let mut out = Vec::new();
        for e in entries.iter().filter(|e| is_change(e, &moved_away)) {
            let base_size = match &e.base {
                Base::File(fp) => Some(fp.size),
                _ => None,
            };
            let mut parts = vec![e.clone()];
            let (kind, is_dir, mut conflict) = match e.kind {
                EntryKind::File => {
                    let mut conflict = self.check_base(&e.path, &e.base, false)?;
                    let kind = match &e.renamed_from {
                        Some(src) => {
                            if let Some(src_entry) = by_path.get(src).filter(|s| s.kind == EntryKind::Whiteout) {
                                conflict = conflict.or(self.check_base(src, &src_entry.base, false)?);
                                parts.push(src_entry.clone());
                            }
                            ChangeKind::Renamed { from: src.clone() }
                        }
                        None if e.base == Base::Absent => ChangeKind::Added,
                        None => ChangeKind::Modified,
                    };
                    (kind, false, conflict)
                }
                EntryKind::Whiteout => {
                    let mut conflict = self.check_base(&e.path, &e.base, e.opaque)?;
                    if conflict == Some(Conflict::DeletedOutside) {
                        conflict = None;
                    }
                    if e.opaque && conflict.is_none() {
                        let count = self.unseen_files_below(&e.path, &whiteouts)?;
                        if count > 0 {
                            conflict = Some(Conflict::NewFilesInside { count });
                        }
                    }
                    (ChangeKind::Deleted, e.opaque, conflict)
                }
                EntryKind::Dir => {
                    let kind = if e.base == Base::Absent { ChangeKind::Added } else { ChangeKind::Modified };
                    (kind, true, self.check_base(&e.path, &e.base, true)?)
                }
            };
            // Two new paths that are one name here (written before the folder was known to fold,
            // or by an older Folio): the second collides with the first.
            if self.host.names.folds() && e.base == Base::Absent && conflict.is_none() {
                let key = self.host.names.key(e.path.as_str()).into_owned();
                match added_names.get(&key) {
                    Some(first) => conflict = Some(Conflict::CaseCollision { existing: first.to_string() }),
                    None => {
                        added_names.insert(key, e.path.clone());
                    }
                }
            }
            let size = (e.kind == EntryKind::File).then_some(e.size);
            out.push(Planned {
                change: Change { path: e.path.clone(), kind, is_dir, size, base_size, conflict },
                entries: parts,
            });
        }
        Ok(out)
    }
}

/// The paths some entry was moved away from: their whiteouts are half of a rename, not removals.
fn rename_sources(entries: &[Entry]) -> HashSet<&VPath> {
    entries.iter().filter_map(|e| e.renamed_from.as_ref()).collect()
}

/// True when entry `e` is a change of its own in review: every file; a whiteout that removes
/// something the folder has (and is not the source of a rename); a directory the folder does
/// not have as one. The other entries are bookkeeping. [`Overlay::pending`] and
/// [`Overlay::pending_count`] both decide by this, so the count is the list's length.
fn is_change(e: &Entry, moved_away: &HashSet<&VPath>) -> bool {
    match e.kind {
        EntryKind::File => true,
        EntryKind::Whiteout => e.base != Base::Absent && !moved_away.contains(&e.path),
        EntryKind::Dir => e.base != Base::Dir,
    }
}

impl Overlay {
    /// Every pending change, sorted by path, each with its conflict if the folder changed under it.
    pub fn pending(&self) -> Result<Vec<Change>> {
        self.read_ctx(|ctx| Ok(ctx.plan()?.into_iter().map(|p| p.change).collect()))
    }

    /// How many changes [`Overlay::pending`] would list, without looking at the disk: conflicts
    /// do not change the count, so no file is stat'ed or hashed. For a host that only shows the
    /// number (the agent loop tells the app after every mutating call).
    pub fn pending_count(&self) -> Result<usize> {
        self.read_ctx(|ctx| {
            let entries = ctx.db(store::all(ctx.conn))?;
            let moved_away = rename_sources(&entries);
            Ok(entries.iter().filter(|e| is_change(e, &moved_away)).count())
        })
    }
}
