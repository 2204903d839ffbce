//! Video outputs, checked by ffprobe: codec, size, frame count and duration.

use serde_json::json;

use super::*;

fn probe(bytes: &[u8], ext: &str) -> folio_media::MediaInfo {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(format!("v.{ext}"));
    std::fs::write(&p, bytes).unwrap();
    let ff = folio_media::Ffmpeg::discover(None).unwrap();
    folio_media::probe(&ff, &p).unwrap()
}

#[test]
fn mp4_webm_and_gif_have_the_asked_codec_size_and_length() {
    let pool = pool();
    for (ext, codec) in [("mp4", "h264"), ("webm", "vp9"), ("gif", "gif")] {
        let args = json!({"width": 321, "height": 181, "durationInFrames": 20, "fps": 20});
        let (r, _) =
            run(&pool, scenes(), "/scenes/frame-driven.jsx", &format!("/out/a.{ext}"), args, false, &unbounded());
        let r = r.unwrap();
        let bytes = r.output.unwrap();
        assert_eq!(r.result["bytes"], json!(bytes.len()));
        assert_eq!(r.result["durationSeconds"], json!(1.0));
        let info = probe(&bytes, ext);
        let v = info.streams.iter().find(|s| s.kind == folio_media::StreamKind::Video).unwrap();
        assert_eq!(v.codec, codec, "{ext}");
        if ext == "mp4" {
            assert_eq!((v.width, v.height), (Some(322), Some(182)), "{ext}: odd sizes are padded to even for H.264");
        } else {
            assert_eq!((v.width, v.height), (Some(321), Some(181)), "{ext}");
        }
        let d = info.duration.unwrap();
        assert!((d - 1.0).abs() <= 0.05 + 1.0 / 20.0, "{ext}: duration {d}");
        if ext == "mp4" {
            assert_eq!(&bytes[4..8], b"ftyp");
        }
    }
}

#[test]
fn keep_frames_receives_every_frame_beside_the_video() {
    let pool = pool();
    let args = json!({"width": 160, "height": 90, "durationInFrames": 12, "keepFrames": "/out/frames"});
    let (r, frames) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/out/a.mp4", args, false, &unbounded());
    r.unwrap();
    assert_eq!(frames.0.iter().map(|(i, _)| *i).collect::<Vec<_>>(), (0..12).collect::<Vec<_>>());
}

#[test]
fn two_mp4_renders_are_byte_identical() {
    let pool = pool();
    let args = json!({"width": 320, "height": 180, "durationInFrames": 30});
    let (a, _) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/out/a.mp4", args.clone(), false, &unbounded());
    let (b, _) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/out/a.mp4", args, false, &unbounded());
    assert!(a.unwrap().output == b.unwrap().output, "two mp4 renders differ");
}
