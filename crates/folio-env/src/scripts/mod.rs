//! Scripts in the environment: the script engine behind write-time validation, `env:fs` served
//! by the gateway, and the `run_script`/`run_tests` verbs with their run log, spill files and
//! cancellation.
//!
//! Cancellation works per run: every run holds a [`CancelToken`] — the caller's, when the verb
//! came through [`crate::Environment::call_with_cancel`], else a fresh one — and is registered
//! here while it runs, so [`crate::Environment::cancel_runs`] can stop all of them at once.

mod fs;
mod script_run;
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use folio_script::{CancelToken, Engine, ScriptKind};
use folio_vfs::{Tree, VPath};

pub(crate) use fs::EnvFs;
pub use script_run::RunReport;
pub(crate) use tests::run_tests;

use crate::pipeline::{ScriptCheck, ScriptValidator};

/// The environment's script state: the engine and the runs in flight.
pub(crate) struct Scripts {
    pub engine: Arc<Engine>,
    active: Mutex<HashMap<u64, CancelToken>>,
    next: AtomicU64,
}

/// Keeps a run registered for [`Scripts::cancel_all`] until it is dropped.
pub(crate) struct Tracked<'a> {
    scripts: &'a Scripts,
    id: u64,
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.scripts.active.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.id);
    }
}

impl Scripts {
    pub fn new(engine: Arc<Engine>) -> Scripts {
        Scripts { engine, active: Mutex::new(HashMap::new()), next: AtomicU64::new(0) }
    }

    /// Registers a run's token until the returned guard is dropped.
    pub fn track(&self, token: &CancelToken) -> Tracked<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.active.lock().unwrap_or_else(|p| p.into_inner()).insert(id, token.clone());
        Tracked { scripts: self, id }
    }

    /// Cancels every registered run; returns how many there were.
    pub fn cancel_all(&self) -> usize {
        let active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        for token in active.values() {
            token.cancel();
        }
        active.len()
    }
}

/// The write-time validator backed by the script engine: parses and loads the module graph with
/// the new text laid over the tree, checks the contract and derives the `.d.ts`.
pub struct EngineValidator {
    engine: Arc<Engine>,
}

impl EngineValidator {
    /// A validator over `engine`.
    pub fn new(engine: Arc<Engine>) -> EngineValidator {
        EngineValidator { engine }
    }
}

impl ScriptValidator for EngineValidator {
    fn validate(&self, path: &VPath, source: &[u8], tree: &dyn Tree) -> Result<(), String> {
        self.check(path, source, tree).map(drop)
    }

    fn check(&self, path: &VPath, source: &[u8], tree: &dyn Tree) -> Result<ScriptCheck, String> {
        let text = std::str::from_utf8(source).map_err(|_| {
            "it is not UTF-8 text — a script is JavaScript source; write it as text (not base64 of a binary)".to_owned()
        })?;
        let v = self.engine.validate(tree, path, text).map_err(|e| e.to_string())?;
        Ok(ScriptCheck { dts: v.dts, one_liner: v.one_liner, nudge: v.nudge, test: v.kind == ScriptKind::Test })
    }
}
