//! The page's whole world: every request the browser makes is answered here, from the tree or
//! from Folio's own files, or refused. The origin is `http://folio.scene/`; a tree path is its
//! own URL path (`/in/logo.png` is `http://folio.scene/in/logo.png`), so a scene's absolute
//! image and font paths work as written. Folio's page, runtime and vendored libraries live under
//! `/__folio/`. Anything else — another origin, a data fetch to the internet — is refused and
//! reported as a warning naming the URL.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::transform::{self, Graph, Module, RESOLVE_EXTENSIONS, SOURCE_EXTENSIONS};

/// The origin the page is served from.
pub const ORIGIN: &str = "http://folio.scene";

/// Reads the agent's tree for the page.
pub trait SceneFiles: Send + Sync {
    /// The bytes of a tree file, `None` when there is none.
    fn read(&self, path: &str) -> Option<Vec<u8>>;
    /// Whether a tree file exists (resolving an import probes several names; a tree that can
    /// answer without reading the file should).
    fn exists(&self, path: &str) -> bool {
        self.read(path).is_some()
    }
}

/// What the browser asked for, as CDP names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// A module or classic script.
    Script,
    /// An `<img>`, a CSS background.
    Image,
    /// A web font.
    Font,
    /// A stylesheet.
    Stylesheet,
    /// The page itself, media, fetch/XHR, anything else.
    Other,
}

impl Wanted {
    /// From `Fetch.requestPaused`'s `resourceType`.
    pub fn from_cdp(kind: &str) -> Wanted {
        match kind {
            "Script" => Wanted::Script,
            "Image" => Wanted::Image,
            "Font" => Wanted::Font,
            "Stylesheet" => Wanted::Stylesheet,
            _ => Wanted::Other,
        }
    }
}

/// One answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub mime: &'static str,
    /// Body.
    pub body: Vec<u8>,
}

/// The content types by extension (one table).
const MIME: &[(&str, &str)] = &[
    ("html", "text/html; charset=utf-8"),
    ("js", "text/javascript; charset=utf-8"),
    ("mjs", "text/javascript; charset=utf-8"),
    ("json", "application/json"),
    ("css", "text/css; charset=utf-8"),
    ("svg", "image/svg+xml"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("avif", "image/avif"),
    ("woff", "font/woff"),
    ("woff2", "font/woff2"),
    ("ttf", "font/ttf"),
    ("otf", "font/otf"),
    ("mp4", "video/mp4"),
    ("webm", "video/webm"),
    ("mp3", "audio/mpeg"),
    ("wav", "audio/wav"),
];

/// The content type of `path`.
pub fn mime_of(path: &str) -> &'static str {
    let ext = Path::new(path).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    MIME.iter().find(|(e, _)| *e == ext).map(|(_, m)| *m).unwrap_or("application/octet-stream")
}

