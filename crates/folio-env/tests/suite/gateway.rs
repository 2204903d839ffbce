//! Zones, read-only paths, limits, the validation hook, mount, counters and telemetry.

use std::sync::{Arc, Mutex};

use folio_env::{EnvOptions, Limits, ScriptValidator, VerbEvent};
use folio_vfs::{Tree, VPath};
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, env_with, err, ok, p, put, read};

fn corpus_env() -> folio_env::Environment {
    let env =
        env_with(EnvOptions { read_only_paths: vec!["/corpus".into(), "/project/src".into()], ..Default::default() });
    env.mount("/corpus", "a.txt", b"alpha\nbeta\n").unwrap();
    env.mount("/project/src", "main.rs", b"fn main() {}\n").unwrap();
    put(&env, "/project/notes.md", "notes");
    env
}

#[test]
fn every_mutating_verb_is_refused_inside_a_read_only_path() {
    let env = corpus_env();
    put(&env, "/tmp/x.txt", "x");
    let zone: &[&str] = &["/corpus is read-only", "cp /corpus/", "/tmp/"];
    check(
        &env,
        &[
            ("write_file", json!({"path": "/corpus/new.txt", "content": "n"}), Err(zone)),
            ("write_file", json!({"path": "/corpus/a.txt", "content": "n"}), Err(zone)),
            ("edit_file", json!({"path": "/corpus/a.txt", "old_str": "alpha", "new_str": "A"}), Err(zone)),
            ("rm", json!({"path": "/corpus/a.txt"}), Err(zone)),
            ("rm", json!({"path": "/corpus"}), Err(&["/corpus is read-only"])),
            ("mv", json!({"from": "/corpus/a.txt", "to": "/tmp/a.txt"}), Err(zone)),
            ("mv", json!({"from": "/tmp/x.txt", "to": "/corpus/x.txt"}), Err(&["/corpus is read-only"])),
            ("cp", json!({"from": "/tmp/x.txt", "to": "/corpus/x.txt"}), Err(&["/corpus is read-only"])),
            ("undo", json!({"path": "/corpus/a.txt"}), Err(&["read-only"])),
            // Reading stays open, and copying out is the documented workflow.
            ("read_file", json!({"path": "/corpus/a.txt"}), Ok(&["1\talpha"])),
            ("grep", json!({"pattern": "beta", "path": "/corpus"}), Ok(&["/corpus/a.txt:2: beta"])),
            ("cp", json!({"from": "/corpus/a.txt", "to": "/tmp/a.txt"}), Ok(&["copied /corpus/a.txt -> /tmp/a.txt"])),
        ],
    );
    assert_eq!(read(&env, "/corpus/a.txt").as_deref(), Some("alpha\nbeta\n"));
    assert!(read(&env, "/corpus/new.txt").is_none());
    assert_eq!(read(&env, "/tmp/x.txt").as_deref(), Some("x"));
}

#[test]
fn removing_or_moving_a_parent_of_a_zone_is_refused() {
    let env = corpus_env();
    check(
        &env,
        &[
            ("rm", json!({"path": "/project"}), Err(&["cannot remove /project", "contains /project/src"])),
            (
                "mv",
                json!({"from": "/project", "to": "/elsewhere"}),
                Err(&["cannot move /project", "contains /project/src"]),
            ),
            ("rm", json!({"path": "/project/notes.md"}), Ok(&["removed /project/notes.md"])),
        ],
    );
    assert!(read(&env, "/project/src/main.rs").is_some());
    assert!(read(&env, "/elsewhere/src/main.rs").is_none());
}

#[test]
fn environment_zones_are_read_only_including_skills() {
    let env = env();
    let before = read(&env, "/skills/imports.md").unwrap();
    check(
        &env,
        &[
            (
                "write_file",
                json!({"path": "/skills/imports.md", "content": "x"}),
                Err(&["/skills", "read-only", "/tmp/imports.md"]),
            ),
            ("write_file", json!({"path": "/skills/new.md", "content": "x"}), Err(&["/skills"])),
            ("rm", json!({"path": "/skills"}), Err(&["cannot remove /skills"])),
            (
                "edit_file",
                json!({"path": "/skills/imports.md", "old_str": "Imports", "new_str": "x"}),
                Err(&["/skills"]),
            ),
            ("write_file", json!({"path": "/std/fs/index.d.ts", "content": "x"}), Err(&["/std", "read-only"])),
            (
                "write_file",
                json!({"path": "/.env/history.jsonl", "content": "x"}),
                Err(&["/.env is maintained by the environment"]),
            ),
            ("rm", json!({"path": "/"}), Err(&["cannot remove the root directory"])),
            ("write_file", json!({"path": "/scripts/a.d.ts", "content": "x"}), Err(&["derived"])),
            ("write_file", json!({"path": "/scripts/y.d.ts/notes/keep.txt", "content": "x"}), Err(&["derived"])),
            ("write_file", json!({"path": "/scripts/a.ts", "content": "x"}), Err(&["TypeScript"])),
            ("cp", json!({"from": "/skills/imports.md", "to": "/tmp/imports.md"}), Ok(&["copied"])),
        ],
    );
    assert_eq!(read(&env, "/skills/imports.md").unwrap(), before);
    assert!(read(&env, "/skills/new.md").is_none());
}

