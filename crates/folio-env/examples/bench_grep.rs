//! Benchmark figures for `grep` (issue 28, item 3): 1,000 generated documents in a real folder,
//! searched through the environment (`grep` verb, every core, results in path order) and by
//! ripgrep (`rg`) over the same folder, warm, median of 7 runs each. ripgrep is only a yardstick:
//! when `rg` is not on PATH its figure is skipped with a message (`apt-get install ripgrep`).
//!
//! Run with `cargo run --release -p folio-env --example bench_grep`. Target: within 1.5× of rg.

use std::process::Command;
use std::time::{Duration, Instant};

use folio_env::{EnvOptions, Environment, Status};
use serde_json::json;

const DOCS: usize = 1000;

/// A document of about 20 KB: prose-like lines, a few of which carry the searched word.
fn document(i: usize) -> String {
    let words =
        ["revenue", "region", "quarter", "forecast", "margin", "customer", "invoice", "ledger", "audit", "budget"];
    let mut out = String::with_capacity(21_000);
    let mut seed = i as u64 * 2_654_435_761 + 1;
    for line in 0..300usize {
        for w in 0..10 {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            out.push_str(words[(seed >> 33) as usize % words.len()]);
            out.push(if w == 9 { '\n' } else { ' ' });
        }
        if line.is_multiple_of(97) && i.is_multiple_of(3) {
            out.push_str(&format!("note: discrepancy found in document {i} line {line}\n"));
        }
    }
    out
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = tempfile::tempdir()?;
    let folder = root.path().join("folder");
    for i in 0..DOCS {
        let dir = folder.join(format!("d{:02}", i / 100));
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(format!("doc{i:04}.txt")), document(i))?;
    }
    let opts = EnvOptions { state_root: Some(root.path().join("state")), ..EnvOptions::default() };
    let env = Environment::open_folder(&folder, opts)?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pattern = "discrepancy found";
    let grep = || {
        let r = env.call("grep", json!({"pattern": pattern, "max_matches": 10000}));
        assert_eq!(r.status, Status::Success, "{}", r.message);
        r.message
    };
    let first = grep();
    let tail = first.lines().last().unwrap_or_default().to_owned();
    let ours = median(
        (0..7)
            .map(|_| {
                let t = Instant::now();
                grep();
                t.elapsed()
            })
            .collect(),
    );
    println!("{DOCS} documents of ~20 KB, pattern /{pattern}/, {cores} core(s)");
    println!("  grep verb (folio-env)   median {:>8.1} ms   ({tail})", ours.as_secs_f64() * 1000.0);
    let rg = |folder: &std::path::Path| Command::new("rg").args(["-n", "--no-heading", pattern]).arg(folder).output();
    match rg(&folder) {
        Err(e) => println!(
            "  ripgrep                 skipped: rg is not on PATH ({e}) — apt-get install ripgrep (brew install ripgrep / winget install BurntSushi.ripgrep.MSVC)"
        ),
        Ok(first) => {
            let hits = String::from_utf8_lossy(&first.stdout).lines().count();
            let theirs = median(
                (0..7)
                    .map(|_| {
                        let t = Instant::now();
                        let _ = rg(&folder);
                        t.elapsed()
                    })
                    .collect(),
            );
            println!(
                "  rg -n (ripgrep)         median {:>8.1} ms   ({hits} matching lines)",
                theirs.as_secs_f64() * 1000.0
            );
            println!("  ratio grep / rg         {:.2}×   (target ≤ 1.5×)", ours.as_secs_f64() / theirs.as_secs_f64());
        }
    }
    Ok(())
}
