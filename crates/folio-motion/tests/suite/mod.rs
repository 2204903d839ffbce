//! Shared helpers: a tree backed by a directory, one pool per test (a fresh environment), and
//! renders run on a blocking thread as the module layer runs them.

pub mod capture;
pub mod determinism;
pub mod discovery;
pub mod lifetime;
pub mod loud;
pub mod packages;
pub mod render;
pub mod transform;
pub mod video;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use folio_budget::RunBudget;
use folio_motion::args::RenderArgs;
use folio_motion::pool::Pool;
use folio_motion::render::{FrameSink, Rendered, Request};
use folio_motion::site::SceneFiles;
use serde_json::Value;

/// A tree whose root is a host directory.
pub struct Dir(pub PathBuf);

impl SceneFiles for Dir {
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(path.trim_start_matches('/'))).ok()
    }
}

/// The scenes committed with the crate, as a tree rooted at tests/ (`/scenes/frame-driven.jsx`).
pub fn scenes() -> Arc<Dir> {
    Arc::new(Dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")))
}

/// Small render options.
pub fn small(frames: u64) -> Value {
    serde_json::json!({"width": 320, "height": 180, "durationInFrames": frames, "fps": 30})
}

/// The hash of every frame, in order.
pub fn hashes(frames: &Frames) -> Vec<String> {
    frames.0.iter().map(|(_, png)| blake3::hash(png).to_hex().to_string()).collect()
}

/// A tree in a temporary directory with `files`.
pub fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, Arc<Dir>) {
    let dir = tempfile::tempdir().unwrap();
    for (p, text) in files {
        let at = dir.path().join(p.trim_start_matches('/'));
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }
    let root = dir.path().to_path_buf();
    (dir, Arc::new(Dir(root)))
}

/// The browser this host has (the suite needs one).
pub fn pool() -> Arc<Pool> {
    let found = folio_motion::discovery::find(None)
        .expect("no Chromium-family browser: run scripts/install.sh (apt-get install chromium-headless-shell)");
    Pool::new(found, std::time::Duration::from_secs(5))
}

/// Frames written by a render, by index.
#[derive(Default)]
pub struct Frames(pub Vec<(u64, Vec<u8>)>);

impl FrameSink for Frames {
    fn frame(&mut self, index: u64, png: &[u8]) -> Result<(), String> {
        self.0.push((index, png.to_vec()));
        Ok(())
    }
}

/// Writes `png` to `$FOLIO_MOTION_DUMP/<name>` when that variable is set (to look at a frame).
pub fn dump(name: &str, png: &[u8]) {
    if let Ok(dir) = std::env::var("FOLIO_MOTION_DUMP") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(Path::new(&dir).join(name), png);
    }
}

/// Renders (or stills) `scene` from `files` to `out` with `args`.
pub fn run(
    pool: &Arc<Pool>,
    files: Arc<dyn SceneFiles>,
    scene: &str,
    out: &str,
    args: Value,
    still: bool,
    budget: &RunBudget,
) -> (Result<Rendered, folio_motion::error::MotionError>, Frames) {
    let ffmpeg = folio_media::Ffmpeg::discover(None).ok();
    let args = match RenderArgs::from_json(&args, still) {
        Ok(a) => a,
        Err(e) => return (Err(e), Frames::default()),
    };
    let mut frames = Frames::default();
    let req = Request { files, scene: scene.into(), out: out.into(), args, still };
    let r = folio_motion::render::render(pool, ffmpeg.as_ref(), 1800, req, budget, &mut frames);
    (r, frames)
}

/// No budget.
pub fn unbounded() -> RunBudget {
    RunBudget::unbounded()
}
