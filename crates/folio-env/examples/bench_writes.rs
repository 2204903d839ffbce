//! Measures what one `write_file` costs over a real 10,000-file folder.
//!
//! Run it with `cargo run --release -p folio-env --example bench_writes`. It builds a throwaway
//! folder (100 directories of 100 small files), opens it the way the app does (a persisted
//! overlay with the zones in a state directory), then times the first write (which pays for the
//! one-off count of the tree's size) and a run of further writes, and prints the per-write cost.
//! Pass a number to change the file count, e.g. `-- 2000`.

use std::error::Error;
use std::time::{Duration, Instant};

use folio_env::{EnvOptions, Environment, Status};
use serde_json::json;

fn main() -> Result<(), Box<dyn Error>> {
    let files: usize = match std::env::args().nth(1) {
        Some(n) => n.parse().map_err(|e| format!("the file count must be a whole number, got {n:?}: {e}"))?,
        None => 10_000,
    };
    let scratch = tempfile::tempdir()?;
    let folder = scratch.path().join("folder");
    let per_dir = 100;
    for i in 0..files {
        let dir = folder.join(format!("d{:03}", i / per_dir));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("f{i:05}.txt")), format!("file {i}\n").repeat(24))?;
    }
    let opened = Instant::now();
    let opts = EnvOptions { state_root: Some(scratch.path().join("state")), ..Default::default() };
    let env = Environment::open_folder(&folder, opts)?;
    println!("folder: {files} files; open_folder took {:.1} ms", ms(opened.elapsed()));

    let write = |i: usize| -> Result<Duration, Box<dyn Error>> {
        let started = Instant::now();
        let body = format!("revision {i}\n").repeat(64);
        let r = env.call("write_file", json!({"path": format!("/out/bench-{}.txt", i % 50), "content": body}));
        if r.status != Status::Success {
            return Err(format!("write {i} failed: {}", r.message).into());
        }
        Ok(started.elapsed())
    };

    let first = write(0)?;
    println!("first write (includes counting the tree once): {:.2} ms", ms(first));

    let budget = Duration::from_secs(3);
    let started = Instant::now();
    let mut n = 0;
    while n < 1000 && started.elapsed() < budget {
        n += 1;
        write(n)?;
    }
    let per = started.elapsed() / n as u32;
    println!("steady state: {n} writes, {:.3} ms per write", ms(per));
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
