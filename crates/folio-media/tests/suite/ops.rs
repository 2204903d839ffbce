//! Every binding on media made in the test, each output checked by ffprobe (duration within one
//! frame, codecs, size) or by its pixels.

use serde_json::{Value, json};

use super::fixtures::{World, rgb, world};

/// What an output must be.
#[derive(Default)]
struct Expect {
    duration: Option<f64>,
    video: Option<&'static str>,
    audio: Option<&'static str>,
    size: Option<(u32, u32)>,
}

const FRAME: f64 = 0.04; // one frame at 25 fps

fn check(w: &World, op: &'static str, args: Value, out: &str, want: Expect) -> Value {
    let got = w.call(op, args.clone()).unwrap_or_else(|e| panic!("{op} {args}: {e}"));
    assert_eq!(got["path"], out, "{op}: {got}");
    let info = w.info(out);
    let name = format!("{op} → {out}");
    if let Some(d) = want.duration {
        let have = info.duration.unwrap_or_else(|| panic!("{name}: no duration"));
        assert!((have - d).abs() <= FRAME + 0.03, "{name}: duration {have}, want {d} ± one frame");
    }
    let v = info.first(folio_media::StreamKind::Video).map(|s| s.codec.as_str());
    let a = info.first(folio_media::StreamKind::Audio).map(|s| s.codec.as_str());
    assert_eq!(v, want.video, "{name}: video codec");
    assert_eq!(a, want.audio, "{name}: audio codec");
    if let Some(size) = want.size {
        assert_eq!(info.size(), Some(size), "{name}: size");
    }
    assert_eq!(got["bytes"].as_u64(), Some(std::fs::metadata(w.tree.host(out)).unwrap().len()), "{name}");
    w.assert_clean();
    got
}

#[test]
fn describe_reports_streams_codecs_duration_size_fps_and_layout() {
    let Some(w) = world() else { return };
    let d = w.call("describe", json!(["/in/v.mp4"])).unwrap();
    assert_eq!(d["path"], "/in/v.mp4");
    assert!((d["duration"].as_f64().unwrap() - 2.0).abs() <= FRAME, "{d}");
    assert_eq!((d["width"].as_u64(), d["height"].as_u64(), d["fps"].as_f64()), (Some(160), Some(120), Some(25.0)));
    assert_eq!(d["audio"], "mono");
    let streams = d["streams"].as_array().unwrap();
    assert_eq!(streams[0]["kind"], "video");
    assert_eq!(streams[0]["codec"], "h264");
    assert_eq!(streams[1]["kind"], "audio");
    assert_eq!(streams[1]["codec"], "aac");
    assert_eq!(streams[1]["sampleRate"], 44100);
    assert_eq!(streams[1]["channels"], 1);
    let s = w.call("describe", json!(["/in/subs.mkv"])).unwrap();
    let sub = s["streams"].as_array().unwrap().iter().find(|s| s["kind"] == "subtitle").unwrap().clone();
    assert_eq!(
        (sub["codec"].as_str(), sub["language"].as_str(), sub["track"].as_u64()),
        (Some("subrip"), Some("eng"), Some(0))
    );
    w.assert_clean();
}