/// The page's server for one render.
pub struct Site {
    files: Arc<dyn SceneFiles>,
    /// Folio's own files by name under `/__folio/`.
    own: BTreeMap<String, (&'static str, Arc<[u8]>)>,
    /// The scene's graph, transformed before navigation (and worklet-transformed when it uses
    /// Reanimated).
    modules: Mutex<BTreeMap<String, Module>>,
    missing: Mutex<BTreeSet<String>>,
    refused: Mutex<BTreeSet<String>>,
}

impl Site {
    /// A site over `files` with Folio's files `own` (name → (mime, bytes)) and the scene's
    /// transformed `graph`.
    pub fn new(files: Arc<dyn SceneFiles>, own: BTreeMap<String, (&'static str, Arc<[u8]>)>, graph: Graph) -> Site {
        Site { files, own, modules: Mutex::new(graph.modules), missing: Mutex::default(), refused: Mutex::default() }
    }

    /// Tree paths the page asked for that do not exist, in order.
    pub fn missing(&self) -> Vec<String> {
        self.missing.lock().map(|m| m.iter().cloned().collect()).unwrap_or_default()
    }

    /// URLs outside the page's origin that were refused.
    pub fn refused(&self) -> Vec<String> {
        self.refused.lock().map(|m| m.iter().cloned().collect()).unwrap_or_default()
    }

    /// Maps a generated location in a served module back to the author's line.
    pub fn original_line(&self, path: &str, generated_line0: u32) -> Option<u32> {
        let modules = self.modules.lock().ok()?;
        let m = modules.get(path)?;
        m.lines.get(generated_line0 as usize).copied()
    }

    /// Answers one request.
    pub fn reply(&self, url: &str, wanted: Wanted) -> Option<Reply> {
        let Some(rest) = url.strip_prefix(ORIGIN) else {
            if let Ok(mut r) = self.refused.lock() {
                r.insert(url.chars().take(200).collect());
            }
            return None;
        };
        let path = rest.split(['?', '#']).next().unwrap_or("/");
        let path = percent_decode(path);
        if let Some(name) = path.strip_prefix("/__folio/") {
            return Some(match self.own.get(name) {
                Some((mime, body)) => Reply { status: 200, mime, body: body.to_vec() },
                None => not_found(),
            });
        }
        let path = transform::normalize(&path);
        if wanted == Wanted::Script {
            return Some(self.script(&path));
        }
        match self.files.read(&path) {
            Some(body) => Some(Reply { status: 200, mime: mime_of(&path), body }),
            None => {
                self.note_missing(&path);
                Some(not_found())
            }
        }
    }

    fn note_missing(&self, path: &str) {
        if let Ok(mut m) = self.missing.lock() {
            m.insert(path.to_string());
        }
    }

    /// A module request: a transformed source, JSON as a default export, CSS as a style
    /// injector, anything else (an image imported from JS) as its URL.
    fn script(&self, path: &str) -> Reply {
        let js = |code: String| Reply { status: 200, mime: "text/javascript; charset=utf-8", body: code.into_bytes() };
        if let Some(m) = self.modules.lock().ok().and_then(|m| m.get(path).cloned()) {
            return js(m.code);
        }
        let exists = |p: &str| self.files.exists(p);
        let resolved = if exists(path) && Path::new(path).extension().is_some() {
            Some(path.to_string())
        } else {
            RESOLVE_EXTENSIONS.iter().map(|e| format!("{path}{e}")).find(|p| exists(p))
        };
        let Some(file) = resolved else {
            self.note_missing(path);
            return not_found();
        };
        if let Some(m) = self.modules.lock().ok().and_then(|m| m.get(&file).cloned()) {
            return js(m.code);
        }
        let Some(bytes) = self.files.read(&file) else {
            self.note_missing(&file);
            return not_found();
        };
        let ext = Path::new(&file).extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
        let text = || String::from_utf8_lossy(&bytes).into_owned();
        if SOURCE_EXTENSIONS.contains(&ext.as_str()) {
            // A module reached only at run time (a dynamic import): transformed now.
            return match transform::transform(&file, &text()) {
                Ok((m, _)) => {
                    let code = m.code.clone();
                    if let Ok(mut all) = self.modules.lock() {
                        all.insert(file, m);
                    }
                    js(code)
                }
                Err(e) => js(format!("throw new SyntaxError({});", serde_json::Value::String(e.to_string()))),
            };
        }
        match ext.as_str() {
            "json" => js(format!("export default {};", text())),
            "css" => js(format!(
                "const s = document.createElement('style'); s.textContent = {}; document.head.appendChild(s); export default {{}};",
                serde_json::Value::String(text())
            )),
            _ => js(format!("export default {};", serde_json::Value::String(file))),
        }
    }
}

fn not_found() -> Reply {
    Reply { status: 404, mime: "text/plain", body: b"not in the tree".to_vec() }
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let (Some(h), Some(l)) = (hex(bytes.get(i + 1)), hex(bytes.get(i + 2)))
        {
            out.push(h * 16 + l);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: Option<&u8>) -> Option<u8> {
    match b? {
        c @ b'0'..=b'9' => Some(c - b'0'),
        c @ b'a'..=b'f' => Some(c - b'a' + 10),
        c @ b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}
