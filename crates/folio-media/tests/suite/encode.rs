//! The frame encoder env:motion uses: each format checked by ffprobe (codec, size, frame count,
//! duration), reproducible bytes, dying and dropped encoders.

use std::time::Duration;

use folio_budget::child::ChildLimits;
use folio_media::{FrameEncoder, FrameEncoderParams, MediaError, StreamKind, VideoFormat};

use super::common::*;

fn limits() -> ChildLimits {
    ChildLimits::timeout(Duration::from_secs(60))
}

fn encode(
    ff: &folio_media::Ffmpeg,
    frames: &[Vec<u8>],
    format: VideoFormat,
    out: &std::path::Path,
) -> folio_media::EncodeOutcome {
    let params = FrameEncoderParams { fps: 10, crf: 30, format, out: out.to_path_buf() };
    let mut enc = FrameEncoder::start(ff, params, limits()).unwrap();
    for f in frames {
        enc.push_png(f).unwrap();
    }
    enc.finish().unwrap()
}

#[test]
fn from_extension_names_the_three_formats() {
    for (ext, want) in [
        ("mp4", Some(VideoFormat::Mp4)),
        (".MP4", Some(VideoFormat::Mp4)),
        ("webm", Some(VideoFormat::Webm)),
        ("gif", Some(VideoFormat::Gif)),
        ("mov", None),
        ("", None),
    ] {
        assert_eq!(VideoFormat::from_extension(ext), want, "{ext}");
    }
}

#[test]
fn each_format_encodes_the_frames_it_was_given() {
    let Some(ff) = ffmpeg() else { return };
    let dir = tmp();
    // An odd size: mp4 pads it to even, the others keep it.
    let frames = png_frames(&ff, dir.path(), 65, 47, 10);
    for (format, codec, size) in [
        (VideoFormat::Mp4, "h264", (66, 48)),
        (VideoFormat::Webm, "vp9", (65, 47)),
        (VideoFormat::Gif, "gif", (65, 47)),
    ] {
        let out = at(dir.path(), &format!("out.{}", format.extension()));
        let done = encode(&ff, &frames, format, &out);
        assert_eq!(done.bytes, std::fs::metadata(&out).unwrap().len());
        let info = info(&ff, &out);
        let v = info.first(StreamKind::Video).unwrap();
        assert_eq!(v.codec, codec, "{format:?}");
        assert_eq!((v.width.unwrap(), v.height.unwrap()), size, "{format:?}");
        assert_eq!(count_frames(&ff, &out), 10, "{format:?}");
        let d = info.duration.unwrap();
        assert!((d - 1.0).abs() <= 0.1 + 1e-9, "{format:?}: duration {d}");
    }
}

#[test]
fn equal_frames_give_equal_bytes() {
    let Some(ff) = ffmpeg() else { return };
    let dir = tmp();
    let frames = png_frames(&ff, dir.path(), 64, 48, 6);
    for format in [VideoFormat::Mp4, VideoFormat::Webm, VideoFormat::Gif] {
        let a = at(dir.path(), &format!("a.{}", format.extension()));
        let b = at(dir.path(), &format!("b.{}", format.extension()));
        encode(&ff, &frames, format, &a);
        encode(&ff, &frames, format, &b);
        assert!(
            std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
            "{format:?} output differs between equal runs"
        );
    }
}

#[test]
fn a_frame_ffmpeg_cannot_read_gives_its_stderr() {
    let Some(ff) = ffmpeg() else { return };
    let dir = tmp();
    let out = at(dir.path(), "bad.mp4");
    let params = FrameEncoderParams { fps: 10, crf: 30, format: VideoFormat::Mp4, out: out.clone() };
    let mut enc = FrameEncoder::start(&ff, params, limits()).unwrap();
    let mut failed = None;
    for _ in 0..200 {
        if let Err(e) = enc.push_png(&[0u8; 4096]) {
            failed = Some(e);
            break;
        }
    }
    let err = match failed {
        Some(e) => e,
        None => enc.finish().unwrap_err(),
    };
    let text = err.to_string();
    assert!(matches!(err, MediaError::Failed { .. } | MediaError::EmptyOutput { .. }), "{text}");
    assert!(text.contains("ffmpeg"), "{text}");
    assert!(!out.exists() || std::fs::metadata(&out).unwrap().len() == 0 || text.contains("empty"), "{text}");
}

#[test]
fn no_frames_is_an_empty_output_error() {
    let Some(ff) = ffmpeg() else { return };
    let dir = tmp();
    let out = at(dir.path(), "none.webm");
    let params = FrameEncoderParams { fps: 10, crf: 30, format: VideoFormat::Webm, out: out.clone() };
    let err = FrameEncoder::start(&ff, params, limits()).unwrap().finish().unwrap_err();
    assert!(err.to_string().contains("0 frame(s)"), "{err}");
    assert!(!out.exists(), "the partial output is removed");
}

#[test]
fn dropping_an_unfinished_encoder_kills_it_and_removes_the_output() {
    let Some(ff) = ffmpeg() else { return };
    let dir = tmp();
    let frames = png_frames(&ff, dir.path(), 64, 48, 3);
    let out = at(dir.path(), "dropped.mp4");
    let params = FrameEncoderParams { fps: 10, crf: 30, format: VideoFormat::Mp4, out: out.clone() };
    let mut enc = FrameEncoder::start(&ff, params, limits()).unwrap();
    for f in &frames {
        enc.push_png(f).unwrap();
    }
    let pid = enc.pid().unwrap();
    drop(enc);
    assert_eq!(folio_budget::child::group_alive(pid), 0, "ffmpeg's group outlived the encoder");
    assert!(!out.exists(), "the partial output is removed");
}

#[test]
fn bad_parameters_are_refused_before_ffmpeg_starts() {
    let Some(ff) = ffmpeg() else { return };
    for (fps, crf, format, want) in [
        (0, 20, VideoFormat::Mp4, "fps must be 1 to 240, got 0"),
        (30, 52, VideoFormat::Mp4, "crf must be 0 to 51 for mp4, got 52"),
        (30, 64, VideoFormat::Webm, "crf must be 0 to 63 for webm, got 64"),
    ] {
        let params = FrameEncoderParams { fps, crf, format, out: "/nonexistent/x".into() };
        let err = FrameEncoder::start(&ff, params, limits()).err().unwrap();
        assert!(err.to_string().contains(want), "{err}");
    }
}
