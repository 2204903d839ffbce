//! Renders of the committed scenes.

use super::*;
use serde_json::json;

#[test]
fn a_frame_driven_scene_renders_frames_that_move() {
    let pool = pool();
    let (r, frames) = run(&pool, scenes(), "/frame-driven.jsx", "/out/frames", json!({"width": 320, "height": 180, "durationInFrames": 20}), false, &unbounded());
    let r = r.unwrap();
    eprintln!("{} timing {:?}", r.result, r.timing);
    assert_eq!(frames.0.len(), 20);
    dump("frame-driven-10.png", &frames.0[10].1);
    assert_ne!(frames.0[0].1, frames.0[19].1);
    assert_eq!(r.result["warnings"], json!([]));
}
