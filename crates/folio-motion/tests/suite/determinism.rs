//! Frame N is exactly N: renders in separate processes are byte-identical, a still equals the
//! same frame of a full render, and a fresh browser draws what a reused one does.

use super::*;

/// Renders `scene` (60 frames) and writes its frame hashes to `$FOLIO_MOTION_CHILD_OUT`; run by
/// [`two_renders_in_separate_processes_are_byte_identical`] in child processes.
#[test]
#[ignore = "run as a child process by two_renders_in_separate_processes_are_byte_identical"]
fn render_child() {
    let Ok(out) = std::env::var("FOLIO_MOTION_CHILD_OUT") else { return };
    let scene = std::env::var("FOLIO_MOTION_CHILD_SCENE").unwrap();
    let pool = pool();
    let (r, frames) = run(&pool, scenes(), &scene, "/out/frames", small(60), false, &unbounded());
    r.unwrap();
    std::fs::write(out, hashes(&frames).join("\n")).unwrap();
}

fn child(scene: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hashes");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "suite::determinism::render_child", "--ignored", "--quiet"])
        .env("FOLIO_MOTION_CHILD_OUT", &out)
        .env("FOLIO_MOTION_CHILD_SCENE", scene)
        .status()
        .unwrap();
    assert!(status.success(), "the child render of {scene} failed");
    std::fs::read_to_string(out).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn two_renders_in_separate_processes_are_byte_identical() {
    for scene in ["/scenes/frame-driven.jsx", "/scenes/clock-driven.jsx", "/scenes/css-keyframes.jsx"] {
        let a = child(scene);
        let b = child(scene);
        assert_eq!(a.len(), 60, "{scene}");
        assert_eq!(a, b, "{scene}: frames differ between two processes");
        let distinct: std::collections::BTreeSet<_> = a.iter().collect();
        assert!(distinct.len() > 30, "{scene}: only {} distinct frames", distinct.len());
    }
}

fn still(pool: &Arc<Pool>, scene: &str, frame: u64) -> Vec<u8> {
    still_of(pool, scene, frame, 16)
}

fn still_of(pool: &Arc<Pool>, scene: &str, frame: u64, duration: u64) -> Vec<u8> {
    let mut args = small(duration);
    args["frame"] = serde_json::json!(frame);
    let (r, frames) = run(pool, scenes(), scene, "/tmp/still.png", args, true, &unbounded());
    let r = r.unwrap_or_else(|e| panic!("{scene} still {frame}: {e}"));
    assert_eq!(r.result["frames"], 1);
    assert!(frames.0.is_empty(), "a still writes no frame files");
    r.output.unwrap()
}

#[test]
fn a_still_twice_is_equal_and_fresh_and_reused_browsers_agree() {
    let pool = pool();
    let a = still(&pool, "/scenes/frame-driven.jsx", 12);
    let b = still(&pool, "/scenes/frame-driven.jsx", 12);
    assert_eq!(a, b, "two stills of frame 12 differ");
    assert_eq!(pool.stats().launches, 1, "the second still reused the browser");
    let fresh = super::pool();
    let c = still(&fresh, "/scenes/frame-driven.jsx", 12);
    assert_eq!(a, c, "a fresh browser drew frame 12 differently");
    assert_ne!(a, still(&pool, "/scenes/frame-driven.jsx", 0), "frames 0 and 12 are the same");
}

#[test]
fn a_still_equals_that_frame_of_the_full_render() {
    let pool = pool();
    for scene in ["/scenes/frame-driven.jsx", "/scenes/clock-driven.jsx", "/scenes/reanimated.jsx"] {
        let (r, frames) = run(&pool, scenes(), scene, "/out/frames", small(40), false, &unbounded());
        r.unwrap();
        for n in [0u64, 9, 15, 30, 39] {
            let s = still_of(&pool, scene, n, 40);
            if s != frames.0[n as usize].1 {
                dump("still-s.png", &s);
                dump("still-r.png", &frames.0[n as usize].1);
                dump("still-r-prev.png", &frames.0[n as usize - 1].1);
            }
            assert!(
                s == frames.0[n as usize].1,
                "{scene}: the still at frame {n} differs from frame {n} of the render"
            );
        }
    }
}

#[test]
fn two_tabs_draw_the_frames_one_tab_draws() {
    let pool = pool();
    let mut one = small(60);
    one["tabs"] = serde_json::json!(1);
    let mut two = small(60);
    two["tabs"] = serde_json::json!(2);
    for scene in ["/scenes/frame-driven.jsx", "/scenes/reanimated.jsx"] {
        let (a, fa) = run(&pool, scenes(), scene, "/out/frames", one.clone(), false, &unbounded());
        let (b, fb) = run(&pool, scenes(), scene, "/out/frames", two.clone(), false, &unbounded());
        assert_eq!(a.unwrap().timing.tabs, 1);
        assert_eq!(b.unwrap().timing.tabs, 2);
        let (ha, hb) = (hashes(&fa), hashes(&fb));
        let differ: Vec<usize> = (0..ha.len()).filter(|i| ha[*i] != hb[*i]).collect();
        if !differ.is_empty() {
            dump("tabs-one.png", &fa.0[differ[0]].1);
            dump("tabs-two.png", &fb.0[differ[0]].1);
        }
        assert!(differ.is_empty(), "{scene}: two tabs drew different frames at {differ:?}");
    }
}
