//! `env:fs` for scripts, served by the environment: reads come from the tree, and every change
//! goes through the mutation gateway, so a script's writes obey the zones, the size limits, the
//! script pipeline (validation and `.d.ts`), the undo rings and the counters exactly as the verbs
//! do. Errors are the gateway's own (typed as [`FsError`]); the engine tags them `env:fs.<function>: …`.
//!
//! It is also where a run's provenance is observed: every read (env:fs, Node's `fs`, and each
//! `env:*` module that opens a file) and every write of the run passes here, so this is the one
//! place that tells the run's [`RunTrace`] what was read (with the bytes' hash) and written.

use std::sync::Arc;

use folio_script::{FsError, ScriptFs};
use folio_vfs::{DirEntry, Stat, Tree, VPath};

use crate::error::EnvError;
use crate::gateway::{Gateway, WriteMode};
use crate::provenance::trace::RunTrace;

/// The environment's [`ScriptFs`].
pub(crate) struct EnvFs {
    gateway: Arc<Gateway>,
    trace: Arc<RunTrace>,
}

impl EnvFs {
    /// Serves one run, recording its reads and writes in `trace`.
    pub fn new(gateway: Arc<Gateway>, trace: Arc<RunTrace>) -> EnvFs {
        EnvFs { gateway, trace }
    }
}

/// A gateway refusal as the script's error: the tree's own errors stay typed.
fn text(e: EnvError) -> FsError {
    match e {
        EnvError::Vfs(e) => FsError::Tree(e),
        other => FsError::Refused(Box::new(other)),
    }
}

impl ScriptFs for EnvFs {
    fn scope(&self) -> u64 {
        self.gateway.scope()
    }
    fn room(&self) -> Option<(u64, u64)> {
        use folio_vfs::Tree;
        let cap = self.gateway.limits().max_vfs_bytes;
        let used = self.gateway.tree().total_size().ok()?;
        Some((cap.saturating_sub(used), cap))
    }
    fn read(&self, path: &VPath) -> Result<Vec<u8>, FsError> {
        let bytes = self.gateway.tree().read(path).map_err(FsError::from)?;
        self.trace.read(path, &bytes);
        Ok(bytes)
    }
    fn write(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.gateway.write(path, data, WriteMode::Replace, None).map_err(text)?;
        self.trace.wrote(path);
        Ok(())
    }
    fn append(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.gateway.write(path, data, WriteMode::Append, None).map_err(text)?;
        self.trace.wrote(path);
        Ok(())
    }
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>, FsError> {
        self.gateway.tree().list(dir).map_err(FsError::from)
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, FsError> {
        self.gateway.tree().glob(pattern).map_err(FsError::from)
    }
    fn stat(&self, path: &VPath) -> Result<Option<Stat>, FsError> {
        self.gateway.tree().stat(path).map_err(FsError::from)
    }
    fn mkdir(&self, path: &VPath) -> Result<(), FsError> {
        self.gateway.mkdir(path).map_err(text)
    }
    fn rm(&self, path: &VPath) -> Result<(), FsError> {
        self.gateway.rm(path).map(drop).map_err(text)
    }
    fn mv(&self, from: &VPath, to: &VPath) -> Result<(), FsError> {
        self.note_source(from);
        self.gateway.transfer(from, to, true).map_err(text)?;
        self.trace.wrote(to);
        Ok(())
    }
    fn cp(&self, from: &VPath, to: &VPath) -> Result<(), FsError> {
        self.note_source(from);
        self.gateway.transfer(from, to, false).map_err(text)?;
        self.trace.wrote(to);
        Ok(())
    }
}

impl EnvFs {
    /// A copied or moved file's bytes are an input of what it becomes (a subtree's files are
    /// not hashed one by one: the written destination is still recorded).
    fn note_source(&self, from: &VPath) {
        let tree = self.gateway.tree();
        if let Ok(Some(stat)) = tree.stat(from)
            && stat.kind == folio_vfs::Kind::File
            && let Ok(bytes) = tree.read(from)
        {
            self.trace.read(from, &bytes);
        }
    }
}
