//! Load, through the host every shell opens folders with (file handlers included): twenty script
//! runs at once in one environment; a 50,000-file folder opened, listed, searched; a 2 GB file
//! listed, read in part, refused by the verbs that would read it whole, and moved and committed
//! through the overlay without being held in memory.
//!
//! The two measured cases run in a child (this binary re-run with `load_child` as the filter) so
//! that the I/O counters and the peak resident size (`/proc/self/io`, `VmHWM`) are theirs alone,
//! not the parallel tests'. Figures go to `$FOLIO_RELIABILITY_DIR/crash-load.json`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use folio_env::{Environment, Status};
use folio_host::{Host, Seams};
use folio_render::{HostPaths, Platform};
use folio_vfs::{Selection, Tree, VPath};
use serde_json::{Value, json};

fn builder(state: &Path) -> folio_host::HostBuilder {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.to_path_buf());
    Host::builder().state_dir(Some(state.to_path_buf())).paths(paths)
}

fn open(folder: &Path, state: &Path) -> Environment {
    builder(state).build().unwrap().open_folder(folder, Seams::default()).unwrap()
}

fn p(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

fn call(env: &Environment, verb: &str, args: Value) -> folio_env::ToolResult {
    env.call(verb, args)
}

/// A `/proc/self/…` figure in bytes (`status` lines are in kB); `None` off Linux.
fn proc_figure(file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/self/{file}")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let n: u64 = line[key.len()..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(if file == "status" { n * 1024 } else { n })
}

fn bytes_read() -> Option<u64> {
    proc_figure("io", "rchar:")
}

fn peak_rss() -> Option<u64> {
    proc_figure("status", "VmHWM:")
}

fn ms(t: Instant) -> u64 {
    t.elapsed().as_millis() as u64
}

fn record(section: &str, value: Value) {
    let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR").filter(|d| !d.is_empty()) else { return };
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".crash-load.lock")).unwrap();
    lock.lock().unwrap();
    let path = dir.join("crash-load.json");
    let mut doc = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({"area": "crash-load"}));
    doc[section] = value;
    let tmp = dir.join(format!(".crash-load.{}.tmp", std::process::id()));
    std::fs::write(&tmp, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
}

/// Runs `mode` in a child over `folder` and returns the JSON line it printed.
fn in_child(mode: &str, folder: &Path, state: &Path, bound: Duration) -> Value {
    let exe = std::env::current_exe().unwrap();
    let started = Instant::now();
    let out = Command::new(exe)
        .args(["--exact", "suite::load::load_child", "--test-threads=1", "--nocapture"])
        .env("FOLIO_LOAD_MODE", mode)
        .env("FOLIO_LOAD_FOLDER", folder)
        .env("FOLIO_LOAD_STATE", state)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{mode} child failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(started.elapsed() < bound, "{mode} took {:?}, over its bound {bound:?}", started.elapsed());
    let line = stdout.lines().find_map(|l| l.split_once("LOAD|").map(|(_, j)| j.to_owned())).unwrap();
    serde_json::from_str(&line).unwrap()
}

/// The child's side; does nothing unless run by a test below.
#[test]
fn load_child() {
    let (Ok(mode), Ok(folder), Ok(state)) =
        (std::env::var("FOLIO_LOAD_MODE"), std::env::var("FOLIO_LOAD_FOLDER"), std::env::var("FOLIO_LOAD_STATE"))
    else {
        return;
    };
    let (folder, state) = (PathBuf::from(folder), PathBuf::from(state));
    let figures = match mode.as_str() {
        "many" => many_files(&folder, &state),
        "huge" => huge_file(&folder, &state),
        other => panic!("no load mode {other}"),
    };
    println!("LOAD|{figures}");
}

// ---------------------------------------------------------------------------------------------
// Twenty concurrent runs.

