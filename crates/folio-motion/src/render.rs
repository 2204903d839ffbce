//! One `render` or `still`, end to end: validate, refuse what cannot fit, walk and transform the
//! scene's sources, claim the environment's browser, capture frames in one or more tabs, put
//! them in order, hash them, encode or write them, and collect every warning.
//!
//! The capture runs on the crate's runtime; the calling (blocking) thread consumes frames in
//! order — hashing, feeding ffmpeg, writing tree files, stepping the job — so a cancelled run or
//! a spent budget stops the capture within one frame.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_budget::{JobKind, Plan, RunBudget};
use folio_media::{Ffmpeg, FrameEncoder, FrameEncoderParams, VideoFormat};
use serde_json::{Value, json};

use crate::args::{Mode, Output, RenderArgs};
use crate::error::MotionError;
use crate::pool::{Pool, runtime};
use crate::scripts;
use crate::site::{SceneFiles, Site};
use crate::tab::{PageError, Tab, TabParams};
use crate::transform::{self, Graph};

/// Frames one call may render at most.
pub const DEFAULT_MAX_FRAMES: u64 = 1800;
/// How long a scene may take to mount (a throw fails at once, whatever this is).
const MOUNT_WITHIN: Duration = Duration::from_secs(15);
/// Frames below which a render uses one tab.
const SPLIT_FROM: u64 = 48;
/// The fixed part of an estimate (a launch, the page, the first paint), in megapixel units.
const HEAD_UNITS: f64 = 12.0;

/// What a render is asked to do.
pub struct Request {
    /// The agent's tree, read by the page's server.
    pub files: Arc<dyn SceneFiles>,
    /// The scene's tree path.
    pub scene: String,
    /// The output's tree path.
    pub out: String,
    /// Validated arguments.
    pub args: RenderArgs,
    /// A still (one frame) rather than a render.
    pub still: bool,
}

/// Where frames go as they arrive, in order (tree writes for a frames directory and
/// `keepFrames`).
pub trait FrameSink {
    /// Frame `index` (0-based) as PNG.
    fn frame(&mut self, index: u64, png: &[u8]) -> Result<(), String>;
}

/// What a render produced.
pub struct Rendered {
    /// The output's bytes, to write at the request's `out` (none for a frames directory: the
    /// sink already wrote them).
    pub output: Option<Vec<u8>>,
    /// The result object scripts receive (`path` filled in by the caller's layer).
    pub result: Value,
    /// Timings, for benchmarks.
    pub timing: Timing,
}

/// Where a render's time went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timing {
    /// Launch (0 with a reused browser).
    pub launch: Duration,
    /// From the first tab opening to the scene mounted.
    pub mount: Duration,
    /// Capturing all frames.
    pub capture: Duration,
    /// The whole call.
    pub total: Duration,
    /// Tabs used.
    pub tabs: u32,
    /// Peak resident bytes of the browser tree seen.
    pub browser_peak_bytes: u64,
}

enum Msg {
    Frame(u64, Vec<u8>),
    Done(Box<Report>),
    Failed(MotionError),
}

#[derive(Default)]
struct Report {
    errors: Vec<PageError>,
    broken: Vec<String>,
    fonts: Vec<String>,
    /// Characters no installed font could draw: (character, U+code, first frame showing it).
    glyphs: Vec<(String, String, u64)>,
    refused: Vec<String>,
    /// Why the page's own checks (broken images, missing fonts) could not run.
    unchecked: Option<String>,
    launch: Duration,
    mount: Duration,
    capture: Duration,
    peak: u64,
    tabs: u32,
}

