//! [`RunTrace`]: what one run read and wrote, filled by the run's `ScriptFs` (`scripts/fs.rs`),
//! the one door every script read and write passes (env:fs, Node's `fs`, every `env:*` module).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use folio_vfs::VPath;

use super::{InputRecord, content_hash};
use crate::zone::Zone;

#[derive(Default)]
struct Seen {
    /// Path → hash of the bytes first read there.
    reads: BTreeMap<VPath, String>,
    /// Paths the run created or replaced, in path order.
    written: BTreeSet<VPath>,
}

/// The reads and writes of one run.
#[derive(Default)]
pub(crate) struct RunTrace {
    seen: Mutex<Seen>,
}

/// Generated zones hold documentation and the environment's own state, not data.
fn is_generated(path: &VPath) -> bool {
    [Zone::Std, Zone::Skills, Zone::Env].iter().any(|z| z.root().is_ok_and(|root| path.is_under(&root)))
}

impl RunTrace {
    fn seen(&self) -> std::sync::MutexGuard<'_, Seen> {
        self.seen.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The run got `bytes` from `path`. The first read counts; a file the run itself wrote
    /// earlier is its intermediate, not an input.
    pub fn read(&self, path: &VPath, bytes: &[u8]) {
        if is_generated(path) {
            return;
        }
        let mut seen = self.seen();
        if seen.written.contains(path) || seen.reads.contains_key(path) {
            return;
        }
        seen.reads.insert(path.clone(), content_hash(bytes));
    }

    /// The run created or replaced the file (or subtree) at `path`.
    pub fn wrote(&self, path: &VPath) {
        self.seen().written.insert(path.clone());
    }

    /// The inputs, in path order.
    pub fn inputs(&self) -> Vec<InputRecord> {
        self.seen().reads.iter().map(|(p, h)| InputRecord { path: p.to_string(), hash: h.clone() }).collect()
    }

    /// The written paths, in path order.
    pub fn written(&self) -> Vec<VPath> {
        self.seen().written.iter().cloned().collect()
    }
}
