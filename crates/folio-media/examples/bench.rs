//! `cargo run --release -p folio-media --example bench`: env:media against ffmpeg run directly.
//!
//! 1. A 1080p source (`BENCH_SECS`, default 60 s, testsrc2 at 30 fps with a tone) is made once.
//! 2. It is transcoded by a script through `env:media.transcode` (the tree, the staging copy,
//!    ffmpeg under supervision with progress, the result written back) and by the same ffmpeg
//!    argv run directly from a shell-less `Command` in the same process; each twice, alternating,
//!    best of two. The figure is direct time / env:media time (target ≥ 0.95).
//! 3. `describe` is called `BENCH_DESCRIBES` times (default 20) through env:media and a bare
//!    `ffprobe -show_format -show_streams` as many times, on a small clip and on the source. The
//!    figure is env:media per call / ffprobe per call (target ≤ 1.2).
//!
//! Prints the figures; with `FOLIO_RELIABILITY_DIR` set also writes them to `media-bench.json`.
//! `BENCH_SKIP_TRANSCODE=1` measures describe only.
#![allow(clippy::panic, missing_docs)]

use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_media::modules::media_module;
use folio_media::{Ffmpeg, MediaHost};
use folio_script::{Engine, ModuleRegistry, RunOptions, RunValue, ScriptLimits, TreeFs};
use folio_vfs::{MemTree, Tree, VPath};

/// Ends the benchmark with what went wrong and the fix, instead of a panic's backtrace.
fn or_fail<T, E: std::fmt::Display>(r: Result<T, E>, what: &str) -> T {
    r.unwrap_or_else(|e| {
        eprintln!("bench: {what}: {e}");
        std::process::exit(1)
    })
}

fn vp(s: &str) -> VPath {
    or_fail(VPath::parse(s), s)
}

