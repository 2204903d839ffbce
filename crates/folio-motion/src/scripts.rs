//! The page's own files and init scripts for one render: the page with its background and
//! import map filled in, the entry that mounts the scene, every file under `js/` and `vendor/`,
//! and the init scripts registered before navigation (the clock first, then the config).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use crate::args::RenderArgs;
use crate::site::ORIGIN;

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// An embedded file by its path under `/__folio/`.
pub fn asset(name: &str) -> Option<&'static [u8]> {
    ASSETS.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

fn text(name: &str) -> String {
    asset(name).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
}

/// Folio's files for a render of `scene` with `args`.
pub fn own_files(args: &RenderArgs, scene: &str) -> BTreeMap<String, (&'static str, Arc<[u8]>)> {
    let mut out = BTreeMap::new();
    for (name, bytes) in ASSETS {
        out.insert((*name).to_string(), (crate::site::mime_of(name), Arc::<[u8]>::from(*bytes)));
    }
    let scene_url = format!("{ORIGIN}{}", encode_path(scene));
    let page = text("page.html")
        .replace("{{BACKGROUND}}", &args.background)
        .replace("{{IMPORTMAP}}", text("importmap.json").trim())
        .replace("{{ENTRY}}", "/__folio/entry.js");
    let entry = text("entry.js").replace("{{SCENE}}", &scene_url);
    out.insert("page.html".into(), ("text/html; charset=utf-8", Arc::from(page.into_bytes())));
    out.insert("entry.js".into(), ("text/javascript; charset=utf-8", Arc::from(entry.into_bytes())));
    out
}

/// The init scripts, in order: the clock (replaces time before any page code), then the config.
pub fn init_scripts(args: &RenderArgs, still: bool) -> Vec<String> {
    let cfg = json!({
        "fps": args.fps,
        "durationInFrames": args.duration_in_frames,
        "width": args.width,
        "height": args.height,
        "frame": 0,
        "seed": 42,
        "still": still,
    });
    vec![text("clock.js"), format!("window.__folio && window.__folio.configure({cfg});")]
}

/// Percent-encodes what a URL path cannot hold as is (quotes, spaces, non-ASCII).
pub fn encode_path(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for b in p.bytes() {
        if b.is_ascii_alphanumeric() || b"/-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
