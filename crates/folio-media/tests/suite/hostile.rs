//! Hostile and odd inputs: each gets a named error (asserted by its text), never a hang; a
//! cancelled transcode leaves no process and no staging directory; the budget refuses up front
//! and reports progress.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_budget::{JobKind, JobProgress, Rates, RunBudget};
use serde_json::json;

use super::common::make;
use super::fixtures::world;

#[test]
fn broken_and_odd_inputs_get_named_errors() {
    let Some(w) = world() else { return };
    let mp4 = std::fs::read(w.tree.host("/in/v.mp4")).unwrap();
    w.tree.put("/in/truncated.mp4", &mp4[..mp4.len() / 3]);
    w.tree.put("/in/corrupt.mp4", &[b"\x00\x00\x00\x18ftypmp42".as_slice(), &[0x5a; 4000]].concat());
    w.tree.put("/in/text.mp4", b"this is not a video at all\n");
    w.tree.put("/in/empty.mp4", b"");
    let mut huge = b"YUV4MPEG2 W30000 H100 F25:1 Ip A1:1 C420jpeg\nFRAME\n".to_vec();
    huge.extend(std::iter::repeat_n(0u8, 4000));
    w.tree.put("/in/huge.y4m", &huge);
    make(
        &w.ff,
        &["-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", "0", w.tree.host("/in/zero.wav").to_str().unwrap()],
    );
    let cases: &[(&str, serde_json::Value, &[&str])] = &[
        (
            "describe",
            json!(["/in/truncated.mp4"]),
            &["/in/truncated.mp4 is not readable media", "hint: check that the file was written completely"],
        ),
        ("transcode", json!(["/in/corrupt.mp4", "/out/x.webm"]), &["/in/corrupt.mp4 is not readable media"]),
        (
            "describe",
            json!(["/in/text.mp4"]),
            &["/in/text.mp4 is not readable media (moov atom not found | Invalid data found when processing input)"],
        ),
        ("describe", json!(["/in/empty.mp4"]), &["/in/empty.mp4 is not readable media (the file is empty (0 bytes))"]),
        (
            "extractAudio",
            json!(["/in/zero.wav", "/out/z.mp3"]),
            &["/in/zero.wav is not readable media (it is 0 s long"],
        ),
        (
            "thumbnail",
            json!(["/in/huge.y4m", "/out/h.png"]),
            &["/in/huge.y4m is 30000×100 pixels, over the 16384 pixel limit", "nothing was decoded"],
        ),
        ("extractAudio", json!(["/in/silent.mp4", "/out/a.mp3"]), &["/in/silent.mp4 has no audio stream"]),
        ("loudness", json!(["/in/silent.mp4"]), &["/in/silent.mp4 has no audio stream"]),
        ("loudness", json!(["/in/quiet.wav"]), &["/in/quiet.wav is silent (its loudness measures -inf)"]),
        (
            "thumbnail",
            json!(["/in/tone.wav", "/out/t.png"]),
            &["/in/tone.wav has no video stream", "env:media.waveform"],
        ),
        ("thumbnail", json!(["/in/v.mp4", "/out/t.png", 9]), &["atSeconds 9 is past the end of /in/v.mp4"]),
        (
            "clip",
            json!(["/in/v.mp4", "/out/c.mp4", {"start": 1.5, "end": 1.0}]),
            &["end (1) must be after start (1.5)"],
        ),
        (
            "clip",
            json!(["/in/v.mp4", "/out/c.mp4", {"start": 5, "end": 6}]),
            &["start (5) is at or past the end of /in/v.mp4"],
        ),
        ("clip", json!(["/in/v.mp4", "/out/c.txt", {"end": 1}]), &["/out/c.txt: clip writes .mp4"]),
        (
            "clip",
            json!(["/in/v.mp4", "/out/c.mp4", {"end": 1, "stop": 2}]),
            &["unknown option stop — hint: the options are start, end, crf, timeoutMs"],
        ),
        (
            "clip",
            json!(["in/v.mp4", "/out/c.mp4"]),
            &["argument 1 (the media) must be an absolute path like /in/clip.mp4"],
        ),
        (
            "transcode",
            json!(["/in/v.mp4", "/out/t.mp4", {"crf": 60}]),
            &["crf must be an integer from 0 to 51, got 60"],
        ),
        ("transcode", json!(["/in/v.mp4", "/out/t.mp4", {"scale": [0, 10]}]), &["scale must be [width, height]"]),
        (
            "extractAudio",
            json!(["/in/v.mp4", "/out/a.mp3", {"codec": "copy", "bitrate": 128}]),
            &["codec 'copy' keeps the audio as it is, so it cannot be combined with bitrate"],
        ),
        (
            "extractAudio",
            json!(["/in/v.mp4", "/out/a.mp3", {"codec": "wma"}]),
            &["codec \"wma\" is not one of mp3, aac, flac, opus, vorbis, pcm, copy"],
        ),
        (
            "extractAudio",
            json!(["/in/v.mp4", "/out/a.mp3", {"sampleRate": 100}]),
            &["sampleRate must be an integer from 8000 to 384000, got 100"],
        ),
        (
            "normalize",
            json!(["/in/v.mp4", "/out/n.mp4", {"codec": "copy"}]),
            &["normalize re-encodes the sound, so codec 'copy' is not possible"],
        ),
        ("normalize", json!(["/in/v.mp4", "/out/n.mp4", {"lufs": 0}]), &["lufs must be between -70 and -5, got 0"]),
        (
            "waveform",
            json!(["/in/tone.wav", "/out/w.png", {"colour": "red"}]),
            &["colour must be #rrggbb (like #3366cc), got \"red\""],
        ),
        ("concat", json!([["/in/v.mp4"], "/out/j.mp4"]), &["inputs needs at least 2 path(s), got 1"]),
        ("concat", json!([["/in/v.mp4", "/in/tone.wav"], "/out/j.mp4"]), &["/in/tone.wav has no video stream"]),
        ("burnSubtitles", json!(["/in/v.mp4", "/out/b.mp4"]), &["/in/v.mp4 has no subtitle stream"]),
        (
            "burnSubtitles",
            json!(["/in/v.mp4", "/out/b.mp4", {"track": 0, "subtitles": "/in/talk.srt"}]),
            &["pass track or subtitles, not both"],
        ),
        ("slideshow", json!([[], "/out/s.mp4"]), &["images needs at least 1 path(s), got 0"]),
        (
            "mixAudio",
            json!(["/in/v.mp4", "/in/tone.wav", "/out/m.mp4", {"offset": 3}]),
            &["offset (3) is at or past the end of /in/v.mp4"],
        ),
        ("mixAudio", json!(["/in/v.mp4", "/in/silent.mp4", "/out/m.mp4"]), &["/in/silent.mp4 has no audio stream"]),
        (
            "contactSheet",
            json!(["/in/v.mp4", "/out/c.png", {"columns": 20, "width": 1920}]),
            &["the sheet would be 17280 pixels wide"],
        ),
        ("describe", json!(["/in/nope.mp4"]), &["/in/nope.mp4"]),
    ];
    let started = Instant::now();
    for (op, args, want) in cases {
        let err = w.call(op, args.clone()).expect_err(&format!("{op} {args} must fail"));
        for w in *want {
            assert!(err.contains(w), "{op} {args}:\n  got  {err}\n  want …{w}…");
        }
    }
    w.assert_clean();
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        let figure = json!({
            "area": "media",
            "hostile_cases": cases.len(),
            "named_errors": cases.len(),
            "staging_dirs_left": 0,
            "secs": started.elapsed().as_secs_f64(),
        });
        std::fs::write(dir.join("media.json"), serde_json::to_string_pretty(&figure).unwrap()).unwrap();
    }
}