#[test]
fn every_writing_binding_makes_what_it_says() {
    let Some(w) = world() else { return };
    let e = |duration, video, audio, size| Expect { duration, video, audio, size };
    let cases: Vec<(&'static str, Value, &str, Expect)> = vec![
        (
            "thumbnail",
            json!(["/in/v.mp4", "/out/t.png", 0.5]),
            "/out/t.png",
            e(None, Some("png"), None, Some((160, 120))),
        ),
        ("thumbnail", json!(["/in/v.mp4", "/out/t.jpg"]), "/out/t.jpg", e(None, Some("mjpeg"), None, Some((160, 120)))),
        (
            "clip",
            json!(["/in/v.mp4", "/out/c.mp4", {"start": 0.5, "end": 1.5}]),
            "/out/c.mp4",
            e(Some(1.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "clip",
            json!(["/in/tone.wav", "/out/c.mp3", {"start": 0.25, "end": 0.75}]),
            "/out/c.mp3",
            e(Some(0.5), None, Some("mp3"), None),
        ),
        (
            "transcode",
            json!(["/in/v.mp4", "/out/t.webm", {"crf": 40, "scale": [80, 60], "fps": 10}]),
            "/out/t.webm",
            e(Some(2.0), Some("vp9"), Some("opus"), Some((80, 60))),
        ),
        (
            "transcode",
            json!(["/in/other.webm", "/out/t.mkv"]),
            "/out/t.mkv",
            e(Some(1.0), Some("h264"), Some("aac"), Some((128, 96))),
        ),
        ("transcode", json!(["/in/v.mp4", "/out/t.mp3"]), "/out/t.mp3", e(Some(2.0), None, Some("mp3"), None)),
        ("extractAudio", json!(["/in/v.mp4", "/out/a.wav"]), "/out/a.wav", e(Some(2.0), None, Some("pcm_s16le"), None)),
        (
            "extractAudio",
            json!(["/in/v.mp4", "/out/a.m4a", {"codec": "copy"}]),
            "/out/a.m4a",
            e(Some(2.0), None, Some("aac"), None),
        ),
        (
            "extractAudio",
            json!(["/in/v.mp4", "/out/a.ogg", {"codec": "opus", "bitrate": 64, "channels": 2}]),
            "/out/a.ogg",
            e(Some(2.0), None, Some("opus"), None),
        ),
        (
            "extractAudio",
            json!(["/in/other.webm", "/out/a.flac", {"sampleRate": 16000}]),
            "/out/a.flac",
            e(Some(1.0), None, Some("flac"), None),
        ),
        (
            "concat",
            json!([["/in/v.mp4", "/in/v-again.mp4"], "/out/j.mp4"]),
            "/out/j.mp4",
            e(Some(4.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "concat",
            json!([["/in/v.mp4", "/in/other.webm"], "/out/mixed.mp4"]),
            "/out/mixed.mp4",
            e(Some(3.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "concat",
            json!([["/in/v.mp4", "/in/silent.mp4"], "/out/half-silent.webm"]),
            "/out/half-silent.webm",
            e(Some(3.0), Some("vp9"), Some("opus"), Some((160, 120))),
        ),
        (
            "concat",
            json!([["/in/tone.wav", "/in/v.mp4"], "/out/sound.m4a"]),
            "/out/sound.m4a",
            e(Some(3.0), None, Some("aac"), None),
        ),
        (
            "normalize",
            json!(["/in/v.mp4", "/out/n.mp4", {"lufs": -20}]),
            "/out/n.mp4",
            e(Some(2.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "waveform",
            json!(["/in/tone.wav", "/out/w.png", {"size": [400, 100], "colour": "#ff0000"}]),
            "/out/w.png",
            e(None, Some("png"), None, Some((400, 100))),
        ),
        (
            "burnSubtitles",
            json!(["/in/v.mp4", "/out/b.mp4", {"subtitles": "/in/talk.srt"}]),
            "/out/b.mp4",
            e(Some(2.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "burnSubtitles",
            json!(["/in/subs.mkv", "/out/b.mkv", {"track": 0}]),
            "/out/b.mkv",
            e(Some(2.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "slideshow",
            json!([["/in/red.png", "/in/blue.png"], "/out/s.mp4", {"frameMs": 500}]),
            "/out/s.mp4",
            e(Some(1.0), Some("h264"), None, Some((64, 48))),
        ),
        (
            "slideshow",
            json!([["/in/red.png", "/in/red.png", "/in/red.png"], "/out/same.mp4", {"frameMs": 250}]),
            "/out/same.mp4",
            e(Some(0.75), Some("h264"), None, Some((64, 48))),
        ),
        (
            "slideshow",
            json!([["/in/red.png", "/in/blue.png"], "/out/s.webm", {"size": [96, 96]}]),
            "/out/s.webm",
            e(Some(2.0), Some("vp9"), None, Some((96, 96))),
        ),
        (
            "contactSheet",
            json!(["/in/v.mp4", "/out/cs.png", {"count": 4, "columns": 2, "width": 80}]),
            "/out/cs.png",
            e(None, Some("png"), None, Some((160, 120))),
        ),
        (
            "mixAudio",
            json!(["/in/silent.mp4", "/in/tone.wav", "/out/m.mp4", {"offset": 0.2, "fadeIn": 0.1, "fadeOut": 0.2}]),
            "/out/m.mp4",
            e(Some(1.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
        (
            "mixAudio",
            json!(["/in/v.mp4", "/in/tone.wav", "/out/duck.mkv", {"duck": true, "volume": 0.5}]),
            "/out/duck.mkv",
            e(Some(2.0), Some("h264"), Some("aac"), Some((160, 120))),
        ),
    ];
    for (op, args, out, want) in cases {
        check(&w, op, args, out, want);
    }
}

#[test]
fn frames_are_numbered_from_00001_and_capped_by_limit() {
    let Some(w) = world() else { return };
    let got = w.call("frames", json!(["/in/v.mp4", "/out/f", {"fps": 2, "limit": 3}])).unwrap();
    assert_eq!(got, json!(["/out/f/frame-00001.png", "/out/f/frame-00002.png", "/out/f/frame-00003.png"]));
    for p in got.as_array().unwrap() {
        assert_eq!(w.info(p.as_str().unwrap()).size(), Some((160, 120)));
    }
    let all = w.call("frames", json!(["/in/v.mp4", "/out/g", {"fps": 2}])).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 4, "2 s at 2 per second: {all}");
    w.assert_clean();
}

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 40)
}

#[test]
fn a_slideshow_shows_each_still_for_its_time_by_pixels() {
    let Some(w) = world() else { return };
    w.call("slideshow", json!([["/in/red.png", "/in/blue.png"], "/out/s.mp4", {"frameMs": 500}])).unwrap();
    for (at, colour) in [(0.2, [255, 0, 0]), (0.7, [0, 0, 255])] {
        let out = format!("/out/at-{at}.png");
        w.call("thumbnail", json!(["/out/s.mp4", out, at])).unwrap();
        let img = rgb(&w.ff, &w.tree.host(&out));
        assert!(near(pixel(&img, 32, 24), colour), "at {at}: {:?}", pixel(&img, 32, 24));
    }
    // The blue still (80×40) is letterboxed into the first still's 64×48: black bars above.
    let img = rgb(&w.ff, &w.tree.host("/out/at-0.7.png"));
    assert!(near(pixel(&img, 32, 1), [0, 0, 0]), "{:?}", pixel(&img, 32, 1));
}

#[test]
fn burnt_subtitles_change_the_pictures_and_the_waveform_has_its_colour() {
    let Some(w) = world() else { return };
    let burnt = w.call("burnSubtitles", json!(["/in/v.mp4", "/out/b.mp4", {"subtitles": "/in/talk.srt"}])).unwrap();
    // Set in the bundled DejaVu Sans (libass names a staged face), never a host font file
    // (fontconfig's pick, a path, which differs between machines).
    assert_eq!(burnt["fonts"], json!(["DejaVuSans"]), "{burnt}");
    w.call("thumbnail", json!(["/out/b.mp4", "/out/b.png", 0.5])).unwrap();
    w.call("thumbnail", json!(["/in/v.mp4", "/out/a.png", 0.5])).unwrap();
    let (b, a) = (rgb(&w.ff, &w.tree.host("/out/b.png")), rgb(&w.ff, &w.tree.host("/out/a.png")));
    let bottom = |img: &(u32, u32, Vec<u8>)| img.2[(img.2.len() * 3 / 4)..].to_vec();
    let differing = bottom(&a).iter().zip(bottom(&b)).filter(|(x, y)| x.abs_diff(*y) > 60).count();
    assert!(differing > 300, "the subtitle is drawn in the bottom quarter: {differing} values differ");
    w.call("waveform", json!(["/in/tone.wav", "/out/w.png", {"size": [200, 50], "colour": "#ff0000"}])).unwrap();
    let wave = rgb(&w.ff, &w.tree.host("/out/w.png"));
    let red = wave.2.chunks(3).filter(|p| p[0] > 200 && p[1] < 60 && p[2] < 60).count();
    assert!(red > 200, "a 440 Hz tone fills the middle with red: {red} red pixels");
}

#[test]
fn a_contact_sheet_tiles_distinct_moments() {
    let Some(w) = world() else { return };
    let got =
        w.call("contactSheet", json!(["/in/v.mp4", "/out/cs.png", {"count": 4, "columns": 2, "width": 80}])).unwrap();
    assert_eq!((got["rows"].as_u64(), got["columns"].as_u64()), (Some(2), Some(2)));
    let img = rgb(&w.ff, &w.tree.host("/out/cs.png"));
    // testsrc2 moves: the four tiles are not the same picture.
    let tile = |tx: u32, ty: u32| {
        (0..60)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .map(|(x, y)| pixel(&img, tx * 80 + x, ty * 60 + y))
            .collect::<Vec<_>>()
    };
    assert_ne!(tile(0, 0), tile(1, 1));
}

#[test]
fn normalize_reaches_the_target_loudness_and_loudness_measures_it() {
    let Some(w) = world() else { return };
    let before = w.call("loudness", json!(["/in/tone.wav"])).unwrap();
    let was = before["lufs"].as_f64().unwrap();
    assert!((-23.0..-20.0).contains(&was), "a sine at 1/8 of full scale: {before}");
    let got = w.call("normalize", json!(["/in/tone.wav", "/out/n.wav", {"lufs": -16}])).unwrap();
    assert!(got["measured"]["lufs"].as_f64().is_some(), "{got}");
    assert_eq!(
        w.info("/out/n.wav").first(folio_media::StreamKind::Audio).unwrap().sample_rate,
        Some(44100),
        "loudnorm's 192 kHz is not kept"
    );
    let after = w.call("loudness", json!(["/out/n.wav"])).unwrap();
    let lufs = after["lufs"].as_f64().unwrap();
    assert!((lufs + 16.0).abs() <= 1.0, "normalised to -16 LUFS from {was}, measured {lufs}");
    w.assert_clean();
}

#[test]
fn extract_subtitles_writes_the_track_as_text() {
    let Some(w) = world() else { return };
    for out in ["/out/s.srt", "/out/s.vtt"] {
        w.call("extractSubtitles", json!(["/in/subs.mkv", out])).unwrap();
        let text = String::from_utf8(std::fs::read(w.tree.host(out)).unwrap()).unwrap();
        assert!(text.contains("Hello there") && text.contains("Bye"), "{out}: {text}");
    }
    let err = w.call("extractSubtitles", json!(["/in/subs.mkv", "/out/s.srt", {"track": 3}])).unwrap_err();
    assert!(err.contains("has no subtitle track 3; its tracks are 0: subrip (eng)"), "{err}");
    let err = w.call("extractSubtitles", json!(["/in/v.mp4", "/out/s.srt"])).unwrap_err();
    assert!(err.contains("/in/v.mp4 has no subtitle stream"), "{err}");
}

#[test]
fn speak_says_the_text_when_espeak_is_here_and_is_refused_with_the_fix_when_not() {
    let Some(w) = world() else { return };
    match w.host.espeak() {
        Ok(_) => {
            let got = w.call("speak", json!(["-rf Hello from Folio, one two three.", "/out/s.wav"])).unwrap();
            let d = got["duration"].as_f64().unwrap();
            assert!(d > 0.8 && d < 10.0, "{got}");
            assert_eq!(got["audio"], "pcm_s16le");
            let got = w.call("speak", json!(["Bonjour", "/out/s.mp3", {"voice": "fr", "rate": 150}])).unwrap();
            assert_eq!(got["audio"], "mp3");
            let err = w.call("speak", json!(["", "/out/s.wav"])).unwrap_err();
            assert!(err.contains("text is empty"), "{err}");
            let err = w.call("speak", json!(["Hi", "/out/x.wav", {"voice": "no-such-voice-zz"}])).unwrap_err();
            assert!(err.contains("espeak-ng has no voice \"no-such-voice-zz\" — hint: use one of en"), "{err}");
        }
        Err(e) => println!("espeak-ng is not installed: checking the refusal only ({e})"),
    }
    let none = folio_media::MediaHost::with(w.ff.clone(), None);
    let cx = folio_media::Call { host: &none, fs: &w.tree, budget: &folio_budget::RunBudget::unbounded(), op: "speak" };
    let err = folio_media::ops::call("speak", &cx, &[json!("Hi"), json!("/out/x.wav")]).unwrap_err().to_string();
    assert!(
        err.contains("espeak-ng is not available on this host")
            && err.contains("apt-get install --no-install-recommends espeak-ng"),
        "{err}"
    );
    if w.host.espeak().is_ok() {
        let err = w.call("speak", json!(["Hi", "/out/x.wav", {"voice": "en; rm -rf"}])).unwrap_err();
        assert!(err.contains("voice must be an espeak-ng voice name"), "{err}");
    }
}
