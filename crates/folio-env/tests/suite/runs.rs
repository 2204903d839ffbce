//! `run_script` and `run_tests` end to end: results, console output, `env:fs` through the gateway,
//! budgets, spill files, the run log, tests and cancellation.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_env::{CancelToken, EnvOptions, Limits, ProgressLine, Status};
use serde_json::{Value, json};

use super::Expect::{Err, Ok};
use super::{check, env, env_with, err, ok, read};

fn script(env: &folio_env::Environment, path: &str, body: &str) {
    ok(env, "write_file", json!({"path": path, "content": body}));
}

/// Calls run_script and returns the result, whatever its status.
fn run(env: &folio_env::Environment, args: Value) -> folio_env::ToolResult {
    env.call("run_script", args)
}

#[test]
fn run_script_returns_result_stdout_and_undefined() {
    let env = env();
    script(
        &env,
        "/scripts/add.js",
        "/** Adds. */\nexport default async function ({ a, b }) {\n  console.log('adding', a, b);\n  console.error('careful');\n  return { sum: a + b };\n}\n",
    );
    script(&env, "/scripts/nothing.js", "/** Returns nothing. */\nexport default async function () {}\n");
    check(
        &env,
        &[
            (
                "run_script",
                json!({"path": "/scripts/add.js", "args": {"a": 1, "b": 2}}),
                Ok(&["ok (", "result:\n{\n  \"sum\": 3\n}", "stdout:\nadding 1 2", "stderr:\ncareful"]),
            ),
            ("run_script", json!({"path": "/scripts/nothing.js"}), Ok(&["result:\nundefined"])),
            (
                "run_script",
                json!({"path": "/scripts/missing.js"}),
                Err(&["no such script: /scripts/missing.js", "Existing scripts: /scripts/add.js"]),
            ),
            ("run_script", json!({"path": "/std/fs/index.d.ts"}), Err(&["/std is documentation, not runnable code"])),
            ("run_script", json!({"path": "/scripts"}), Err(&["is a directory, not a script"])),
        ],
    );
}

#[test]
fn a_failing_script_reports_its_first_line_and_the_full_text_with_file_and_line() {
    let env = env();
    script(
        &env,
        "/scripts/boom.js",
        "/** Fails. */\nexport default async function () {\n  throw new Error('kapow');\n}\n",
    );
    let r = run(&env, json!({"path": "/scripts/boom.js"}));
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.data["error"], "Error: kapow");
    let full = r.message.as_str();
    assert_eq!(full.matches("kapow").count(), 1, "{full}");
    assert!(full.starts_with("error (") && full.contains("/scripts/boom.js:3"), "{full}");
}

#[test]
fn env_fs_goes_through_the_gateway_zones_undo_and_validation() {
    let env = env();
    script(
        &env,
        "/scripts/zone.js",
        "/** Writes into /std. */\nimport * as fs from 'env:fs';\nexport default async function () {\n  await fs.writeFile('/std/x.txt', 'no');\n}\n",
    );
    let r = run(&env, json!({"path": "/scripts/zone.js"}));
    assert_eq!(r.status, Status::Error);
    assert!(
        r.message.contains("env:fs.writeFile") && r.message.contains("/std holds the generated module documentation"),
        "{}",
        r.message
    );
    assert!(read(&env, "/std/x.txt").is_none());

    script(
        &env,
        "/scripts/report.js",
        "/** Writes a report. */\nimport * as fs from 'env:fs';\nexport default async function () {\n  await fs.writeFile('/out/r.txt', 'done');\n  try { await fs.writeFile('/scripts/gen.js', 'let x = 1;'); } catch (e) { return String(e.message); }\n  return 'no refusal';\n}\n",
    );
    let before = env.gateway().counters().mutations;
    let text = ok(&env, "run_script", json!({"path": "/scripts/report.js"}));
    assert!(text.contains("no default export"), "{text}");
    assert!(env.gateway().counters().mutations > before);
    assert_eq!(read(&env, "/out/r.txt").as_deref(), Some("done"));
    assert!(read(&env, "/scripts/gen.js").is_none());
    check(&env, &[("undo", json!({"path": "/out/r.txt"}), Ok(&["file removed"]))]);
    assert!(read(&env, "/out/r.txt").is_none());
}