/// Renders `req` with the environment's browser `pool` and encoder `ffmpeg`.
pub fn render(
    pool: &Arc<Pool>,
    ffmpeg: Option<&Ffmpeg>,
    max_frames: u64,
    req: Request,
    budget: &RunBudget,
    sink: &mut dyn FrameSink,
) -> Result<Rendered, MotionError> {
    let started = Instant::now();
    let call = if req.still { "still" } else { "render" };
    let a = &req.args;
    let output = if req.still { Output::Png } else { Output::from_path(&req.out)? };
    if req.files.read(&req.scene).is_none() {
        return Err(MotionError::NoScene(req.scene.clone()));
    }
    let total_frames = a.duration_in_frames;
    let shots = if req.still { 1 } else { total_frames };
    if !req.still && total_frames > max_frames {
        return Err(MotionError::TooManyFrames {
            frames: total_frames,
            max: max_frames,
            secs: format!("{:.1}", total_frames as f64 / f64::from(a.fps)),
            fps: a.fps,
        });
    }
    if req.still && a.frame >= max_frames {
        return Err(MotionError::Invalid(format!(
            "frame {} is past the {max_frames}-frame limit — render a still at an earlier frame",
            a.frame
        )));
    }
    if output.is_video() && ffmpeg.is_none() {
        return Err(MotionError::Encode(format!(
            "{} needs ffmpeg, which is not on this host — hint: {}; stills, .png and frame directories work without it",
            req.out,
            folio_media::discovery::install_fix(folio_media::Platform::current())
        )));
    }
    let graph = transform::walk(&req.scene, &|p| req.files.read(p).map(|b| String::from_utf8_lossy(&b).into_owned()))
        .map_err(|e| MotionError::Source(format!("{e}")))?;
    let mp = f64::from(a.width) * f64::from(a.height) / 1.0e6;
    let walked = if req.still { a.frame } else { 0 };
    let job_name = format!("env:motion.{call} {}", req.scene);
    let mut job = budget.start(Plan {
        kind: JobKind::Frame,
        job: job_name,
        what: if req.still {
            format!("a still at frame {} ({}×{})", a.frame, a.width, a.height)
        } else {
            format!("rendering {shots} frames at {}×{}", a.width, a.height)
        },
        total: shots,
        cost: mp * (shots as f64 + walked as f64 * 0.1) + HEAD_UNITS,
        smaller: "render fewer frames per call (a shorter durationSeconds, a lower fps or a smaller width/height), and check one still first"
            .into(),
    })?;
    let tmp = tempfile::Builder::new()
        .prefix("folio-motion-")
        .tempdir()
        .map_err(|e| MotionError::Output(format!("no temporary directory for the render: {e}")))?;
    let mut encoder = match (output, ffmpeg) {
        (Output::Mp4 | Output::Webm | Output::Gif, Some(ff)) => {
            let format = match output {
                Output::Webm => VideoFormat::Webm,
                Output::Gif => VideoFormat::Gif,
                _ => VideoFormat::Mp4,
            };
            let out = tmp.path().join(format!("out.{}", format.extension()));
            let limits = job.child_limits(Duration::from_secs(3600), 0);
            let crf = if format == VideoFormat::Webm { a.crf.max(4) + 14 } else { a.crf };
            Some((
                FrameEncoder::start(ff, FrameEncoderParams { fps: a.fps, crf, format, out: out.clone() }, limits)
                    .map_err(|e| MotionError::Encode(e.to_string()))?,
                out,
            ))
        }
        _ => None,
    };

    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = sync_channel::<Msg>(8);
    let tabs = match a.tabs {
        Some(t) => t,
        None if !req.still && shots >= SPLIT_FROM && cores() > 1 => 2,
        None => 1,
    };
    let rt = runtime()?;
    let capture = Capture {
        pool: Arc::clone(pool),
        files: Arc::clone(&req.files),
        scene: req.scene.clone(),
        args: a.clone(),
        still: req.still,
        graph: Mutex::new(Some(graph)),
        tabs,
        stop: Arc::clone(&stop),
    };
    rt.spawn(async move {
        let result = capture.run(tx.clone()).await;
        match result {
            Ok(report) => {
                let _ = tx.send(Msg::Done(Box::new(report)));
            }
            Err(e) => {
                let _ = tx.send(Msg::Failed(e));
            }
        }
    });
    let consumed = consume(&rx, shots, &stop, &mut job, |i, png| {
        if let Some((enc, _)) = encoder.as_mut() {
            enc.push_png(png).map_err(|e| MotionError::Encode(e.to_string()))?;
        }
        let index = if req.still { a.frame } else { i };
        let keep = matches!(output, Output::Frames) || (output.is_video() && a.keep_frames.is_some());
        if keep {
            sink.frame(index, png).map_err(MotionError::Output)?;
        }
        Ok(())
    });
    let (hashes, last, report) = match consumed {
        Ok(v) => v,
        Err(e) => {
            stop.store(true, Ordering::SeqCst);
            if matches!(e, MotionError::Browser(_)) {
                rt.block_on(pool.discard());
            }
            return Err(e);
        }
    };
    let mut warnings = Vec::new();
    let identical = shots > 1 && hashes.windows(2).all(|w| w[0] == w[1]);
    let errors: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
    if identical && !errors.is_empty() {
        return Err(MotionError::BrokenStatic(errors.iter().take(3).cloned().collect::<Vec<_>>().join("\n")));
    }
    collect_warnings(&mut warnings, &report, &errors);
    if identical {
        warnings.push(format!(
            "every frame is identical — the scene is not animating: drive it with useFrame()/useCurrentFrame() (folio/motion, remotion) or Reanimated, and check a still at a later frame (still(scene, out, {{frame: {}}}))",
            shots / 2
        ));
    }
    let mut result = json!({"width": a.width, "height": a.height, "frames": if req.still { 1 } else { shots }});
    let output_bytes = match output {
        Output::Png => Some(last),
        Output::Frames => {
            result["fps"] = json!(a.fps);
            result["files"] = json!(shots);
            None
        }
        _ => {
            let Some((enc, out)) = encoder.take() else {
                return Err(MotionError::Encode("the encoder was not started".into()));
            };
            enc.finish().map_err(|e| MotionError::Encode(e.to_string()))?;
            let bytes =
                std::fs::read(&out).map_err(|e| MotionError::Encode(format!("reading the encoded video: {e}")))?;
            result["fps"] = json!(a.fps);
            result["durationSeconds"] = json!((shots as f64 / f64::from(a.fps) * 1000.0).round() / 1000.0);
            result["bytes"] = json!(bytes.len());
            Some(bytes)
        }
    };
    result["warnings"] = json!(warnings);
    job.finish();
    Ok(Rendered {
        output: output_bytes,
        result,
        timing: Timing {
            launch: report.launch,
            mount: report.mount,
            capture: report.capture,
            total: started.elapsed(),
            tabs: report.tabs,
            browser_peak_bytes: report.peak,
        },
    })
}

