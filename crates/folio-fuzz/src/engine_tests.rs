//! The harness can fail: a target with a planted bug is caught within the bound, saved, and
//! replayed from `regressions/`; a slow input is a hang.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::engine::{Config, Kind, Run, Target, run_target};

/// The panic hook and its capture are process-wide: one engine run at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn no_tokens() -> Vec<Vec<u8>> {
    Vec::new()
}

/// Panics on any input holding the bytes `FUZ` — the mutators must get there from the seed
/// `FUX`, which takes one byte change.
fn planted_bug() -> Result<Run, String> {
    Ok(Box::new(|input| {
        if input.windows(3).any(|w| w == b"FUZ") {
            let at = input.len();
            // Indexing past the end: the kind of panic a real parser has.
            let _ = input[at + 1];
        }
        format!("len {}", input.len().min(4))
    }))
}

/// Sleeps past the hang bound on an input starting with `z`.
fn slow_on_z() -> Result<Run, String> {
    Ok(Box::new(|input| {
        if input.first() == Some(&b'z') {
            std::thread::sleep(Duration::from_millis(1500));
        }
        String::new()
    }))
}

fn failing_setup() -> Result<Run, String> {
    Err("no renderer here".into())
}

fn target(name: &'static str, setup: fn() -> Result<Run, String>) -> Target {
    Target { name, about: "a test target", dictionary: no_tokens, setup, max_len: 64 }
}

fn config(root: &std::path::Path, secs: f64) -> Config {
    Config { verbose: false, root: root.to_path_buf(), hang: Duration::from_millis(300), ..Config::new(secs, 42) }
}

fn seed(root: &std::path::Path, dir: &str, name: &str, target: &str, bytes: &[u8]) {
    let d = root.join(dir).join(target);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(name), bytes).unwrap();
}

#[test]
fn a_planted_crash_is_found_within_the_bound_saved_and_reported_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("folio-fuzz-test-{}-crash", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    seed(&root, "corpus", "seed", "planted", b"FUX");
    let started = Instant::now();
    let report = run_target(&target("planted", planted_bug), &config(&root, 3.0));
    assert!(started.elapsed() < Duration::from_secs(6), "the run outlasted its bound");
    assert_eq!(report.crashes(), 1, "one panic site, reported once: {:?}", report.findings);
    let f = &report.findings[0];
    assert_eq!(f.kind, Kind::Crash);
    assert!(f.message.contains("index out of bounds"), "{}", f.message);
    assert!(f.message.contains("engine_tests.rs"), "the message names where it panicked: {}", f.message);
    assert!(f.input.windows(3).any(|w| w == b"FUZ"));
    let saved = f.saved.as_ref().expect("the input was saved");
    assert!(saved.starts_with(root.join("crashes").join("planted")));
    assert_eq!(std::fs::read(saved).unwrap(), f.input);
    assert!(report.execs > 1 && report.seeds == 1 && report.corpus >= 1);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_regression_input_that_still_crashes_fails_the_replay_without_any_mutation() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("folio-fuzz-test-{}-replay", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    seed(&root, "regressions", "known", "planted", b"..FUZ..");
    let report = run_target(&target("planted", planted_bug), &config(&root, 0.0));
    assert_eq!((report.execs, report.regressions, report.crashes()), (1, 1, 1));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_fixed_target_replays_clean() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("folio-fuzz-test-{}-clean", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    seed(&root, "regressions", "known", "slow", b"abc");
    let report = run_target(&target("slow", slow_on_z), &config(&root, 0.0));
    assert_eq!((report.execs, report.crashes(), report.hangs()), (1, 0, 0));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_input_past_the_time_bound_is_a_hang_and_ends_the_run() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("folio-fuzz-test-{}-hang", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    seed(&root, "corpus", "a", "slow", b"abc");
    seed(&root, "corpus", "b", "slow", b"zzz");
    let report = run_target(&target("slow", slow_on_z), &config(&root, 10.0));
    assert_eq!(report.hangs(), 1);
    assert_eq!(report.findings[0].input, b"zzz");
    assert!(report.secs < 3.0, "a hang ends the run at once: {}", report.secs);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_target_that_cannot_set_up_is_a_finding() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let root = std::env::temp_dir().join(format!("folio-fuzz-test-{}-setup", std::process::id()));
    let report = run_target(&target("broken", failing_setup), &config(&root, 1.0));
    assert_eq!(report.findings.len(), 1);
    assert_eq!(report.findings[0].kind, Kind::Setup);
    assert!(report.findings[0].message.contains("no renderer here"));
}

#[test]
fn every_target_name_is_unique_and_has_committed_seeds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<&str> = crate::TARGETS.iter().map(|t| t.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), crate::TARGETS.len());
    for t in crate::TARGETS {
        let seeds = crate::engine::load_dir(&root.join("corpus").join(t.name));
        assert!(!seeds.is_empty(), "{} has no seeds in corpus/{}/", t.name, t.name);
        assert!(seeds.iter().all(|(_, b)| b.len() <= t.max_len), "{}: a seed is over max_len", t.name);
    }
}
