//! Provenance through the host every shell opens folders with: a run reading `/inbox/a.csv` by
//! each route a script has (env:fs, Node's `fs`, env:spreadsheets) records that input with the
//! hash of its bytes; a record survives commit and a reopen; an input changed on disk makes the
//! deliverable stale, naming it; a hand edit is "edited since", not misattributed; regenerate
//! re-runs the recorded script on the new input as a pending change, and refuses a changed
//! script unless asked.

use std::path::Path;

use folio_env::{Environment, RunOrigin, ScriptState, Standing, content_hash};
use folio_host::{Host, RegenerateError, RegenerateOptions, Seams, regenerate};
use folio_render::{HostPaths, Platform};
use folio_vfs::Selection;
use serde_json::json;

fn open(folder: &Path, state: &Path) -> Environment {
    let mut paths = HostPaths::isolated(Platform::current());
    paths.state_dir = Some(state.to_path_buf());
    let host = Host::builder().state_dir(Some(state.to_path_buf())).paths(paths).build().unwrap();
    host.open_folder(folder, Seams::default()).unwrap()
}

const CSV: &str = "region,sales\nnorth,10\nsouth,20\n";

/// A folder with `/inbox/a.csv`, and a state directory beside it.
fn folder() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    let state = tmp.path().join("state");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/a.csv"), CSV).unwrap();
    (tmp, folder, state)
}

fn write_script(env: &Environment, path: &str, source: &str) {
    let r = env.call("write_file", json!({"path": path, "content": source}));
    assert_eq!(r.status, folio_env::Status::Success, "{}", r.message);
}

#[test]
fn each_read_route_records_the_input_with_its_hash() {
    let cases = [
        (
            "env:fs",
            "import * as fs from 'env:fs';\nexport default async function () {\n  const t = await fs.readFile('/inbox/a.csv');\n  await fs.writeFile('/out/r.txt', String(t.length));\n}\n",
        ),
        (
            "node fs",
            "import fs from 'node:fs';\nexport default function () {\n  const t = fs.readFileSync('/inbox/a.csv', 'utf8');\n  fs.writeFileSync('/out/r.txt', String(t.length));\n}\n",
        ),
        (
            "env:spreadsheets",
            "import * as sheets from 'env:spreadsheets';\nexport default async function () {\n  const rows = await sheets.readRows('/inbox/a.csv');\n  await sheets.write('/out/r.xlsx', rows);\n}\n",
        ),
    ];
    let want = content_hash(CSV.as_bytes());
    for (route, source) in cases {
        let (_tmp, folder, state) = folder();
        let env = open(&folder, &state);
        write_script(&env, "/scripts/make.js", source);
        let report = env.run_script("/scripts/make.js", json!({"n": 1}), None, None).unwrap();
        assert!(report.ok, "{route}: {:?}", report.error);
        let out = if route == "env:spreadsheets" { "/out/r.xlsx" } else { "/out/r.txt" };
        let known = env.provenance(out).unwrap();
        assert_eq!(known.standing, Standing::Current, "{route}: {known:?}");
        let record = known.record.unwrap();
        let inputs: Vec<(&str, &str)> = record.inputs.iter().map(|i| (i.path.as_str(), i.hash.as_str())).collect();
        assert_eq!(inputs, vec![("/inbox/a.csv", want.as_str())], "{route}");
        assert_eq!(record.script, "/scripts/make.js", "{route}");
        let source_now = folio_vfs::Tree::read(env.tree(), &folio_vfs::VPath::parse("/scripts/make.js").unwrap());
        assert_eq!(record.script_hash, content_hash(&source_now.unwrap()), "{route}");
        assert_eq!(record.args, json!({"n": 1}), "{route}");
        assert_eq!(record.run_id, report.run_id, "{route}");
        assert_eq!(record.origin, RunOrigin::Direct, "{route}");
    }
}

const TALLY: &str = "import * as fs from 'env:fs';\nexport default async function ({ scale }) {\n  const t = await fs.readFile('/inbox/a.csv');\n  const total = t.trim().split('\\n').slice(1).map((l) => Number(l.split(',')[1])).reduce((a, b) => a + b, 0);\n  await fs.writeFile('/out/total.txt', String(total * scale));\n}\n";