fn collect_warnings(warnings: &mut Vec<String>, report: &Report, errors: &[String]) {
    for e in errors.iter().take(5) {
        warnings.push(format!("the page raised an error while rendering: {e}"));
    }
    if let Some(why) = &report.unchecked {
        warnings.push(format!(
            "the page could not be checked for broken images and missing fonts ({why}) — look at a still with view_image before handing the video over"
        ));
    }
    for url in &report.refused {
        warnings.push(format!(
            "the scene tried to reach {url}, which was refused — scenes cannot use the network; put the file in the tree and use its tree path"
        ));
    }
    for src in &report.broken {
        warnings.push(format!(
            "the image {src} did not load, so it renders as an empty box — check the path with ls (tree paths such as /in/logo.png work as written)"
        ));
    }
    if !report.glyphs.is_empty() {
        let first = report.glyphs.iter().map(|g| g.2).min().unwrap_or(0);
        let chars: Vec<String> =
            report.glyphs.iter().take(12).map(|(c, code, f)| format!("'{c}' ({code}, frame {f})")).collect();
        let more = report.glyphs.len().saturating_sub(12);
        warnings.push(format!(
            "no font on this host has a glyph for {}{}, so from frame {first} they render as empty boxes — for emoji install the colour emoji font (sudo apt-get install fonts-noto-color-emoji; `folio doctor` checks it), otherwise put a .woff2/.ttf that has them in the tree and load it with @font-face",
            chars.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        ));
    }
    for family in &report.fonts {
        warnings.push(format!(
            "the font family '{family}' is not on this host, so text falls back to another font — use system-ui, sans-serif, serif or monospace, or put a .woff2/.ttf in the tree and load it with @font-face"
        ));
    }
}

type Consumed = (Vec<[u8; 32]>, Vec<u8>, Report);

