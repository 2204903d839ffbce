//! Scene previews: a motion scene selected in the tree shows one frame at a time, rendered on
//! demand by env:motion's own renderer (`folio_motion::modules::MotionHost::preview_still`: the
//! same page, browser and warnings a script's `still()` gets, nothing written to the folder), so a
//! person can look at a scene before the agent renders it.
//!
//! **What is a scene.** Cheap to decide, from the bytes the info command already read: a
//! `.jsx`, `.tsx`, `.js` or `.mjs` file that has a default export and either imports
//! `folio/motion`, `remotion` or `react-native-reanimated`, or lives under a `scenes/` folder
//! ([`is_scene`]). Anything else stays code.
//!
//! **Stale requests.** Scrubbing asks for many frames; only the newest matters. Each request
//! takes the next number for its path, and its budget is cancelled as soon as a newer one for the
//! same path arrives, so a superseded still stops at the renderer's next check and answers
//! [`PreviewError::Superseded`], which the UI drops.
//!
//! **Files.** The page reads the scene and what it imports from the agent's view of the tree,
//! never the private settings zone.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use base64::Engine;
use folio_env::{Environment, Zone};
use folio_motion::error::MotionError;
use folio_motion::site::SceneFiles;
use folio_vfs::{Tree, VPath};
use serde_json::json;

use super::error::PreviewError;
use super::{Previews, checked_path, kind, read};
use crate::api::{PreviewKind, PreviewSceneParams, PreviewSceneResponse};
use crate::session::Session;

/// The frame size, rate and length a preview uses when the UI does not say.
pub const DEFAULT_WIDTH: u32 = 640;
/// See [`DEFAULT_WIDTH`].
pub const DEFAULT_HEIGHT: u32 = 360;
/// See [`DEFAULT_WIDTH`].
pub const DEFAULT_FPS: u32 = 30;
/// See [`DEFAULT_WIDTH`].
pub const DEFAULT_FRAMES: u32 = 90;

/// The extensions a scene file has.
const SCENE_EXTENSIONS: [&str; 4] = ["jsx", "tsx", "js", "mjs"];

/// The module names whose import makes a component file a scene.
const SCENE_IMPORTS: [&str; 3] = ["folio/motion", "remotion", "react-native-reanimated"];

/// Whether the file at `path` starting with `head` is a motion scene (see the module essay).
pub fn is_scene(path: &str, head: &[u8]) -> bool {
    let Some(ext) = kind::extension(path) else { return false };
    if !SCENE_EXTENSIONS.contains(&ext.as_str()) || path.starts_with("/scripts/") {
        return false;
    }
    let text = String::from_utf8_lossy(head);
    if !text.contains("export default") {
        return false;
    }
    let in_scenes = path.split('/').rev().skip(1).any(|dir| dir == "scenes");
    let imports = SCENE_IMPORTS.iter().any(|m| {
        [format!("'{m}'"), format!("\"{m}\""), format!("'{m}/"), format!("\"{m}/")].iter().any(|q| text.contains(q))
    });
    in_scenes || imports
}

/// The agent's view of the tree, as the scene page reads it (never the private zone).
struct TreeFiles(Arc<Environment>);

impl SceneFiles for TreeFiles {
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let at = VPath::parse(path).ok()?;
        if Zone::of(&at).is_some_and(|z| !z.served()) {
            return None;
        }
        self.0.tree().read(&at).ok()
    }
}

/// The newest request number per scene path.
#[derive(Default)]
pub struct SceneRequests {
    next: AtomicU64,
    newest: Mutex<HashMap<String, u64>>,
}

impl SceneRequests {
    /// Registers a request for `path` and returns its number (every older one is now stale).
    fn begin(&self, path: &str) -> u64 {
        let n = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        self.newest.lock().unwrap_or_else(PoisonError::into_inner).insert(path.to_string(), n);
        n
    }

    /// Whether request `n` for `path` has been superseded.
    fn stale(&self, path: &str, n: u64) -> bool {
        self.newest.lock().unwrap_or_else(PoisonError::into_inner).get(path).is_some_and(|newest| *newest != n)
    }
}

