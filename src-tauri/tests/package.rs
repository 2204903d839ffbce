//! The packaging configuration agrees with the rest of the tree, without building a package
//! (src-tauri/packaging/installed-test.sh builds, installs and removes one):
//! one version (the workspace's), the resource directory folio-render's discovery looks in, the
//! icons at the sizes the desktops ask for, the desktop entry that opens folders, and the Tauri CLI
//! pinned in ui/.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::path::{Path, PathBuf};

use serde_json::Value;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn json(path: &str) -> Value {
    let text = std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn config() -> Value {
    json("src-tauri/tauri.conf.json")
}

/// The workspace version of the root Cargo.toml, read as text (the one place versions come from).
fn workspace_version() -> String {
    let text = std::fs::read_to_string(repo().join("Cargo.toml")).unwrap();
    let section = text.split("[workspace.package]").nth(1).expect("a [workspace.package] section");
    let line = section.lines().find(|l| l.trim_start().starts_with("version")).expect("a workspace version");
    line.split('"').nth(1).expect("a quoted version").to_string()
}

#[test]
fn one_version_the_workspaces() {
    let version = workspace_version();
    assert_eq!(env!("CARGO_PKG_VERSION"), version, "folio-desktop must inherit the workspace version");
    // Tauri falls back to the crate's version when its config has none; a version of its own
    // would drift from the workspace's with the next release.
    let own = config().get("version").cloned();
    assert!(
        own.is_none(),
        "src-tauri/tauri.conf.json carries \"version\": {own:?}; the packages must take the workspace's ({version}) — delete it"
    );
}

#[test]
fn the_package_resources_are_where_discovery_looks() {
    let product = config()["productName"].as_str().map(str::to_string);
    assert_eq!(
        product.as_deref(),
        Some(folio_render::discovery::PACKAGE_RESOURCES),
        "Tauri puts the .deb/.rpm resources (PDFium) in /usr/lib/<productName>; folio-render's \
         discovery::PACKAGE_RESOURCES must name the same directory"
    );
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{} is not a PNG", path.display());
    let be = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (be(16), be(20))
}

#[test]
fn icons_cover_every_size_the_desktops_ask_for() {
    let config = config();
    let icons: Vec<PathBuf> = config["bundle"]["icon"]
        .as_array()
        .expect("bundle.icon")
        .iter()
        .map(|i| repo().join("src-tauri").join(i.as_str().unwrap()))
        .collect();
    let mut sizes = Vec::new();
    for icon in icons.iter().filter(|i| i.extension().is_some_and(|e| e == "png")) {
        let (w, h) = png_size(icon);
        assert_eq!(w, h, "{} is not square", icon.display());
        let name = icon.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(named) = name.strip_suffix(".png").and_then(|n| n.split_once('x')) {
            let scale = if named.1.ends_with("@2x") { 2 } else { 1 };
            let said: u32 = named.0.parse().unwrap();
            assert_eq!(w, said * scale, "{name} is {w}×{h}");
        }
        sizes.push(w);
    }
    for want in [16, 24, 32, 48, 64, 128, 256, 512] {
        assert!(sizes.contains(&want), "no {want}×{want} PNG among bundle.icon ({sizes:?})");
    }
    for other in ["icon.icns", "icon.ico"] {
        assert!(icons.iter().any(|i| i.ends_with(other) && i.is_file()), "bundle.icon lacks an existing {other}");
    }
    let scalable =
        &config["bundle"]["linux"]["deb"]["files"]["/usr/share/icons/hicolor/scalable/apps/folio-desktop.svg"];
    let svg = repo().join("src-tauri").join(scalable.as_str().expect("the .deb installs a scalable icon"));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"), "{} is not an SVG", svg.display());
}

#[test]
fn the_desktop_entry_opens_folders() {
    let config = config();
    for format in ["deb", "rpm"] {
        let template = config["bundle"]["linux"][format]["desktopTemplate"]
            .as_str()
            .unwrap_or_else(|| panic!("the .{format} has no desktopTemplate"));
        let text = std::fs::read_to_string(repo().join("src-tauri").join(template)).unwrap();
        for line in [
            "Exec={{exec}} %f",
            "MimeType=inode/directory;",
            "Actions=open-folder;",
            "[Desktop Action open-folder]",
            "Name=Open folder in Folio",
        ] {
            assert!(text.lines().any(|l| l == line), "{template} lacks the line {line:?}");
        }
    }
}

#[test]
fn the_tauri_cli_is_pinned() {
    let package = json("ui/package.json");
    let pin = package["devDependencies"]["@tauri-apps/cli"]
        .as_str()
        .expect("ui/package.json devDependencies has @tauri-apps/cli");
    assert!(pin.chars().all(|c| c.is_ascii_digit() || c == '.'), "@tauri-apps/cli is {pin:?}; pin an exact version");
    let lock = json("ui/package-lock.json");
    let locked = lock["packages"]["node_modules/@tauri-apps/cli"]["version"].as_str();
    assert_eq!(
        locked,
        Some(pin),
        "ui/package-lock.json locks another @tauri-apps/cli than package.json pins — run npm install in ui/"
    );
}
