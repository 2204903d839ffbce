//! Undo/redo, version rings, checkpoints, diff and the history verb.

use folio_env::{EnvOptions, Limits, RunRecord};
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, env_with, err, ok, put, read};

#[test]
fn undo_and_redo_walk_a_files_versions() {
    let env = env();
    check(
        &env,
        &[
            ("write_file", json!({"path": "/out/a.txt", "content": "v1"}), Ok(&[])),
            ("write_file", json!({"path": "/out/a.txt", "content": "v2"}), Ok(&[])),
            ("edit_file", json!({"path": "/out/a.txt", "old_str": "v2", "new_str": "v3"}), Ok(&[])),
            (
                "undo",
                json!({"path": "/out/a.txt"}),
                Ok(&[
                    "reverted /out/a.txt to the version saved before \"edit\"",
                    "file restored",
                    "2 more undo step(s), 1 redo step(s)",
                ]),
            ),
            ("undo", json!({"path": "/out/a.txt"}), Ok(&["before \"write\""])),
            ("redo", json!({"path": "/out/a.txt"}), Ok(&["redid /out/a.txt", "file restored"])),
            ("redo", json!({"path": "/out/a.txt"}), Ok(&["0 more redo step(s)"])),
            ("redo", json!({"path": "/out/a.txt"}), Err(&["nothing to redo for /out/a.txt"])),
        ],
    );
    assert_eq!(read(&env, "/out/a.txt").as_deref(), Some("v3"));
    // A fresh change truncates the redo branch.
    ok(&env, "undo", json!({"path": "/out/a.txt"}));
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "fork"}));
    assert!(err(&env, "redo", json!({"path": "/out/a.txt"})).contains("nothing to redo"));
    check(
        &env,
        &[
            ("undo", json!({"path": "/out/a.txt"}), Ok(&[])),
            ("undo", json!({"path": "/out/a.txt"}), Ok(&[])),
            ("undo", json!({"path": "/out/a.txt"}), Ok(&["file removed (this undid its creation)"])),
            ("undo", json!({"path": "/out/a.txt"}), Err(&["nothing to undo for /out/a.txt"])),
            ("undo", json!({"path": "/out"}), Err(&["it is a directory"])),
            ("undo", json!({"path": "/.env/history.jsonl"}), Err(&["read-only"])),
            ("undo", json!({"path": "/scripts/x.d.ts"}), Err(&["derived"])),
        ],
    );
    assert!(read(&env, "/out/a.txt").is_none());
}

#[test]
fn rm_is_undoable_file_by_file_and_rings_are_bounded() {
    let env = env_with(EnvOptions {
        limits: Limits { max_versions_per_file: 2, ..Default::default() },
        ..Default::default()
    });
    ok(&env, "write_file", json!({"path": "/tmp/d/1.txt", "content": "one"}));
    ok(&env, "write_file", json!({"path": "/tmp/d/2.txt", "content": "two"}));
    ok(&env, "rm", json!({"path": "/tmp/d"}));
    assert!(ok(&env, "undo", json!({"path": "/tmp/d/1.txt"})).contains("before \"rm\""));
    assert_eq!(read(&env, "/tmp/d/1.txt").as_deref(), Some("one"));
    assert!(read(&env, "/tmp/d/2.txt").is_none());
    for v in ["v1", "v2", "v3", "v4"] {
        ok(&env, "write_file", json!({"path": "/tmp/r.txt", "content": v}));
    }
    ok(&env, "undo", json!({"path": "/tmp/r.txt"}));
    ok(&env, "undo", json!({"path": "/tmp/r.txt"}));
    assert!(err(&env, "undo", json!({"path": "/tmp/r.txt"})).contains("nothing to undo"));
    assert_eq!(read(&env, "/tmp/r.txt").as_deref(), Some("v2"));
    // mv records both ends.
    ok(&env, "mv", json!({"from": "/tmp/r.txt", "to": "/out/r.txt"}));
    ok(&env, "undo", json!({"path": "/tmp/r.txt"}));
    assert_eq!(read(&env, "/tmp/r.txt").as_deref(), Some("v2"));
}

