//! The two hot paths of a mutating verb, measured over a real folder (a persisted overlay, the
//! zones on disk):
//!
//! 1. `write_file` of 1 KB through [`Environment::call`]: 1000 writes cycling over 100 files under
//!    `/out` (the first 100 create, the rest replace, each recording an undo version);
//! 2. counting the pending changes of a folder that holds 2000 of them, which the agent loop does
//!    after every mutating call to tell the host how many there are: by listing them (`pending()`,
//!    which checks every change against the disk) and with `pending_count()`, which does not.
//!
//! Run with `cargo run --release -p folio-env --example bench_hotpaths`. `folio-agent`'s
//! `bench_env_tools` example measures the whole `EnvTools::call` around the second figure.

use std::time::{Duration, Instant};

use folio_env::{EnvOptions, Environment, Status};
use folio_vfs::{Tree, VPath};
use serde_json::json;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p) as usize).min(sorted.len() - 1)]
}

fn report(label: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{label:<46} p50 {:>8.3} ms   p95 {:>8.3} ms   ({} samples)",
        percentile(&times, 0.50).as_secs_f64() * 1000.0,
        percentile(&times, 0.95).as_secs_f64() * 1000.0,
        times.len()
    );
}

fn open(root: &std::path::Path, name: &str) -> Result<Environment, Box<dyn std::error::Error>> {
    let folder = root.join(name);
    std::fs::create_dir_all(folder.join("docs"))?;
    for i in 0..20 {
        std::fs::write(folder.join("docs").join(format!("note-{i}.txt")), vec![b'n'; 2048])?;
    }
    Ok(Environment::open_folder(
        &folder,
        EnvOptions { state_root: Some(root.join(format!("state-{name}"))), ..EnvOptions::default() },
    )?)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let content = "x".repeat(1023) + "\n";

    let env = open(root.path(), "writes")?;
    let mut times = Vec::with_capacity(1000);
    for i in 0..1000 {
        let args = json!({"path": format!("/out/file-{}.txt", i % 100), "content": content});
        let t = Instant::now();
        let r = env.call("write_file", args);
        times.push(t.elapsed());
        if r.status != Status::Success {
            return Err(format!("write_file failed: {}", r.message).into());
        }
    }
    report("write_file 1 KB (1000 writes over 100 files)", times);

    let env = open(root.path(), "pending")?;
    let overlay = env.overlay().ok_or("open_folder gave no overlay")?.clone();
    let seed = vec![b's'; 256];
    for i in 0..2000 {
        overlay.write(&VPath::parse(&format!("/seeded/{:02}/file-{i}.txt", i % 40))?, &seed)?;
    }
    let mut calls = Vec::with_capacity(200);
    let mut listed = Vec::with_capacity(200);
    let mut counts = Vec::with_capacity(200);
    let mut seen = 0;
    for i in 0..200 {
        let t = Instant::now();
        let r = env.call("write_file", json!({"path": format!("/out/step-{}.txt", i % 10), "content": content}));
        calls.push(t.elapsed());
        if r.status != Status::Success {
            return Err(format!("write_file failed: {}", r.message).into());
        }
        let t = Instant::now();
        let full = overlay.pending()?.len();
        listed.push(t.elapsed());
        let t = Instant::now();
        seen = overlay.pending_count()?;
        counts.push(t.elapsed());
        if seen != full {
            return Err(format!("pending_count says {seen}, pending() lists {full}").into());
        }
    }
    report("  write_file with 2000 pending", calls);
    report("  then counting by listing: pending().len()", listed);
    report("  then counting: pending_count()", counts);
    println!("  ({seen} pending at the end)");
    Ok(())
}