#[test]
fn names_with_dashes_spaces_quotes_and_non_ascii_are_just_names() {
    let Some(w) = world() else { return };
    let odd = "/in/-y -i 'q' \"d\" $(x) ünï 录像;|.mp4";
    w.tree.put(odd, &std::fs::read(w.tree.host("/in/v.mp4")).unwrap());
    let out = "/out/-rés ult 'x' \"y\".mp4";
    let got = w.call("clip", json!([odd, out, {"start": 0, "end": 1}])).unwrap();
    assert_eq!(got["path"], out);
    let d = w.call("describe", json!([out])).unwrap();
    assert!((d["duration"].as_f64().unwrap() - 1.0).abs() <= 0.07, "{d}");
    w.tree.put("/in/sub 'x' : é.srt", b"1\n00:00:00,000 --> 00:00:01,000\nHi\n");
    w.call("burnSubtitles", json!([odd, "/out/b.mp4", {"subtitles": "/in/sub 'x' : é.srt"}])).unwrap();
    // A host file whose name starts with `-` is probed as a file, not an option.
    let host = w.tree.dir.path().join("-i.mp4");
    std::fs::copy(w.tree.host("/in/v.mp4"), &host).unwrap();
    assert_eq!(folio_media::probe(&w.ff, &host).unwrap().size(), Some((160, 120)));
    w.assert_clean();
}

