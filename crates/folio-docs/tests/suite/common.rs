//! Running scripts against env:documents over an in-memory tree, and the outside readers.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use folio_docs::modules::documents_module;
use folio_render::{HostPaths, Renderer};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};
use serde_json::Value;

pub fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

pub fn renderer() -> Arc<Renderer> {
    Arc::new(Renderer::new(HostPaths::from_host(None)))
}

/// Runs `src` as /scripts/main.js with `files` in the tree.
pub fn run(files: &[(&str, Vec<u8>)], src: &str) -> (Arc<MemTree>, Result<Value, String>) {
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(documents_module(renderer())).unwrap();
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 60_000, ..ScriptLimits::default() });
    let tree = Arc::new(MemTree::new());
    for (p, b) in files {
        tree.write(&vp(p), b).unwrap();
    }
    tree.write(&vp("/scripts/main.js"), src.as_bytes()).unwrap();
    let res =
        engine.run_blocking(Arc::new(TreeFs::new(tree.clone())), &vp("/scripts/main.js"), None, RunOptions::default());
    let out = match res.outcome {
        Ok(RunValue::Json(v)) => Ok(v),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    };
    (tree, out)
}

/// A tool on PATH, or None with a printed reason.
pub fn tool(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file());
    if found.is_none() {
        eprintln!("skipped: {name} is not installed (scripts/install.sh installs it)");
    }
    found
}

pub fn output(cmd: &Path, args: &[&str]) -> String {
    let out = Command::new(cmd).args(args).output().unwrap();
    assert!(out.status.success(), "{} {args:?}: {}", cmd.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A solid-colour RGB PNG.
pub fn png(w: u32, h: u32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().unwrap();
        let data: Vec<u8> = (0..w * h).flat_map(|_| rgb).collect();
        wr.write_image_data(&data).unwrap();
    }
    out
}

/// The corpus directory, or None with a printed reason.
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
