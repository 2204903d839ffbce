//! Shared helpers for the suites.

mod budget;
mod builtins;
mod console;
mod event_loop;
mod executor;
mod intl;
mod libraries;
mod library;
mod node;
mod pipeline;
mod sandbox;
mod web;

pub use folio_script::{Engine, ModuleRegistry, RunOptions, RunResult, RunValue, ScriptError, ScriptLimits, TreeFs};
pub use folio_vfs::{MemTree, Tree, VPath};
pub use std::sync::Arc;

pub fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

pub fn tree(files: &[(&str, &str)]) -> Arc<MemTree> {
    let t = Arc::new(MemTree::new());
    for (p, body) in files {
        t.write(&vp(p), body.as_bytes()).unwrap();
    }
    t
}

pub fn engine() -> Engine {
    Engine::new(ModuleRegistry::with_builtins(), ScriptLimits { run_timeout_ms: 2_000, ..ScriptLimits::default() })
}

/// Runs `/scripts/main.js` = `src` (plus `extra` files) with `args`.
pub fn run_with(src: &str, extra: &[(&str, &str)], args: Option<&str>, opts: RunOptions) -> RunResult {
    let t = tree(extra);
    t.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    engine().run_blocking(Arc::new(TreeFs::new(t)), &vp("/scripts/main.js"), args, opts)
}

pub fn run(src: &str) -> RunResult {
    run_with(src, &[], None, RunOptions::default())
}

/// The result as text: JSON for data, `undefined`, the display rendering, or `ERR: <message>`.
pub fn outcome(r: &RunResult) -> String {
    match &r.outcome {
        Ok(RunValue::Json(v)) => v.to_string(),
        Ok(RunValue::Undefined) => "undefined".into(),
        Ok(RunValue::Display(s)) => format!("display: {s}"),
        Err(e) => format!("ERR: {e}"),
    }
}
