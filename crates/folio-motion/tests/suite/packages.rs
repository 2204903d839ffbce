//! The packages real scenes import, in one scene (tests/scenes/packages.jsx): TransitionSeries
//! with two transitions, a @remotion/shapes star, a @remotion/noise field, a zod schema for its
//! props and an SVG path animated by Reanimated through react-native-svg. Its frames are checked
//! by pixel (decoded by ffmpeg, which the suite needs anyway) and two renders are byte-identical.

use super::*;
use serde_json::json;

/// `png` as (width, height, RGB bytes), decoded by ffmpeg.
fn rgb(png: &[u8]) -> (usize, usize, Vec<u8>) {
    use std::io::Write;
    let ffmpeg = folio_media::Ffmpeg::discover(None).expect("ffmpeg: run scripts/install.sh");
    let mut child = std::process::Command::new(ffmpeg.path())
        .args(["-v", "error", "-f", "png_pipe", "-i", "pipe:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let data = png.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    // The size is in the PNG header (IHDR: width and height, big-endian, at bytes 16..24).
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap()) as usize;
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap()) as usize;
    assert_eq!(out.stdout.len(), w * h * 3, "ffmpeg decoded {} bytes for {w}×{h}", out.stdout.len());
    (w, h, out.stdout)
}

fn px(img: &(usize, usize, Vec<u8>), x: usize, y: usize) -> [u8; 3] {
    let i = (y * img.0 + x) * 3;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

/// The topmost row of column x whose pixel is the path's blue, if any.
fn path_top(img: &(usize, usize, Vec<u8>), x: usize) -> Option<usize> {
    (0..img.1).find(|&y| {
        let [r, _, b] = px(img, x, y);
        b > 150 && r < 100
    })
}

#[test]
fn a_scene_of_transitions_a_star_noise_zod_and_an_animated_svg_path_renders_with_its_frames_checked() {
    let pool = pool();
    let args = json!({"width": 320, "height": 180, "durationInFrames": 44, "fps": 30});
    let (r, frames) = run(&pool, scenes(), "/scenes/packages.jsx", "/out/frames", args.clone(), false, &unbounded());
    let r = r.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.result["warnings"], json!([]));
    assert_eq!(frames.0.len(), 44);
    for i in [5, 16, 28, 33, 43] {
        dump(&format!("packages-{i}.png"), &frames.0[i].1);
    }
    let distinct: std::collections::BTreeSet<_> = hashes(&frames).into_iter().collect();
    assert!(distinct.len() >= 40, "only {} distinct frames of 44", distinct.len());

    // The star: yellow at the centre on the red scene, red in the corner.
    let f5 = rgb(&frames.0[5].1);
    let [r0, g0, b0] = px(&f5, 160, 90);
    assert!(r0 > 220 && g0 > 190 && b0 < 60, "no star at the centre of frame 5: {:?}", [r0, g0, b0]);
    let [r1, g1, b1] = px(&f5, 1, 1);
    assert!(r1 > 170 && g1 < 80 && b1 < 70, "frame 5's corner is not the red scene: {:?}", [r1, g1, b1]);
    // Mid-fade (frame 16 = 4 of 8 frames into the first transition): the corner is a mix of the
    // red scene and the noise field's navy, neither one.
    let [r2, _, b2] = px(&rgb(&frames.0[16].1), 1, 1);
    assert!((60..150).contains(&r2) && (40..60).contains(&b2), "frame 16's corner is not mid-fade: r {r2} b {b2}");
    // The noise field alone (frame 20): navy between the dots, coloured dots that move.
    let f20 = rgb(&frames.0[20].1);
    assert_eq!(px(&f20, 1, 1), [16, 38, 58], "frame 20's corner is not the noise field's background");
    // The Reanimated path: its apex (column 160) rises as withTiming runs, from ~y 120 halfway
    // (frame 33, 9 frames after its scene mounted) to y ~90 at the end (frame 43).
    let mid = path_top(&rgb(&frames.0[33].1), 160).expect("no path in column 160 of frame 33");
    let end = path_top(&rgb(&frames.0[43].1), 160).expect("no path in column 160 of frame 43");
    assert!((105..=130).contains(&mid), "the path's apex at frame 33 is at y {mid}, not ~115");
    assert!((80..=92).contains(&end), "the path's apex at frame 43 is at y {end}, not ~85");

    // Twice, byte for byte.
    let (r2, again) = run(&pool, scenes(), "/scenes/packages.jsx", "/out/frames", args, false, &unbounded());
    r2.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(hashes(&frames), hashes(&again), "two renders of packages.jsx differ");
}

#[test]
fn an_unknown_child_of_a_transition_series_is_refused_by_name() {
    let (_d, files) = tree(&[(
        "/s.jsx",
        "import { TransitionSeries } from '@remotion/transitions';\nexport default function S() { return <TransitionSeries><div /></TransitionSeries>; }\n",
    )]);
    let (r, _) = run(&pool(), files, "/s.jsx", "/out.png", small(4), true, &unbounded());
    let e = r.err().expect("a <div> inside <TransitionSeries> rendered").to_string();
    assert!(e.contains("<TransitionSeries> may only contain") && e.contains("<div>"), "{e}");
}
