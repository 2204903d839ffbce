//! The reference's bugs #4 and #12: a checkpoint restore passes the checks a write does, and the
//! environment's own state (the run log, checkpoints) is written through the checked path —
//! inside `/.env`, within the limits, crash-safe.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use folio_env::{EnvOptions, Environment, Limits, RunRecord};
use folio_vfs::{MemTree, Tree};
use serde_json::{Value, json};

use super::{env_with, err, ok, p, read};

fn run(script: &str, preview: &str) -> RunRecord {
    RunRecord {
        ts: "2026-01-01T00:00:00Z".into(),
        script: script.into(),
        args: json!({}),
        ok: true,
        kind: "run".into(),
        ms: 1,
        preview: preview.into(),
        spill: None,
    }
}

fn open(folder: &Path, state: &Path, read_only_folder: bool) -> Environment {
    let limits = Limits { max_file_bytes: 4096, ..Limits::default() };
    let opts = EnvOptions { state_root: Some(state.to_path_buf()), read_only_folder, limits, ..Default::default() };
    Environment::open_folder(folder, opts).unwrap()
}

/// Where the environment keeps `/.env/checkpoints` on disk.
fn checkpoints_dir(env: &Environment) -> PathBuf {
    env.overlay().unwrap().state_dir().join("env/dotenv/checkpoints")
}

/// Adds (or replaces) `path` in the manifest at `manifest` with a consistent blob holding `data`:
/// a forgery a hash check cannot catch, so only the write checks can.
fn forge(dir: &Path, path: &str, data: &[u8]) {
    let hash = blake3::hash(data).to_hex().to_string();
    std::fs::write(dir.join("blobs").join(&hash), data).unwrap();
    let manifest = dir.join("base.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    let files = m["files"].as_array_mut().unwrap();
    files.retain(|f| f["path"] != path);
    files.push(json!({"path": path, "size": data.len(), "blob": hash}));
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
}

fn tamper_blob_of(dir: &Path, path: &str) {
    let m: Value = serde_json::from_slice(&std::fs::read(dir.join("base.json")).unwrap()).unwrap();
    let f = m["files"].as_array().unwrap().iter().find(|f| f["path"] == path).unwrap();
    std::fs::write(dir.join("blobs").join(f["blob"].as_str().unwrap()), "edited behind Folio's back").unwrap();
}

/// Everything a refused restore must leave as it was.
fn snapshot(env: &Environment) -> (Vec<(String, Option<String>)>, u64, usize) {
    let files = ["/out/a.txt", "/out/new.txt", "/scripts/good.js", "/scripts/good.d.ts", "/out/big.bin"]
        .iter()
        .map(|f| (f.to_string(), read(env, f)))
        .collect();
    (files, env.gateway().counters().mutations, env.overlay().unwrap().pending_count().unwrap())
}

#[test]
fn restore_refuses_a_checkpoint_tampered_with_on_disk_and_changes_nothing() {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    let env = open(folder.path(), state.path(), false);
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "at the fork"}));
    let good = "/** Says hi. */\nexport default function () { return 'hi'; }\n";
    ok(&env, "write_file", json!({"path": "/scripts/good.js", "content": good}));
    ok(&env, "checkpoint", json!({"action": "fork", "name": "base"}));
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "after the fork"}));
    ok(&env, "write_file", json!({"path": "/out/new.txt", "content": "created after the fork"}));
    let dir = checkpoints_dir(&env);
    let pristine = std::fs::read(dir.join("base.json")).unwrap();
    type Tamper = fn(&Path);
    let cases: [(&str, Tamper, &[&str]); 6] = [
        (
            "a blob edited on disk",
            |d| tamper_blob_of(d, "/out/a.txt"),
            &[
                "its stored copy of /out/a.txt was changed on disk after the fork",
                "drop it (checkpoint({action:'drop', name:'base'}))",
            ],
        ),
        (
            "an invalid script",
            |d| forge(d, "/scripts/good.js", b"export const notDefault = 1;\n"),
            &[
                "checkpoint \"base\" was not restored, and nothing was changed",
                "/scripts/good.js is not a valid script",
                "drop it",
            ],
        ),
        (
            "an oversized file",
            |d| forge(d, "/out/big.bin", &[7u8; 5000]),
            &[
                "file size limit exceeded: /out/big.bin would be 5000 bytes, over the 4096-byte cap (limits.max_file_bytes)",
                "nothing was changed",
            ],
        ),
        (
            "a file in /std",
            |d| forge(d, "/std/fs/index.d.ts", b"export {}"),
            &[
                "cannot restore /std/fs/index.d.ts: /std holds the generated module documentation",
                "nothing was changed",
            ],
        ),
        (
            "a file in /.env",
            |d| forge(d, "/.env/history.jsonl", b"{}\n"),
            &["cannot restore /.env/history.jsonl: /.env is maintained by the environment"],
        ),
        (
            "a TypeScript source",
            |d| forge(d, "/scripts/x.ts", b"export default () => 1"),
            &["cannot restore /scripts/x.ts: TypeScript sources cannot run here"],
        ),
    ];
    let before = snapshot(&env);
    for (what, tamper, wanted) in cases {
        std::fs::write(dir.join("base.json"), &pristine).unwrap();
        // Mend the blob the first case edits (same content, same hash, same manifest entry).
        forge(&dir, "/out/a.txt", b"at the fork");
        tamper(&dir);
        let msg = err(&env, "checkpoint", json!({"action": "restore", "name": "base"}));
        for w in wanted {
            assert!(msg.contains(w), "{what}: expected {w:?} in:\n{msg}");
        }
        assert_eq!(snapshot(&env), before, "{what}: the refused restore changed something");
    }
    // Untampered, the same checkpoint restores, its script's .d.ts regenerated.
    std::fs::write(dir.join("base.json"), &pristine).unwrap();
    forge(&dir, "/out/a.txt", b"at the fork");
    let dts = read(&env, "/scripts/good.d.ts").unwrap();
    ok(&env, "rm", json!({"path": "/scripts/good.js"}));
    assert!(read(&env, "/scripts/good.d.ts").is_none());
    let msg = ok(&env, "checkpoint", json!({"action": "restore", "name": "base"}));
    assert!(msg.contains("restored \"base\""), "{msg}");
    assert_eq!(read(&env, "/out/a.txt").as_deref(), Some("at the fork"));
    assert!(read(&env, "/out/new.txt").is_none());
    assert_eq!(read(&env, "/scripts/good.d.ts").as_deref(), Some(dts.as_str()));
}

