//! Shared helpers: running a script against env:spreadsheets over an in-memory tree, and the
//! independent readers (python3 with openpyxl, LibreOffice), each skipped with a printed reason
//! when absent.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};

use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_sheets::SheetsHost;
use folio_sheets::modules::spreadsheets_module;
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

pub fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

/// One host per test binary (its cache is per environment, so tests do not see each other).
pub fn host() -> Arc<SheetsHost> {
    static HOST: OnceLock<Arc<SheetsHost>> = OnceLock::new();
    HOST.get_or_init(|| {
        let profile = std::env::temp_dir().join(format!("folio-sheets-test-profile-{}", std::process::id()));
        Arc::new(SheetsHost::from_host(None).with_profile(profile))
    })
    .clone()
}

/// Runs `src` with `files` in a fresh tree; returns the tree and the script's value or error.
pub fn run(files: &[(&str, Vec<u8>)], src: &str) -> (Arc<MemTree>, Result<Value, String>) {
    let tree = Arc::new(MemTree::new());
    for (p, b) in files {
        tree.write(&vp(p), b).unwrap();
    }
    let out = run_in(&tree, src);
    (tree, out)
}

/// Runs `src` in `tree`.
pub fn run_in(tree: &Arc<MemTree>, src: &str) -> Result<Value, String> {
    run_with(tree, src, None)
}

/// Runs `src` in `tree` within `timeout_ms` (the run's budget).
pub fn run_with(tree: &Arc<MemTree>, src: &str, timeout_ms: Option<u64>) -> Result<Value, String> {
    run_on(host(), tree, src, timeout_ms)
}

/// Runs `src` in `tree` against a module over `host`.
pub fn run_on(host: Arc<SheetsHost>, tree: &Arc<MemTree>, src: &str, timeout_ms: Option<u64>) -> Result<Value, String> {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(spreadsheets_module(host)).unwrap();
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 300_000, ..ScriptLimits::default() });
    tree.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let opts = RunOptions { timeout_ms: Some(timeout_ms.unwrap_or(120_000)), ..RunOptions::default() };
    let res = engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &vp("/scripts/main.js"), None, opts);
    match res.outcome {
        Ok(RunValue::Json(v)) => Ok(v),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// A python3 that has openpyxl, or `None` (printed).
pub fn python() -> Option<PathBuf> {
    for p in ["python3", "/usr/bin/python3"] {
        if Command::new(p).args(["-c", "import openpyxl"]).output().is_ok_and(|o| o.status.success()) {
            return Some(PathBuf::from(p));
        }
    }
    eprintln!("skipped: no python3 with openpyxl (scripts/install.sh installs python3-openpyxl)");
    None
}

/// Runs python `code` with `file` as sys.argv[1]; its stdout parsed as JSON.
pub fn py(python: &Path, code: &str, file: &Path) -> Value {
    let out = Command::new(python).arg("-c").arg(code).arg(file).output().unwrap();
    assert!(out.status.success(), "python: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// LibreOffice, or `None` (printed).
pub fn soffice() -> Option<PathBuf> {
    match folio_render::office::find_soffice(None, &folio_render::HostPaths::from_host(None)) {
        Ok(p) => Some(p),
        Err(tried) => {
            eprintln!("skipped: LibreOffice is not installed ({tried})");
            None
        }
    }
}

/// Writes `bytes` to a fresh temporary file named `name`.
pub fn on_disk(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The corpus directory, or `None` (printed).
pub fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: the corpus is not at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}
