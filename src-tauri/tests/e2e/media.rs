//! Previews in the real window: an H.264 mp4 and a VP8 webm that really play (`readyState` ≥ 2
//! and `currentTime` advancing after a muted `play()`), an MPEG-4 Part 2 AVI no webview plays,
//! which is transcoded to webm and then plays, an Ogg Opus tone in an audio player, a PNG, a three-page PDF rendered by PDFium page
//! by page, and a CSV as a table. A second scenario hides ffmpeg and checks the honest card.
//!
//! The media fixtures are made by ffmpeg (`testsrc`), which must be installed.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{App, enabled};

#[allow(dead_code)]
#[path = "../../../crates/folio-render/tests/suite/pdfgen.rs"]
mod pdfgen;

/// Runs ffmpeg with `args` (inputs from the lavfi test sources) writing `out`.
fn ffmpeg(dir: &Path, args: &[&str], out: &str) {
    let status = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .arg(dir.join(out))
        .status()
        .unwrap_or_else(|e| {
            panic!("ffmpeg could not start ({e}) — the media e2e needs it: sudo apt-get install ffmpeg")
        });
    assert!(status.success(), "ffmpeg could not make the fixture {out}");
}

const TESTSRC: [&str; 4] = ["-f", "lavfi", "-i", "testsrc=duration=4:size=320x240:rate=25"];