#[test]
fn a_record_survives_commit_and_reopen_then_stale_edited_and_regenerated() {
    let (_tmp, folder, state) = folder();
    {
        let env = open(&folder, &state);
        write_script(&env, "/scripts/tally.js", TALLY);
        let report = env.run_script("/scripts/tally.js", json!({"scale": 2}), None, None).unwrap();
        assert!(report.ok, "{:?}", report.error);
        env.overlay().unwrap().commit(&Selection::All, &[]).unwrap();
    }
    assert_eq!(std::fs::read_to_string(folder.join("out/total.txt")).unwrap(), "60");
    // A new process: the record is still there and matches the committed bytes.
    let env = open(&folder, &state);
    let known = env.provenance("/out/total.txt").unwrap();
    assert_eq!(known.standing, Standing::Current, "{known:?}");
    assert!(known.line().contains("made by /scripts/tally.js"), "{}", known.line());
    assert!(known.line().contains("from /inbox/a.csv"), "{}", known.line());

    // The input changes on disk: stale, naming it with both hashes.
    std::fs::write(folder.join("inbox/a.csv"), "region,sales\nnorth,10\nsouth,25\n").unwrap();
    let known = env.provenance("/out/total.txt").unwrap();
    assert_eq!(known.standing, Standing::Stale);
    assert_eq!(known.changed_inputs.len(), 1);
    assert_eq!(known.changed_inputs[0].path, "/inbox/a.csv");
    assert_eq!(known.changed_inputs[0].recorded, content_hash(CSV.as_bytes()));
    assert!(known.line().contains("STALE") && known.line().contains("/inbox/a.csv"), "{}", known.line());

    // Regenerate: the recorded arguments on the new input, as a pending change, with a record of its own.
    let done = regenerate(&env, "/out/total.txt", RegenerateOptions::default()).unwrap();
    assert!(done.changed && done.pending, "{done:?}");
    assert_eq!(done.changed_inputs, vec!["/inbox/a.csv".to_owned()]);
    assert_eq!(std::fs::read_to_string(folder.join("out/total.txt")).unwrap(), "60", "nothing reaches the folder");
    let pending = env.overlay().unwrap().pending().unwrap();
    assert!(pending.iter().any(|c| c.path.as_str() == "/out/total.txt"), "{pending:?}");
    let known = env.provenance("/out/total.txt").unwrap();
    assert_eq!(known.standing, Standing::Current);
    assert_eq!(known.hash, content_hash(b"70"));
    let record = known.record.unwrap();
    assert_eq!(record.origin, RunOrigin::Regenerate { from_run: done.from_run });
    assert_eq!(record.args, json!({"scale": 2}));

    // A hand edit: not misattributed.
    let r = env.call("write_file", json!({"path": "/out/total.txt", "content": "99"}));
    assert_eq!(r.status, folio_env::Status::Success, "{}", r.message);
    let known = env.provenance("/out/total.txt").unwrap();
    assert_eq!(known.standing, Standing::EditedSince);
    assert!(known.line().contains("EDITED SINCE"), "{}", known.line());

    // A changed script is refused by name with both hashes, then run when asked.
    write_script(&env, "/scripts/tally.js", &TALLY.replace("total * scale", "total * scale + 1"));
    let known = env.provenance("/out/total.txt").unwrap();
    assert!(matches!(known.script, Some(ScriptState::Changed { .. })), "{known:?}");
    let err = regenerate(&env, "/out/total.txt", RegenerateOptions::default()).unwrap_err();
    assert!(matches!(err, RegenerateError::ScriptChanged { .. }), "{err}");
    assert!(err.to_string().contains("--use-current-script"), "{err}");
    let done = regenerate(&env, "/out/total.txt", RegenerateOptions { use_current_script: true }).unwrap();
    assert!(done.notes.iter().any(|n| n.contains("edited since")), "{:?}", done.notes);
    assert_eq!(env.provenance("/out/total.txt").unwrap().hash, content_hash(b"71"));

    // A gone script is named with the fix.
    let r = env.call("rm", json!({"path": "/scripts/tally.js"}));
    assert_eq!(r.status, folio_env::Status::Success, "{}", r.message);
    let err = regenerate(&env, "/out/total.txt", RegenerateOptions::default()).unwrap_err();
    assert!(matches!(err, RegenerateError::ScriptGone { .. }), "{err}");
    // A file no run made.
    std::fs::write(folder.join("inbox/notes.txt"), "hi").unwrap();
    let err = regenerate(&env, "/inbox/notes.txt", RegenerateOptions::default()).unwrap_err();
    assert!(matches!(err, RegenerateError::NoRecord { .. }), "{err}");
    assert_eq!(env.provenance("/inbox/notes.txt").unwrap().standing, Standing::Unknown);
}

#[test]
fn a_deleted_input_is_stale_as_gone_and_an_intermediate_is_not_an_input() {
    let (_tmp, folder, state) = folder();
    let env = open(&folder, &state);
    write_script(
        &env,
        "/scripts/two.js",
        "import * as fs from 'env:fs';\nexport default async function () {\n  await fs.writeFile('/tmp/mid.txt', await fs.readFile('/inbox/a.csv'));\n  await fs.writeFile('/out/b.txt', (await fs.readFile('/tmp/mid.txt')).toUpperCase());\n}\n",
    );
    assert!(env.run_script("/scripts/two.js", json!({}), None, None).unwrap().ok);
    let record = env.provenance("/out/b.txt").unwrap().record.unwrap();
    let paths: Vec<&str> = record.inputs.iter().map(|i| i.path.as_str()).collect();
    assert_eq!(paths, vec!["/inbox/a.csv"], "the run's own /tmp file is not an input");
    std::fs::remove_file(folder.join("inbox/a.csv")).unwrap();
    let known = env.provenance("/out/b.txt").unwrap();
    assert_eq!(known.standing, Standing::Stale);
    assert_eq!(known.changed_inputs[0].now, None);
    assert!(known.line().contains("/inbox/a.csv (gone)"), "{}", known.line());
}
