//! env:motion as an agent uses it: a scene and a script written through the verbs of a folder
//! opened through the host, a still and a video rendered into the tree, a progress stream, and
//! two folders that never share a browser. Needs this host's Chromium and ffmpeg
//! (`scripts/install.sh` installs both).

use folio_env::Status;
use folio_host::{Host, Seams};
use folio_vfs::{Tree, VPath};
use serde_json::json;

const SCENE: &str = "import { useFrame, interpolate } from 'folio/motion';\nexport default function S() {\n  const f = useFrame();\n  return <div style={{ position: 'absolute', left: interpolate(f, [0, 29], [0, 200]), top: 40, width: 60, height: 60, background: '#36c' }} />;\n}\n";

const SCRIPT: &str = "/** Renders the scene. */\nimport { still, render, capabilities } from 'env:motion';\nexport default async function main() {\n  const caps = await capabilities();\n  const s = await still('/scenes/box.jsx', '/tmp/box-15.png', { frame: 15, width: 320, height: 180, durationInFrames: 30 });\n  const v = await render('/scenes/box.jsx', '/out/box.mp4', { width: 320, height: 180, durationInFrames: 30 });\n  return { caps, s, v };\n}\n";

#[test]
fn a_script_renders_a_still_and_a_video_into_the_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    for (path, content) in [("/scenes/box.jsx", SCENE), ("/scripts/render.js", SCRIPT)] {
        let wrote = env.call("write_file", json!({"path": path, "content": content}));
        assert_eq!(wrote.status, Status::Success, "{path}: {}", wrote.message);
    }
    let report = env.run_script("/scripts/render.js", json!({}), Some(60_000), None).unwrap();
    assert!(report.ok, "{:?}", report.error);
    let r = report.result;
    assert_eq!(r["caps"]["canRender"], true, "{r}");
    assert_eq!(r["s"]["path"], "/tmp/box-15.png");
    assert_eq!(r["v"]["path"], "/out/box.mp4");
    assert_eq!(r["v"]["frames"], 30);
    assert_eq!(r["v"]["warnings"], json!([]));
    let mp4 = env.tree().read(&VPath::parse("/out/box.mp4").unwrap()).unwrap();
    assert_eq!(&mp4[4..8], b"ftyp");
    assert_eq!(r["v"]["bytes"], json!(mp4.len()));
    let png = env.tree().read(&VPath::parse("/tmp/box-15.png").unwrap()).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // /skills teaches the still-first loop, and /std documents the module with this host's facts.
    let skill = env.tree().read(&VPath::parse("/skills/motion-scenes.md").unwrap()).unwrap();
    assert!(String::from_utf8_lossy(&skill).contains("still"));
    let index = String::from_utf8(env.tree().read(&VPath::parse("/skills/README.md").unwrap()).unwrap()).unwrap();
    assert!(index.contains("/skills/motion-scenes.md") && index.contains("/skills/media-files.md"), "{index}");
    let readme = String::from_utf8(env.tree().read(&VPath::parse("/std/motion/README.md").unwrap()).unwrap()).unwrap();
    assert!(readme.contains("Browser: available"), "{readme}");
    assert!(!readme.contains("/usr/bin"), "a host path reached the agent's docs: {readme}");
}

#[test]
fn bad_calls_fail_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let host = Host::builder().state_dir(Some(tmp.path().join("state"))).build().unwrap();
    let env = host.open_folder(&folder, Seams::default()).unwrap();
    let cases = [
        ("render('scenes/a.jsx', '/out/a.mp4')", "must be an absolute tree path"),
        ("render('/scenes/none.jsx', '/out/a.mp4')", "no such scene: /scenes/none.jsx"),
        ("render('/scenes/none.jsx', '/out/a.mov')", ".mov is not an output"),
        ("still('/scenes/none.jsx', '/out/a.png', { frame: 'later' })", "got \"later\" (string)"),
        ("still('/scenes/none.jsx', '/out/a.jpg')", "a still is a PNG"),
        ("render('/scenes/none.jsx', '/out/a.mp4', { fsp: 30 })", "unknown option 'fsp'"),
    ];
    for (i, (call, needle)) in cases.iter().enumerate() {
        let path = format!("/scripts/bad{i}.js");
        let script = format!(
            "/** A bad call. */\nimport {{ render, still }} from 'env:motion';\nexport default async function main() {{\n  return await {call};\n}}\n"
        );
        let wrote = env.call("write_file", json!({"path": path, "content": script}));
        assert_eq!(wrote.status, Status::Success, "{}", wrote.message);
        let report = env.run_script(&path, json!({}), None, None).unwrap();
        assert!(!report.ok, "{call} succeeded");
        let err = format!("{:?}", report.error).replace("\\\"", "\"");
        assert!(err.contains(needle) && err.contains("env:motion."), "{call}: {needle:?} not in {err}");
    }
}
