//! The `env:motion` module: `render(scene, out, args?)`, `still(scene, out, args?)` and
//! `capabilities()`. This layer parses arguments, reads the scene's tree through the run's file
//! system, writes outputs back, and keeps one browser per environment; every decision lives in
//! `render.rs`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use folio_script::{CallContext, HostFn, HostValue, NativeFunction, NativeModule, ScriptFs};
use folio_vfs::VPath;
use serde_json::{Value, json};

use crate::args::{FORMATS, RenderArgs};
use crate::discovery::Found;
use crate::doctor::{self, Row};
use crate::pool::{DEFAULT_IDLE, Pool};
use crate::render::{self, DEFAULT_MAX_FRAMES, FrameSink, Request};
use crate::site::SceneFiles;

/// What env:motion found on this host, shared by every environment of a host; each environment
/// gets its own browser from it.
pub struct MotionHost {
    browser: Option<Found>,
    ffmpeg: Option<folio_media::Ffmpeg>,
    rows: Vec<Row>,
    max_frames: u64,
    pools: Mutex<HashMap<u64, Arc<Pool>>>,
}

impl MotionHost {
    /// Discovers the browser and ffmpeg on this host (explicit paths win).
    pub fn discover(browser: Option<&std::path::Path>, ffmpeg: Option<&std::path::Path>) -> MotionHost {
        let env = |k: &str| std::env::var(k).ok();
        let platform = crate::discovery::Platform::current();
        let found = crate::discovery::locate(platform, browser, &env, true);
        MotionHost::new(found, folio_media::Ffmpeg::discover(ffmpeg).ok(), platform)
    }

    /// Over a browser search and an encoder done by the host's own discovery.
    pub fn new(
        browser: Result<Found, crate::discovery::NotFound>,
        ffmpeg: Option<folio_media::Ffmpeg>,
        platform: crate::discovery::Platform,
    ) -> MotionHost {
        let rows = doctor::rows(&browser, platform);
        MotionHost { browser: browser.ok(), ffmpeg, rows, max_frames: DEFAULT_MAX_FRAMES, pools: Mutex::default() }
    }

    /// A host without a browser or an encoder (every render is refused with the install line).
    pub fn absent() -> MotionHost {
        MotionHost::new(
            Err(crate::discovery::NotFound::Nowhere { tried: "nothing (motion is off in this host)".into() }),
            None,
            crate::discovery::Platform::current(),
        )
    }

    /// Whether video outputs work (ffmpeg was found).
    pub fn can_encode(&self) -> bool {
        self.ffmpeg.is_some()
    }

    /// The doctor's rows for this host.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The browser of environment `scope`, made on first use.
    pub fn pool(&self, scope: u64) -> Option<Arc<Pool>> {
        let found = self.browser.clone()?;
        let mut pools = self.pools.lock().ok()?;
        // Pools whose browser closed and that nobody uses are dropped, so a closed environment
        // leaves nothing behind.
        pools.retain(|_, p| p.stats().open || p.stats().in_use > 0 || Arc::strong_count(p) > 1);
        Some(Arc::clone(pools.entry(scope).or_insert_with(|| Pool::new(found, DEFAULT_IDLE))))
    }

    /// What `capabilities()` returns.
    pub fn capabilities(&self) -> Value {
        let ok = |n: &str| self.rows.iter().any(|r| r.name == n && r.ok);
        json!({
            "browser": self.browser.as_ref().map(|b| if b.headless_shell { "chromium-headless-shell" } else { "chromium" }),
            "canRender": self.browser.is_some(),
            "video": self.ffmpeg.is_some(),
            "reanimated": ok("reanimated"),
            "remotion": true,
            "maxFrames": self.max_frames,
            "maxBrowsers": 1,
            "formats": FORMATS,
            "rows": self.rows,
        })
    }

    /// One frame of `scene` as PNG bytes, for a preview outside any script (the app's scene
    /// preview and scrubber): the same renderer, browser and warnings as `still`, nothing
    /// written to the tree. `scope` picks the environment's browser; `args` are still()'s.
    pub fn preview_still(
        &self,
        scope: u64,
        files: Arc<dyn SceneFiles>,
        scene: &str,
        args: &Value,
        budget: &folio_budget::RunBudget,
    ) -> Result<(Vec<u8>, Value), crate::error::MotionError> {
        let a = RenderArgs::from_json(args, true)?;
        let Some(pool) = self.pool(scope) else {
            return Err(crate::error::MotionError::NoBrowser(crate::discovery::install_hint(
                crate::discovery::Platform::current(),
            )));
        };
        let mut sink = NoSink;
        let req = Request { files, scene: scene.to_string(), out: "/tmp/preview.png".into(), args: a, still: true };
        let done = render::render(&pool, None, self.max_frames, req, budget, &mut sink)?;
        let png = done.output.ok_or_else(|| crate::error::MotionError::Output("the still produced no image".into()))?;
        Ok((png, done.result))
    }