#[test]
fn the_timeout_names_the_budget_that_applied() {
    let env =
        env_with(EnvOptions { limits: Limits { run_timeout_ms: 600, ..Default::default() }, ..Default::default() });
    script(&env, "/scripts/spin.js", "/** Spins. */\nexport default async function () { for (;;) {} }\n");
    let started = Instant::now();
    let m = err(&env, "run_script", json!({"path": "/scripts/spin.js", "timeout_ms": 200}));
    assert!(m.contains("wall-clock limit for this run: 200ms") && m.contains("allows up to 600ms"), "{m}");
    let m = err(&env, "run_script", json!({"path": "/scripts/spin.js"}));
    assert!(m.contains("600ms (limits.run_timeout_ms)"), "{m}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn oversized_sections_spill_to_separate_files_and_the_run_log_records_it() {
    let limits = Limits { max_tool_response_lines: 20, max_tool_response_bytes: 1500, ..Default::default() };
    let env = env_with(EnvOptions { limits, ..Default::default() });
    script(
        &env,
        "/scripts/loud.js",
        "/** Loud. */\nexport default async function () {\n  for (let i = 0; i < 200; i++) { console.log('line ' + i); console.error('warn ' + i); }\n  throw new Error('bad\\n' + 'detail\\n'.repeat(200));\n}\n",
    );
    let r = run(&env, json!({"path": "/scripts/loud.js", "args": {"n": 1}}));
    assert_eq!(r.status, Status::Error);
    let full = r.message;
    let files: Vec<&str> = full.split(" is in ").skip(1).map(|s| s.split(':').next().unwrap()).collect();
    assert_eq!(files.len(), 3, "{full}");
    assert!(files[0].ends_with(".err") && files[1].ends_with(".log") && files[2].ends_with(".stderr"), "{files:?}");
    assert!(read(&env, files[2]).unwrap().contains("warn 199"));
    assert!(read(&env, files[0]).unwrap().contains("detail"));
    let log = read(&env, files[1]).unwrap();
    assert!(log.contains("line 199") && !log.contains("detail"), "{log}");

    let history = read(&env, "/.env/history.jsonl").unwrap();
    let last: Value = serde_json::from_str(history.lines().last().unwrap()).unwrap();
    assert_eq!(last["script"], "/scripts/loud.js");
    assert_eq!(last["ok"], false);
    assert_eq!(last["args"], json!({"n": 1}));
    assert_eq!(last["spill"], files[0]);
    assert!(last["preview"].as_str().unwrap().starts_with("Error: bad"));
    let shown = ok(&env, "history", json!({}));
    assert!(shown.contains("FAIL") && shown.contains("/scripts/loud.js"), "{shown}");
}

#[test]
fn run_tests_reports_pass_and_fail_with_the_summary() {
    let env = env();
    let pass = "/** Passes. */\nimport * as assert from 'env:assert';\nexport default async function () { assert.equal(1 + 1, 2); }\n";
    let fail = "/** Fails. */\nimport * as assert from 'env:assert';\nexport default async function () { assert.equal(3 + 4, 6); }\n";
    check(&env, &[("run_tests", json!({}), Err(&["no tests found under /scripts", "env:assert"]))]);
    script(&env, "/scripts/a.test.js", pass);
    check(&env, &[("run_tests", json!({}), Ok(&["1/1 test file(s) passed", "PASS  /scripts/a.test.js  ("]))]);
    script(&env, "/scripts/sub/b.test.js", fail);
    let r = env.call("run_tests", json!({}));
    assert_eq!(r.status, Status::Error);
    assert_eq!(r.data["error"], "1/2 test file(s) passed");
    let full = r.message.as_str();
    assert!(full.contains("FAIL  /scripts/sub/b.test.js") && full.contains("        "), "{full}");
    check(
        &env,
        &[
            ("run_tests", json!({"path": "/scripts/sub"}), Err(&["0/1 test file(s) passed"])),
            ("run_tests", json!({"path": "/scripts/a.test.js"}), Ok(&["1/1 test file(s) passed"])),
        ],
    );
    let history = read(&env, "/.env/history.jsonl").unwrap();
    assert!(history.contains("\"kind\":\"test\""), "{history}");
}

#[test]
fn a_running_script_is_cancelled_within_200ms() {
    let env = Arc::new(env());
    script(&env, "/scripts/spin.js", "/** Spins. */\nexport default async function () { for (;;) {} }\n");
    for via_env in [false, true] {
        let token = CancelToken::new();
        let (e, t) = (env.clone(), token.clone());
        let worker = std::thread::spawn(move || {
            let r = e.call_with_cancel("run_script", json!({"path": "/scripts/spin.js"}), &t);
            (r, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(400));
        let cancelled_at = Instant::now();
        if via_env {
            assert_eq!(env.cancel_runs(), 1);
        } else {
            token.cancel();
        }
        let (r, done_at) = worker.join().unwrap();
        let took = done_at.duration_since(cancelled_at);
        assert!(took < Duration::from_millis(200), "cancel took {took:?}");
        assert_eq!(r.status, Status::Error);
        assert!(r.message.contains("cancelled by the host"), "{}", r.message);
    }
    assert_eq!(env.cancel_runs(), 0);
    script(&env, "/scripts/one.js", "/** One. */\nexport default async function () { return 1; }\n");
    assert!(ok(&env, "run_script", json!({"path": "/scripts/one.js"})).contains("result:\n1"));
}

#[test]
fn progress_lines_reach_the_host() {
    let seen: Arc<Mutex<Vec<ProgressLine>>> = Arc::default();
    let sink = seen.clone();
    let on_progress: folio_env::OnProgress =
        Arc::new(move |batch: &[ProgressLine]| sink.lock().unwrap().extend_from_slice(batch));
    let env = env_with(EnvOptions { on_progress: Some(on_progress), ..Default::default() });
    script(
        &env,
        "/scripts/steps.js",
        "/** Steps. */\nexport default async function () { for (let i = 1; i <= 3; i++) console.log(`step ${i}/3`); }\n",
    );
    ok(&env, "run_script", json!({"path": "/scripts/steps.js"}));
    let lines: Vec<String> = seen.lock().unwrap().iter().map(|l| l.text.clone()).collect();
    assert_eq!(lines, ["step 1/3", "step 2/3", "step 3/3"]);
}

#[test]
fn a_run_with_the_wrong_argument_keys_is_told_the_declared_shape_first_and_still_runs() {
    let env = env();
    script(
        &env,
        "/scripts/take.js",
        "/**\n * Takes a source.\n * @param {string} args.source what to read\n * @param {number} [args.limit] how many\n */\nexport default async function ({ source, limit }) {\n  return String(source);\n}\n",
    );
    let wrong = run(&env, json!({"path": "/scripts/take.js", "args": {"src": "a.csv"}}));
    assert_eq!(wrong.status, Status::Success, "{}", wrong.message);
    let text = &wrong.message;
    assert!(
        text.starts_with(
            "note: this script's JSDoc declares args { source: string, limit?: number }; got { src } (missing `source`; unexpected `src`)."
        ),
        "{text}"
    );
    assert!(text.contains("result:\n\"undefined\""), "the run still happened: {text}");
    check(
        &env,
        &[("run_script", json!({"path": "/scripts/take.js", "args": {"source": "a.csv"}}), Ok(&["ok (", "\"a.csv\""]))],
    );
    let right = run(&env, json!({"path": "/scripts/take.js", "args": {"source": "a.csv"}}));
    assert!(!right.message.contains("note:"), "the right shape gets no note");
}
