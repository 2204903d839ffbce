//! Scene previews through the app's IPC (Tauri's mock runtime): a scene file is recognised,
//! `preview_scene` renders real frames through env:motion and the installed headless shell
//! (PNG decoded, frames differ, warnings passed on), a throwing scene fails with its own text, a
//! file that is not a scene is refused, and a superseded request answers "superseded".
//!
//! Writes `$FOLIO_RELIABILITY_DIR/desktop-scene.json` (cold and warm still latency) when set.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::sync::Arc;
use std::time::Instant;

use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use folio_desktop::preview::Previews;
use serde_json::json;

mod mock;
use mock::{App, app, call};

/// A frame-driven scene: a square moves right and the frame number is printed.
const INTRO: &str = r#"import { useFrame, useVideoConfig, interpolate } from 'folio/motion';

export default function Intro() {
  const frame = useFrame();
  const { width, height, durationInFrames } = useVideoConfig();
  const x = interpolate(frame, [0, durationInFrames - 1], [0, width - 80]);
  return (
    <div style={{ width, height, background: '#0b1020', position: 'relative', fontFamily: 'sans-serif' }}>
      <div style={{ position: 'absolute', left: x, top: height / 2 - 40, width: 80, height: 80, background: '#4f8cff' }} />
      <div style={{ position: 'absolute', left: 12, top: 8, color: '#fff', fontSize: 28 }}>frame {frame}</div>
    </div>
  );
}
"#;

const THROWS: &str = r#"export default function Broken() {
  const data = undefined;
  if (!data) throw new Error('the chart data is missing (thrown by broken.jsx)');
  return <div>{data.title}</div>;
}
"#;

const WARNS: &str = r#"import { useFrame } from 'folio/motion';
export default function Warns() {
  const frame = useFrame();
  return (
    <div style={{ width: '100%', height: '100%', background: 'white' }}>
      <div style={{ fontSize: 24 }}>frame {frame}</div>
      <img src="/scenes/assets/missing.png" style={{ width: 40, height: 40 }} />
    </div>
  );
}
"#;

fn open(app: &App, files: &[(&str, &str)]) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let at = folder.path().join(name);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, text).unwrap();
    }
    let path = folder.path().display().to_string();
    call::<FolderOpenResponse>(app, "folder_open", json!({"params": {"path": path}})).unwrap();
    folder
}

fn scene(app: &App, path: &str, frame: u32) -> Result<PreviewSceneResponse, String> {
    call(app, "preview_scene", json!({"params": {"path": path, "frame": frame}}))
}

/// The PNG of a response, decoded.
fn pixels(r: &PreviewSceneResponse) -> image::RgbaImage {
    use base64::Engine;
    let b64 = r.png.strip_prefix("data:image/png;base64,").expect("a PNG data URL");
    let png = base64::engine::general_purpose::STANDARD.decode(b64).unwrap();
    image::load_from_memory(&png).unwrap().to_rgba8()
}

/// The x of the blue square's left edge on the middle row.
fn square_x(img: &image::RgbaImage) -> Option<u32> {
    let y = img.height() / 2;
    (0..img.width()).find(|x| {
        let p = img.get_pixel(*x, y).0;
        p[2] > 200 && p[0] < 120
    })
}