#[test]
fn restore_validates_each_script_among_the_files_coming_back_with_it() {
    let env = super::env();
    ok(&env, "write_file", json!({"path": "/scripts/lib/util.js", "content": "export const twice = (n) => 2 * n;\n"}));
    let main =
        "import { twice } from './lib/util.js';\n/** Doubles. */\nexport default function () { return twice(21); }\n";
    ok(&env, "write_file", json!({"path": "/scripts/main.js", "content": main}));
    ok(&env, "checkpoint", json!({"action": "fork", "name": "both"}));
    ok(&env, "rm", json!({"path": "/scripts/main.js"}));
    ok(&env, "rm", json!({"path": "/scripts/lib/util.js"}));
    ok(&env, "checkpoint", json!({"action": "restore", "name": "both"}));
    assert!(ok(&env, "run_script", json!({"path": "/scripts/main.js"})).contains("42"));
    assert!(read(&env, "/scripts/main.d.ts").is_some());
}

#[test]
fn restore_into_a_folder_opened_read_only_is_refused_with_the_way_out() {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "at the fork\n").unwrap();
    let env = open(folder.path(), state.path(), false);
    ok(&env, "checkpoint", json!({"action": "fork", "name": "base"}));
    drop(env);
    std::fs::write(folder.path().join("notes.txt"), "changed by the person\n").unwrap();
    let env = open(folder.path(), state.path(), true);
    let msg = err(&env, "checkpoint", json!({"action": "restore", "name": "base"}));
    for w in [
        "checkpoint \"base\" was not restored, and nothing was changed",
        "cannot restore /notes.txt: the folder is open read-only",
        "--read-only-folder",
    ] {
        assert!(msg.contains(w), "expected {w:?} in:\n{msg}");
    }
    assert!(!msg.contains("drop it"), "a sound checkpoint is not called broken: {msg}");
    assert_eq!(env.overlay().unwrap().pending_count().unwrap(), 0);
    assert_eq!(std::fs::read_to_string(folder.path().join("notes.txt")).unwrap(), "changed by the person\n");
}

