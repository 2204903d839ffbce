//! `EnvTools::call` for a mutating verb on a folder that already holds 2000 pending changes: the
//! verb itself, the hand-off drain and the pending-count event the loop sends the host after
//! every mutating call. Also a read-only call for comparison.
//!
//! Run with `cargo run --release -p folio-agent --example bench_env_tools`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_agent::{EnvTools, HostEvents, Tools};
use folio_env::{EnvOptions, Environment};
use folio_vfs::{Tree, VPath};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{label:<52} p50 {:>8.3} ms   p95 {:>8.3} ms   ({} calls)",
        percentile(&times, 0.50).as_secs_f64() * 1000.0,
        percentile(&times, 0.95).as_secs_f64() * 1000.0,
        times.len()
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = std::env::temp_dir().join(format!("folio-bench-env-tools-{}", std::process::id()));
    let folder = root.join("folder");
    std::fs::create_dir_all(&folder)?;
    let result = run(&root, &folder);
    let _ = std::fs::remove_dir_all(&root);
    result
}

fn run(root: &std::path::Path, folder: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let env =
        Environment::open_folder(folder, EnvOptions { state_root: Some(root.join("state")), ..EnvOptions::default() })?;
    let overlay = env.overlay().ok_or("open_folder gave no overlay")?.clone();
    let seed = vec![b's'; 256];
    for i in 0..2000 {
        overlay.write(&VPath::parse(&format!("/seeded/{:02}/file-{i}.txt", i % 40))?, &seed)?;
    }
    let tools = EnvTools::new(Arc::new(env), HostEvents::default());
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let cancel = CancellationToken::new();
    let content = "x".repeat(1023) + "\n";
    let mut writes = Vec::new();
    let mut reads = Vec::new();
    runtime.block_on(async {
        for i in 0..200 {
            let input = json!({"path": format!("/out/step-{}.txt", i % 10), "content": content});
            let t = Instant::now();
            let outcome = tools.call("write_file", &input, &cancel).await;
            writes.push(t.elapsed());
            if !outcome.ok {
                return Err(format!("write_file failed: {}", outcome.content));
            }
            let input = json!({"path": "/out/step-0.txt"});
            let t = Instant::now();
            let outcome = tools.call("read_file", &input, &cancel).await;
            reads.push(t.elapsed());
            if !outcome.ok {
                return Err(format!("read_file failed: {}", outcome.content));
            }
        }
        Ok(())
    })?;
    let events = tools.drain_events().len();
    report("EnvTools::call write_file 1 KB, 2000 pending", writes);
    report("EnvTools::call read_file (no pending count)", reads);
    println!("  ({events} events queued for the host)");
    Ok(())
}