/// Processes whose working directory is under `root` (each ffmpeg runs in its staging dir).
#[cfg(target_os = "linux")]
fn running_under(root: &std::path::Path) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
            cwd.starts_with(root).then_some(pid)
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_cancelled_transcode_leaves_no_process_and_no_temporary_file() {
    let Some(w) = world() else { return };
    let long = w.tree.host("/in/long.mp4");
    make(
        &w.ff,
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=320x240:rate=25",
            "-t",
            "20",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            long.to_str().unwrap(),
        ],
    );
    let cancelled = Arc::new(AtomicBool::new(false));
    let flag = cancelled.clone();
    let budget = RunBudget::unbounded().with_cancel(Arc::new(move || flag.load(Ordering::SeqCst)));
    let root = w.temp.path().to_path_buf();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let watcher = {
        let (seen, flag, root) = (seen.clone(), cancelled, root.clone());
        std::thread::spawn(move || {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(20) {
                let pids = running_under(&root);
                if !pids.is_empty() {
                    seen.lock().unwrap().extend(pids);
                    std::thread::sleep(Duration::from_millis(300));
                    flag.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    let started = Instant::now();
    let err = w.call_with(&budget, "transcode", json!(["/in/long.mp4", "/out/long.webm", {"crf": 30}])).unwrap_err();
    watcher.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(15), "cancel stopped it within a poll: {:?}", started.elapsed());
    assert!(err.contains("cancelled"), "{err}");
    let seen = seen.lock().unwrap().clone();
    assert!(!seen.is_empty(), "ffmpeg was seen running in its staging directory");
    for pid in seen {
        assert_eq!(folio_budget::child::group_alive(pid), 0, "ffmpeg's group {pid} outlived the cancel");
    }
    assert!(running_under(&root).is_empty());
    w.assert_clean();
    assert!(!w.tree.host("/out/long.webm").exists(), "nothing was written");
}

#[test]
fn the_budget_refuses_up_front_and_progress_counts_seconds() {
    let Some(w) = world() else { return };
    let rates = Arc::new(Rates::in_memory());
    rates.record(JobKind::Media, 1.0, Duration::from_secs(60));
    let budget = RunBudget::new(Some(Instant::now() + Duration::from_secs(5)), rates)
        .with_raise("raise it with --run-budget-ms");
    let err = w.call_with(&budget, "transcode", json!(["/in/v.mp4", "/out/t.mp4"])).unwrap_err();
    for want in [
        "env:media.transcode /in/v.mp4: transcoding 2.0 s of media takes about",
        "nothing was done",
        "cut it with env:media.clip first",
        "raise it with --run-budget-ms",
    ] {
        assert!(err.contains(want), "{err}\n  want …{want}…");
    }
    assert!(!w.tree.host("/out/t.mp4").exists());
    let seen: Arc<Mutex<Vec<JobProgress>>> = Arc::default();
    let sink = seen.clone();
    let budget =
        RunBudget::unbounded().with_progress(Arc::new(move |p: &JobProgress| sink.lock().unwrap().push(p.clone())));
    w.call_with(&budget, "transcode", json!(["/in/v.mp4", "/out/t.webm"])).unwrap();
    let seen = seen.lock().unwrap();
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total, last.unit), (2, 2, folio_budget::Unit::Second), "{seen:?}");
    assert!(seen[0].job.starts_with("env:media.transcode /in/v.mp4"), "{:?}", seen[0]);
    assert!(seen.iter().all(|p| p.eta_ms.is_some()));
}
