//! Video: a 90-frame clip re-rendered with frames 30–45 changed reports exactly 30–45; the
//! encoder's noise in untouched frames stays under the tolerance, and without the tolerance it
//! would not.

use std::process::Command;

use folio_diff::{FrameRange, VideoOptions, video, video_with};

use super::ffmpeg;

/// A 90-frame 320×240 H.264 clip of ffmpeg's test pattern, with `filter` applied and `crf`.
fn clip(filter: &str, crf: u32) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clip.mp4");
    let f = ffmpeg();
    let status = Command::new(f.path())
        .args([
            "-hide_banner",
            "-loglevel",
            "error",
            "-nostdin",
            "-y",
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=320x240:rate=30",
        ])
        .args(["-vf", filter, "-frames:v", "90", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-threads", "1"])
        .args(["-crf", &crf.to_string()])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "ffmpeg could not make the test clip");
    std::fs::read(out).unwrap()
}

#[test]
fn a_clip_rerendered_with_frames_30_to_45_changed_reports_exactly_that_range() {
    let old = clip("null", 23);
    let new = clip("drawbox=x=100:y=80:w=120:h=80:color=red:t=fill:enable='between(n,30,45)'", 23);
    let diff = video(&ffmpeg(), Some(&old), Some(&new), "/out/promo.mp4").unwrap();
    assert_eq!(diff.changed, vec![FrameRange { first: 30, last: 45 }]);
    for side in [diff.old.as_ref().unwrap(), diff.new.as_ref().unwrap()] {
        assert_eq!((side.frames, side.width, side.height), (90, 320, 240));
        assert_eq!(side.codec, "h264");
        assert_eq!(side.fps, Some(30.0));
        assert!(side.duration.is_some_and(|d| (d - 3.0).abs() < 0.1), "{:?}", side.duration);
    }
    assert_eq!(diff.thumbs.len(), 1);
    let t = &diff.thumbs[0];
    for png in [&t.old_first, &t.old_last, &t.new_first, &t.new_last] {
        assert!(png.as_ref().is_some_and(|p| p.starts_with(b"\x89PNG")));
    }
    // The new side's thumbnails show the red box; the old side's do not.
    let red = |png: &Option<Vec<u8>>| {
        let img = image::load_from_memory(png.as_ref().unwrap()).unwrap().to_rgb8();
        let p = img.get_pixel(img.width() / 2, img.height() / 2).0;
        p[0] > 180 && p[1] < 80 && p[2] < 80
    };
    assert!(red(&t.new_first) && red(&t.new_last) && !red(&t.old_first));
}

#[test]
fn encoder_noise_stays_under_the_tolerance_and_would_count_without_it() {
    let f = ffmpeg();
    let strict = VideoOptions { pixel_tolerance: 0, changed_share: 0.0, ..VideoOptions::default() };
    let frames = |ranges: &[FrameRange]| ranges.iter().map(|r| r.last - r.first + 1).sum::<u64>();
    // The same pictures encoded at two qualities: every frame differs a little.
    let (old, new) = (clip("null", 18), clip("null", 23));
    let diff = video(&f, Some(&old), Some(&new), "/out/promo.mp4").unwrap();
    assert_eq!(diff.changed, vec![], "noise is not change");
    let diff = video_with(&f, Some(&old), Some(&new), "/out/promo.mp4", &strict).unwrap();
    assert!(frames(&diff.changed) > 45, "without a tolerance the noise counts: {:?}", diff.changed);
    // The re-render of the first test: outside frames 30–45 only the encoder's noise differs
    // (its lookahead saw the changed frames), which counts only without the tolerance.
    let changed = clip("drawbox=x=100:y=80:w=120:h=80:color=red:t=fill:enable='between(n,30,45)'", 23);
    let plain = clip("null", 23);
    let diff = video_with(&f, Some(&plain), Some(&changed), "/out/promo.mp4", &strict).unwrap();
    assert!(frames(&diff.changed) > 16, "the untouched frames carry noise: {:?}", diff.changed);
}

#[test]
fn a_longer_new_side_counts_its_extra_frames_as_changed() {
    let old = clip("trim=end_frame=60", 23);
    let new = clip("null", 23);
    let diff = video(&ffmpeg(), Some(&old), Some(&new), "/out/promo.mp4").unwrap();
    assert_eq!(diff.old.as_ref().unwrap().frames, 60);
    assert_eq!(diff.changed, vec![FrameRange { first: 60, last: 89 }]);
    let t = &diff.thumbs[0];
    assert!(t.old_first.is_none() && t.new_first.is_some(), "the old side has no frame 60");
}