#[test]
fn the_environments_own_writes_stay_in_env_and_within_the_limits() {
    // The cap leaves 20 000 bytes above what a fresh environment holds (/std and /skills).
    let base = super::env().tree().total_size().unwrap();
    let cap = base + 20_000;
    let limits = Limits { max_file_bytes: 2000, max_vfs_bytes: cap, ..Limits::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    let gw = env.gateway();
    for outside in ["/out/history.jsonl", "/tmp/x", "/scripts/x.js", "/std/x", "/.env"] {
        let e = gw.write_state(&p(outside), b"state").unwrap_err().to_string();
        assert!(
            e.contains(&format!("cannot store environment state at {outside}")) && e.contains("only under /.env"),
            "{e}"
        );
        assert!(read(&env, outside).is_none() || outside == "/.env", "{outside} was written");
    }
    let e = gw.write_state(&p("/.env/big"), &[1u8; 2001]).unwrap_err().to_string();
    assert!(e.contains("file size limit exceeded: /.env/big") && e.contains("limits.max_file_bytes"), "{e}");
    // Fill the tree to just under its cap: the run log and a fork are refused by name.
    let room = cap - env.tree().total_size().unwrap();
    let hits = gw.counters().limit_hits;
    for i in 0..(room / 1900) {
        env.tree().write(&p(&format!("/out/fill-{i}")), &vec![b'x'; 1900]).unwrap();
    }
    let left = cap - env.tree().total_size().unwrap();
    env.tree().write(&p("/out/last"), &vec![b'y'; left as usize - 20]).unwrap();
    let e = folio_env::record_run(&env, &run("/scripts/x.js", "done")).unwrap_err().to_string();
    assert!(e.contains("/.env/history.jsonl") && e.contains("limits.max_vfs_bytes"), "{e}");
    assert!(read(&env, "/.env/history.jsonl").is_none(), "the refused append wrote nothing");
    let msg = err(&env, "checkpoint", json!({"action": "fork", "name": "full"}));
    assert!(msg.contains("checkpoint \"full\" was not saved") && msg.contains("limits.max_vfs_bytes"), "{msg}");
    assert!(msg.contains("checkpoint({action:'drop'"), "{msg}");
    assert!(ok(&env, "checkpoint", json!({})).contains("no checkpoints yet"), "no manifest was written");
    assert_eq!(gw.counters().limit_hits, hits + 2);
    assert!(env.tree().total_size().unwrap() <= cap, "the tree stayed within its cap");
    // A run's reply says it was not recorded, instead of dropping that silently.
    env.tree().rm(&p("/out/last")).unwrap();
    let script = "/** Big. */\nexport default function () { return 1; }\n";
    ok(&env, "write_file", json!({"path": "/scripts/one.js", "content": script}));
    env.tree().write(&p("/out/last"), &vec![b'y'; (cap - env.tree().total_size().unwrap()) as usize - 10]).unwrap();
    let reply = ok(&env, "run_script", json!({"path": "/scripts/one.js"}));
    assert!(
        reply.contains("(this run was not recorded in /.env/history.jsonl: environment size limit exceeded"),
        "{reply}"
    );
}

#[test]
fn a_run_record_over_the_file_cap_is_clipped_not_refused() {
    let limits = Limits { max_file_bytes: 1000, ..Limits::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    folio_env::record_run(&env, &run("/scripts/huge.js", &"e".repeat(5000))).unwrap();
    let log = read(&env, "/.env/history.jsonl").unwrap();
    assert!(log.len() <= 1000 && log.contains("huge.js") && log.contains("[clipped]"), "{} bytes: {log}", log.len());
    let back: RunRecord = serde_json::from_str(log.trim_end()).unwrap();
    assert!(back.ok && back.script == "/scripts/huge.js");
}

/// The child: appends runs and forks checkpoints over one state directory until it is killed.
#[test]
fn state_writer_child() {
    let Ok(state) = std::env::var("FOLIO_STATE_WRITER") else { return };
    let env = Environment::new(Arc::new(MemTree::new()), Some(Path::new(&state)), EnvOptions::default()).unwrap();
    for i in 0u64.. {
        let preview = format!("run {i} {}", "p".repeat((i % 7 * 300) as usize));
        folio_env::record_run(&env, &run(&format!("/scripts/r{i}.js"), &preview)).unwrap();
        if i % 4 == 0 {
            env.tree().write(&p("/out/data.txt"), format!("generation {i}\n").repeat(200).as_bytes()).unwrap();
            ok(&env, "checkpoint", json!({"action": "fork", "name": format!("c{}", i % 3)}));
        }
    }
}

#[test]
fn the_run_log_and_checkpoints_survive_a_kill_at_any_moment() {
    let exe = std::env::current_exe().unwrap();
    let state = tempfile::tempdir().unwrap();
    let mut seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    let (mut kills, mut records, mut manifests) = (0, 0, 0);
    for _ in 0..12 {
        let mut child = Command::new(&exe)
            .args(["--exact", "suite::state::state_writer_child", "--test-threads=1"])
            .env("FOLIO_STATE_WRITER", state.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        std::thread::sleep(std::time::Duration::from_millis(150 + (seed >> 33) % 350));
        child.kill().unwrap();
        child.wait().unwrap();
        kills += 1;
        // A fresh environment over the same state reads every line and every checkpoint whole.
        let env = Environment::new(Arc::new(MemTree::new()), Some(state.path()), EnvOptions::default()).unwrap();
        if let Some(log) = read(&env, "/.env/history.jsonl") {
            // A kill mid-append may tear the last line (readers skip it and say so); every
            // line before it is whole.
            let whole = if log.ends_with('\n') { log.as_str() } else { log.rsplit_once('\n').map_or("", |(a, _)| a) };
            for line in whole.lines() {
                serde_json::from_str::<RunRecord>(line)
                    .unwrap_or_else(|e| panic!("a torn line after kill {kills}: {e}: {line}"));
            }
            records = log.lines().count();
        }
        let list = ok(&env, "checkpoint", json!({}));
        assert!(!list.contains("unreadable"), "a torn checkpoint after kill {kills}: {list}");
        for name in
            folio_vfs::VPath::parse("/.env/checkpoints").ok().and_then(|d| env.tree().list(&d).ok()).unwrap_or_default()
        {
            let Some(name) = name.name.strip_suffix(".json") else { continue };
            ok(&env, "checkpoint", json!({"action": "restore", "name": name}));
            manifests += 1;
        }
    }
    assert!(records > 0 && manifests > 0, "the child never got to write ({records} records, {manifests} restores)");
    eprintln!("state writes: {kills} kills, {records} run records and {manifests} checkpoint restores intact");
    if let Ok(dir) = std::env::var("FOLIO_RELIABILITY_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        let figure = json!({
            "area": "state-kills",
            "what": "SIGKILL of a process appending to /.env/history.jsonl and forking checkpoints; then every line and checkpoint read back",
            "kills": kills, "torn": 0, "run_records_read": records, "checkpoint_restores": manifests,
        });
        std::fs::write(Path::new(&dir).join("state-kills.json"), figure.to_string()).unwrap();
    }
}
