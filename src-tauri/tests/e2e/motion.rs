//! Motion in the real window: a catalogue script renders a scene with env:motion to an H.264 mp4
//! (yuv420p), which then plays inline in the preview pane like any other clip; the scene file
//! itself previews as a frame with a scrubber — moving the slider renders that frame on demand,
//! Play steps through frames — and a scene that throws shows its error text loudly.
//!
//! Needs the headless shell (or Chromium) and ffmpeg, which scripts/install.sh installs.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::harness::{App, enabled};
use crate::media::assert_plays;

/// A frame-driven scene: a blue square crosses the frame, the frame number is printed.
const INTRO: &str = r#"import { useFrame, useVideoConfig, interpolate } from 'folio/motion';

export default function Intro() {
  const frame = useFrame();
  const { width, height, durationInFrames } = useVideoConfig();
  const x = interpolate(frame, [0, durationInFrames - 1], [0, width - 80]);
  return (
    <div style={{ width, height, background: '#0b1020', position: 'relative', fontFamily: 'sans-serif' }}>
      <div style={{ position: 'absolute', left: x, top: height / 2 - 40, width: 80, height: 80, borderRadius: 12, background: '#4f8cff' }} />
      <div style={{ position: 'absolute', left: 16, top: 12, color: '#fff', fontSize: 30 }}>frame {frame}</div>
    </div>
  );
}
"#;

const BROKEN: &str = r#"import { useFrame } from 'folio/motion';
export default function Broken() {
  useFrame();
  throw new Error('the chart data is missing (thrown by broken.jsx)');
}
"#;

const RENDER: &str = r#"import { render } from 'env:motion';

/** Renders scenes/intro.jsx to out/intro.mp4. */
export default async function () {
  const r = await render('/scenes/intro.jsx', '/out/intro.mp4', { width: 640, height: 360, fps: 30, durationInFrames: 60 });
  return 'rendered ' + r.frames + ' frames';
}
"#;

fn fill(dir: &Path) {
    for sub in ["scripts", "scenes", "out"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(dir.join("scenes/intro.jsx"), INTRO).unwrap();
    std::fs::write(dir.join("scenes/broken.jsx"), BROKEN).unwrap();
    std::fs::write(dir.join("scripts/render-intro.js"), RENDER).unwrap();
}

/// The frame number the scene view shows, once its image is decoded.
async fn shown_frame(app: &App) -> Option<u64> {
    app.js("const i = document.querySelector('#preview img.scene-frame');
         return i && i.complete && i.naturalWidth > 0 ? Number(i.dataset.frame) : null;")
        .await
        .as_u64()
}

async fn wait_frame(app: &App, want: impl Fn(u64) -> bool, what: &str) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(f) = shown_frame(app).await.filter(|f| want(*f)) {
            return f;
        }
        if Instant::now() > deadline {
            let pane = app.js("return document.querySelector('#preview').innerText").await;
            panic!("the scene view never showed {what}; pane: {pane}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The x of the blue square's left edge on the frame's middle row, read from the shown image.
async fn square_x(app: &App) -> i64 {
    app.js("const i = document.querySelector('#preview img.scene-frame');
         const c = document.createElement('canvas'); c.width = i.naturalWidth; c.height = i.naturalHeight;
         const g = c.getContext('2d'); g.drawImage(i, 0, 0);
         const row = g.getImageData(0, Math.floor(c.height / 2), c.width, 1).data;
         for (let x = 0; x < c.width; x++) { if (row[4 * x + 2] > 200 && row[4 * x] < 120) return x; }
         return -1;")
        .await
        .as_i64()
        .unwrap_or(-1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rendered_clip_plays_inline_and_a_scene_scrubs() {
    if !enabled() {
        return;
    }
    let app = App::start(fill, &[]).await;

    // The agent's side: a script renders the scene with env:motion.
    app.wait_text("#scripts", "Renders scenes/intro.jsx").await;
    app.click(".script[data-path='/scripts/render-intro.js'] button.run").await;
    app.wait_text("#script-form", "takes no arguments").await;
    let ran = Instant::now();
    app.click("#script-run").await;
    app.wait_text("#run-state", "Finished").await;
    app.wait_text("#run-result", "rendered 60 frames").await;
    eprintln!("env:motion rendered 60 frames to /out/intro.mp4 in {} ms (from the click)", ran.elapsed().as_millis());

    // The rendered clip plays inline.
    app.click("#tree .row[data-path='/out']").await;
    app.wait_for("#tree .row[data-path='/out/intro.mp4']").await;
    let delivered = assert_plays(&app, "/out/intro.mp4", "motion-1-rendered-mp4-playing.png").await;
    let meta = app.wait_text("#preview .file-meta", "h264").await;
    eprintln!("/out/intro.mp4 delivered {delivered}; {meta}");
    assert!(meta.contains("640×360") && meta.contains("2.0 s"), "{meta}");
    assert_eq!(delivered, "direct", "an H.264/yuv420p mp4 from env:motion plays without a transcode");

    // The scene previews as a frame with a scrubber.
    app.click("#tree .row[data-path='/scenes']").await;
    app.click("#tree .row[data-path='/scenes/intro.jsx']").await;
    app.wait_for("#preview .file-view[data-kind='scene']").await;
    assert_eq!(wait_frame(&app, |f| f == 0, "frame 0").await, 0);
    app.wait_text("#scene-frame-label", "Frame 0 of 90").await;
    let x0 = square_x(&app).await;
    app.shot("motion-2-scene-frame-0.png").await;

    // Scrub: several quick moves (debounced, stale answers dropped), resting on frame 60.
    let scrub = |f: u32| {
        format!(
            "const s = document.querySelector('#scene-scrubber'); s.value = '{f}';
             s.dispatchEvent(new Event('input', {{ bubbles: true }})); return true;"
        )
    };
    let moved = Instant::now();
    for f in [10, 25, 40, 60] {
        app.js(&scrub(f)).await;
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    assert_eq!(wait_frame(&app, |f| f == 60, "frame 60").await, 60);
    eprintln!("scrubbed to frame 60: shown {} ms after the last move", moved.elapsed().as_millis());
    app.wait_text("#scene-frame-label", "Frame 60 of 90").await;
    let x60 = square_x(&app).await;
    assert!(x0 >= 0 && x60 > x0 + 200, "the square moved right between frames 0 and 60: {x0} → {x60}");
    app.shot("motion-3-scene-scrubbed-to-60.png").await;

    // Play steps through frames on demand, then Pause stops it.
    app.click("#scene-play").await;
    let later = wait_frame(&app, |f| f >= 63, "a frame past 62 while playing").await;
    app.click("#scene-play").await;
    eprintln!("playing reached frame {later}");
    app.wait_text("#scene-play", "Play").await;
    app.shot("motion-4-scene-played.png").await;

    // A broken scene says why, loudly.
    app.click("#tree .row[data-path='/scenes/broken.jsx']").await;
    let err = app.wait_text("#preview .scene-error", "the chart data is missing").await;
    assert!(err.contains("could not be previewed"), "{err}");
    app.shot("motion-5-broken-scene-error.png").await;
    app.close().await;
}
