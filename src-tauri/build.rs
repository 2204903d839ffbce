//! Builds the web UI (`ui/`, with npm and Vite) into `ui/dist`, which the app embeds, then runs
//! Tauri's build step. Set `FOLIO_SKIP_UI_BUILD=1` to embed an existing `ui/dist` as is.

use std::path::Path;
use std::process::Command;

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
    for watched in ["src", "index.html", "package.json", "package-lock.json", "vite.config.ts"] {
        println!("cargo:rerun-if-changed={}", ui.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=FOLIO_SKIP_UI_BUILD");
    if std::env::var_os("FOLIO_SKIP_UI_BUILD").is_none() {
        if !ui.join("node_modules/.bin/vite").exists() {
            npm(&ui, &["ci", "--no-audit", "--no-fund", "--silent"])?;
        }
        npm(&ui, &["run", "--silent", "build"])?;
    }
    tauri_build::build();
    Ok(())
}
