//! Benchmark figures for the run log (issue 28, item 3): a warm `run_script` of a trivial
//! script over a state directory on disk (the run log `/.env/history.jsonl` is durable there),
//! measured over the first 100 runs and again around the 5,000th, when the log is full. Each
//! run appends its record instead of rewriting the log, so the two should be the same.
//!
//! Run with `cargo run --release -p folio-env --example bench_history`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_env::{EnvOptions, Environment, Status};
use folio_vfs::MemTree;
use serde_json::json;

fn p50(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1000.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let state = tempfile::tempdir()?;
    let env = Environment::new(Arc::new(MemTree::new()), Some(state.path()), EnvOptions::default())?;
    let write = env.call(
        "write_file",
        json!({"path": "/scripts/one.js", "content": "/** Returns one. */\nexport default async function () { return 1; }\n"}),
    );
    assert_eq!(write.status, Status::Success, "{}", write.message);
    let run = || {
        let t = Instant::now();
        let r =
            env.call("run_script", json!({"path": "/scripts/one.js", "args": {"note": "a typical argument object"}}));
        assert_eq!(r.status, Status::Success, "{}", r.message);
        t.elapsed()
    };
    // The engine is warmed by one run that is not counted; the log then holds one record.
    run();
    let first: Vec<Duration> = (0..100).map(|_| run()).collect();
    for _ in 0..4_850 {
        run();
    }
    let last: Vec<Duration> = (0..100).map(|_| run()).collect();
    let log = std::fs::read(state.path().join("dotenv").join("history.jsonl"))?;
    println!("warm run_script, trivial script, run log on disk (durable /.env):");
    println!("  runs     2–101   p50 {:.3} ms", p50(first));
    println!(
        "  runs 4,952–5,051 p50 {:.3} ms   (log: {} lines, {} KB)",
        p50(last),
        log.split(|b| *b == b'\n').filter(|l| !l.is_empty()).count(),
        log.len() / 1024
    );
    Ok(())
}
