//! The bounded fuzz run `cargo test --workspace` includes: every target's regression inputs and
//! seeds replayed, then `FOLIO_FUZZ_SECS` seconds of mutation each (7 by default, about a
//! minute for the eight targets). Exits non-zero on any crash or hang.
//!
//! - `FOLIO_FUZZ_SECS=600` — a long session (seconds per target); `0` replays only.
//! - `FOLIO_FUZZ_SEED=<n>` — repeat a run (the seed is printed; default: from the clock).
//! - `FOLIO_FUZZ_TARGETS=vpath,dts` — only these targets.
//! - `FOLIO_FUZZ_WRITE_CURRENT=1` — write each input to `crashes/<target>/.current` first, to
//!   catch an input that aborts the whole process (a stack overflow).
//! - `FOLIO_FUZZ_SHOW_FEATURES=1` — print each outcome feature when first seen.
//! - `FOLIO_RELIABILITY_DIR` — where `fuzz.json` (the figures of this run) is written.

use std::process::ExitCode;

use folio_fuzz::{Config, Report, TARGETS, run_target};
use serde_json::json;

const DEFAULT_SECS: f64 = 7.0;

fn main() -> ExitCode {
    // libtest's flags are accepted: `--list` lists the targets, a filter (`cargo test foo`) runs
    // only the targets whose name contains it, the other flags are ignored.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        for t in TARGETS {
            println!("{}: test", t.name);
        }
        return ExitCode::SUCCESS;
    }
    let mut filters: Vec<&str> = Vec::new();
    let mut takes_value = false;
    for a in &args {
        if std::mem::take(&mut takes_value) {
            continue;
        }
        match a.as_str() {
            "--skip" | "--test-threads" | "--format" | "--color" | "--logfile" | "-Z" => takes_value = true,
            flag if flag.starts_with('-') => {}
            filter => filters.push(filter),
        }
    }
    let secs = match std::env::var("FOLIO_FUZZ_SECS") {
        Ok(v) => match v.trim().parse::<f64>() {
            Ok(s) if s >= 0.0 => s,
            _ => {
                eprintln!("fuzz: FOLIO_FUZZ_SECS={v:?} is not a number of seconds — hint: FOLIO_FUZZ_SECS=600");
                return ExitCode::FAILURE;
            }
        },
        Err(_) => DEFAULT_SECS,
    };
    let seed = match std::env::var("FOLIO_FUZZ_SEED") {
        Ok(v) => match v.trim().parse::<u64>() {
            Ok(s) => s,
            Err(_) => {
                eprintln!("fuzz: FOLIO_FUZZ_SEED={v:?} is not a number — hint: use the seed a run printed");
                return ExitCode::FAILURE;
            }
        },
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x5EED),
    };
    let only: Option<Vec<String>> =
        std::env::var("FOLIO_FUZZ_TARGETS").ok().map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
    if let Some(names) = &only
        && let Some(bad) = names.iter().find(|n| folio_fuzz::target(n).is_none())
    {
        let known: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
        eprintln!("fuzz: no target called {bad:?} — hint: FOLIO_FUZZ_TARGETS takes some of {}", known.join(","));
        return ExitCode::FAILURE;
    }
    let mut cfg = Config::new(secs, seed);
    cfg.write_current = std::env::var_os("FOLIO_FUZZ_WRITE_CURRENT").is_some();
    cfg.show_features = std::env::var_os("FOLIO_FUZZ_SHOW_FEATURES").is_some();
    println!("fuzz: seed {seed} (repeat with FOLIO_FUZZ_SEED={seed}), {secs} s per target, hang bound {:?}", cfg.hang);
    let mut reports: Vec<Report> = Vec::new();
    for t in TARGETS {
        if only.as_ref().is_some_and(|names| !names.iter().any(|n| n == t.name))
            || (!filters.is_empty() && !filters.iter().any(|f| t.name.contains(f)))
        {
            continue;
        }
        let r = run_target(t, &cfg);
        println!(
            "fuzz {:<11} {:>9} execs {:>8.0}/s  {:>5.1} s  corpus {:>4} (seeds {}, regressions {})  signatures {:>4}  crashes {}  hangs {}",
            r.name,
            r.execs,
            r.rate(),
            r.secs,
            r.corpus,
            r.seeds,
            r.regressions,
            r.signatures,
            r.crashes(),
            r.hangs()
        );
        reports.push(r);
    }
    if reports.is_empty() {
        println!("fuzz: no target matches the filter {filters:?}");
        return ExitCode::SUCCESS;
    }
    let crashes: usize = reports.iter().map(Report::crashes).sum();
    let hangs: usize = reports.iter().map(Report::hangs).sum();
    // A libtest filter runs part of the suite: its figures would overwrite the full run's.
    if let Err(e) = if filters.is_empty() { write_figures(&reports, &cfg) } else { Ok(()) } {
        eprintln!("fuzz: {e}");
        return ExitCode::FAILURE;
    }
    if crashes + hangs > 0 {
        eprintln!(
            "fuzz: FAILED — {crashes} crash(es), {hangs} hang(s); each is printed above with its saved input — hint: fix it in the owning crate, then copy the input into crates/folio-fuzz/regressions/<target>/"
        );
        return ExitCode::FAILURE;
    }
    let execs: u64 = reports.iter().map(|r| r.execs).sum();
    println!("fuzz: ok — {} targets, {execs} execs, no crash, no hang", reports.len());
    ExitCode::SUCCESS
}

/// `$FOLIO_RELIABILITY_DIR/fuzz.json`, when that variable is set.
fn write_figures(reports: &[Report], cfg: &Config) -> Result<(), String> {
    let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") else { return Ok(()) };
    let dir = std::path::PathBuf::from(dir);
    let targets: Vec<_> = reports
        .iter()
        .map(|r| {
            json!({
                "name": r.name,
                "execs": r.execs,
                "execs_per_sec": (r.rate() * 10.0).round() / 10.0,
                "secs": (r.secs * 100.0).round() / 100.0,
                "corpus": r.corpus,
                "seeds": r.seeds,
                "regressions": r.regressions,
                "signatures": r.signatures,
                "crashes": r.crashes(),
                "hangs": r.hangs(),
            })
        })
        .collect();
    let doc = json!({
        "area": "fuzz",
        "engine": "folio-fuzz (in-repo mutational fuzzer, stable toolchain)",
        "seed": cfg.seed,
        "secs_per_target": cfg.secs,
        "hang_bound_ms": cfg.hang.as_millis() as u64,
        "targets": targets,
        "execs_total": reports.iter().map(|r| r.execs).sum::<u64>(),
        "crashes_total": reports.iter().map(Report::crashes).sum::<usize>(),
        "hangs_total": reports.iter().map(Report::hangs).sum::<usize>(),
    });
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {} for fuzz.json: {e}", dir.display()))?;
    let path = dir.join("fuzz.json");
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    std::fs::write(&path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}