#[test]
fn a_scene_file_previews_as_real_frames_with_its_warnings() {
    let app = app();
    let _folder = open(
        &app,
        &[("scenes/intro.jsx", INTRO), ("scenes/warns.jsx", WARNS), ("notes/lib.js", "export default 1;\n")],
    );
    let info: PreviewInfoResponse =
        call(&app, "preview_info", json!({"params": {"path": "/scenes/intro.jsx"}})).unwrap();
    assert_eq!(info.kind, PreviewKind::Scene);
    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/notes/lib.js"}})).unwrap();
    assert_eq!(info.kind, PreviewKind::Code, "a default export alone is not a scene");

    let cold = Instant::now();
    let first = scene(&app, "/scenes/intro.jsx", 0).unwrap();
    let cold_ms = cold.elapsed().as_millis() as u64;
    let mut warm_ms = Vec::new();
    let mut last = None;
    for frame in [45, 60, 89] {
        let t = Instant::now();
        let r = scene(&app, "/scenes/intro.jsx", frame).unwrap();
        warm_ms.push(t.elapsed().as_millis() as u64);
        last = Some(r);
    }
    let end = last.unwrap();
    assert_eq!((first.frame, first.duration_in_frames, first.fps, first.width, first.height), (0, 90, 30, 640, 360));
    assert!(first.warnings.is_empty() && end.warnings.is_empty(), "{:?} {:?}", first.warnings, end.warnings);
    let (a, b) = (pixels(&first), pixels(&end));
    assert_eq!(a.dimensions(), (640, 360));
    let (xa, xb) = (square_x(&a).expect("the square at frame 0"), square_x(&b).expect("the square at frame 89"));
    assert!(xa < 10 && xb > 540, "the square moves from the left edge to the right: {xa} → {xb}");
    // A frame past the end is clamped to the last one.
    assert_eq!(scene(&app, "/scenes/intro.jsx", 500).unwrap().frame, 89);

    let warned = scene(&app, "/scenes/warns.jsx", 3).unwrap();
    assert!(warned.warnings.iter().any(|w| w.contains("missing.png")), "{:?}", warned.warnings);

    warm_ms.sort_unstable();
    let median = warm_ms[warm_ms.len() / 2];
    eprintln!("scene preview: cold still {cold_ms} ms, warm stills {warm_ms:?} ms (median {median})");
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        let figure = json!({"area": "desktop-scene", "size": "640x360", "cold_still_ms": cold_ms,
            "warm_still_ms": warm_ms, "warm_still_median_ms": median});
        std::fs::write(std::path::Path::new(&dir).join("desktop-scene.json"), figure.to_string()).unwrap();
    }
}

#[test]
fn a_broken_scene_fails_loudly_and_other_files_are_refused() {
    let app = app();
    let _folder = open(&app, &[("scenes/broken.jsx", THROWS), ("out/readme.md", "# hi\n")]);
    let started = Instant::now();
    let err = scene(&app, "/scenes/broken.jsx", 0).unwrap_err();
    assert!(err.starts_with("/scenes/broken.jsx could not be previewed: "), "{err}");
    assert!(err.contains("the chart data is missing (thrown by broken.jsx)"), "{err}");
    // Generous: the first preview launches the browser, and the suite runs beside other tests;
    // env:motion's own suite holds a throw to 2 s.
    assert!(started.elapsed().as_secs() < 30, "a throwing scene fails fast: {:?}", started.elapsed());
    let err = scene(&app, "/out/readme.md", 0).unwrap_err();
    assert!(err.contains("/out/readme.md: it is not a motion scene"), "{err}");
    let err = scene(&app, "/scenes/none.jsx", 0).unwrap_err();
    assert!(err.contains("/scenes/none.jsx does not exist"), "{err}");
}

#[test]
fn an_older_request_is_superseded_by_a_newer_one() {
    let app = app();
    let _folder = open(&app, &[("scenes/intro.jsx", INTRO)]);
    let session = tauri::Manager::state::<AppState>(&app.webview).current().unwrap();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();
    let params = |frame| PreviewSceneParams {
        path: "/scenes/intro.jsx".into(),
        frame,
        width: None,
        height: None,
        fps: None,
        duration_in_frames: None,
    };
    // Warm the browser, then start a long still (frame 89 walks every frame before it) and ask
    // for a newer one while it renders: the older one stops at its next frame and says so.
    previews.scene(&session, &params(0)).unwrap();
    let (p, s) = (previews.clone(), session.clone());
    let older = std::thread::spawn(move || {
        let r = p.scene(&s, &params(89));
        (r, Instant::now())
    });
    std::thread::sleep(std::time::Duration::from_millis(150));
    let newer_began = Instant::now();
    let newer = previews.scene(&session, &params(20)).unwrap();
    assert_eq!(newer.frame, 20);
    let (result, ended) = older.join().unwrap();
    match result {
        // Only a still that was already done when the newer request came may answer.
        Ok(r) => assert!(
            r.frame == 89 && ended <= newer_began + std::time::Duration::from_millis(100),
            "a still still rendering when a newer request came was not cancelled: ended {:?} after it",
            ended.saturating_duration_since(newer_began)
        ),
        Err(e) => assert_eq!(
            e.to_string(),
            "/scenes/intro.jsx: frame 89 was superseded by a newer request before it was rendered"
        ),
    }
}
