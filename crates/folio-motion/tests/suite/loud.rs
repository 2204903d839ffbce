//! Every failure is loud and early: a throwing scene fails within 2 s with its own error, a
//! static scene gets exactly the "identical" warning, missing assets and fonts are warnings,
//! the network is refused, and renders that cannot fit are refused up front.

use std::time::{Duration, Instant};

use folio_budget::{Rates, RunBudget};
use serde_json::json;

use super::*;

fn fails(scene: &str, files: Arc<dyn SceneFiles>, args: Value) -> (String, Duration) {
    let pool = pool();
    let start = Instant::now();
    let (r, _) = run(&pool, files, scene, "/out/frames", args, false, &unbounded());
    let took = start.elapsed();
    match r {
        Ok(r) => panic!("{scene} rendered: {}", r.result),
        Err(e) => (e.to_string(), took),
    }
}

#[test]
fn a_throwing_scene_fails_within_two_seconds_naming_its_error_and_file() {
    let (msg, took) = fails("/scenes/throwing.jsx", scenes(), small(30));
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(msg.contains("the chart data is missing"), "{msg}");
    assert!(msg.contains("/scenes/throwing.jsx:4"), "no file:line in {msg}");
    assert!(msg.contains("the scene's own error"), "{msg}");
}

#[test]
fn scene_mistakes_name_their_fix() {
    let cases: &[(&str, &[&str])] = &[
        ("/scenes/not-a-component.jsx", &["must default-export a React component", "export default Scene"]),
        ("/scenes/unknown-easing.jsx", &["does not exist. Available:", "bezier"]),
        ("/scenes/bad-easing.jsx", &["easing"]),
    ];
    for (scene, needles) in cases {
        let (msg, took) = fails(scene, scenes(), small(10));
        assert!(took < Duration::from_secs(2), "{scene} took {took:?}");
        for n in *needles {
            assert!(msg.contains(n), "{scene}: {n:?} not in {msg}");
        }
    }
}

#[test]
fn source_problems_fail_before_the_browser_with_file_and_line() {
    let (_d, files) = tree(&[
        ("/s/syntax.jsx", "export default function S() {\n  return <div>;\n}\n"),
        ("/s/missing.jsx", "import { x } from './nope';\nexport default () => <div>{x}</div>;\n"),
        ("/s/package.jsx", "import _ from 'lodash';\nexport default () => <div />;\n"),
    ]);
    let cases = [
        ("/s/syntax.jsx", vec!["/s/syntax.jsx:3", "syntax error"]),
        ("/s/missing.jsx", vec!["/s/missing.jsx:1", "'./nope'", "not in the tree"]),
        ("/s/package.jsx", vec!["'lodash'", "available: react", "remotion"]),
    ];
    for (scene, needles) in cases {
        let (msg, took) = fails(scene, files.clone(), small(10));
        assert!(took < Duration::from_millis(500), "{scene} took {took:?}");
        for n in needles {
            assert!(msg.contains(n), "{scene}: {n:?} not in {msg}");
        }
    }
    let (msg, _) = fails("/s/none.jsx", files, small(10));
    assert!(msg.contains("no such scene: /s/none.jsx"), "{msg}");
}

#[test]
fn a_static_scene_yields_exactly_the_identical_warning() {
    let pool = pool();
    let (r, _) = run(&pool, scenes(), "/scenes/static.jsx", "/out/frames", small(8), false, &unbounded());
    let w = r.unwrap().result["warnings"].clone();
    let w = w.as_array().unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].as_str().unwrap().starts_with("every frame is identical"), "{w:?}");
}

#[test]
fn missing_images_fonts_and_the_network_are_warnings() {
    let pool = pool();
    let (r, _) = run(&pool, scenes(), "/scenes/warnings.jsx", "/out/frames", small(4), false, &unbounded());
    let text = r.unwrap().result["warnings"].to_string();
    assert!(text.contains("/scenes/assets/missing.png"), "{text}");
    assert!(text.contains("not on this host"), "{text}");
    let (_d, files) = tree(&[(
        "/s/net.jsx",
        "import { useFrame } from 'folio/motion';\nexport default function S() { const f = useFrame(); return <div style={{width: 10 + f * 10, height: 20, background: '#36c'}}><img src=\"https://example.com/x.png\" /></div>; }\n",
    )]);
    let (r, _) = run(&pool, files, "/s/net.jsx", "/out/frames", small(3), false, &unbounded());
    let text = r.unwrap().result["warnings"].to_string();
    assert!(text.contains("https://example.com/x.png") && text.contains("cannot use the network"), "{text}");
}