fn consume(
    rx: &Receiver<Msg>,
    shots: u64,
    stop: &AtomicBool,
    job: &mut folio_budget::Job,
    mut each: impl FnMut(u64, &[u8]) -> Result<(), MotionError>,
) -> Result<Consumed, MotionError> {
    let mut next = 0u64;
    let mut waiting: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
    let mut hashes = Vec::with_capacity(shots as usize);
    let mut last = Vec::new();
    loop {
        let msg = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(m) => m,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = job.check() {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e.into());
                }
                continue;
            }
            Err(_) => return Err(MotionError::Browser("the capture stopped without a report".into())),
        };
        match msg {
            Msg::Frame(i, png) => {
                waiting.insert(i, png);
                while let Some(png) = waiting.remove(&next) {
                    hashes.push(*blake3::hash(&png).as_bytes());
                    each(next, &png)?;
                    last = png;
                    next += 1;
                    if let Err(e) = job.step(next) {
                        stop.store(true, Ordering::SeqCst);
                        return Err(e.into());
                    }
                }
            }
            Msg::Done(report) => {
                if next < shots {
                    return Err(MotionError::Browser(format!("the capture ended after {next} of {shots} frames")));
                }
                return Ok((hashes, last, *report));
            }
            Msg::Failed(e) => return Err(e),
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The async half: browser, tabs, frames.
struct Capture {
    pool: Arc<Pool>,
    files: Arc<dyn SceneFiles>,
    scene: String,
    args: RenderArgs,
    still: bool,
    graph: Mutex<Option<Graph>>,
    tabs: u32,
    stop: Arc<AtomicBool>,
}

impl Capture {
    async fn run(self, tx: SyncSender<Msg>) -> Result<Report, MotionError> {
        let lease = self.pool.acquire().await?;
        let mut report =
            Report { launch: if lease.launched { lease.browser.launch } else { Duration::ZERO }, ..Report::default() };
        let mut graph = self.graph.lock().ok().and_then(|mut g| g.take()).unwrap_or_default();
        if graph.uses_reanimated() {
            crate::worklets::transform_graph(&lease, &mut graph).await?;
        }
        let site = Arc::new(Site::new(Arc::clone(&self.files), scripts::own_files(&self.args, &self.scene), graph));
        let init = scripts::init_scripts(&self.args, self.still);
        let a = &self.args;
        let step = 1000.0 / f64::from(a.fps);
        let ranges: Vec<(u64, u64)> =
            if self.still { vec![(a.frame, a.frame + 1)] } else { split(a.duration_in_frames, self.tabs.max(1)) };
        report.tabs = ranges.len() as u32;
        let mount_start = Instant::now();
        let helpers = if ranges.len() > 1 { self.pool.helpers(ranges.len() - 1).await? } else { Vec::new() };
        let browsers: Vec<Arc<crate::browser::Browser>> =
            std::iter::once(Arc::clone(&lease.browser)).chain(helpers).collect();
        let mut opened = Vec::new();
        for (i, _) in ranges.iter().enumerate() {
            let tab = Tab::open(
                &browsers[i % browsers.len()],
                TabParams {
                    width: a.width,
                    height: a.height,
                    fps: a.fps,
                    init: &init,
                    site: Arc::clone(&site),
                    page: "/__folio/page.html",
                },
            )
            .await?;
            opened.push(tab);
        }
        for tab in &mut opened {
            tab.wait_mounted(MOUNT_WITHIN, &site).await?;
            tab.eval("document.fonts ? document.fonts.ready.then(() => true) : true").await?;
        }
        report.mount = mount_start.elapsed();
        let capture_start = Instant::now();
        let peak = Arc::new(std::sync::atomic::AtomicU64::new(lease.browser.resident_bytes()));
        let mut runs = Vec::new();
        for (i, (tab, (from, to))) in opened.into_iter().zip(ranges).enumerate() {
            let tx = tx.clone();
            let stop = Arc::clone(&self.stop);
            let mode = a.mode;
            let still = self.still;
            let lease_peak = Arc::clone(&peak);
            let browser = Arc::clone(&browsers[i % browsers.len()]);
            runs.push(tokio::spawn(async move {
                let mut tab = tab;
                let r = drive_range(&mut tab, from, to, mode, step, still, &tx, &stop).await;
                lease_peak.fetch_max(browser.resident_bytes(), Ordering::SeqCst);
                (tab, r)
            }));
        }
        let mut tabs_back = Vec::new();
        let mut first_err = None;
        for r in runs {
            match r.await {
                Ok((tab, Ok(()))) => tabs_back.push(tab),
                Ok((tab, Err(e))) => {
                    tabs_back.push(tab);
                    first_err.get_or_insert(e);
                }
                Err(e) => {
                    first_err.get_or_insert(MotionError::Browser(format!("a capture task failed: {e}")));
                }
            }
        }
        report.capture = capture_start.elapsed();
        report.peak = peak.load(Ordering::SeqCst);
        if let Some(first) = tabs_back.first() {
            let checks = match first
                .eval("({errors: window.__folio.errors.slice(0, 5), broken: window.__folio.brokenImages(), fonts: window.__folio.missingFonts()})")
                .await
            {
                Ok(v) => v,
                Err(e) => {
                    report.unchecked = Some(e.to_string());
                    Value::Null
                }
            };
            report.errors = first.errors();
            for e in checks["errors"].as_array().cloned().unwrap_or_default() {
                let pe = crate::tab::page_error_from_js(&e, &site);
                if !report.errors.contains(&pe) {
                    report.errors.push(pe);
                }
            }
            report.broken = strings(&checks["broken"]);
            for m in site.missing() {
                if !report.broken.contains(&m) {
                    report.broken.push(m);
                }
            }
            report.fonts = strings(&checks["fonts"]);
        }
        // Each tab drove its own frames, so each knows the characters it showed.
        for tab in &tabs_back {
            if let Ok(v) = tab.eval("window.__folio.missingGlyphs()").await {
                for g in v.as_array().cloned().unwrap_or_default() {
                    let (ch, code, frame) = (
                        g["char"].as_str().unwrap_or(""),
                        g["code"].as_str().unwrap_or(""),
                        g["frame"].as_u64().unwrap_or(0),
                    );
                    match report.glyphs.iter_mut().find(|(c, _, _)| c == ch) {
                        Some(known) => known.2 = known.2.min(frame),
                        None => report.glyphs.push((ch.to_string(), code.to_string(), frame)),
                    }
                }
            }
        }
        report.glyphs.sort_by(|a, b| (a.2, &a.1).cmp(&(b.2, &b.1)));
        report.refused = site.refused();
        for tab in tabs_back {
            tab.close().await;
        }
        let first_err = match first_err {
            Some(MotionError::Browser(m)) if !lease.browser.is_alive() => {
                Some(MotionError::Browser(format!("{m} (the browser said: {})", lease.browser.stderr_tail())))
            }
            other => other,
        };
        drop(lease);
        match first_err {
            Some(e) => Err(e),
            None => Ok(report),
        }
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| {
                    x.as_str().map(str::to_string).or_else(|| x.get("src").and_then(Value::as_str).map(str::to_string))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Splits `n` frames into `k` contiguous ranges.
pub fn split(n: u64, k: u32) -> Vec<(u64, u64)> {
    let k = u64::from(k).clamp(1, n.max(1));
    let per = n.div_ceil(k);
    (0..k).map(|i| (i * per, ((i + 1) * per).min(n))).filter(|(a, b)| a < b).collect()
}

#[allow(clippy::too_many_arguments)]
async fn drive_range(
    tab: &mut Tab,
    from: u64,
    to: u64,
    mode: Mode,
    step: f64,
    still: bool,
    tx: &SyncSender<Msg>,
    stop: &AtomicBool,
) -> Result<(), MotionError> {
    let drive = |f: u64| format!("window.__folio.drive({f}, '{}', {step})", mode.name());
    // Every frame before the first captured one is driven and painted (without a capture): what
    // the compositor shows depends on what it drew before (a layer rastered while its transform
    // moved differs at the edges from one rastered once), so a still or a second tab reaches
    // frame N with the same history as a render that captured 0..N.
    for f in 0..from {
        if stop.load(Ordering::SeqCst) {
            return Err(MotionError::Cancelled);
        }
        tab.eval(&drive(f)).await?;
        tab.paint().await?;
    }
    let _ = still;
    for f in from..to {
        if stop.load(Ordering::SeqCst) {
            return Err(MotionError::Cancelled);
        }
        tab.eval(&drive(f)).await?;
        let png = tab.capture().await?;
        if tx.send(Msg::Frame(f - if still { from } else { 0 }, png)).is_err() {
            return Err(MotionError::Cancelled);
        }
    }
    Ok(())
}