    /// Renders for a script.
    fn call(
        &self,
        fs: &Arc<dyn ScriptFs>,
        args: &[HostValue],
        budget: &folio_budget::RunBudget,
        still: bool,
    ) -> Result<Value, String> {
        let scene = path_arg(args, 0, "the scene")?;
        let out = path_arg(args, 1, "the output")?;
        let opts = match args.get(2) {
            Some(HostValue::Json(v)) => v.clone(),
            _ => Value::Null,
        };
        let a = RenderArgs::from_json(&opts, still).map_err(|e| e.to_string())?;
        if still && !out.as_str().to_ascii_lowercase().ends_with(".png") {
            return Err(format!("{out}: a still is a PNG — end the output path with .png"));
        }
        let Some(pool) = self.pool(fs.scope()) else {
            return Err(crate::error::MotionError::NoBrowser(crate::discovery::install_hint(
                crate::discovery::Platform::current(),
            ))
            .to_string());
        };
        let files: Arc<dyn SceneFiles> = Arc::new(TreeFiles(Arc::clone(fs)));
        let keep = a.keep_frames.clone();
        let output = crate::args::Output::from_path(out.as_str()).map_err(|e| e.to_string())?;
        let frames_dir = match output {
            crate::args::Output::Frames if !still => Some(out.to_string()),
            _ => keep.clone(),
        };
        let mut sink = TreeSink { fs: Arc::clone(fs), dir: frames_dir, made: false, written: Vec::new() };
        let req = Request { files, scene: scene.to_string(), out: out.to_string(), args: a, still };
        let done = render::render(&pool, self.ffmpeg.as_ref(), self.max_frames, req, budget, &mut sink)
            .map_err(|e| e.to_string())?;
        if let Some(bytes) = &done.output {
            if let Some(parent) = out.parent() {
                fs.mkdir(&parent).map_err(|e| e.to_string())?;
            }
            fs.write(&out, bytes).map_err(|e| e.to_string())?;
        }
        let mut result = done.result;
        result["path"] = json!(out.to_string());
        if matches!(output, crate::args::Output::Frames) && !still {
            result["files"] = json!(sink.written);
        }
        if let (Some(dir), false) = (&keep, matches!(output, crate::args::Output::Frames)) {
            result["keptFrames"] = json!({"dir": dir, "files": sink.written.len()});
        }
        // Put path first for people reading the JSON.
        let mut ordered = serde_json::Map::new();
        ordered.insert("path".into(), result["path"].clone());
        if let Value::Object(m) = result {
            for (k, v) in m {
                ordered.entry(k).or_insert(v);
            }
        }
        Ok(Value::Object(ordered))
    }
}

fn path_arg(args: &[HostValue], i: usize, what: &str) -> Result<VPath, String> {
    let raw = args
        .get(i)
        .and_then(HostValue::as_str)
        .ok_or_else(|| format!("argument {} ({what}) must be an absolute tree path such as '/out/clip.mp4'", i + 1))?;
    if !raw.starts_with('/') {
        return Err(format!("{raw}: {what} must be an absolute tree path (start it with /, e.g. /scenes/intro.jsx)"));
    }
    VPath::parse(raw).map_err(|e| format!("{raw}: {e}"))
}

/// The run's tree, as the page's server reads it.
struct TreeFiles(Arc<dyn ScriptFs>);

impl SceneFiles for TreeFiles {
    fn read(&self, path: &str) -> Option<Vec<u8>> {
        let p = VPath::parse(path).ok()?;
        self.0.read(&p).ok()
    }
    fn exists(&self, path: &str) -> bool {
        VPath::parse(path)
            .ok()
            .and_then(|p| self.0.stat(&p).ok().flatten())
            .is_some_and(|s| s.kind == folio_vfs::Kind::File)
    }
}

struct NoSink;

impl FrameSink for NoSink {
    fn frame(&mut self, _: u64, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

/// Frames written into a tree directory as they arrive.
struct TreeSink {
    fs: Arc<dyn ScriptFs>,
    dir: Option<String>,
    made: bool,
    written: Vec<String>,
}

impl FrameSink for TreeSink {
    fn frame(&mut self, index: u64, png: &[u8]) -> Result<(), String> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let dir = VPath::parse(dir).map_err(|e| format!("{dir}: {e}"))?;
        if !self.made {
            self.fs.mkdir(&dir).map_err(|e| e.to_string())?;
            self.made = true;
        }
        let file = dir.join(&format!("frame-{index:05}.png")).map_err(|e| e.to_string())?;
        self.fs.write(&file, png).map_err(|e| e.to_string())?;
        self.written.push(file.to_string());
        Ok(())
    }
}

/// The `env:motion` module over `host`.
pub fn motion_module(host: Arc<MotionHost>) -> NativeModule {
    let f = |name: &str, still: Option<bool>| -> NativeFunction {
        let host = Arc::clone(&host);
        let label = name.to_string();
        let call = HostFn::Async(Arc::new(move |args: Vec<HostValue>, cx: CallContext| {
            let host = Arc::clone(&host);
            let label = label.clone();
            Box::pin(async move {
                let Some(still) = still else { return Ok(HostValue::Json(host.capabilities())) };
                if cx.read_only {
                    return Err(format!(
                        "{label} writes files, which is not allowed while a script is being validated — call it inside the default export"
                    ));
                }
                let fs = Arc::clone(&cx.fs);
                let budget = cx.budget.clone();
                let cancel = cx.cancel.clone();
                let working = cx.work.begin();
                let out = tokio::task::spawn_blocking(move || {
                    let _working = working;
                    host.call(&fs, &args, &budget, still)
                })
                .await
                .map_err(|e| format!("the render did not complete: {e}"))??;
                if cancel.is_cancelled() {
                    return Err("the run was cancelled".into());
                }
                Ok(HostValue::Json(out))
            }) as folio_script::registry::HostFuture
        }));
        NativeFunction { name: name.to_string(), call }
    };
    let notes = doctor::host_notes(host.rows(), host.can_encode());
    NativeModule {
        name: "motion".into(),
        description: "Things that move: React scenes (folio/motion, Remotion-style or Reanimated) rendered to deterministic .mp4/.webm/.gif video, PNG stills or frames.".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        types_dts: MOTION_DTS.into(),
        docs: format!("{}{notes}", crate::docs::README),
        functions: vec![f("render", Some(false)), f("still", Some(true)), f("capabilities", None)],
        js_api: None,
    }
}

const MOTION_DTS: &str = include_str!("motion.d.ts");