impl Previews {
    /// Renders one frame of the scene at `params.path`.
    pub fn scene(&self, session: &Session, params: &PreviewSceneParams) -> Result<PreviewSceneResponse, PreviewError> {
        let started = Instant::now();
        let at = checked_path(&params.path)?;
        let path = at.to_string();
        let bytes = read(session, &at, super::Version::Current)?;
        let (shown, _) = kind::classify(&path, &bytes[..bytes.len().min(super::HEAD)]);
        if !(shown == PreviewKind::Code && is_scene(&path, &bytes)) {
            return Err(PreviewError::Unsupported {
                path,
                why: "it is not a motion scene (a .jsx/.tsx/.js module with a default export that imports folio/motion, remotion or react-native-reanimated, or sits under scenes/)".into(),
            });
        }
        drop(bytes);
        let n = self.scenes.begin(&path);
        let requests = Arc::clone(&self.scenes);
        let watched = path.clone();
        let budget = folio_budget::RunBudget::unbounded()
            .with_cancel(Arc::new(move || requests.stale(&watched, n)))
            .with_raise("scrub again: a scene preview has no budget of its own");
        let duration = params.duration_in_frames.unwrap_or(DEFAULT_FRAMES).max(1);
        let frame = params.frame.min(duration - 1);
        let (width, height) = (params.width.unwrap_or(DEFAULT_WIDTH), params.height.unwrap_or(DEFAULT_HEIGHT));
        let fps = params.fps.unwrap_or(DEFAULT_FPS);
        let args = json!({"frame": frame, "width": width, "height": height, "fps": fps, "durationInFrames": duration});
        let env = Arc::clone(session.environment());
        let scope = env.gateway().scope();
        let files: Arc<dyn SceneFiles> = Arc::new(TreeFiles(env));
        let stale = || self.scenes.stale(&path, n);
        if stale() {
            return Err(PreviewError::Superseded { path, frame });
        }
        let done = session.motion().preview_still(scope, files, &path, &args, &budget);
        let (png, result) = match done {
            Ok(ok) => ok,
            Err(_) if stale() => return Err(PreviewError::Superseded { path, frame }),
            Err(e @ MotionError::NoBrowser(_)) => return Err(PreviewError::NoBrowser { path, why: e.to_string() }),
            Err(e) => return Err(PreviewError::Scene { path, why: e.to_string() }),
        };
        let warnings = result["warnings"]
            .as_array()
            .map(|w| w.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let size = |k: &str, or: u32| result[k].as_u64().and_then(|v| u32::try_from(v).ok()).unwrap_or(or);
        Ok(PreviewSceneResponse {
            frame,
            duration_in_frames: duration,
            fps,
            width: size("width", width),
            height: size("height", height),
            png: format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(&png)),
            warnings,
            duration_ms: started.elapsed().as_millis() as u64,
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_are_known_by_their_imports_or_folder() {
        let cases: &[(&str, &str, bool)] = &[
            ("/out/intro.jsx", "import { useFrame } from 'folio/motion';\nexport default function S() {}", true),
            ("/a/b.tsx", "import {useCurrentFrame} from \"remotion\";\nexport default () => null;", true),
            ("/a/r.js", "import Animated from 'react-native-reanimated';\nexport default function R() {}", true),
            ("/x/scenes/plain.jsx", "export default function Plain() { return <div/>; }", true),
            ("/scenes/sub/deep.mjs", "export default function Deep() {}", true),
            // No default export, a script, other extensions, a look-alike module name.
            ("/scenes/helpers.js", "export const easing = 1;", false),
            ("/scripts/render.js", "import m from 'folio/motion'; export default async function main() {}", false),
            ("/notes/scenes.md", "export default 'folio/motion'", false),
            ("/out/lib.js", "import x from 'remotionish';\nexport default 1;", false),
            ("/scenes.jsx", "export default function S() {}", false),
        ];
        for (path, text, want) in cases {
            assert_eq!(is_scene(path, text.as_bytes()), *want, "{path}");
        }
    }

    #[test]
    fn a_newer_request_makes_the_older_one_stale_for_its_path_only() {
        let r = SceneRequests::default();
        let a = r.begin("/scenes/a.jsx");
        let b = r.begin("/scenes/b.jsx");
        assert!(!r.stale("/scenes/a.jsx", a) && !r.stale("/scenes/b.jsx", b));
        let a2 = r.begin("/scenes/a.jsx");
        assert!(r.stale("/scenes/a.jsx", a) && !r.stale("/scenes/a.jsx", a2) && !r.stale("/scenes/b.jsx", b));
    }
}
