//! Builds the web UI (`ui/`, with npm and Vite) into `ui/dist`, which the app embeds, then runs
//! Tauri's build step. Set `FOLIO_SKIP_UI_BUILD=1` to embed an existing `ui/dist` as is.

use std::path::Path;
use std::process::Command;
use std::time::SystemTime;

/// The newest modification time under `path` (a file, or a directory walked recursively).
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path).ok()?.flatten().filter_map(|entry| newest(&entry.path())).max()
}

fn npm(ui: &Path, args: &[&str]) -> Result<(), String> {
    let status =
        Command::new("npm").args(args).current_dir(ui).status().map_err(|e| {
            format!("npm could not start ({e}) — install Node.js 20 or newer (scripts/install.sh does it)")
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`npm {}` in ui/ failed ({status}) — run it there to see why", args.join(" ")))
    }
}

fn main() -> Result<(), String> {
    // Read at run time: a build script compiled for another checkout that shares the target
    // directory must not build that checkout's UI.
    let manifest = std::env::var("CARGO_MANIFEST_DIR")
        .map_err(|_| "CARGO_MANIFEST_DIR is unset — run this build through cargo".to_string())?;
    let ui = Path::new(&manifest).join("../ui");
    for watched in ["src", "index.html", "package.json", "package-lock.json", "vite.config.ts", "dist/index.html"] {
        println!("cargo:rerun-if-changed={}", ui.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=FOLIO_SKIP_UI_BUILD");
    // Each profile (clippy's check, the test build) runs this script on its own. A `ui/dist` newer
    // than every source is left alone: rewriting it would make every other profile's build of
    // this crate stale and compile it again.
    let sources = ["src", "index.html", "package.json", "package-lock.json", "vite.config.ts"]
        .iter()
        .filter_map(|watched| newest(&ui.join(watched)))
        .max();
    let built = std::fs::metadata(ui.join("dist/index.html")).and_then(|m| m.modified()).ok();
    let fresh = matches!((sources, built), (Some(sources), Some(built)) if built >= sources);
    if std::env::var_os("FOLIO_SKIP_UI_BUILD").is_none() && !fresh {
        if !ui.join("node_modules/.bin/vite").exists() {
            npm(&ui, &["ci", "--no-audit", "--no-fund", "--silent"])?;
        }
        npm(&ui, &["run", "--silent", "build"])?;
    }
    tauri_build::build();
    Ok(())
}