#[test]
fn bad_read_only_configuration_fails_for_the_host() {
    for (paths, want) in [(vec!["/"], "cannot contain \"/\""), (vec!["corpus"], "absolute VFS paths")] {
        let opts = EnvOptions { read_only_paths: paths.into_iter().map(String::from).collect(), ..Default::default() };
        let e = folio_env::Environment::new(Arc::new(folio_vfs::MemTree::new()), None, opts).err().unwrap();
        assert!(e.to_string().contains(want), "{e}");
    }
}

#[test]
fn limits_name_the_field_to_raise_and_count_hits() {
    let limits = Limits { max_file_bytes: 100, ..Default::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    let big = "x".repeat(101);
    check(
        &env,
        &[(
            "write_file",
            json!({"path": "/out/a.txt", "content": big}),
            Err(&["file size limit exceeded", "limits.max_file_bytes"]),
        )],
    );
    assert!(env.mount("/inbox", "big.txt", big.as_bytes()).unwrap_err().to_string().contains("limits.max_file_bytes"));
    assert_eq!(env.gateway().counters().limit_hits, 2);
    assert_eq!(env.gateway().counters().mutations, 0);

    // The whole-tree cap counts the version blob an overwrite leaves behind.
    let base = env_with(EnvOptions::default()).tree().total_size().unwrap();
    let limits = Limits { max_vfs_bytes: base + 12_000, ..Default::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    ok(&env, "write_file", json!({"path": "/tmp/a", "content": "a".repeat(4000)}));
    let msg = err(&env, "write_file", json!({"path": "/tmp/a", "content": "b".repeat(8000)}));
    assert!(msg.contains("environment size limit exceeded") && msg.contains("limits.max_vfs_bytes"), "{msg}");
    assert_eq!(read(&env, "/tmp/a").unwrap().len(), 4000);
}

struct NoEval;
impl ScriptValidator for NoEval {
    fn validate(&self, _: &VPath, source: &[u8], _: &dyn Tree) -> Result<(), String> {
        if String::from_utf8_lossy(source).contains("eval(") {
            Result::Err("eval is not allowed — compute the value directly".into())
        } else {
            Result::Ok(())
        }
    }
}

#[test]
fn the_validation_hook_guards_every_way_into_scripts_including_mount() {
    let env = env_with(EnvOptions { validator: Some(Arc::new(NoEval)), ..Default::default() });
    put(&env, "/tmp/bad.js", "eval(1)");
    check(
        &env,
        &[
            (
                "write_file",
                json!({"path": "/scripts/a.js", "content": "eval(1)"}),
                Err(&["/scripts/a.js was not saved", "eval is not allowed"]),
            ),
            ("cp", json!({"from": "/tmp/bad.js", "to": "/scripts/bad.js"}), Err(&["was not saved"])),
            (
                "write_file",
                json!({"path": "/scripts/a.js", "content": "export default () => 1"}),
                Ok(&["created /scripts/a.js"]),
            ),
            ("write_file", json!({"path": "/tmp/b.js", "content": "eval(1)"}), Ok(&["created"])),
        ],
    );
    let e = env.mount("/scripts", "m.js", b"eval(2)").unwrap_err();
    assert!(e.to_string().contains("was not saved"), "{e}");
    assert!(read(&env, "/scripts/m.js").is_none());
}

#[test]
fn mount_never_overwrites_and_bypasses_only_host_zones() {
    let env = corpus_env();
    let first = env.mount("/inbox", "chart.png", b"one").unwrap();
    let second = env.mount("/inbox", "chart.png", b"two").unwrap();
    let third = env.mount("/inbox", "chart.png", b"three").unwrap();
    let plain = env.mount("/inbox", "README", b"r").unwrap();
    let plain2 = env.mount("/inbox", "README", b"r2").unwrap();
    assert_eq!(
        [first.as_str(), second.as_str(), third.as_str()],
        ["/inbox/chart.png", "/inbox/chart-2.png", "/inbox/chart-3.png"]
    );
    assert_eq!([plain.as_str(), plain2.as_str()], ["/inbox/README", "/inbox/README-2"]);
    assert_eq!(read(&env, "/inbox/chart.png").as_deref(), Some("one"));
    for dir in ["/.env", "/std/fs", "/skills"] {
        let e = env.mount(dir, "x.txt", b"x").unwrap_err().to_string();
        assert!(e.contains("maintained by the environment") && e.contains("/inbox"), "{e}");
    }
}

#[test]
fn telemetry_measures_mutation_and_survives_a_panicking_sink() {
    let events: Arc<Mutex<Vec<VerbEvent>>> = Arc::default();
    let sink = events.clone();
    let on_verb: folio_env::OnVerb = Arc::new(move |e: &VerbEvent| sink.lock().unwrap().push(e.clone()));
    let env = env_with(EnvOptions { on_verb: Some(on_verb), ..Default::default() });
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "a"}));
    ok(&env, "read_file", json!({"path": "/out/a.txt"}));
    err(&env, "rm", json!({"path": "/out/missing"}));
    ok(&env, "checkpoint", json!({"action": "fork", "name": "c"}));
    let got: Vec<(String, bool, bool)> =
        events.lock().unwrap().iter().map(|e| (e.name.clone(), e.ok, e.mutated)).collect();
    assert_eq!(
        got,
        vec![
            ("write_file".into(), true, true),
            ("read_file".into(), true, false),
            ("rm".into(), false, false),
            ("checkpoint".into(), true, false),
        ]
    );
    let mutating: Vec<(&str, bool)> = env.tools().iter().map(|t| (t.name, t.mutates)).collect();
    for (name, m) in [
        ("write_file", true),
        ("undo", true),
        ("checkpoint", true),
        ("read_file", false),
        ("diff", false),
        ("history", false),
    ] {
        assert!(mutating.contains(&(name, m)), "{name}");
    }

    let on_verb: folio_env::OnVerb = Arc::new(|_: &VerbEvent| panic!("sink broke"));
    let env = env_with(EnvOptions { on_verb: Some(on_verb), ..Default::default() });
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "a"}));
    assert_eq!(env.gateway().counters().mutations, 1);
    let _ = p("/");
}

