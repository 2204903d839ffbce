//! `folio doctor --render-test`: a check with no model. Renders a built-in scene end to end on
//! this host — a still, then 60 frames to H.264 — and reports where the clip is and where the
//! time went, so a person can tell that env:motion works before any agent relies on it.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_budget::RunBudget;
use serde_json::json;

use crate::args::RenderArgs;
use crate::error::MotionError;
use crate::pool::{DEFAULT_IDLE, Pool};
use crate::render::{FrameSink, Request, render};
use crate::site::SceneFiles;

const SCENE: &str = r#"import { useFrame, useVideoConfig, interpolate, Easing } from 'folio/motion';
export default function Check() {
  const frame = useFrame();
  const { width, height, durationInFrames } = useVideoConfig();
  const x = interpolate(frame, [0, durationInFrames - 1], [20, width - 120], { easing: Easing.inOut });
  return (
    <div style={{ width, height, background: '#0b1020', position: 'relative', fontFamily: 'sans-serif' }}>
      <div style={{ position: 'absolute', left: x, top: height / 2 - 50, width: 100, height: 100, borderRadius: 16, background: '#4f8cff' }} />
      <div style={{ position: 'absolute', left: 20, top: 16, color: '#fff', fontSize: 20 }}>Folio render test — frame {frame}</div>
    </div>
  );
}
"#;

struct Scene;
impl SceneFiles for Scene {
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        (path == "/check.jsx").then(|| SCENE.as_bytes().to_vec())
    }
}

struct Discard;
impl FrameSink for Discard {
    fn frame(&mut self, _: u64, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// What the render test did.
#[derive(Debug, Clone)]
pub struct TestReport {
    /// The clip it wrote.
    pub clip: PathBuf,
    /// The still it wrote.
    pub still: PathBuf,
    /// The browser it used.
    pub browser: PathBuf,
    /// Launching the browser.
    pub launch: Duration,
    /// The still, end to end.
    pub still_took: Duration,
    /// The 60-frame clip, end to end.
    pub clip_took: Duration,
    /// Bytes of the clip.
    pub bytes: usize,
    /// Warnings (a healthy host has none).
    pub warnings: Vec<String>,
}

/// Renders the built-in scene into `dir` (`folio-render-test.png`, `folio-render-test.mp4`).
pub fn render_test(dir: &Path) -> Result<TestReport, MotionError> {
    let found = crate::discovery::find(None)
        .ok_or(MotionError::NoBrowser(crate::discovery::install_hint(crate::discovery::Platform::current())))?;
    let ffmpeg = folio_media::Ffmpeg::discover(None).map_err(|e| MotionError::Encode(e.to_string()))?;
    let pool = Pool::new(found.clone(), DEFAULT_IDLE);
    let go = |out: &str, args: serde_json::Value, still: bool| {
        let req = Request {
            files: Arc::new(Scene),
            scene: "/check.jsx".into(),
            out: out.into(),
            args: RenderArgs::from_json(&args, still)?,
            still,
        };
        render(&pool, Some(&ffmpeg), 1800, req, &RunBudget::unbounded(), &mut Discard)
    };
    let t = Instant::now();
    let s = go("/check.png", json!({"width": 640, "height": 360, "frame": 30, "durationInFrames": 60}), true)?;
    let still_took = t.elapsed();
    let t = Instant::now();
    let c = go("/check.mp4", json!({"width": 640, "height": 360, "durationInFrames": 60}), false)?;
    let clip_took = t.elapsed();
    std::fs::create_dir_all(dir).map_err(|e| MotionError::Output(format!("{}: {e}", dir.display())))?;
    let still = dir.join("folio-render-test.png");
    let clip = dir.join("folio-render-test.mp4");
    let write = |p: &Path, b: &Option<Vec<u8>>| {
        std::fs::write(p, b.as_deref().unwrap_or_default())
            .map_err(|e| MotionError::Output(format!("{}: {e}", p.display())))
    };
    write(&still, &s.output)?;
    write(&clip, &c.output)?;
    let mut warnings = Vec::new();
    for r in [&s.result, &c.result] {
        for w in r["warnings"].as_array().into_iter().flatten() {
            warnings.push(w.as_str().unwrap_or_default().to_string());
        }
    }
    pool.close();
    Ok(TestReport {
        clip,
        still,
        browser: found.path,
        launch: s.timing.launch,
        still_took,
        clip_took,
        bytes: c.output.as_ref().map_or(0, Vec::len),
        warnings,
    })
}
