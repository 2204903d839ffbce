//! Scripts in the environment: the script engine behind write-time validation, `env:fs` served
//! by the gateway, and the `run_script`/`run_tests` verbs with their run log, spill files and
//! cancellation.
//!
//! Cancellation works per run: every run holds a `CancelToken` — the caller's, when the verb
//! came through [`crate::Environment::call_with_cancel`], else a fresh one — and is registered
//! in `runs.rs` while it runs, so [`crate::Environment::cancel_runs`] can stop all of them at once.
//! (That registry sits outside this folder because the `Environment` holds it, and the modules
//! here read the `Environment`.)

mod fs;
mod script_run;
mod tests;

use std::sync::Arc;

use folio_script::{Engine, ScriptKind};
use folio_vfs::{Tree, VPath};

pub(crate) use fs::EnvFs;
pub use script_run::RunReport;
pub(crate) use tests::run_tests;

use crate::pipeline::{ScriptCheck, ScriptValidator};

/// The first line of the JSDoc block right before `export default`, if there is one. A simple
/// scanner: it finds the last `/** … */` that ends before the export with only whitespace between.
pub fn jsdoc_summary(source: &str) -> Option<String> {
    let export = source.find("export default")?;
    let before = &source[..export];
    let close = before.rfind("*/")?;
    if !before[close + 2..].trim().is_empty() {
        return None;
    }
    let open = before[..close].rfind("/**")?;
    before[open + 3..close]
        .lines()
        .map(|l| l.trim().trim_start_matches('*').trim())
        .find(|l| !l.is_empty())
        .filter(|l| !l.starts_with('@'))
        .map(str::to_owned)
}

/// The one-liner of a runnable script: the description in its derived `.d.ts` (what validation
/// found), else the JSDoc scanned from the source.
pub fn script_summary(tree: &dyn Tree, path: &VPath) -> Option<String> {
    if let Some(dts) = folio_script::dts_path(path)
        && let Ok(bytes) = tree.read(&dts)
    {
        let text = String::from_utf8_lossy(&bytes);
        if let Some(body) = text.trim_start().strip_prefix("/**") {
            let end = body.find("*/").unwrap_or(body.len());
            return body[..end]
                .lines()
                .map(|l| l.trim().trim_start_matches('*').trim())
                .find(|l| !l.is_empty())
                .map(str::to_owned);
        }
        return None;
    }
    let source = tree.read(path).ok()?;
    jsdoc_summary(&String::from_utf8_lossy(&source))
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