/// A concurrent writer in the validator's seat: while an edit of a script is being validated
/// (after it was read, before it is committed), it rewrites the file, up to `times` times.
struct Interloper {
    times: usize,
    seen: Mutex<usize>,
}

impl ScriptValidator for Interloper {
    fn validate(&self, path: &VPath, _: &[u8], tree: &dyn Tree) -> Result<(), String> {
        let mut seen = self.seen.lock().unwrap();
        if *seen < self.times {
            *seen += 1;
            let current = String::from_utf8(tree.read(path).unwrap()).unwrap();
            tree.write(path, format!("{current}// rewritten {seen}\n").as_bytes()).unwrap();
        }
        Result::Ok(())
    }
}

fn interloper_env(times: usize) -> folio_env::Environment {
    let validator = Arc::new(Interloper { times, seen: Mutex::new(0) });
    let env = env_with(EnvOptions { validator: Some(validator), ..Default::default() });
    put(&env, "/scripts/a.js", "export default () => 1;\n");
    env
}

#[test]
fn edit_file_retries_when_the_file_is_rewritten_underneath_it() {
    // Rewritten once: the second attempt reads the new contents and applies the edit to them.
    let env = interloper_env(1);
    let edit = json!({"path": "/scripts/a.js", "old_str": "=> 1", "new_str": "=> 2"});
    check(&env, &[("edit_file", edit.clone(), Ok(&["edited /scripts/a.js (1 replacement"]))]);
    assert_eq!(read(&env, "/scripts/a.js").unwrap(), "export default () => 2;\n// rewritten 1\n");
    assert_eq!(env.gateway().counters().mutations, 1);

    // Rewritten on every attempt: after three the edit gives up, names the count and the fix,
    // and leaves the other writer's content alone.
    let env = interloper_env(usize::MAX);
    check(
        &env,
        &[(
            "edit_file",
            edit,
            Err(&[
                "could not edit /scripts/a.js: it was rewritten by something else 3 times while this edit was being prepared",
                "Read it again and reapply the change against its current contents.",
            ]),
        )],
    );
    let now = read(&env, "/scripts/a.js").unwrap();
    assert!(now.contains("=> 1") && now.ends_with("// rewritten 3\n"), "{now}");
    assert_eq!(env.gateway().counters().mutations, 0);
}