#[test]
fn history_lists_versions_and_runs() {
    let env = env();
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "one"}));
    ok(&env, "edit_file", json!({"path": "/out/a.txt", "old_str": "one", "new_str": "two"}));
    let h = ok(&env, "history", json!({"path": "/out/a.txt"}));
    assert!(h.starts_with("/out/a.txt: 2 version(s) behind, 0 ahead"), "{h}");
    assert!(h.contains("edit  ") && h.contains("write ") && h.contains("(absent)") && h.contains("3B"), "{h}");
    assert!(err(&env, "history", json!({"path": "/out/none"})).contains("no recorded versions for /out/none"));
    assert_eq!(ok(&env, "history", json!({})), "no runs recorded yet");
    for (script, okay) in [("/scripts/add.js", true), ("/scripts/boom.js", false)] {
        let rec = RunRecord {
            ts: "2025-01-01T00:00:00.000Z".into(),
            script: script.into(),
            args: json!({"a": 1, "b": 2}),
            ok: okay,
            kind: "run".into(),
            ms: 12,
            preview: "result".into(),
            spill: None,
        };
        folio_env::record_run(&env, &rec).unwrap();
    }
    let runs = ok(&env, "history", json!({}));
    assert!(runs.contains("ok   12ms  /scripts/add.js args={\"a\":1,\"b\":2}"), "{runs}");
    assert!(runs.contains("FAIL 12ms  /scripts/boom.js"), "{runs}");
    assert!(ok(&env, "grep", json!({"pattern": "boom", "path": "/.env"})).contains("/.env/history.jsonl:2:"));
    assert!(!ok(&env, "grep", json!({"pattern": "two"})).contains("/.env/versions"));
}

#[test]
fn run_log_is_a_ring() {
    let env =
        env_with(EnvOptions { limits: Limits { max_history_lines: 3, ..Default::default() }, ..Default::default() });
    for i in 1..=5 {
        let rec = RunRecord {
            ts: "t".into(),
            script: format!("/scripts/r{i}.js"),
            args: json!({}),
            ok: true,
            kind: "run".into(),
            ms: 1,
            preview: String::new(),
            spill: None,
        };
        folio_env::record_run(&env, &rec).unwrap();
    }
    let runs = ok(&env, "history", json!({}));
    assert!(!runs.contains("r2.js") && runs.contains("r3.js") && runs.contains("r5.js"), "{runs}");
}

#[test]
fn run_log_is_byte_bounded_too_and_keeps_the_newest() {
    let env =
        env_with(EnvOptions { limits: Limits { max_file_bytes: 1000, ..Default::default() }, ..Default::default() });
    let rec = |i: usize, preview: usize| RunRecord {
        ts: "t".into(),
        script: format!("/scripts/r{i}.js"),
        args: json!({}),
        ok: true,
        kind: "run".into(),
        ms: 1,
        preview: "p".repeat(preview),
        spill: None,
    };
    for i in 1..=5 {
        folio_env::record_run(&env, &rec(i, 300)).unwrap();
    }
    let log = read(&env, "/.env/history.jsonl").unwrap();
    assert!(log.len() <= 1000 && log.lines().count() == 2, "{} bytes, {} lines", log.len(), log.lines().count());
    assert!(log.contains("r4.js") && log.contains("r5.js"), "{log}");
    folio_env::record_run(&env, &rec(6, 2000)).unwrap();
    let log = read(&env, "/.env/history.jsonl").unwrap();
    assert_eq!(log.lines().count(), 1, "one oversized run is still kept");
    assert!(log.contains("r6.js"));
}

#[test]
fn checkpoints_fork_restore_list_and_drop() {
    let env = env();
    check(
        &env,
        &[
            ("checkpoint", json!({}), Ok(&["no checkpoints yet"])),
            ("write_file", json!({"path": "/out/a.txt", "content": "state a"}), Ok(&[])),
            ("write_file", json!({"path": "/scripts/s.js", "content": "export default () => 1"}), Ok(&[])),
            (
                "checkpoint",
                json!({"action": "fork", "name": "state-a"}),
                Ok(&["saved checkpoint \"state-a\": 3 file(s)"]),
            ),
            ("write_file", json!({"path": "/out/a.txt", "content": "state b"}), Ok(&[])),
            ("rm", json!({"path": "/scripts/s.js"}), Ok(&[])),
            ("write_file", json!({"path": "/tmp/new.txt", "content": "new"}), Ok(&[])),
            ("checkpoint", json!({"action": "fork", "name": "state-b"}), Ok(&[])),
            ("checkpoint", json!({"action": "list"}), Ok(&["state-a  3 file(s)", "state-b  2 file(s)"])),
            (
                "checkpoint",
                json!({"action": "restore", "name": "state-a"}),
                Ok(&[
                    "restored \"state-a\": 3 file(s) put back, 1 created since then removed",
                    "Run history is unchanged",
                ]),
            ),
        ],
    );
    assert_eq!(read(&env, "/out/a.txt").as_deref(), Some("state a"));
    assert!(read(&env, "/scripts/s.js").is_some());
    assert!(read(&env, "/tmp/new.txt").is_none());
    assert!(err(&env, "undo", json!({"path": "/out/a.txt"})).contains("nothing to undo"));
    check(
        &env,
        &[
            ("checkpoint", json!({"action": "restore", "name": "state-b"}), Ok(&[])),
            ("checkpoint", json!({"action": "drop", "name": "state-a"}), Ok(&["dropped checkpoint \"state-a\""])),
            (
                "checkpoint",
                json!({"action": "restore", "name": "state-a"}),
                Err(&["no checkpoint named \"state-a\". Existing: state-b."]),
            ),
            ("checkpoint", json!({"action": "fork", "name": "../escape"}), Err(&["invalid checkpoint name"])),
            ("checkpoint", json!({"action": "fork", "name": ""}), Err(&["invalid checkpoint name"])),
            ("checkpoint", json!({"action": "fork"}), Err(&["checkpoint fork needs { name }"])),
            ("checkpoint", json!({"action": "explode", "name": "x"}), Err(&["unknown checkpoint action \"explode\""])),
        ],
    );
    assert_eq!(read(&env, "/out/a.txt").as_deref(), Some("state b"));
    assert_eq!(read(&env, "/tmp/new.txt").as_deref(), Some("new"));
}

