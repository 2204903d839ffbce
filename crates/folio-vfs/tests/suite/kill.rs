//! SIGKILL at random instants, a hundred times, in two scenarios: a burst of writes, removals and
//! renames into the overlay, and the same work interleaved with commits to the real folder.
//!
//! A worker (this test binary re-run with `kill_worker` as the filter) does the work in a loop
//! and prints `KILL|begin|…` before each operation and `KILL|ack` once it returned, to a pipe the
//! parent reads. The parent kills it (SIGKILL on Unix) after a random delay, reopens the folder —
//! which must open, recovering an interrupted commit — and checks, against the model it rebuilt
//! from the acknowledged operations:
//! - **no edit lost**: the overlay shows, at every path, what the acknowledged operations left
//!   there (the one operation begun but not acknowledged may have landed or not, wholly);
//! - **no file torn**: every file in the folder and in the overlay is byte for byte one of the
//!   versions written (each version is regenerated from its header and compared), and after a
//!   commit was cut short the folder is wholly the last committed state or wholly the new one.
//!
//! The seed is printed (and taken from `FOLIO_KILL_SEED`); `FOLIO_KILLS` sets the kills per
//! scenario (default 100). Each scenario stops early at `DEADLINE` and reports what it did.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use folio_vfs::{Overlay, OverlayOptions, RecoveryOutcome, Selection, Tree, VPath};

/// The most one scenario may take; it then stops killing and reports the kills it made.
const DEADLINE: Duration = Duration::from_secs(25);

/// splitmix64: small, seedable, good enough to pick delays and operations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn seed() -> u64 {
    std::env::var("FOLIO_KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    })
}

pub fn kills_wanted() -> usize {
    std::env::var("FOLIO_KILLS").ok().and_then(|s| s.parse().ok()).unwrap_or(100)
}

