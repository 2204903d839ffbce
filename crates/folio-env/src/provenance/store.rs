//! The record store: one versioned JSON document, `records.json`, in a directory of the folder's
//! state (see the module essay in `provenance/mod.rs` for why there). It is read whole on every
//! call — another process (`folio run` beside the app) may have added records — and rewritten
//! whole, crash-safe, by a durable [`HostDirTree`] (temporary file, flush, rename). Within one
//! process a mutex orders the read-modify-write; two processes adding records at the same
//! instant can lose one record (never corrupt the file), the same one-environment-per-folder
//! limit as the undo history.

use std::path::Path;
use std::sync::Mutex;

use folio_vfs::{Tree, VPath, VfsError};
use serde::{Deserialize, Serialize};

use super::ProvenanceRecord;
use crate::error::{EnvError, Result};
use crate::host_dir_tree::HostDirTree;

/// Records kept per folder; the oldest are dropped beyond it.
pub const MAX_RECORDS: usize = 2000;

/// The document's format version; a different one is refused by name, never guessed at.
const VERSION: u32 = 1;

/// The file inside the store's directory.
const FILE: &str = "/records.json";

#[derive(Serialize, Deserialize, Default)]
struct Document {
    version: u32,
    records: Vec<ProvenanceRecord>,
}

/// Where records live: a state directory, or memory for an environment without one.
enum Backing {
    Disk { tree: HostDirTree, shown: String },
    Memory(Vec<ProvenanceRecord>),
}

/// The folder's provenance records.
pub(crate) struct ProvenanceStore {
    backing: Mutex<Backing>,
    cap: usize,
}

impl ProvenanceStore {
    /// Records kept in memory only (an environment with no state directory).
    pub fn memory() -> ProvenanceStore {
        ProvenanceStore { backing: Mutex::new(Backing::Memory(Vec::new())), cap: MAX_RECORDS }
    }

    /// Records kept in `dir` (created when absent).
    pub fn open(dir: &Path) -> Result<ProvenanceStore> {
        let tree = HostDirTree::open(dir)?.durable(true);
        let shown = dir.join("records.json").display().to_string();
        Ok(ProvenanceStore { backing: Mutex::new(Backing::Disk { tree, shown }), cap: MAX_RECORDS })
    }

    /// The same store keeping at most `cap` records (tests).
    #[cfg(test)]
    pub fn with_cap(mut self, cap: usize) -> ProvenanceStore {
        self.cap = cap;
        self
    }

    fn load(backing: &Backing) -> Result<Vec<ProvenanceRecord>> {
        let (tree, shown) = match backing {
            Backing::Memory(records) => return Ok(records.clone()),
            Backing::Disk { tree, shown } => (tree, shown),
        };
        let path = VPath::parse(FILE)?;
        let bytes = match tree.read(&path) {
            Ok(bytes) => bytes,
            Err(VfsError::NoSuchEntry(_) | VfsError::NoSuchFile(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        };
        let doc: Document = serde_json::from_slice(&bytes)
            .map_err(|e| EnvError::State { path: shown.clone(), detail: format!("not a provenance document ({e})") })?;
        if doc.version != VERSION {
            return Err(EnvError::State {
                path: shown.clone(),
                detail: format!(
                    "it is format version {}, this Folio reads version {VERSION} (a newer Folio wrote it; update Folio)",
                    doc.version
                ),
            });
        }
        Ok(doc.records)
    }

    fn save(backing: &mut Backing, records: Vec<ProvenanceRecord>) -> Result<()> {
        match backing {
            Backing::Memory(kept) => {
                *kept = records;
                Ok(())
            }
            Backing::Disk { tree, shown } => {
                let doc = Document { version: VERSION, records };
                let bytes = serde_json::to_vec(&doc).map_err(|e| EnvError::State {
                    path: shown.clone(),
                    detail: format!("could not encode it ({e})"),
                })?;
                tree.write(&VPath::parse(FILE)?, &bytes)?;
                Ok(())
            }
        }
    }

    /// Adds `new` records, replacing any with the same path and hash, then drops the oldest
    /// beyond the cap.
    pub fn add(&self, new: Vec<ProvenanceRecord>) -> Result<()> {
        if new.is_empty() {
            return Ok(());
        }
        let mut backing = self.backing.lock().unwrap_or_else(|p| p.into_inner());
        let mut records = Self::load(&backing)?;
        records.retain(|old| !new.iter().any(|n| n.path == old.path && n.hash == old.hash));
        records.extend(new);
        // Oldest first; a stable sort keeps insertion order among equal times.
        records.sort_by_key(|r| r.made_at_ms);
        if records.len() > self.cap {
            let excess = records.len() - self.cap;
            records.drain(..excess);
        }
        Self::save(&mut backing, records)
    }

    /// The records for `path`, newest first.
    pub fn for_path(&self, path: &str) -> Result<Vec<ProvenanceRecord>> {
        let backing = self.backing.lock().unwrap_or_else(|p| p.into_inner());
        let mut records: Vec<ProvenanceRecord> = Self::load(&backing)?.into_iter().filter(|r| r.path == path).collect();
        records.reverse();
        Ok(records)
    }

    /// How many records are kept.
    #[cfg(test)]
    pub fn count(&self) -> Result<usize> {
        let backing = self.backing.lock().unwrap_or_else(|p| p.into_inner());
        Ok(Self::load(&backing)?.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::provenance::RunOrigin;

    fn record(path: &str, hash: &str, at: i64) -> ProvenanceRecord {
        ProvenanceRecord {
            path: path.to_owned(),
            hash: hash.to_owned(),
            size: 1,
            script: "/scripts/s.js".to_owned(),
            script_hash: "s".to_owned(),
            args: serde_json::json!({}),
            inputs: Vec::new(),
            run_id: format!("r{at}"),
            origin: RunOrigin::Direct,
            made_at_ms: at,
        }
    }

    #[test]
    fn the_oldest_records_go_beyond_the_cap_and_a_rerun_replaces_its_twin() {
        let dir = tempfile::tempdir().unwrap();
        let store = ProvenanceStore::open(dir.path()).unwrap().with_cap(3);
        for at in 0..5 {
            store.add(vec![record(&format!("/out/{at}.csv"), "h", at)]).unwrap();
        }
        assert_eq!(store.count().unwrap(), 3);
        assert!(store.for_path("/out/0.csv").unwrap().is_empty());
        assert!(store.for_path("/out/1.csv").unwrap().is_empty());
        assert_eq!(store.for_path("/out/4.csv").unwrap().len(), 1);
        store.add(vec![record("/out/4.csv", "h", 9)]).unwrap();
        let kept = store.for_path("/out/4.csv").unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].made_at_ms, 9);
        // A second process opening the same directory sees the same records.
        let again = ProvenanceStore::open(dir.path()).unwrap();
        assert_eq!(again.for_path("/out/4.csv").unwrap()[0].run_id, "r9");
    }

    #[test]
    fn a_torn_or_newer_document_is_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("records.json"), b"{\"version\": 7, \"records\": []}").unwrap();
        let store = ProvenanceStore::open(dir.path()).unwrap();
        let err = store.for_path("/out/a").unwrap_err().to_string();
        assert!(err.contains("records.json") && err.contains("version 7"), "{err}");
        std::fs::write(dir.path().join("records.json"), b"{\"vers").unwrap();
        let err = store.add(vec![record("/out/a", "h", 1)]).unwrap_err().to_string();
        assert!(err.contains("not a provenance document"), "{err}");
    }
}
