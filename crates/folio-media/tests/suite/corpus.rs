//! The real-world media of the shared corpus (never copied into the repo): found through
//! `FOLIO_CORPUS` or `../shared/corpus` beside the repository, skipped with a reason when absent.
//! Each file is described and put through one operation, and the broken ones get their named
//! errors. (The install provides no sample media of its own: /usr/share holds none.)

use std::path::PathBuf;

use serde_json::json;

use super::fixtures::world;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("FOLIO_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    if dir.join("media").is_dir() {
        Some(dir)
    } else {
        println!("skipped: no corpus at {} (set FOLIO_CORPUS)", dir.display());
        None
    }
}

/// What a corpus file is — `(file, duration, video codec, audio codec, size)` — and what one
/// operation on it gives: `Ok(codec of the result)` or `Err(part of the error)`.
type Described = (
    &'static str,
    Option<f64>,
    Option<&'static str>,
    Option<&'static str>,
    Option<(u64, u64)>,
    Result<&'static str, &'static str>,
);

const DESCRIBED: &[Described] = &[
    ("media/alarm-clock-elapsed-vorbis.oga", Some(6.128), None, Some("vorbis"), None, Ok("pcm_s16le")),
    ("media/alsa-front-center-speech.wav", Some(1.428), None, Some("pcm_s16le"), None, Ok("pcm_s16le")),
    (
        "media/avchd-truncated.mts",
        None,
        Some("h264"),
        Some("ac3"),
        Some((1920, 1080)),
        Err("ffmpeg wrote an empty output (error while decoding MB 13 0"),
    ),
    ("media/bigbuckbunny-h264-aac-720p-5s.mp4", Some(5.312), Some("h264"), Some("aac"), Some((1280, 720)), Ok("png")),
    (
        "media/echo-hereweare-vp8-vorbis-44s.webm",
        Some(44.652),
        Some("vp8"),
        Some("vorbis"),
        Some((480, 270)),
        Ok("png"),
    ),
    ("media/flac-in-ogg.ogg", Some(3.055), None, Some("flac"), None, Ok("pcm_s16le")),
    ("media/minimal-png-codec.avi", Some(0.04), Some("png"), None, Some((13, 7)), Ok("png")),
    ("media/minimal-png-codec.mkv", Some(0.04), Some("png"), None, Some((13, 7)), Ok("png")),
    ("media/opus-audio-only.webm", Some(1.508), None, Some("opus"), None, Ok("pcm_s16le")),
    ("media/party-mono-64k-id3v24.mp3", Some(6.583), None, Some("mp3"), None, Ok("pcm_s16le")),
    (
        "media/pentax-camera-truncated.avi",
        None,
        Some("mjpeg"),
        Some("pcm_s16le"),
        Some((1280, 720)),
        Err("ffmpeg failed (exit status: 1): Cannot determine format of input stream 0:0 after EOF"),
    ),
    ("hostile/m4a-named-aac.aac", None, None, Some("aac"), None, Ok("pcm_s16le")),
];

#[test]
fn the_corpus_media_is_described_and_converted() {
    let (Some(root), Some(w)) = (corpus(), world()) else { return };
    for (file, duration, video, audio, size, outcome) in DESCRIBED {
        let tree = format!("/corpus/{file}");
        w.tree.put(&tree, &std::fs::read(root.join(file)).unwrap());
        let d = w.call("describe", json!([tree])).unwrap_or_else(|e| panic!("{file}: {e}"));
        if let Some(want) = duration {
            assert!((d["duration"].as_f64().unwrap() - want).abs() < 0.01, "{file}: {d}");
        }
        let codec = |kind: &str| {
            d["streams"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["kind"] == kind)
                .map(|s| s["codec"].as_str().unwrap().to_string())
        };
        assert_eq!(codec("video").as_deref(), *video, "{file}");
        assert_eq!(codec("audio").as_deref(), *audio, "{file}");
        if let Some((w_, h_)) = size {
            assert_eq!((d["width"].as_u64(), d["height"].as_u64()), (Some(*w_), Some(*h_)), "{file}");
        }
        // One operation each: a picture of a video, the sound of an audio file.
        let result = if video.is_some() {
            w.call("thumbnail", json!([tree, "/out/corpus.png", 0]))
        } else {
            w.call("extractAudio", json!([tree, "/out/corpus.wav"]))
        };
        match (outcome, result) {
            (Ok(codec), Ok(v)) => {
                let got = v["video"].as_str().or(v["audio"].as_str());
                assert_eq!(got, Some(*codec), "{file}: {v}");
            }
            (Err(part), Err(e)) => assert!(e.contains(part), "{file}: {e}"),
            (want, got) => panic!("{file}: want {want:?}, got {got:?}"),
        }
    }
    w.assert_clean();
}

#[test]
fn the_corpus_hostile_media_gets_named_errors() {
    let (Some(root), Some(w)) = (corpus(), world()) else { return };
    for (file, want) in [
        ("hostile/text-named-mp4.mp4", "is not readable media"),
        ("hostile/wav-header-no-samples.wav", "is not readable media (it is 0 s long"),
    ] {
        let tree = format!("/corpus/{file}");
        w.tree.put(&tree, &std::fs::read(root.join(file)).unwrap());
        let err = w.call("extractAudio", json!([tree, "/out/x.mp3"])).unwrap_err();
        assert!(err.contains(&format!("{tree} {want}")), "{file}: {err}");
    }
    w.assert_clean();
}
