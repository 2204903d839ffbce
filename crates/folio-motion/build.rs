//! Embeds Folio's page files (`js/`) and the vendored libraries (`vendor/`) as one table, so the
//! page's server answers `/__folio/<path>` from the binary and nothing is read from disk at run
//! time. A file added to either directory is served without touching any Rust.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(root, &p, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push((rel, p.clone()));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for dir in ["js", "vendor"] {
        let root = manifest.join(dir);
        println!("cargo:rerun-if-changed={}", root.display());
        walk(&root, &root, &mut files);
    }
    let mut src = String::from(
        "/// Every file under js/ and vendor/, by its path below `/__folio/`.\npub static ASSETS: &[(&str, &[u8])] = &[\n",
    );
    for (rel, path) in &files {
        let _ = writeln!(src, "    ({rel:?}, include_bytes!({:?})),", path.display().to_string());
    }
    src.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("assets.rs");
    if let Err(e) = std::fs::write(&out, src) {
        println!("cargo:warning=could not write {}: {e}", out.display());
    }
}