#[test]
fn a_zone_stays_readable_announced_and_closed_to_the_hosts_guarded_writes() {
    let env = corpus_env();
    check(
        &env,
        &[
            ("ls", json!({"path": "/corpus"}), Ok(&["a.txt (11B)"])),
            ("describe", json!({"path": "/corpus/a.txt"}), Ok(&["\"lines\": 3"])),
            ("read_file", json!({"path": "/.env/orientation.md"}), Ok(&["`/corpus` — 1 file(s)", "READ-ONLY"])),
            ("redo", json!({"path": "/corpus/a.txt"}), Err(&["/corpus is read-only"])),
            ("mv", json!({"from": "/project/src/main.rs", "to": "/tmp/main.rs"}), Err(&["/project/src is read-only"])),
        ],
    );
    // The host's guarded writes (scripts' env:fs, adapters) meet the same wall as the verbs.
    let gw = env.gateway();
    let before = gw.counters().mutations;
    for (path, want) in [
        ("/corpus/b.txt", "/corpus is read-only"),
        ("/std/fs/extra.md", "/std"),
        ("/skills/mine.md", "/skills"),
        ("/.env/x", "/.env is maintained by the environment"),
    ] {
        let e = gw.write(&p(path), b"x", folio_env::WriteMode::Replace, None).unwrap_err().to_string();
        assert!(e.contains(want) && e.contains("cp "), "{path}: {e}");
    }
    assert!(gw.mkdir(&p("/corpus/sub")).unwrap_err().to_string().contains("cannot mkdir /corpus/sub"));
    assert_eq!(gw.counters().mutations, before);
}

#[test]
fn the_tree_cap_counts_from_the_base_and_binds_mount_too() {
    let base = env().tree().total_size().unwrap();
    let limits = Limits { max_vfs_bytes: base + 3000, ..Default::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    check(
        &env,
        &[
            ("write_file", json!({"path": "/out/a.txt", "content": "a".repeat(1000)}), Ok(&["created /out/a.txt"])),
            (
                "write_file",
                json!({"path": "/out/b.txt", "content": "b".repeat(2500)}),
                Err(&["environment size limit exceeded", "/out/b.txt", "limits.max_vfs_bytes", "under /tmp"]),
            ),
            // Shrinking is always allowed, even at the cap.
            ("write_file", json!({"path": "/out/a.txt", "content": ""}), Ok(&["wrote /out/a.txt (0B)"])),
            ("rm", json!({"path": "/out/a.txt"}), Ok(&["removed /out/a.txt"])),
        ],
    );
    let e = env.mount("/inbox", "big.bin", &[0u8; 4000]).unwrap_err().to_string();
    assert!(e.contains("limits.max_vfs_bytes"), "{e}");
    assert_eq!(env.gateway().counters().limit_hits, 2);
    assert!(read(&env, "/out/b.txt").is_none() && read(&env, "/inbox/big.bin").is_none());
}

#[test]
fn every_verb_declares_whether_it_mutates_and_counters_start_at_zero() {
    let env = env_with(EnvOptions {
        presenter: Some(Arc::new(folio_env::KeepPresented)),
        asker: Some(Arc::new(folio_env::Answers::new(vec![]))),
        ..Default::default()
    });
    assert_eq!(env.gateway().counters(), folio_env::Counters::default());
    let declared: Vec<(&str, bool)> = env.tools().iter().map(|t| (t.name, t.mutates)).collect();
    assert_eq!(
        declared,
        [
            ("write_file", true),
            ("edit_file", true),
            ("rm", true),
            ("mv", true),
            ("cp", true),
            ("read_file", false),
            ("ls", false),
            ("grep", false),
            ("describe", false),
            ("run_script", true),
            ("run_tests", true),
            ("undo", true),
            ("redo", true),
            ("checkpoint", true),
            ("diff", false),
            ("history", false),
            ("present", false),
            ("ask_user", false),
        ]
    );
    ok(&env, "write_file", json!({"path": "/out/a.txt", "content": "a"}));
    assert_eq!(env.gateway().counters().mutations, 1);
    // A refused mutation moves nothing.
    err(&env, "write_file", json!({"path": "/std/a", "content": "a"}));
    assert_eq!(env.gateway().counters().mutations, 1);
}
