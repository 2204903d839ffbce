//! Per-file version rings: the storage behind `undo`, `redo`, `diff` and `history <path>`.
//!
//! Every gateway mutation of a file records what the file held before (or that it was absent) as
//! one revision: a timestamp, the operation that replaced it, and a blob. The rings live in the
//! tree itself, under `/.env/versions` (`index.json` plus `blobs/v<N>`), so they persist across
//! processes exactly like the rest of the zone and count toward the size limit. The model is
//! linear, as in an editor: a fresh mutation clears the redo side. Undo and redo are inverses —
//! each one pushes the state it replaces onto the opposite ring — so walking back and forth is
//! lossless. A corrupt index costs the history, never the environment.

use std::collections::BTreeMap;

use folio_vfs::{Tree, VPath};
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::format::now_ms;

const INDEX: &str = "/.env/versions/index.json";
const BLOBS: &str = "/.env/versions/blobs";

/// One saved revision of a file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Revision {
    /// The blob holding the content, `None` when the file did not exist.
    pub blob: Option<String>,
    /// When the revision was replaced (ms since the epoch).
    pub ts: i64,
    /// The operation that replaced it (`write`, `edit`, `rm`, `undo`, …).
    pub op: String,
    /// Bytes of content.
    pub size: u64,
}

/// The undo and redo sides of one file's history (oldest first).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Ring {
    /// Revisions `undo` walks back through (the last is next).
    pub undo: Vec<Revision>,
    /// Revisions `redo` walks forward through (the last is next).
    pub redo: Vec<Revision>,
}

#[derive(Default, Serialize, Deserialize)]
struct Index {
    counter: u64,
    paths: BTreeMap<String, Ring>,
}

/// The rings of every file, loaded from the tree on first use.
#[derive(Default)]
pub struct Versions {
    index: Option<Index>,
    /// Set when the stored index could not be decoded and history was started afresh.
    pub lost: Option<String>,
}

/// Which side a step takes from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// `undo`.
    Undo,
    /// `redo`.
    Redo,
}

impl Versions {
    fn index(&mut self, tree: &dyn Tree) -> &mut Index {
        if self.index.is_none() {
            let path = VPath::root().join(&INDEX[1..]).ok();
            let loaded = match path.map(|p| tree.read(&p)) {
                Some(Ok(bytes)) => match serde_json::from_slice::<Index>(&bytes) {
                    Ok(index) => index,
                    Err(err) => {
                        self.lost =
                            Some(format!("{INDEX} could not be decoded ({err}); undo history was started afresh"));
                        Index::default()
                    }
                },
                _ => Index::default(),
            };
            self.index = Some(loaded);
        }
        self.index.get_or_insert_with(Index::default)
    }

    fn blob_path(id: &str) -> Result<VPath> {
        Ok(VPath::parse(&format!("{BLOBS}/{id}"))?)
    }

    fn persist(&mut self, tree: &dyn Tree) -> Result<()> {
        let index = self.index(tree);
        let body = serde_json::to_vec(index).unwrap_or_default();
        tree.write(&VPath::parse(INDEX)?, &body)?;
        Ok(())
    }

    fn save(&mut self, tree: &dyn Tree, content: Option<&[u8]>, op: &str) -> Result<Revision> {
        let blob = match content {
            Some(data) => {
                let index = self.index(tree);
                index.counter += 1;
                let id = format!("v{}", index.counter);
                tree.write(&Versions::blob_path(&id)?, data)?;
                Some(id)
            }
            None => None,
        };
        Ok(Revision { blob, ts: now_ms(), op: op.to_owned(), size: content.map_or(0, |d| d.len() as u64) })
    }

    fn drop_blobs(tree: &dyn Tree, revisions: &[Revision]) {
        for rev in revisions {
            if let Some(id) = &rev.blob
                && let Ok(path) = Versions::blob_path(id)
            {
                // A blob already gone costs nothing; the index is what matters.
                let _ = tree.rm(&path);
            }
        }
    }

    /// Records that `path` held `prior` (or nothing) before `op` replaced it, keeping at most
    /// `max` undo revisions and clearing the redo side.
    pub fn record(&mut self, tree: &dyn Tree, path: &VPath, prior: Option<&[u8]>, op: &str, max: usize) -> Result<()> {
        let rev = self.save(tree, prior, op)?;
        let ring = self.index(tree).paths.entry(path.as_str().to_owned()).or_default();
        let redo = std::mem::take(&mut ring.redo);
        ring.undo.push(rev);
        let excess = ring.undo.len().saturating_sub(max.max(1));
        let dropped: Vec<Revision> = ring.undo.drain(..excess).collect();
        Versions::drop_blobs(tree, &redo);
        Versions::drop_blobs(tree, &dropped);
        self.persist(tree)
    }

    /// The ring of `path`, if anything is recorded.
    pub fn ring(&mut self, tree: &dyn Tree, path: &VPath) -> Option<Ring> {
        self.index(tree).paths.get(path.as_str()).cloned()
    }

    /// The content a revision holds (`None` for "absent").
    pub fn content(&self, tree: &dyn Tree, rev: &Revision) -> Result<Option<Vec<u8>>> {
        match &rev.blob {
            Some(id) => Ok(Some(tree.read(&Versions::blob_path(id)?)?)),
            None => Ok(None),
        }
    }

    /// Takes the next revision from `side`, pushing `current` onto the other side; returns the
    /// revision and its content. The caller has already checked there is one.
    pub fn step(
        &mut self,
        tree: &dyn Tree,
        path: &VPath,
        side: Side,
        current: Option<&[u8]>,
        max: usize,
    ) -> Result<Option<(Revision, Option<Vec<u8>>)>> {
        let op = if side == Side::Undo { "undo" } else { "redo" };
        let Some(top) = self
            .ring(tree, path)
            .and_then(|r| if side == Side::Undo { r.undo.last().cloned() } else { r.redo.last().cloned() })
        else {
            return Ok(None);
        };
        let content = self.content(tree, &top)?;
        let saved = self.save(tree, current, op)?;
        let ring = self.index(tree).paths.entry(path.as_str().to_owned()).or_default();
        let (from, to) =
            if side == Side::Undo { (&mut ring.undo, &mut ring.redo) } else { (&mut ring.redo, &mut ring.undo) };
        from.pop();
        to.push(saved);
        let excess = to.len().saturating_sub(max.max(1));
        let dropped: Vec<Revision> = to.drain(..excess).collect();
        Versions::drop_blobs(tree, &dropped);
        Versions::drop_blobs(tree, std::slice::from_ref(&top));
        self.persist(tree)?;
        Ok(Some((top, content)))
    }

    /// Forgets the rings of `paths` (after a checkpoint restore); returns how many had history.
    pub fn forget(&mut self, tree: &dyn Tree, paths: &[VPath]) -> Result<usize> {
        let mut count = 0;
        let mut doomed = Vec::new();
        for path in paths {
            if let Some(ring) = self.index(tree).paths.remove(path.as_str()) {
                count += 1;
                doomed.extend(ring.undo);
                doomed.extend(ring.redo);
            }
        }
        if count > 0 {
            Versions::drop_blobs(tree, &doomed);
            self.persist(tree)?;
        }
        Ok(count)
    }
}
