//! `env:fs` for scripts, served by the environment: reads come from the tree, and every change
//! goes through the mutation gateway, so a script's writes obey the zones, the size limits, the
//! script pipeline (validation and `.d.ts`), the undo rings and the counters exactly as the verbs
//! do. Errors are the gateway's own messages; the engine tags them `env:fs.<function>: …`.

use std::sync::Arc;

use folio_script::ScriptFs;
use folio_vfs::{DirEntry, Stat, Tree, VPath};

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

fn text<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

impl ScriptFs for EnvFs {
    fn read(&self, path: &VPath) -> Result<Vec<u8>, String> {
        self.gateway.tree().read(path).map_err(text)
    }
    fn write(&self, path: &VPath, data: &[u8]) -> Result<(), String> {
        self.gateway.write(path, data, WriteMode::Replace, None).map(drop).map_err(text)
    }
    fn append(&self, path: &VPath, data: &[u8]) -> Result<(), String> {
        self.gateway.write(path, data, WriteMode::Append, None).map(drop).map_err(text)
    }
    fn list(&self, dir: &VPath) -> Result<Vec<DirEntry>, String> {
        self.gateway.tree().list(dir).map_err(text)
    }
    fn glob(&self, pattern: &str) -> Result<Vec<VPath>, String> {
        self.gateway.tree().glob(pattern).map_err(text)
    }
    fn stat(&self, path: &VPath) -> Result<Option<Stat>, String> {
        self.gateway.tree().stat(path).map_err(text)
    }
    fn mkdir(&self, path: &VPath) -> Result<(), String> {
        self.gateway.mkdir(path).map_err(text)
    }
    fn rm(&self, path: &VPath) -> Result<(), String> {
        self.gateway.rm(path).map(drop).map_err(text)
    }
    fn mv(&self, from: &VPath, to: &VPath) -> Result<(), String> {
        self.gateway.transfer(from, to, true).map(drop).map_err(text)
    }
    fn cp(&self, from: &VPath, to: &VPath) -> Result<(), String> {
        self.gateway.transfer(from, to, false).map(drop).map_err(text)
    }
}