fn env_num(key: &str, default: u64) -> u64 {
    std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn ffmpeg(ff: &Ffmpeg, args: &[&str]) {
    let out =
        Command::new(ff.path()).args(["-hide_banner", "-nostdin", "-y", "-loglevel", "error"]).args(args).output();
    let out = or_fail(out, &format!("running {}", ff.path().display()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

struct Bench {
    engine: Engine,
    tree: Arc<MemTree>,
}

impl Bench {
    fn run(&self, src: &str) -> (serde_json::Value, Duration) {
        or_fail(self.tree.write(&vp("/scripts/bench.js"), src.as_bytes()), "writing the bench script");
        let start = Instant::now();
        let res = self.engine.run_blocking(
            Arc::new(TreeFs::new(self.tree.clone())),
            &vp("/scripts/bench.js"),
            None,
            RunOptions::default(),
        );
        let took = start.elapsed();
        match res.outcome {
            Ok(RunValue::Json(v)) => (v, took),
            other => panic!("{other:?}"),
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secs = env_num("BENCH_SECS", 60);
    let describes = env_num("BENCH_DESCRIBES", 20) as usize;
    let ff = or_fail(Ffmpeg::discover(None), "ffmpeg is needed (scripts/install.sh installs it)");
    let ffprobe = or_fail(ff.require_ffprobe(), "ffprobe is needed (scripts/install.sh installs it)").to_path_buf();
    let work = or_fail(tempfile::tempdir(), "a temporary directory");
    let source = work.path().join("source.mp4");
    let made = Instant::now();
    ffmpeg(
        &ff,
        &[
            "-f",
            "lavfi",
            "-i",
            "testsrc2=size=1920x1080:rate=30",
            "-f",
            "lavfi",
            "-i",
            "sine=frequency=440:sample_rate=48000",
            "-t",
            &secs.to_string(),
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            "-crf",
            "23",
            "-pix_fmt",
            "yuv420p",
            "-c:a",
            "aac",
            source.to_str().ok_or("a temporary path is not UTF-8")?,
        ],
    );
    let small = work.path().join("small.mp4");
    ffmpeg(
        &ff,
        &[
            "-i",
            source.to_str().ok_or("a temporary path is not UTF-8")?,
            "-t",
            "2",
            "-vf",
            "scale=320:180",
            "-c:v",
            "libx264",
            "-preset",
            "ultrafast",
            small.to_str().ok_or("a temporary path is not UTF-8")?,
        ],
    );
    let bytes = std::fs::read(&source)?;
    println!(
        "source: {secs} s of 1920x1080 at 30 fps, {:.1} MB, made in {:.1} s",
        bytes.len() as f64 / 1e6,
        made.elapsed().as_secs_f64()
    );

    let tree = Arc::new(MemTree::new());
    tree.write(&vp("/in/source.mp4"), &bytes)?;
    tree.write(&vp("/in/small.mp4"), &std::fs::read(&small)?)?;
    let mut reg = ModuleRegistry::with_builtins();
    reg.register_native(media_module(Arc::new(MediaHost::with(ff.clone(), None)), &[]))?;
    let engine = Engine::new(reg, ScriptLimits { run_timeout_ms: 3_600_000, ..ScriptLimits::default() });
    let bench = Bench { engine, tree };

    // The transcode: 1080p in, H.264 720p out (the env:media default preset, crf 23).
    let options = r#"{ scale: [1280, 720], timeoutMs: 3600000 }"#;
    let script = format!(
        "import {{ transcode }} from 'env:media';\nexport default async function () {{ return await transcode('/in/source.mp4', '/out/t.mp4', {options}); }}"
    );
    let argv = folio_media::ops::video::transcode_args("source.mp4", "direct.mp4", None, Some((1280, 720)), None, true);
    let mut media_best = Duration::MAX;
    let mut direct_best = Duration::MAX;
    let rounds = if std::env::var_os("BENCH_SKIP_TRANSCODE").is_some() { 0 } else { 2 };
    for round in 1..=rounds {
        let (out, took) = bench.run(&script);
        assert!(out["duration"].as_f64().unwrap_or(f64::NAN) > secs as f64 - 1.0, "{out}");
        media_best = media_best.min(took);
        let start = Instant::now();
        let status = Command::new(ff.path())
            .args(["-hide_banner", "-nostdin", "-y", "-loglevel", "error"])
            .args(&argv)
            .current_dir(work.path())
            .status()?;
        assert!(status.success());
        let direct = start.elapsed();
        direct_best = direct_best.min(direct);
        println!(
            "round {round}: env:media.transcode {:.2} s, ffmpeg directly {:.2} s",
            took.as_secs_f64(),
            direct.as_secs_f64()
        );
    }
    let speed = direct_best.as_secs_f64() / media_best.as_secs_f64();
    if rounds > 0 {
        println!(
            "transcode: env:media {:.2} s vs direct {:.2} s (best of 2) — speed ratio {speed:.3} (target ≥ 0.95)",
            media_best.as_secs_f64(),
            direct_best.as_secs_f64()
        );
    }

    // describe against a bare ffprobe, on the small clip and on the source.
    let mut describe_rows = Vec::new();
    for (name, host_path) in [("small.mp4", &small), ("source.mp4", &source)] {
        let script = format!(
            "import {{ describe }} from 'env:media';\nexport default async function () {{ let d; for (let i = 0; i < {describes}; i++) d = await describe('/in/{name}'); return d; }}"
        );
        let (empty, _) = bench.run("export default async function () { return 1; }");
        assert_eq!(empty, serde_json::json!(1));
        let (_, base) = bench.run("export default async function () { return 1; }");
        let (d, took) = bench.run(&script);
        assert!(d["duration"].as_f64().unwrap_or(f64::NAN) > 1.0, "{d}");
        let per_media = (took.saturating_sub(base)).as_secs_f64() / describes as f64;
        let start = Instant::now();
        for _ in 0..describes {
            let out = Command::new(&ffprobe)
                .args(["-v", "error", "-print_format", "json", "-show_format", "-show_streams"])
                .arg(host_path)
                .output()?;
            assert!(out.status.success());
        }
        let per_probe = start.elapsed().as_secs_f64() / describes as f64;
        let ratio = per_media / per_probe;
        println!(
            "describe {name}: env:media {:.1} ms a call vs bare ffprobe {:.1} ms — ratio {ratio:.2} (target ≤ 1.2)",
            per_media * 1e3,
            per_probe * 1e3
        );
        describe_rows.push(serde_json::json!({"file": name, "media_ms": per_media * 1e3, "ffprobe_ms": per_probe * 1e3, "ratio": ratio}));
    }
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        let dir = std::path::PathBuf::from(dir);
        std::fs::create_dir_all(&dir)?;
        let figure = serde_json::json!({
            "area": "media-bench",
            "profile": if cfg!(debug_assertions) { "dev" } else { "release" },
            "source_secs": secs,
            "transcode_media_s": media_best.as_secs_f64(),
            "transcode_direct_s": direct_best.as_secs_f64(),
            "transcode_speed_ratio": speed,
            "describe": describe_rows,
        });
        std::fs::write(dir.join("media-bench.json"), serde_json::to_string_pretty(&figure)?)?;
    }
    Ok(())
}
