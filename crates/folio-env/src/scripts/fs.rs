//! `env:fs` for scripts, served by the environment: reads come from the tree, and every change
//! goes through the mutation gateway, so a script's writes obey the zones, the size limits, the
//! script pipeline (validation and `.d.ts`), the undo rings and the counters exactly as the verbs
//! do. Errors are the gateway's own (typed as [`FsError`]); the engine tags them `env:fs.<function>: …`.

use std::sync::Arc;

use folio_script::{FsError, ScriptFs};
use folio_vfs::{DirEntry, Stat, Tree, VPath};

use crate::error::EnvError;
use crate::gateway::{Gateway, WriteMode};

/// The environment's [`ScriptFs`].
pub(crate) struct EnvFs {
    gateway: Arc<Gateway>,
}

impl EnvFs {
    pub fn new(gateway: Arc<Gateway>) -> EnvFs {
        EnvFs { gateway }
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
    fn read(&self, path: &VPath) -> Result<Vec<u8>, FsError> {
        self.gateway.tree().read(path).map_err(FsError::from)
    }
    fn write(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.gateway.write(path, data, WriteMode::Replace, None).map(drop).map_err(text)
    }
    fn append(&self, path: &VPath, data: &[u8]) -> Result<(), FsError> {
        self.gateway.write(path, data, WriteMode::Append, None).map(drop).map_err(text)
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
        self.gateway.transfer(from, to, true).map(drop).map_err(text)
    }
    fn cp(&self, from: &VPath, to: &VPath) -> Result<(), FsError> {
        self.gateway.transfer(from, to, false).map(drop).map_err(text)
    }
}