#[test]
fn checkpoints_never_contain_checkpoints() {
    let env = env();
    put(&env, "/out/data.txt", &"d".repeat(5000));
    for name in ["one", "two", "three"] {
        ok(&env, "checkpoint", json!({"action": "fork", "name": name}));
    }
    let list = ok(&env, "checkpoint", json!({}));
    assert_eq!(list.matches("1 file(s), 4.9KB").count(), 3, "{list}");
    ok(&env, "checkpoint", json!({"action": "restore", "name": "one"}));
    assert!(ok(&env, "checkpoint", json!({})).contains("three"));
}

#[test]
fn diff_against_undo_version_and_checkpoint() {
    let env = env();
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "one\ntwo\nthree"}));
    ok(&env, "checkpoint", json!({"action": "fork", "name": "base"}));
    ok(&env, "edit_file", json!({"path": "/out/a.txt", "old_str": "two", "new_str": "two point five"}));
    let d = ok(&env, "diff", json!({"path": "/out/a.txt"}));
    assert!(d.contains("vs the version before \"edit\"") && d.contains("\n one\n-two\n+two point five\n three"), "{d}");
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "one\ntwo point five\nthree"}));
    assert!(ok(&env, "diff", json!({"path": "/out/a.txt"})).contains("unchanged since"));
    ok(&env, "write_file", json!({"path": "/out/new.txt", "content": "n"}));
    put(&env, "/tmp/x", "x");
    check(
        &env,
        &[
            ("diff", json!({"path": "/tmp/x"}), Err(&["no earlier version of /tmp/x is recorded"])),
            ("diff", json!({"path": "/out/a.txt", "checkpoint": "base"}), Ok(&["checkpoint \"base\"", "-two"])),
            (
                "diff",
                json!({"path": "/out/new.txt", "checkpoint": "base"}),
                Ok(&["did not exist in checkpoint \"base\" — it is new (1 lines)"]),
            ),
            ("rm", json!({"path": "/out/a.txt"}), Ok(&[])),
            (
                "diff",
                json!({"path": "/out/a.txt", "checkpoint": "base"}),
                Ok(&["exists in checkpoint \"base\" but not now — it was removed (3 lines then)"]),
            ),
            (
                "diff",
                json!({"path": "/out/zzz", "checkpoint": "base"}),
                Err(&["does not exist now and did not exist in checkpoint \"base\""]),
            ),
            ("diff", json!({"path": "/out/a.txt", "checkpoint": "nope"}), Err(&["no checkpoint named \"nope\""])),
        ],
    );
    let long_a: Vec<String> = (0..20).map(|i| format!("l{i}")).collect();
    let mut long_b = long_a.clone();
    long_b[10] = "changed".into();
    let a: Vec<&str> = long_a.iter().map(String::as_str).collect();
    let b: Vec<&str> = long_b.iter().map(String::as_str).collect();
    let out = folio_env::verbs::diff::line_diff(&a, &b).unwrap();
    assert_eq!(
        out,
        "@@ 7 unchanged lines @@\n l7\n l8\n l9\n-l10\n+changed\n l11\n l12\n l13\n@@ 6 unchanged lines @@"
    );
}