/// The paths the work touches: twenty files in four directories.
fn universe() -> Vec<String> {
    (0..4).flat_map(|d| (0..5).map(move |f| format!("/d{d}/f{f}.txt"))).collect()
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

/// Version `(g, n)` of `path`: a header naming it, then pseudo-random bytes of a length drawn
/// from the same seed (mostly small, one in eight up to 256 KiB so a torn write would show).
fn content(path: &str, g: u64, n: u64) -> Vec<u8> {
    let mut r = Rng(fnv(path) ^ g.wrapping_mul(1_000_003) ^ n.wrapping_mul(7_919));
    let len = if r.below(8) == 0 { r.below(256 * 1024) } else { r.below(8 * 1024) };
    let mut out = format!("folio-kill {path} g{g} n{n} len{len}\n").into_bytes();
    while (out.len() as u64) < len + 40 {
        out.extend_from_slice(&r.next().to_le_bytes());
    }
    out
}

/// What a file holds: `Ok(Some((g, n)))` for an intact version, `Ok(None)` for absent,
/// `Err(())` for anything else — a torn or foreign file.
type Seen = Result<Option<(u64, u64)>, ()>;

fn identify(_path: &str, bytes: Option<Vec<u8>>) -> Seen {
    let Some(bytes) = bytes else { return Ok(None) };
    let header = bytes.split(|b| *b == b'\n').next().ok_or(())?;
    let header = std::str::from_utf8(header).map_err(|_| ())?;
    let mut words = header.split(' ');
    let (Some("folio-kill"), Some(p), Some(g), Some(n)) = (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(());
    };
    let g: u64 = g.strip_prefix('g').and_then(|g| g.parse().ok()).ok_or(())?;
    let n: u64 = n.strip_prefix('n').and_then(|n| n.parse().ok()).ok_or(())?;
    // A renamed file carries the header of the path it was first written at.
    if content(p, g, n) == bytes { Ok(Some((g, n))) } else { Err(()) }
}

/// One operation of the worker, as printed on its `begin` line.
#[derive(Debug, Clone, PartialEq)]
enum Op {
    Write { path: String, g: u64, n: u64 },
    Rm { path: String },
    Mv { from: String, to: String },
    Commit,
}

impl Op {
    fn line(&self) -> String {
        match self {
            Op::Write { path, g, n } => format!("write|{path}|{g}|{n}"),
            Op::Rm { path } => format!("rm|{path}"),
            Op::Mv { from, to } => format!("mv|{from}|{to}"),
            Op::Commit => "commit".to_owned(),
        }
    }

    fn parse(line: &str) -> Option<Op> {
        let parts: Vec<&str> = line.split('|').collect();
        match parts.as_slice() {
            ["write", p, g, n] => Some(Op::Write { path: (*p).into(), g: g.parse().ok()?, n: n.parse().ok()? }),
            ["rm", p] => Some(Op::Rm { path: (*p).into() }),
            ["mv", a, b] => Some(Op::Mv { from: (*a).into(), to: (*b).into() }),
            ["commit"] => Some(Op::Commit),
            _ => None,
        }
    }
}

/// What the overlay shows (a header identity per path) and what the folder holds.
#[derive(Debug, Clone, Default, PartialEq)]
struct Model {
    view: BTreeMap<String, (u64, u64)>,
    disk: BTreeMap<String, (u64, u64)>,
}

impl Model {
    fn apply(&mut self, op: &Op) {
        match op {
            Op::Write { path, g, n } => {
                self.view.insert(path.clone(), (*g, *n));
            }
            Op::Rm { path } => {
                self.view.remove(path);
            }
            Op::Mv { from, to } => {
                if let Some(v) = self.view.remove(from) {
                    self.view.insert(to.clone(), v);
                }
            }
            Op::Commit => self.disk = self.view.clone(),
        }
    }
}

fn vp(s: &str) -> VPath {
    VPath::parse(s).unwrap()
}

fn open(folder: &std::path::Path, state: &std::path::Path) -> folio_vfs::Result<Overlay> {
    Overlay::open(folder, OverlayOptions { state_root: Some(state.to_path_buf()), ..OverlayOptions::default() })
}

fn say(line: &str) {
    use std::io::Write;
    // One write per line: it is in the pipe before the next operation starts.
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(format!("KILL|{line}\n").as_bytes());
    let _ = out.flush();
}

/// The worker: does nothing unless run by a scenario below.
#[test]
fn kill_worker() {
    let (Ok(folder), Ok(state), Ok(mode), Ok(g), Ok(seed)) = (
        std::env::var("FOLIO_KILL_FOLDER"),
        std::env::var("FOLIO_KILL_STATE"),
        std::env::var("FOLIO_KILL_MODE"),
        std::env::var("FOLIO_KILL_GEN"),
        std::env::var("FOLIO_KILL_WORKER_SEED"),
    ) else {
        return;
    };
    let g: u64 = g.parse().unwrap();
    let mut rng = Rng(seed.parse().unwrap());
    let o = open(folder.as_ref(), state.as_ref()).unwrap();
    let paths = universe();
    say("ready");
    let stop = Instant::now() + Duration::from_secs(20);
    let mut n = 0;
    while Instant::now() < stop {
        n += 1;
        let commit_now = mode == "commit" && rng.below(8) == 0;
        let path = paths[rng.below(paths.len() as u64) as usize].clone();
        let exists = o.stat(&vp(&path)).unwrap().is_some();
        let roll = rng.below(100);
        let op = if commit_now {
            Op::Commit
        } else if exists && roll < 15 {
            Op::Rm { path }
        } else if exists && roll < 30 {
            let to = paths[rng.below(paths.len() as u64) as usize].clone();
            if o.stat(&vp(&to)).unwrap().is_some() { Op::Write { path, g, n } } else { Op::Mv { from: path, to } }
        } else {
            Op::Write { path, g, n }
        };
        say(&format!("begin|{}", op.line()));
        match &op {
            Op::Write { path, g, n } => o.write(&vp(path), &content(path, *g, *n)).unwrap(),
            Op::Rm { path } => o.rm(&vp(path)).unwrap(),
            Op::Mv { from, to } => o.mv(&vp(from), &vp(to)).unwrap(),
            Op::Commit => {
                let report = o.commit(&Selection::All, &[]).unwrap();
                assert!(report.conflicts.is_empty(), "{:?}", report.conflicts);
            }
        }
        say("ack");
    }
}

/// What one scenario counted.
#[derive(Debug, Default, serde::Serialize)]
pub struct Tally {
    scenario: &'static str,
    seed: u64,
    kills: usize,
    files_torn: usize,
    edits_lost: usize,
    acked_operations: usize,
    kills_mid_operation: usize,
    kills_mid_commit: usize,
    commits_rolled_back: usize,
    commits_completed: usize,
    secs: f64,
}

/// Runs the worker in `mode` and kills it, `kills_wanted()` times or until the deadline.
fn scenario(mode: &'static str, max_delay_ms: u64) -> Tally {
    let seed = seed();
    println!("kill scenario {mode}: seed {seed} (rerun with FOLIO_KILL_SEED={seed})");
    let mut rng = Rng(seed);
    let tmp = tempfile::tempdir().unwrap();
    let (folder, state) = (tmp.path().join("folder"), tmp.path().join("state"));
    let mut model = Model::default();
    for (i, path) in universe().iter().enumerate().filter(|(i, _)| i % 2 == 0) {
        let host = folder.join(path.trim_start_matches('/'));
        std::fs::create_dir_all(host.parent().unwrap()).unwrap();
        std::fs::write(&host, content(path, 0, i as u64)).unwrap();
        model.view.insert(path.clone(), (0, i as u64));
    }
    model.disk = model.view.clone();
    std::fs::create_dir_all(&state).unwrap();
    let exe = std::env::current_exe().unwrap();
    let started = Instant::now();
    let mut tally = Tally { scenario: mode, seed, ..Tally::default() };
    for g in 1..=kills_wanted() as u64 {
        if started.elapsed() > DEADLINE {
            println!("kill scenario {mode}: deadline reached after {} kills", tally.kills);
            break;
        }
        let mut child = Command::new(&exe)
            .args(["--exact", "suite::kill::kill_worker", "--test-threads=1", "--nocapture"])
            .env("FOLIO_KILL_FOLDER", &folder)
            .env("FOLIO_KILL_STATE", &state)
            .env("FOLIO_KILL_MODE", mode)
            .env("FOLIO_KILL_GEN", g.to_string())
            .env("FOLIO_KILL_WORKER_SEED", rng.next().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            // Only whole lines count: a line cut by the kill was never acknowledged.
            while r.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                if buf.ends_with(b"\n")
                    // libtest's "test … ... " has no newline yet when the first line comes.
                    && let Some((_, line)) = String::from_utf8_lossy(&buf).trim_end().split_once("KILL|")
                {
                    let _ = tx.send(line.to_owned());
                }
                buf.clear();
            }
        });
        let ready = rx.recv_timeout(Duration::from_secs(20));
        assert_eq!(ready.as_deref(), Ok("ready"), "seed {seed} gen {g}: the worker did not start");
        std::thread::sleep(Duration::from_millis(rng.below(max_delay_ms + 1)));
        child.kill().unwrap();
        let status = child.wait().unwrap();
        assert!(!status.success(), "seed {seed} gen {g}: the worker ended before the kill");
        reader.join().unwrap();
        tally.kills += 1;

        // Rebuild what the worker was told is durable, and the one operation in flight.
        let mut in_flight: Option<Op> = None;
        for line in rx.try_iter() {
            if let Some(op) = line.strip_prefix("begin|") {
                in_flight = Some(Op::parse(op).unwrap());
            } else if line == "ack" {
                model.apply(&in_flight.take().unwrap());
                tally.acked_operations += 1;
            }
        }
        let mut after = model.clone();
        if let Some(op) = &in_flight {
            after.apply(op);
            tally.kills_mid_operation += 1;
            tally.kills_mid_commit += usize::from(*op == Op::Commit);
        }

        // The folder must open, recovering whatever the kill cut short.
        let o = open(&folder, &state).unwrap_or_else(|e| panic!("seed {seed} gen {g}: the overlay does not open: {e}"));
        match o.recovery().map(|r| r.outcome) {
            Some(RecoveryOutcome::RolledBack) => tally.commits_rolled_back += 1,
            Some(_) => tally.commits_completed += 1,
            None => {}
        }
        let mut seen = Model::default();
        for path in universe() {
            let view = identify(&path, o.read(&vp(&path)).ok());
            let disk = identify(&path, std::fs::read(folder.join(path.trim_start_matches('/'))).ok());
            for (side, got) in [("overlay", &view), ("folder", &disk)] {
                if got.is_err() {
                    tally.files_torn += 1;
                    println!("seed {seed} gen {g}: TORN in the {side}: {path}");
                }
            }
            if let Ok(Some(v)) = view {
                seen.view.insert(path.clone(), v);
            }
            if let Ok(Some(v)) = disk {
                seen.disk.insert(path.clone(), v);
            }
        }
        let view_ok = seen.view == model.view || seen.view == after.view;
        let disk_ok = seen.disk == model.disk || seen.disk == after.disk;
        if !view_ok || !disk_ok {
            let lost = universe()
                .iter()
                .filter(|p| {
                    let ok =
                        |m: &Model, s: &Model| m.view.get(*p) == s.view.get(*p) && m.disk.get(*p) == s.disk.get(*p);
                    !ok(&model, &seen) && !ok(&after, &seen)
                })
                .count();
            tally.edits_lost += lost.max(1);
            println!(
                "seed {seed} gen {g}: LOST (in flight {in_flight:?})\n acked: {model:?}\n or:    {after:?}\n seen:  {seen:?}"
            );
        }
        let litter: Vec<_> = walk_names(&folder).into_iter().filter(|n| n.contains(".folio-commit-")).collect();
        assert!(litter.is_empty(), "seed {seed} gen {g}: commit temp files left in the folder: {litter:?}");
        model = seen;
    }
    tally.secs = started.elapsed().as_secs_f64();
    println!("kill scenario {mode}: {tally:?}");
    tally
}

fn walk_names(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        out.push(entry.file_name().to_string_lossy().into_owned());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(walk_names(&entry.path()));
        }
    }
    out
}

fn check(tally: &Tally) {
    assert_eq!(tally.files_torn, 0, "seed {}: torn files: {tally:?}", tally.seed);
    assert_eq!(tally.edits_lost, 0, "seed {}: lost edits: {tally:?}", tally.seed);
    assert!(tally.kills >= kills_wanted().min(20), "too few kills in the time allowed: {tally:?}");
    assert!(tally.acked_operations > tally.kills, "the worker did almost nothing before each kill: {tally:?}");
}

#[test]
fn sigkill_during_a_burst_of_writes_loses_no_acknowledged_edit_and_tears_nothing() {
    let tally = scenario("burst", 40);
    super::figures::record("kill_burst", serde_json::to_value(&tally).unwrap());
    check(&tally);
}

#[test]
fn sigkill_during_commits_leaves_every_file_old_or_new_and_every_edit_pending_or_committed() {
    let tally = scenario("commit", 60);
    super::figures::record("kill_commit", serde_json::to_value(&tally).unwrap());
    check(&tally);
    assert!(tally.kills_mid_commit > 0, "no kill landed inside a commit: {tally:?}");
}
