//! The tree-size figure behind `limits.max_vfs_bytes`: counted once, then kept current by each
//! mutation's measured delta. After any mix of operations it must equal a fresh count.

use folio_env::{Environment, RunRecord};
use folio_vfs::{Tree, VPath};
use serde_json::{Value, json};

use super::{env, p};

/// The size by a fresh walk, stat'ing every file (a different path through the code than the
/// listing the cache is counted with).
fn fresh_total(env: &Environment) -> u64 {
    let tree = env.tree();
    tree.walk(&VPath::root()).unwrap().iter().map(|f| tree.stat(f).unwrap().unwrap().size).sum()
}

/// Runs each call (success or failure both allowed) and checks the cached size after each one.
fn run_and_compare(env: &Environment, calls: &[(&str, Value)]) {
    assert_eq!(env.tree().total_size().unwrap(), fresh_total(env), "initial count");
    for (verb, args) in calls {
        let r = env.call(verb, args.clone());
        let cached = env.tree().cached_size().expect("the size stays counted once counted");
        assert_eq!(cached, fresh_total(env), "after {verb} {args} ({:?}: {})", r.status, r.message);
    }
}

fn mixed_calls() -> Vec<(&'static str, Value)> {
    vec![
        ("write_file", json!({"path": "/out/a.txt", "content": "alpha\n"})),
        ("write_file", json!({"path": "/out/a.txt", "content": "beta\n", "append": true})),
        ("edit_file", json!({"path": "/out/a.txt", "old_str": "beta", "new_str": "gamma gamma"})),
        ("write_file", json!({"path": "/out/a.txt", "content": "short"})),
        ("write_file", json!({"path": "/tmp/d/1.txt", "content": "one"})),
        ("write_file", json!({"path": "/tmp/d/2.txt", "content": "two two"})),
        ("write_file", json!({"path": "/tmp/d/sub/3.txt", "content": "three three three"})),
        ("cp", json!({"from": "/tmp/d", "to": "/out/d"})),
        ("cp", json!({"from": "/out/a.txt", "to": "/out/d/1.txt"})),
        ("mv", json!({"from": "/out/d", "to": "/inbox/d"})),
        ("mv", json!({"from": "/inbox/d/2.txt", "to": "/tmp/moved.txt"})),
        ("mv", json!({"from": "/tmp/moved.txt", "to": "/inbox/d/1.txt"})),
        ("rm", json!({"path": "/tmp/d"})),
        ("undo", json!({"path": "/tmp/d/sub/3.txt"})),
        ("undo", json!({"path": "/out/a.txt"})),
        ("undo", json!({"path": "/out/a.txt"})),
        ("redo", json!({"path": "/out/a.txt"})),
        ("checkpoint", json!({"action": "fork", "name": "one"})),
        ("write_file", json!({"path": "/out/new.txt", "content": "created after the fork"})),
        ("rm", json!({"path": "/inbox/d/1.txt"})),
        ("checkpoint", json!({"action": "restore", "name": "one"})),
        ("checkpoint", json!({"action": "drop", "name": "one"})),
        ("read_file", json!({"path": "/.env/orientation.md"})),
        ("rm", json!({"path": "/missing"})),
        ("write_file", json!({"path": "/std/x", "content": "refused"})),
        ("rm", json!({"path": "/inbox"})),
        ("undo", json!({"path": "/inbox/d/1.txt"})),
    ]
}

#[test]
fn the_cached_size_matches_a_fresh_count_after_every_kind_of_change() {
    let env = env();
    run_and_compare(&env, &mixed_calls());
    // Doors and environment-owned writes are measured too.
    env.mount("/inbox", "drop.bin", &[7u8; 300]).unwrap();
    let run = RunRecord {
        ts: "2025-01-01T00:00:00Z".into(),
        script: "/scripts/x.js".into(),
        args: json!({}),
        ok: true,
        kind: "run".into(),
        ms: 1,
        preview: "done".into(),
        spill: None,
    };
    folio_env::record_run(&env, &run).unwrap();
    let long = (0..400).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
    env.spill(&long, 0.5, "out");
    assert_eq!(env.tree().cached_size(), Some(fresh_total(&env)));
    // Raw writes that fail change nothing, and the figure says so.
    env.tree().write(&p("/inbox/dir/f.txt"), b"12345").unwrap();
    assert!(env.tree().write(&p("/inbox/dir"), b"onto a directory").is_err());
    assert!(env.tree().write(&p("/inbox/dir/f.txt/under"), b"under a file").is_err());
    assert!(env.tree().rm(&p("/inbox/nothing")).is_err());
    assert_eq!(env.tree().cached_size(), Some(fresh_total(&env)));
    // A change behind the environment's back is recounted once the host says so.
    env.tree().folder().write(&p("/inbox/behind.txt"), b"unseen").unwrap();
    env.gateway().note_external_change();
    assert_eq!(env.tree().total_size().unwrap(), fresh_total(&env));
}

#[test]
fn the_cached_size_stays_exact_over_a_real_folder() {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    for i in 0..30 {
        let dir = folder.path().join(format!("base/d{}", i % 3));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("f{i}.txt")), "x".repeat(i * 10)).unwrap();
    }
    let opts = folio_env::EnvOptions { state_root: Some(state.path().to_path_buf()), ..Default::default() };
    let env = Environment::open_folder(folder.path(), opts).unwrap();
    let mut calls = mixed_calls();
    calls.extend([
        ("mv", json!({"from": "/base/d0", "to": "/base/renamed"})),
        ("mv", json!({"from": "/base/d1/f1.txt", "to": "/base/renamed/f0.txt"})),
        ("rm", json!({"path": "/base/d2"})),
        ("undo", json!({"path": "/base/d2/f2.txt"})),
        ("cp", json!({"from": "/base", "to": "/tmp/base"})),
        ("mv", json!({"from": "/tmp/base", "to": "/out/base"})),
    ]);
    run_and_compare(&env, &calls);
}