#[test]
fn restore_keeps_run_history_and_never_touches_protected_zones() {
    let env = env_with(EnvOptions { read_only_paths: vec!["/corpus".into()], ..Default::default() });
    check(
        &env,
        &[(
            "checkpoint",
            json!({"action": "restore", "name": "first"}),
            Err(&["no checkpoint named \"first\" — none have been created yet", "fork"]),
        )],
    );
    let run = |script: &str| RunRecord {
        ts: "t".into(),
        script: script.into(),
        args: json!({}),
        ok: true,
        kind: "run".into(),
        ms: 1,
        preview: String::new(),
        spill: Some("/tmp/run-1.out".into()),
    };
    folio_env::record_run(&env, &run("/scripts/before.js")).unwrap();
    put(&env, "/out/a.txt", "a");
    ok(&env, "checkpoint", json!({"action": "fork", "name": "first"}));
    folio_env::record_run(&env, &run("/scripts/after.js")).unwrap();
    env.mount("/corpus", "ref.txt", b"seeded after the fork").unwrap();
    let skills = read(&env, "/skills/README.md").unwrap();
    ok(&env, "checkpoint", json!({"action": "restore", "name": "first"}));
    let runs = ok(&env, "history", json!({}));
    assert!(runs.contains("/scripts/before.js") && runs.contains("/scripts/after.js"), "{runs}");
    assert!(runs.contains("spill=/tmp/run-1.out"), "{runs}");
    assert_eq!(read(&env, "/corpus/ref.txt").as_deref(), Some("seeded after the fork"));
    assert_eq!(read(&env, "/skills/README.md").unwrap(), skills);
    check(
        &env,
        &[
            ("checkpoint", json!({"action": "restore", "name": "missing"}), Err(&["Existing: first."])),
            ("checkpoint", json!({"action": "drop", "name": "missing"}), Err(&["no checkpoint named \"missing\""])),
            (
                "diff",
                json!({"path": "/out/a.txt", "checkpoint": "first"}),
                Ok(&["unchanged since checkpoint \"first\""]),
            ),
        ],
    );
}

/// A run record for the append tests.
fn record(i: usize) -> RunRecord {
    RunRecord {
        ts: "t".into(),
        script: format!("/scripts/r{i}.js"),
        args: json!({}),
        ok: true,
        kind: "run".into(),
        ms: 1,
        preview: String::new(),
        spill: None,
    }
}

#[test]
fn a_run_appends_its_record_in_place_and_a_torn_last_line_is_skipped_with_a_note() {
    use std::os::unix::fs::MetadataExt;
    let state = tempfile::tempdir().unwrap();
    let host = state.path().join("dotenv").join("history.jsonl");
    let open = || {
        folio_env::Environment::new(
            std::sync::Arc::new(folio_vfs::MemTree::new()),
            Some(state.path()),
            EnvOptions::default(),
        )
        .unwrap()
    };
    let env = open();
    folio_env::record_run(&env, &record(1)).unwrap();
    let inode = std::fs::metadata(&host).unwrap().ino();
    for i in 2..=4 {
        folio_env::record_run(&env, &record(i)).unwrap();
    }
    // Appended in place: the same file, not a rewritten copy renamed over it.
    assert_eq!(std::fs::metadata(&host).unwrap().ino(), inode, "the log was rewritten instead of appended to");
    assert_eq!(read(&env, "/.env/history.jsonl").unwrap().lines().count(), 4);
    // A crash mid-append leaves half a line; a new environment over the same state goes on.
    let mut torn = std::fs::read(&host).unwrap();
    torn.extend_from_slice(br#"{"ts":"t","script":"/scripts/r5.js","ar"#);
    std::fs::write(&host, &torn).unwrap();
    let env = open();
    let shown = ok(&env, "history", json!({}));
    assert!(shown.contains("r4.js") && !shown.contains("r5.js"), "{shown}");
    assert!(shown.contains("(1 line of /.env/history.jsonl could not be read — a record torn by a crash mid-append — and is skipped; the runs around it are intact)"), "{shown}");
    folio_env::record_run(&env, &record(6)).unwrap();
    let log = read(&env, "/.env/history.jsonl").unwrap();
    let last = log.lines().last().unwrap();
    assert_eq!(
        serde_json::from_str::<RunRecord>(last).unwrap().script,
        "/scripts/r6.js",
        "the next record starts a line of its own: {log}"
    );
    let shown = ok(&env, "history", json!({}));
    assert!(shown.contains("r4.js") && shown.contains("r6.js") && shown.contains("1 line of"), "{shown}");
}

#[test]
fn the_run_log_is_trimmed_by_a_tenth_at_a_time_and_never_past_its_cap() {
    let env =
        env_with(EnvOptions { limits: Limits { max_history_lines: 50, ..Default::default() }, ..Default::default() });
    let mut most = 0;
    for i in 1..=200 {
        folio_env::record_run(&env, &record(i)).unwrap();
        let n = read(&env, "/.env/history.jsonl").unwrap().lines().count();
        assert!(n <= 50, "{n} lines after run {i}");
        most = most.max(n);
    }
    assert_eq!(most, 50);
    let log = read(&env, "/.env/history.jsonl").unwrap();
    assert!(log.lines().last().unwrap().contains("r200.js"));
    assert!(log.lines().count() >= 45, "trimmed to nine tenths, not to one line");
}
