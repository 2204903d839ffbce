//! Previews in the real window: an H.264 mp4 and a VP8 webm that really play (`readyState` ≥ 2
//! and `currentTime` advancing after a muted `play()`), an MPEG-4 Part 2 AVI no webview plays,
//! which is transcoded to webm and then plays, an Ogg Opus tone in an audio player, a PNG, a three-page PDF rendered by PDFium page
//! by page, a CSV as a table, and a two-sheet workbook with a tab per sheet, saved formula results
//! shown and a formula saved without one marked. A second scenario hides ffmpeg and checks the
//! honest card.
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
    std::fs::write(dir.join("book.xlsx"), workbook()).unwrap();
}

/// A two-sheet workbook as OOXML: `Summary` with `units × price` formulas, the first with its
/// saved result (84), the second saved without one; `Notes` with one text cell.
fn workbook() -> Vec<u8> {
    use std::io::Write;
    let sheet = |rows: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{rows}</sheetData></worksheet>"#
        )
    };
    let s = |r: &str, t: &str| format!(r#"<c r="{r}" t="inlineStr"><is><t>{t}</t></is></c>"#);
    let summary = sheet(&format!(
        r#"<row r="1">{}{}{}</row><row r="2">{}<c r="B2"><v>12</v></c><c r="C2"><v>7</v></c><c r="D2"><f>B2*C2</f><v>84</v></c></row><row r="3">{}<c r="B3"><v>5</v></c><c r="C3"><v>3</v></c><c r="D3"><f>B3*C3</f></c></row>"#,
        s("A1", "region") + &s("B1", "units"),
        s("C1", "price"),
        s("D1", "total"),
        s("A2", "North"),
        s("A3", "South"),
    ));
    let notes =
        sheet(&format!(r#"<row r="1">{}</row><row r="2">{}</row>"#, s("A1", "note"), s("A2", "Prices are in euros")));
    let parts = [
        ("[Content_Types].xml", r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>"#.to_owned()),
        ("_rels/.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#.to_owned()),
        ("xl/workbook.xml", r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Summary" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>"#.to_owned()),
        ("xl/_rels/workbook.xml.rels", r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>"#.to_owned()),
        ("xl/worksheets/sheet1.xml", summary),
        ("xl/worksheets/sheet2.xml", notes),
    ];
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, body) in parts {
        out.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        out.write_all(body.as_bytes()).unwrap();
    }
    out.finish().unwrap().into_inner()
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

    // A workbook: a tab per sheet, the saved result of a formula shown, one without it marked.
    app.click("#tree .row[data-path='/book.xlsx']").await;
    app.wait_text("#preview .data-table", "total").await;
    let tabs =
        app.js("return [...document.querySelectorAll('#preview .sheet-tabs button')].map(b => b.textContent)").await;
    assert_eq!(tabs, serde_json::json!(["Summary", "Notes"]), "a tab per sheet");
    let totals = app
        .js("return [...document.querySelectorAll('#preview .data-table tbody tr')].map(r => r.cells[4].textContent)")
        .await;
    assert_eq!(totals[0], "84", "the saved result is shown, not the formula: {totals}");
    let marked =
        app.js("return [...document.querySelectorAll('#preview td.uncalculated')].map(c => c.textContent)").await;
    assert_eq!(marked.as_array().map(Vec::len), Some(1), "the formula saved without a result is marked: {marked}");
    app.wait_text("#preview .table-note", "no").await;
    app.shot("media-7-workbook-summary.png").await;
    app.click("#preview .sheet-tabs button:nth-child(2)").await;
    app.wait_text("#preview .data-table", "Prices are in euros").await;
    app.wait_text("#preview .table-meta", "sheet Notes").await;
    app.shot("media-8-workbook-notes.png").await;
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