fn fixture(dir: &Path) {
    let video = |codec: &[&str], out: &str| {
        let mut args = TESTSRC.to_vec();
        args.extend_from_slice(codec);
        ffmpeg(dir, &args, out);
    };
    video(&["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"], "clip.mp4");
    video(&["-c:v", "libvpx", "-b:v", "500k"], "clip.webm");
    video(&["-c:v", "mpeg4", "-q:v", "5"], "legacy.avi");
    ffmpeg(dir, &["-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1"], "frame.png");
    ffmpeg(dir, &["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "libopus"], "tone.ogg");
    let pages: Vec<pdfgen::Page> = [(0.9, 0.2, 0.2), (0.2, 0.6, 0.2), (0.2, 0.3, 0.9)]
        .iter()
        .map(|(r, g, b)| pdfgen::Page::new(300.0, 200.0, &pdfgen::rect(*r, *g, *b, 20.0, 20.0, 260.0, 160.0)))
        .collect();
    std::fs::write(dir.join("deck.pdf"), pdfgen::pdf(&pages, "Three pages")).unwrap();
    std::fs::write(dir.join("sales.csv"), "region,units,revenue\nNorth,12,1200\nSouth,7,700\nEast,3,300\n").unwrap();
}

/// The state of the `<video>` or `<audio>` player of `path` in the preview pane.
async fn video_state(app: &App, path: &str) -> Value {
    app.js(&format!(
        "const v = document.querySelector(\"#preview video[data-path='{path}'], #preview audio[data-path='{path}']\");
         return v ? {{ ready: v.readyState, time: v.currentTime, error: v.error ? v.error.code : null,
                      source: v.dataset.source, paused: v.paused, width: v.videoWidth || 0,
                      video: v.tagName === 'VIDEO' }} : null;"
    ))
    .await
}

/// Opens `path` in the preview, plays it muted and waits until it has frames and time
/// advances. Returns how it was delivered (`direct` or `transcoded`).
pub(crate) async fn assert_plays(app: &App, path: &str, shot: &str) -> String {
    app.click(&format!("#tree .row[data-path='{path}']")).await;
    let clicked = Instant::now();
    // Transcoding may take a while on a loaded machine.
    let deadline = Instant::now() + Duration::from_secs(120);
    let last = loop {
        let last = video_state(app, path).await;
        if last["ready"].as_u64().unwrap_or(0) >= 2 {
            break last;
        }
        if let Some(code) = last["error"].as_u64() {
            panic!("{path}: the player failed with MediaError code {code}: {last}");
        }
        if Instant::now() > deadline {
            let pane = app.js("return document.querySelector('#preview').innerText").await;
            panic!("{path}: no playable frames within 120 s; video {last}; pane: {pane}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    eprintln!("{path}: playable (readyState {}) {} ms after the click", last["ready"], clicked.elapsed().as_millis());
    let started = last["time"].as_f64().unwrap_or(0.0);
    app.js(&format!(
        "const v = document.querySelector(\"#preview video[data-path='{path}'], #preview audio[data-path='{path}']\");
         v.muted = true; v.play(); return true;"
    ))
    .await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let now = video_state(app, path).await;
        let time = now["time"].as_f64().unwrap_or(0.0);
        if time > started + 0.5 {
            let is_video = now["video"].as_bool().unwrap_or(false);
            assert!(!is_video || now["width"].as_u64().unwrap_or(0) > 0, "{path}: playing but no video frames: {now}");
            app.shot(shot).await;
            return now["source"].as_str().unwrap_or_default().to_string();
        }
        assert!(Instant::now() < deadline, "{path}: currentTime did not advance after play(): {now}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until an `<img>` matching `css` has decoded pixels; returns its natural width.
pub(crate) async fn image_loaded(app: &App, css: &str) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let w = app
            .js(&format!("const i = document.querySelector(\"{css}\"); return i && i.complete ? i.naturalWidth : 0;"))
            .await;
        if let Some(w) = w.as_u64().filter(|w| *w > 0) {
            return w;
        }
        if Instant::now() > deadline {
            let pane = app.js("return document.querySelector('#preview').innerText").await;
            panic!("{css} never loaded; pane: {pane}");
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn media_previews_really_play_and_documents_render() {
    if !enabled() {
        return;
    }
    let app = App::start(fixture, &[]).await;
    app.wait_for("#tree .row[data-path='/clip.mp4']").await;
    let support = app.js("return window.__folioMedia").await;
    eprintln!("webview media support: {support}");

    let mp4 = assert_plays(&app, "/clip.mp4", "media-1-mp4-playing.png").await;
    let webm = assert_plays(&app, "/clip.webm", "media-2-webm-playing.png").await;
    eprintln!("mp4 delivered {mp4}, webm delivered {webm}");
    assert_eq!(webm, "direct", "a VP8 webm plays without a transcode");
    // An MPEG-4 Part 2 AVI has no media type a webview plays: it must go through the transcode.
    assert_eq!(assert_plays(&app, "/legacy.avi", "media-3-avi-transcoded.png").await, "transcoded");
    assert_eq!(assert_plays(&app, "/tone.ogg", "media-3b-ogg-audio.png").await, "direct");

    app.click("#tree .row[data-path='/frame.png']").await;
    assert_eq!(image_loaded(&app, "#preview .image-view img").await, 320);
    app.shot("media-4-image.png").await;

    app.click("#tree .row[data-path='/deck.pdf']").await;
    app.wait_text("#page-label", "Page 1 of 3").await;
    assert_eq!(image_loaded(&app, "#preview img.page[data-page='1']").await, 1200);
    // WebKit decodes large images off the main thread; give it a moment before the picture.
    tokio::time::sleep(Duration::from_secs(1)).await;
    app.shot("media-5-pdf-page-1.png").await;
    app.click("#page-next").await;
    app.wait_text("#page-label", "Page 2 of 3").await;
    assert_eq!(image_loaded(&app, "#preview img.page[data-page='2']").await, 1200);
    tokio::time::sleep(Duration::from_secs(1)).await;
    app.shot("media-5-pdf-page-2.png").await;

    app.click("#tree .row[data-path='/sales.csv']").await;
    app.wait_text("#preview .data-table", "revenue").await;
    let cells = app.js("return [...document.querySelectorAll('#preview .data-table tbody tr')].length").await;
    assert_eq!(cells, 3, "three data rows under the header");
    app.wait_text("#preview .table-meta", "4 rows").await;
    app.shot("media-6-csv-table.png").await;
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_ffmpeg_an_unplayable_video_gets_an_honest_card() {
    if !enabled() {
        return;
    }
    let fill = |dir: &Path| {
        let mut args = TESTSRC.to_vec();
        args.extend_from_slice(&["-c:v", "mpeg4", "-q:v", "5"]);
        ffmpeg(dir, &args, "legacy.avi");
    };
    let app = App::start(fill, &[("FOLIO_FFMPEG_PATH", "/nonexistent/ffmpeg")]).await;
    app.click("#tree .row[data-path='/legacy.avi']").await;
    let card = app.wait_text("#preview .file-card", "cannot play").await;
    assert!(card.contains("FOLIO_FFMPEG_PATH names /nonexistent/ffmpeg, which does not exist"), "{card}");
    assert!(card.contains("sudo apt-get install ffmpeg"), "{card}");
    assert!(card.contains("Open with default app"), "{card}");
    let players = app.js("return document.querySelectorAll('#preview video').length").await;
    assert_eq!(players, 0, "no player is shown that cannot play");
    app.shot("media-7-no-ffmpeg-card.png").await;
    app.close().await;
}
