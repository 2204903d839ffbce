//! The preview commands through Tauri's mock runtime (no display): registered, wired to the
//! shared preview state, and answering on the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use serde_json::json;

mod mock;
use mock::{app, call};

#[test]
fn previews_need_a_folder_then_describe_files_and_read_tables() {
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sales.csv"), "region,units\nNorth,12\nSouth,7\n").unwrap();
    std::fs::write(dir.path().join("notes.md"), "# Notes\n").unwrap();
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/notes.md"}})).unwrap();
    assert_eq!((info.kind, info.size), (PreviewKind::Markdown, 8));
    let table: PreviewTableResponse =
        call(&app, "preview_table", json!({"params": {"path": "/sales.csv", "limit": 2}})).unwrap();
    assert_eq!((table.rows.len(), table.total_rows, table.truncated), (2, 3, true));
    let err =
        call::<PreviewPagesResponse>(&app, "preview_pages", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("only PDFs and Office documents have pages"), "{err}");
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/.env/x"}})).unwrap_err();
    assert!(err.contains("private settings zone"), "{err}");
}

/// Makes a fixture with the test machine's ffmpeg (the app itself never starts it).
fn ffmpeg_fixture(out: &std::path::Path, args: &[&str]) {
    let status = std::process::Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .arg(out)
        .status()
        .expect("ffmpeg is needed for this test: sudo apt-get install ffmpeg");
    assert!(status.success(), "ffmpeg could not make {}", out.display());
}

/// The preview transcode runs on folio-media: an MPEG-4 Part 2 AVI becomes a VP8 webm whose
/// length folio-media's probe confirms, progress rises to the end, a damaged file fails naming
/// ffmpeg's own complaint, and neither leaves a scratch or partial file in the cache.
#[test]
fn the_preview_transcode_runs_on_folio_media_and_leaves_nothing_behind() {
    use folio_desktop::preview::Previews;
    use std::sync::{Arc, Mutex};
    let app = app();
    let dir = tempfile::tempdir().unwrap();
    let src = ["-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=25", "-c:v", "mpeg4", "-q:v", "5"];
    ffmpeg_fixture(&dir.path().join("legacy.avi"), &src);
    let mut broken = std::fs::read(dir.path().join("legacy.avi")).unwrap();
    broken.truncate(600);
    broken.extend(std::iter::repeat_n(0x5a, 4000));
    std::fs::write(dir.path().join("broken.avi"), broken).unwrap();
    let folder = dir.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();
    let session = tauri::Manager::state::<folio_desktop::commands::AppState>(&app.webview).current().unwrap();
    let previews: Arc<Previews> = tauri::Manager::state::<Arc<Previews>>(&app.webview).inner().clone();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/legacy.avi"}})).unwrap();
    let media = info.media.unwrap();
    assert_eq!((media.probed_by.as_str(), media.video_codec.as_deref(), media.mime), ("ffprobe", Some("mpeg4"), None));
    let seen = Mutex::new(Vec::new());
    let made =
        previews.transcode(&session, "/legacy.avi", &|p| seen.lock().unwrap().push((p.seconds, p.fraction))).unwrap();
    assert!(!made.cached && made.mime == "video/webm; codecs=\"vp8, opus\"", "{made:?}");
    let seen = seen.into_inner().unwrap();
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "progress never goes back: {seen:?}");
    assert!(seen.last().and_then(|p| p.1).unwrap_or(0.0) > 0.9, "progress reaches the end: {seen:?}");
    let webm = previews.transcoded(&session, &folio_vfs::VPath::parse("/legacy.avi").unwrap()).unwrap();
    let ffmpeg = folio_media::Ffmpeg::discover(None).unwrap();
    let probed = folio_media::probe(&ffmpeg, &webm).unwrap();
    let video = probed.first(folio_media::StreamKind::Video).unwrap();
    assert_eq!((video.codec.as_str(), probed.size()), ("vp8", Some((320, 240))));
    assert!((probed.duration.unwrap() - 3.0).abs() <= 0.04 + 1e-9, "within a frame of 3 s: {:?}", probed.duration);

    let err = previews.transcode(&session, "/broken.avi", &|_| {}).unwrap_err().to_string();
    assert!(err.starts_with("ffmpeg could not convert /broken.avi to a webm preview: "), "{err}");
    let cache = webm.parent().unwrap();
    let left: Vec<String> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".part") || n.ends_with(".src"))
        .collect();
    assert!(left.is_empty(), "no scratch or partial file is left: {left:?}");
}

/// Exactly one crate knows ffmpeg: the app's own code starts no process for media.
#[test]
fn the_app_starts_no_ffmpeg_or_ffprobe_itself() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if name.ends_with(".rs") && !name.ends_with("_tests.rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or_default();
                if code.contains("Command::new") || code.contains("process::Command") {
                    offenders.push(path.display().to_string());
                }
            }
        }
    }
    assert!(offenders.is_empty(), "only folio-media starts ffmpeg/ffprobe; these start processes: {offenders:?}");
}