#[test]
fn twenty_concurrent_script_runs_in_one_environment_all_succeed_with_their_own_output() {
    const RUNS: usize = 20;
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("data")).unwrap();
    std::fs::write(folder.join("data/shared.txt"), "shared line\n".repeat(1000)).unwrap();
    let env = open(&folder, &tmp.path().join("state"));
    let script = "/** Writes its own file from the shared one. */\nimport * as fs from 'env:fs';\nexport default async function ({ i }) {\n  const shared = await fs.readFile('/data/shared.txt');\n  const lines = shared.split('\\n').filter((l) => l).length;\n  await fs.writeFile(`/out/run-${i}.txt`, `run ${i} saw ${lines} lines`);\n  return { i, lines };\n}\n";
    let wrote = call(&env, "write_file", json!({"path": "/scripts/each.js", "content": script}));
    assert_eq!(wrote.status, Status::Success, "{}", wrote.message);

    // The runs go on a thread of their own so that a deadlock fails the test at the bound
    // instead of hanging the suite.
    let env = std::sync::Arc::new(env);
    let started = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let shared = env.clone();
    std::thread::spawn(move || {
        let results: Vec<(usize, Result<Value, String>, u64)> = std::thread::scope(|s| {
            // Every run is started before any is joined: that is the concurrency under test.
            #[allow(clippy::needless_collect)]
            let handles: Vec<_> = (0..RUNS)
                .map(|i| {
                    let env = &shared;
                    s.spawn(move || {
                        let t = Instant::now();
                        let r = env.run_script("/scripts/each.js", json!({"i": i}), Some(60_000), None);
                        let out = match r {
                            Ok(report) if report.ok => Ok(report.result),
                            Ok(report) => Err(format!("{:?}", report.error)),
                            Err(e) => Err(e.to_string()),
                        };
                        (i, out, ms(t))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let _ = tx.send(results);
    });
    let results = rx
        .recv_timeout(Duration::from_secs(120))
        .unwrap_or_else(|_| panic!("20 concurrent runs did not all end within 120 s: a deadlock or a lost run"));
    let wall = started.elapsed();
    for (i, out, _) in &results {
        assert_eq!(out.as_ref().unwrap(), &json!({"i": i, "lines": 1000}), "run {i}");
        let text = env.tree().read(&p(&format!("/out/run-{i}.txt"))).unwrap();
        assert_eq!(String::from_utf8(text).unwrap(), format!("run {i} saw 1000 lines"));
    }
    let pending = env.overlay().unwrap().pending().unwrap();
    assert_eq!(pending.iter().filter(|c| c.path.as_str().starts_with("/out/run-")).count(), RUNS);
    // Twenty runs on two cores: bounded (a deadlock would hang here, not pass slowly).
    assert!(wall < Duration::from_secs(60), "20 concurrent runs took {wall:?}");
    let slowest = results.iter().map(|r| r.2).max().unwrap_or(0);
    println!("20 concurrent runs: {} ms wall, slowest run {slowest} ms", wall.as_millis());
    record(
        "concurrent_runs",
        json!({"runs": RUNS, "succeeded": results.len(), "wall_ms": wall.as_millis() as u64, "slowest_run_ms": slowest}),
    );
}

// ---------------------------------------------------------------------------------------------
// A 50,000-file folder.

const DIRS: usize = 100;
const PER_DIR: usize = 500;
/// Each file's size: 50,000 of them hold 50 MB, so reading them all would show in the counters.
const FILE_BYTES: usize = 1000;

fn many_body(d: usize, f: usize) -> String {
    let head = format!("file {d}/{f} needle-{}\n", d * PER_DIR + f);
    format!("{head}{}", "x".repeat(FILE_BYTES - head.len() - 1)) + "\n"
}

fn many_files(folder: &Path, state: &Path) -> Value {
    let read0 = bytes_read();
    let t = Instant::now();
    let env = open(folder, state);
    let open_ms = ms(t);
    let open_read = bytes_read().zip(read0).map(|(a, b)| a - b);

    let read1 = bytes_read();
    let t = Instant::now();
    let ls = call(&env, "ls", json!({"path": "/data", "depth": 2}));
    let ls_ms = ms(t);
    let ls_read = bytes_read().zip(read1).map(|(a, b)| a - b);
    assert_eq!(ls.status, Status::Success, "{}", ls.message);
    assert!(ls.message.contains("d000/") && ls.message.contains("f000.txt (1000B)"), "{}", ls.message);

    let t = Instant::now();
    let files = env.tree().walk(&p("/data")).unwrap();
    let walk_ms = ms(t);
    assert_eq!(files.len(), DIRS * PER_DIR);

    let t = Instant::now();
    let found = env.tree().glob("/data/**/f49?.txt").unwrap();
    let find_ms = ms(t);
    assert_eq!(found.len(), DIRS * 10, "{:?}", &found[..found.len().min(5)]);

    let t = Instant::now();
    let grep = call(&env, "grep", json!({"pattern": "needle-31337$", "path": "/data"}));
    let grep_ms = ms(t);
    assert_eq!(grep.status, Status::Success, "{}", grep.message);
    assert!(grep.message.contains("/data/d062/f337.txt:1: file 62/337 needle-31337"), "{}", grep.message);

    json!({"files": files.len(), "content_bytes": DIRS * PER_DIR * FILE_BYTES,
           "open_ms": open_ms, "open_bytes_read": open_read, "ls_depth2_ms": ls_ms, "ls_bytes_read": ls_read,
           "walk_ms": walk_ms, "find_ms": find_ms, "grep_ms": grep_ms})
}

#[test]
fn a_folder_of_fifty_thousand_files_opens_without_reading_them_and_lists_and_searches_in_bounds() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let t = Instant::now();
    for d in 0..DIRS {
        let dir = folder.join(format!("data/d{d:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..PER_DIR {
            std::fs::write(dir.join(format!("f{f:03}.txt")), many_body(d, f)).unwrap();
        }
    }
    let made_ms = ms(t);
    let figures = in_child("many", &folder, &tmp.path().join("state"), Duration::from_secs(120));
    println!("50,000 files (made in {made_ms} ms): {figures}");
    let content = (DIRS * PER_DIR * FILE_BYTES) as u64;
    // Opening and listing read names and sizes, never the files: far less than their content.
    for key in ["open_bytes_read", "ls_bytes_read"] {
        if let Some(read) = figures[key].as_u64() {
            assert!(read < content / 10, "{key}: {read} bytes read of {content} — the files' content was read");
        }
    }
    for (key, bound_ms) in [("open_ms", 20_000), ("ls_depth2_ms", 30_000), ("walk_ms", 30_000), ("grep_ms", 60_000)] {
        let took = figures[key].as_u64().unwrap();
        assert!(took < bound_ms, "{key}: {took} ms, over {bound_ms} ms");
    }
    record("folder_50k", figures);
}

// ---------------------------------------------------------------------------------------------
// A 2 GB file.

const HUGE: u64 = 2 << 30;
const MARK_AT: u64 = 1 << 30;
const MARK: &[u8] = b"the middle of a 2 GB file";

fn huge_file(folder: &Path, state: &Path) -> Value {
    let env = open(folder, state);
    let base_rss = peak_rss();
    let big = p("/big.bin");

    let t = Instant::now();
    let ls = call(&env, "ls", json!({"path": "/"}));
    let ls_ms = ms(t);
    assert!(ls.message.contains("big.bin (2048.0MB)"), "{}", ls.message);

    // A preview reads only its range.
    let t = Instant::now();
    assert_eq!(env.tree().read_range(&big, MARK_AT, MARK.len() as u64).unwrap(), MARK);
    assert_eq!(env.tree().read_range(&big, HUGE - 4, 100).unwrap(), vec![0; 4]);
    let range_ms = ms(t);

    // Verbs that would need the whole file say so up front, without reading it.
    let t = Instant::now();
    let read = call(&env, "read_file", json!({"path": "/big.bin"}));
    assert_eq!(read.status, Status::Error);
    assert!(read.message.contains("binary"), "{}", read.message);
    let described = call(&env, "describe", json!({"path": "/big.bin"}));
    assert_eq!(described.status, Status::Success, "{}", described.message);
    assert!(described.message.contains(&HUGE.to_string()), "{}", described.message);
    let moved = call(&env, "mv", json!({"from": "/big.bin", "to": "/kept/big.bin"}));
    assert_eq!(moved.status, Status::Error, "{}", moved.message);
    assert!(
        moved.message.contains("/kept/big.bin") && moved.message.contains("limits.max_file_bytes"),
        "{}",
        moved.message
    );
    assert!(read.message.contains("describe(/big.bin)"), "{}", read.message);
    let grep = call(&env, "grep", json!({"pattern": "middle of a 2 GB", "path": "/"}));
    assert_eq!(grep.status, Status::Success, "{}", grep.message);
    assert!(grep.message.contains("not searched: /big.bin"), "{}", grep.message);
    let verbs_ms = ms(t);

    // The overlay moves it (streamed into its blob) and the commit writes it (streamed again).
    let overlay = env.overlay().unwrap();
    let t = Instant::now();
    overlay.mv(&big, &p("/kept/big.bin")).unwrap();
    let mv_ms = ms(t);
    let t = Instant::now();
    let report = overlay.commit(&Selection::All, &[]).unwrap();
    let commit_ms = ms(t);
    assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
    assert!(!folder.join("big.bin").exists());
    let moved_host = folder.join("kept/big.bin");
    assert_eq!(std::fs::metadata(&moved_host).unwrap().len(), HUGE);
    assert_eq!(folio_vfs::range::read_file_range(&moved_host, MARK_AT, MARK.len() as u64).unwrap(), MARK);
    assert_eq!(folio_vfs::range::read_file_range(&moved_host, 0, 4).unwrap(), b"HEAD");

    let growth = peak_rss().zip(base_rss).map(|(a, b)| a.saturating_sub(b));
    json!({"file_bytes": HUGE, "ls_ms": ls_ms, "range_read_ms": range_ms, "refusals_ms": verbs_ms,
           "overlay_mv_ms": mv_ms, "commit_ms": commit_ms, "peak_rss_before": base_rss,
           "peak_rss_growth_bytes": growth,
           "read_file": read.message, "mv_verb": moved.message, "grep": grep.message})
}

#[test]
fn a_two_gigabyte_file_is_listed_previewed_and_committed_without_being_read_into_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    {
        use std::io::{Seek, SeekFrom, Write};
        // Sparse: 2 GB long, a few bytes on disk.
        let mut f = std::fs::File::create(folder.join("big.bin")).unwrap();
        f.set_len(HUGE).unwrap();
        f.write_all(b"HEAD\0").unwrap();
        f.seek(SeekFrom::Start(MARK_AT)).unwrap();
        f.write_all(MARK).unwrap();
    }
    let figures = in_child("huge", &folder, &tmp.path().join("state"), Duration::from_secs(180));
    println!("2 GB file: {figures}");
    if let Some(growth) = figures["peak_rss_growth_bytes"].as_u64() {
        assert!(growth < 300 << 20, "peak memory grew by {} MB handling a 2 GB file", growth >> 20);
    } else {
        println!("no /proc/self/status here: the memory bound is not checked");
    }
    record("file_2gb", figures);
}