/// A character no installed font has is a warning naming it and the first frame that shows it;
/// an emoji, which the colour emoji font install.sh installs covers, is not (before: no warning,
/// an empty box).
#[test]
fn a_glyph_no_font_has_is_a_warning_naming_it_and_its_frame() {
    let (_d, files) = tree(&[(
        "/s/glyphs.jsx",
        "import { useFrame } from 'folio/motion';\nexport default function S() { const f = useFrame(); return <div style={{fontSize: 32, width: 100 + f * 10}}>Party \u{1F389} {f >= 3 ? 'Linear A \u{10600}' : 'soon'}</div>; }\n",
    )]);
    let (r, _) = run(&pool(), files, "/s/glyphs.jsx", "/out/frames", small(6), false, &unbounded());
    let warnings = r.unwrap().result["warnings"].clone();
    let text = warnings.to_string();
    assert_eq!(warnings.as_array().map(Vec::len), Some(1), "{text}");
    assert!(text.contains("\u{10600}") && text.contains("U+10600") && text.contains("frame 3"), "{text}");
    assert!(!text.contains("\u{1F389}") && !text.contains("U+1F389"), "the emoji was reported: {text}");
}

#[test]
fn too_many_frames_and_a_small_budget_are_refused_before_any_work() {
    let pool = pool();
    let (r, _) = run(
        &pool,
        scenes(),
        "/scenes/frame-driven.jsx",
        "/out/a.mp4",
        json!({"durationSeconds": 120, "fps": 30}),
        false,
        &unbounded(),
    );
    let msg = r.err().unwrap().to_string();
    assert!(msg.contains("3600 frames exceeds the 1800-frame limit") && msg.contains("render fewer frames"), "{msg}");
    let launches = pool.stats().launches;
    let tight = RunBudget::new(Some(Instant::now() + Duration::from_millis(300)), Arc::new(Rates::in_memory()))
        .with_raise("raise the run budget (--run-budget-ms on folio run, verbs and ask)");
    let start = Instant::now();
    let (r, _) = run(
        &pool,
        scenes(),
        "/scenes/frame-driven.jsx",
        "/out/a.mp4",
        json!({"durationSeconds": 20, "width": 1920, "height": 1080}),
        false,
        &tight,
    );
    let msg = r.err().unwrap().to_string();
    assert!(start.elapsed() < Duration::from_millis(200), "the refusal took {:?}", start.elapsed());
    assert!(
        msg.contains("nothing was done") && msg.contains("--run-budget-ms") && msg.contains("render fewer frames"),
        "{msg}"
    );
    assert_eq!(pool.stats().launches, launches, "a refused render launched a browser");
}

#[test]
fn cancel_stops_within_a_frame_and_writes_nothing() {
    let pool = pool();
    let cancelled = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = Arc::clone(&cancelled);
    let budget = RunBudget::unbounded().with_cancel(Arc::new(move || flag.load(std::sync::atomic::Ordering::SeqCst)));
    let c = Arc::clone(&cancelled);
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(900));
        c.store(true, std::sync::atomic::Ordering::SeqCst);
        Instant::now()
    });
    let (r, frames) = run(
        &pool,
        scenes(),
        "/scenes/frame-driven.jsx",
        "/out/a.mp4",
        json!({"durationSeconds": 30, "width": 640, "height": 360}),
        false,
        &budget,
    );
    let ended = Instant::now();
    let at = t.join().unwrap();
    let msg = r.err().unwrap().to_string();
    assert!(msg.contains("cancelled"), "{msg}");
    assert!(
        ended.duration_since(at) < Duration::from_millis(500),
        "stopped {:?} after the cancel",
        ended.duration_since(at)
    );
    assert!(frames.0.is_empty());
}

#[test]
fn progress_counts_frames_with_an_eta() {
    let pool = pool();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let budget = RunBudget::unbounded()
        .with_progress(Arc::new(move |p: &folio_budget::JobProgress| sink.lock().unwrap().push(p.clone())));
    let (r, _) = run(&pool, scenes(), "/scenes/frame-driven.jsx", "/out/frames", small(30), false, &budget);
    r.unwrap();
    let seen = seen.lock().unwrap();
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total), (30, 30), "{seen:?}");
    assert_eq!(last.unit, folio_budget::Unit::Frame);
    assert!(last.job.starts_with("env:motion.render /scenes/frame-driven.jsx"), "{}", last.job);
    assert!(seen.iter().any(|p| p.eta_ms.is_some()), "no ETA: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done), "progress went backwards: {seen:?}");
}
