//! Benchmark figures for scripts in the environment: p50/p95 of a warm in-process `run_script`
//! of a trivial script, and the resident memory and thread count of an idle environment (read
//! from `/proc/self/status`, so Linux only; elsewhere those figures print as unknown).
//!
//! Run with `cargo run --release -p folio-env --example bench_runs`. Targets: ≤ 1 ms warm,
//! ≤ 2 MB for an idle environment, no thread held while idle.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_env::{EnvOptions, Environment, Status};
use folio_vfs::MemTree;
use serde_json::json;

/// `VmRSS` in KiB and `Threads` of this process.
fn status() -> (Option<u64>, Option<u64>) {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    (field("VmRSS:"), field("Threads:"))
}

fn show(label: &str, (rss, threads): (Option<u64>, Option<u64>)) {
    let rss = rss.map_or("unknown".to_owned(), |k| format!("{:.1} MB", k as f64 / 1024.0));
    let threads = threads.map_or("unknown".to_owned(), |t| t.to_string());
    println!("{label:<34} RSS {rss:>9}   threads {threads}");
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let before = status();
    show("process before the environment", before);
    let env = Environment::new(Arc::new(MemTree::new()), None, EnvOptions::default())?;
    let idle = status();
    show("idle environment", idle);
    if let (Some(a), Some(b)) = (before.0, idle.0) {
        println!("{:<34} {:.2} MB", "  environment's own RSS", b.saturating_sub(a) as f64 / 1024.0);
    }

    let write = env.call(
        "write_file",
        json!({"path": "/scripts/one.js", "content": "/** Returns one. */\nexport default async function () { return 1; }\n"}),
    );
    assert_eq!(write.status, Status::Success, "{}", write.message);
    let run = || {
        let r = env.call("run_script", json!({"path": "/scripts/one.js"}));
        assert_eq!(r.status, Status::Success, "{}", r.message);
    };
    for _ in 0..50 {
        run();
    }
    let n = 500;
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t = Instant::now();
        run();
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "run_script, trivial script, warm   p50 {:.3} ms   p95 {:.3} ms   ({n} runs, each logged to /.env/history.jsonl)",
        percentile(&times, 0.50).as_secs_f64() * 1000.0,
        percentile(&times, 0.95).as_secs_f64() * 1000.0
    );
    std::thread::sleep(Duration::from_millis(200));
    engine_alone(&env)?;
    show("idle again after the runs", status());
    Ok(())
}

/// The same trivial run straight on the engine over a plain tree (no gateway, no run log, no
/// formatting), to show how much of the figure is the engine's own per-run setup; then runs that
/// import an `env:` module with a JavaScript layer (`env:std`) and a vendored library
/// (`env:zip`, fflate), whose code each fresh context loads from cached bytecode.
fn engine_alone(env: &Environment) -> Result<(), Box<dyn std::error::Error>> {
    use folio_script::{Engine, ModuleRegistry, ScriptLimits};
    let engine = env.engine().ok_or("scripts are off in this environment")?.clone();
    time_runs(&engine, "engine.run_blocking alone", "export default async function () { return 1; }\n")?;
    time_runs(
        &engine,
        "  importing env:std",
        "import { csv } from 'env:std';\nexport default () => csv.rows('a,b').length;\n",
    )?;
    let mut registry = ModuleRegistry::with_builtins();
    registry.register_native(folio_script::zip_module()?)?;
    let zipping = Engine::new(registry, ScriptLimits::default());
    time_runs(
        &zipping,
        "  importing env:zip (fflate)",
        "import { zipSync, strToU8 } from 'env:zip';\nexport default () => zipSync({ 'a.txt': strToU8('a') }).length;\n",
    )?;
    Ok(())
}

/// Runs `source` 300 times on `engine` over a plain tree and prints p50/p95.
fn time_runs(engine: &folio_script::Engine, label: &str, source: &str) -> Result<(), Box<dyn std::error::Error>> {
    use folio_script::{RunOptions, TreeFs};
    let tree: Arc<dyn folio_vfs::Tree> = Arc::new(MemTree::new());
    let p = folio_vfs::VPath::parse("/scripts/one.js")?;
    tree.write(&p, source.as_bytes())?;
    let fs = Arc::new(TreeFs::new(tree));
    let mut times = Vec::new();
    for _ in 0..300 {
        let t = Instant::now();
        let r = engine.run_blocking(fs.clone(), &p, Some("{}"), RunOptions::default());
        if let Err(e) = r.outcome {
            return Err(format!("the benchmark script failed: {e}").into());
        }
        times.push(t.elapsed());
    }
    times.sort();
    println!(
        "{label:<34} p50 {:.3} ms   p95 {:.3} ms   (300 runs, TreeFs, no run log)",
        percentile(&times, 0.50).as_secs_f64() * 1000.0,
        percentile(&times, 0.95).as_secs_f64() * 1000.0
    );
    Ok(())
}
