//! `folio ask` end to end against a fake provider on 127.0.0.1: a run that writes and presents a
//! file, then the same conversation resumed from SQLite by a new process.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::process::{Command, Output};

use folio_agent::testing::{FakeServer, Reply, anthropic, openai};
use serde_json::{Value, json};

#[path = "common/fix_line.rs"]
mod fix_line;

async fn folio(args: Vec<String>, envs: Vec<(&'static str, String)>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
        cmd.args(&args).env_remove("ANTHROPIC_API_KEY").env_remove("OPENAI_API_KEY");
        for var in ["FOLIO_PROVIDER", "FOLIO_MODEL", "FOLIO_BASE_URL", "FOLIO_API_KEY"] {
            cmd.env_remove(var);
        }
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    })
    .await
    .unwrap()
}

fn lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ask_writes_presents_and_resumes_in_a_new_process() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\nsouth,20\n").unwrap();
    let state = tmp.path().join("state");
    let server = FakeServer::start(vec![
        Reply::sse(openai("", &[("c1", "read_file", json!({"path": "/inbox/sales.csv"}))], 500)),
        Reply::sse(openai(
            "",
            &[("c2", "write_file", json!({"path": "/out/summary.csv", "content": "total\n30\n"}))],
            600,
        )),
        Reply::sse(openai(
            "",
            &[("c3", "present", json!({"path": "/out/summary.csv", "caption": "Total sales"}))],
            700,
        )),
        Reply::sse(openai("The total is 30; see /out/summary.csv.", &[], 800)),
        Reply::sse(openai("North sold 10.", &[], 900)),
    ])
    .await
    .unwrap();
    let base = format!("{}/v1", server.base);
    let common = |prompt: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> =
            vec!["--state-dir".into(), state.display().to_string(), "ask".into(), folder.display().to_string()];
        if !prompt.is_empty() {
            v.push(prompt.into());
        }
        v.extend(
            ["--provider", "openai", "--model", "test-model", "--base-url", &base, "--json"]
                .iter()
                .map(|s| s.to_string()),
        );
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let key = vec![("OPENAI_API_KEY", "sk-test".to_owned())];

    let out = folio(common("Total the sales", &[]), key.clone()).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events = lines(&out);
    let id = events[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(events[0]["type"], "conversation");
    let presented: Vec<&Value> = events.iter().filter(|e| e["type"] == "presented").collect();
    assert_eq!(presented.len(), 1);
    assert_eq!(presented[0]["path"], "/out/summary.csv");
    assert_eq!(presented[0]["media_type"], "text/csv");
    let read = events.iter().find(|e| e["type"] == "tool_call_finished" && e["name"] == "read_file").unwrap();
    assert!(read["output"].as_str().unwrap().contains("north,10"), "{read}");
    assert_eq!(events.last().unwrap()["type"], "finished");
    assert_eq!(events.last().unwrap()["reason"], "done");
    // The model was sent the environment's preamble, the desk prompt and the verbs.
    let first = &server.requests()[0].body;
    let system = first["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("WORKING ENVIRONMENT") && system.contains("Hand each finished file over with `present`"),
        "{system}"
    );
    let tools: Vec<&str> =
        first["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert!(tools.contains(&"write_file") && tools.contains(&"present"), "{tools:?}");
    assert!(!folder.join("out").exists(), "edits stay pending");

    // A new process resumes the conversation from SQLite with its full history.
    let out = folio(common("And the north?", &["--conversation", &id]), key.clone()).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let resumed = &server.requests()[4].body;
    let sent = resumed["messages"].as_array().unwrap();
    assert_eq!(sent[1]["content"], "Total the sales", "the first request is there");
    assert_eq!(sent.last().unwrap()["content"], "And the north?");
    assert!(sent.len() >= 9, "the whole history went back: {}", sent.len());
    assert!(resumed.to_string().contains("The total is 30"));

    // The pending edits are reviewable from another process.
    let status = Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(["--state-dir", state.to_str().unwrap(), "status", folder.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert!(status.to_string().contains("/out/summary.csv"), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_key_or_model_is_refused_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let state = tmp.path().join("state").display().to_string();
    let f = folder.display().to_string();
    let out = folio(
        vec![
            "--state-dir".into(),
            state.clone(),
            "ask".into(),
            f.clone(),
            "hi".into(),
            "--provider".into(),
            "anthropic".into(),
        ],
        vec![],
    )
    .await;
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no API key for anthropic") && err.contains("export ANTHROPIC_API_KEY="), "{err}");
    let out = folio(
        vec![
            "--state-dir".into(),
            state.clone(),
            "ask".into(),
            f.clone(),
            "hi".into(),
            "--provider".into(),
            "ollama".into(),
        ],
        vec![],
    )
    .await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("pass --model"), "{err}");
    let out = folio(
        vec!["--state-dir".into(), state, "ask".into(), f, "hi".into(), "--provider".into(), "nope".into()],
        vec![],
    )
    .await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no provider named `nope`") && err.contains("ollama"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_human_output_streams_text_and_tool_rows_over_anthropic() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let server = FakeServer::start(vec![
        Reply::sse(anthropic("Let me look.", &[("t1", "ls", json!({"path": "/"}))], 100)),
        Reply::sse(anthropic("The folder is empty.", &[], 200)),
    ])
    .await
    .unwrap();
    let out = folio(
        vec![
            "--state-dir".into(),
            tmp.path().join("state").display().to_string(),
            "ask".into(),
            folder.display().to_string(),
            "What is here?".into(),
            "--base-url".into(),
            server.base.clone(),
        ],
        vec![("ANTHROPIC_API_KEY", "sk-ant-test".into())],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Let me look."), "{text}");
    assert!(text.contains("[ok] ls ("), "{text}");
    assert!(text.contains("The folder is empty."), "{text}");
    assert!(text.contains("0 change(s) pending — review with"), "{text}");
    assert!(text.contains("about $"), "known prices show a cost: {text}");
    assert_eq!(server.requests()[0].header("x-api-key"), Some("sk-ant-test"));
}

/// A new user follows the README: `FOLIO_PROVIDER`, `FOLIO_MODEL` and `FOLIO_BASE_URL` are the
/// defaults of `folio ask`, so no flag is needed — and a model without a known price says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_folio_provider_variables_are_the_defaults_and_an_unpriced_model_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let server = FakeServer::start(vec![Reply::sse(openai("Nothing here yet.", &[], 50))]).await.unwrap();
    let out = folio(
        vec![
            "--state-dir".into(),
            tmp.path().join("state").display().to_string(),
            "ask".into(),
            folder.display().to_string(),
            "What is here?".into(),
        ],
        vec![
            ("FOLIO_PROVIDER", "openai".into()),
            ("FOLIO_MODEL", "house-model-7".into()),
            ("FOLIO_BASE_URL", format!("{}/v1", server.base)),
            ("OPENAI_API_KEY", "sk-test".into()),
        ],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Nothing here yet."), "{text}");
    assert!(text.contains(", cost unknown for this model."), "{text}");
    let request = &server.requests()[0];
    assert_eq!(request.header("authorization"), Some("Bearer sk-test"));
    assert_eq!(request.body["model"], json!("house-model-7"), "FOLIO_MODEL is the model");
}

/// A new user without any key asks `folio doctor`, follows its provider row's fix line the way
/// that needs no key (its `export FOLIO_PROVIDER=ollama FOLIO_MODEL=…`), points FOLIO_BASE_URL
/// at their local OpenAI-compatible server (here a fake one on 127.0.0.1), and `folio ask`
/// answers — with no flag, and no Anthropic key asked for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_user_without_a_key_follows_the_doctor_to_an_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let state = tmp.path().join("state").display().to_string();
    let doctor = |envs: Vec<(&'static str, String)>| {
        let state = state.clone();
        async move {
            let out = folio(vec!["--state-dir".into(), state, "doctor".into(), "--json".into()], envs).await;
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            report["capabilities"].as_array().unwrap().iter().find(|r| r["name"] == "provider").unwrap().clone()
        }
    };
    let row = doctor(vec![]).await;
    let fix = match row["ok"].as_bool() {
        Some(false) => row["fix"].as_str().unwrap().to_owned(),
        _ => {
            assert!(row["detail"].as_str().unwrap().contains("keychain"), "no key anywhere: {row}");
            println!("this machine's keychain holds a key; following the advice a keyless user gets");
            "export ANTHROPIC_API_KEY=<your key>   (or, with no key, a local model: export FOLIO_PROVIDER=ollama FOLIO_MODEL=<a model from `ollama list`>)".to_owned()
        }
    };
    let server = FakeServer::start(vec![Reply::sse(openai("Hello from the local model.", &[], 40))]).await.unwrap();
    let mut envs: Vec<(&'static str, String)> = fix_line::export_group(&fix, "FOLIO_PROVIDER")
        .into_iter()
        .map(|(k, v)| (&*Box::leak(k.into_boxed_str()), v))
        .collect();
    assert_eq!(envs.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["FOLIO_PROVIDER", "FOLIO_MODEL"], "{fix}");
    envs.push(("FOLIO_BASE_URL", format!("{}/v1", server.base)));
    let row = doctor(envs.clone()).await;
    assert_eq!(row["ok"], true, "the doctor agrees once its advice is followed: {row}");

    let out = folio(
        vec!["--state-dir".into(), state.clone(), "ask".into(), folder.display().to_string(), "Hello?".into()],
        envs,
    )
    .await;
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("ANTHROPIC_API_KEY") && !err.contains("no API key"), "{err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Hello from the local model."), "{text}");
    let request = &server.requests()[0];
    assert_eq!(request.body["model"], json!("llama3.2"), "FOLIO_MODEL from the fix line is the model");
    assert_eq!(request.header("authorization"), None, "a local server gets no key");
}

/// The model writes a script with a bug, runs it, reads the error, fixes it, runs it again (the
/// script writes /out/summary.csv through env:fs), presents the file, and answers — all through
/// the real environment and QuickJS.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_script_is_written_run_fixed_and_its_output_presented() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\nsouth,20\n").unwrap();
    let buggy = "/** Totals the sales. */\nimport { readText, writeFile } from 'env:fs';\nexport default async function main() {\n  const rows = (await readText('/inbox/sales.csv')).trim().split('\\n').slice(1);\n  console.log('rows', rows.length);\n  return totl;\n}\n";
    let fixed = "/** Totals the sales. */\nimport { readText, writeFile } from 'env:fs';\nexport default async function main() {\n  const rows = (await readText('/inbox/sales.csv')).trim().split('\\n').slice(1);\n  const total = rows.reduce((s, r) => s + Number(r.split(',')[1]), 0);\n  await writeFile('/out/summary.csv', `total\\n${total}\\n`);\n  return { total };\n}\n";
    let server = FakeServer::start(vec![
        Reply::sse(anthropic("", &[("t1", "write_file", json!({"path": "/scripts/total.js", "content": buggy}))], 100)),
        Reply::sse(anthropic("", &[("t2", "run_script", json!({"path": "/scripts/total.js"}))], 200)),
        Reply::sse(anthropic(
            "A typo.",
            &[("t3", "write_file", json!({"path": "/scripts/total.js", "content": fixed}))],
            300,
        )),
        Reply::sse(anthropic("", &[("t4", "run_script", json!({"path": "/scripts/total.js"}))], 400)),
        Reply::sse(anthropic(
            "",
            &[("t5", "present", json!({"path": "/out/summary.csv", "caption": "Total sales: 30"}))],
            500,
        )),
        Reply::sse(anthropic("The total is 30.", &[], 600)),
    ])
    .await
    .unwrap();
    let out = folio(
        vec![
            "--state-dir".into(),
            tmp.path().join("state").display().to_string(),
            "ask".into(),
            folder.display().to_string(),
            "Total the sales into /out/summary.csv".into(),
            "--base-url".into(),
            server.base.clone(),
            "--json".into(),
        ],
        vec![("ANTHROPIC_API_KEY", "sk-ant-test".into())],
    )
    .await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events = lines(&out);
    let runs: Vec<&Value> =
        events.iter().filter(|e| e["type"] == "tool_call_finished" && e["name"] == "run_script").collect();
    assert_eq!(runs[0]["status"], "error", "{}", runs[0]);
    assert!(runs[0]["output"].as_str().unwrap().contains("totl is not defined"), "{}", runs[0]);
    assert!(
        runs[0]["output"].as_str().unwrap().contains("/scripts/total.js:6"),
        "the error names file:line: {}",
        runs[0]
    );
    assert_eq!(runs[1]["status"], "success", "{}", runs[1]);
    assert!(runs[1]["output"].as_str().unwrap().contains("30"), "{}", runs[1]);
    assert!(
        events.iter().any(|e| e["type"] == "script_progress" && e["text"] == "rows 2"),
        "console lines stream as progress"
    );
    assert!(events.iter().any(|e| e["type"] == "overlay_changed"), "the app hears about pending changes");
    let presented = events.iter().find(|e| e["type"] == "presented").unwrap();
    assert_eq!(presented["path"], "/out/summary.csv");
    // The model saw the failure's full story.
    assert!(server.requests()[2].body.to_string().contains("totl is not defined"));
    let status = Command::new(env!("CARGO_BIN_EXE_folio"))
        .args(["--state-dir", tmp.path().join("state").to_str().unwrap(), "status", folder.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(status.contains("/out/summary.csv") && status.contains("/scripts/total.js"), "{status}");
}

/// Ctrl-C while a script spins: the run stops, the process exits 130 promptly, and the stored
/// conversation ends with the aborted call, ready to continue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
// The child is waited for once the script starts; if it never starts, the test fails anyway.
#[allow(clippy::zombie_processes)]
async fn ctrl_c_stops_a_running_script() {
    use std::io::{BufRead, BufReader};
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let spin = "/** Spins. */\nexport default async function main() {\n  for (;;) {}\n}\n";
    let server = FakeServer::start(vec![
        Reply::sse(anthropic("", &[("t1", "write_file", json!({"path": "/scripts/spin.js", "content": spin}))], 100)),
        Reply::sse(anthropic("", &[("t2", "run_script", json!({"path": "/scripts/spin.js"}))], 200)),
    ])
    .await
    .unwrap();
    let state = tmp.path().join("state");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_folio"))
        .args([
            "--state-dir",
            state.to_str().unwrap(),
            "ask",
            folder.to_str().unwrap(),
            "spin",
            "--base-url",
            &server.base,
            "--json",
        ])
        .env("ANTHROPIC_API_KEY", "sk-ant-test")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id().to_string();
    let stdout = child.stdout.take().unwrap();
    let result = tokio::task::spawn_blocking(move || {
        let mut id = String::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["type"] == "conversation" {
                id = v["id"].as_str().unwrap().to_owned();
            }
            if v["type"] == "tool_call_started" && v["name"] == "run_script" {
                std::thread::sleep(std::time::Duration::from_millis(300));
                let sent = std::time::Instant::now();
                Command::new("kill").args(["-INT", &pid]).status().unwrap();
                let status = child.wait().unwrap();
                return (status, sent.elapsed(), id);
            }
        }
        panic!("the run never started the script");
    })
    .await
    .unwrap();
    let (status, waited, id) = result;
    assert_eq!(status.code(), Some(130), "a stopped run exits 130");
    assert!(waited < std::time::Duration::from_secs(2), "stopping took {waited:?}");
    let store = folio_store::Store::open(&state.join("folio.sqlite")).unwrap();
    let messages = store.messages(&id).unwrap();
    let last = messages.last().unwrap().to_string();
    assert!(last.contains("tool_result") && last.contains("Stopped by the person"), "{last}");
}

/// `--vision main`: the main model is offered view_image and gets the image back in the result;
/// without --vision the verb is absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vision_main_offers_view_image_and_attaches_the_image() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("out")).unwrap();
    std::fs::write(folder.join("out/chart.png"), b"\x89PNG\r\n\x1a\n\0\0\0\rIHDRchart").unwrap();
    let server = FakeServer::start(vec![
        Reply::sse(anthropic(
            "",
            &[("v1", "view_image", json!({"path": "/out/chart.png", "prompt": "Is the axis labelled?"}))],
            10,
        )),
        Reply::sse(anthropic("It is.", &[], 10)),
        Reply::sse(anthropic("Nothing to look at.", &[], 10)),
    ])
    .await
    .unwrap();
    let args = |vision: bool| {
        let mut v: Vec<String> = vec![
            "--state-dir".into(),
            tmp.path().join("state").display().to_string(),
            "ask".into(),
            folder.display().to_string(),
            "Check the chart".into(),
            "--base-url".into(),
            server.base.clone(),
            "--json".into(),
        ];
        if vision {
            v.extend(["--vision".to_owned(), "main".to_owned()]);
        }
        v
    };
    let out = folio(args(true), vec![("ANTHROPIC_API_KEY", "k".into())]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let first = &server.requests()[0].body;
    assert!(first["tools"].as_array().unwrap().iter().any(|t| t["name"] == "view_image"));
    let second = server.requests()[1].body.to_string();
    assert!(second.contains("\"type\":\"image\""), "{second}");
    let out = folio(args(false), vec![("ANTHROPIC_API_KEY", "k".into())]).await;
    assert!(out.status.success());
    let third = &server.requests()[2].body;
    assert!(third["tools"].as_array().unwrap().iter().all(|t| t["name"] != "view_image"), "absent unless wired");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_only_never_send_and_the_ledger_through_the_command() {
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("clients")).unwrap();
    std::fs::create_dir_all(folder.join("inbox")).unwrap();
    std::fs::write(folder.join("clients/acme.csv"), "client,fee\nacme-secret,5000\n").unwrap();
    std::fs::write(folder.join("inbox/sales.csv"), "region,amount\nnorth,10\n").unwrap();
    let state = tmp.path().join("state");
    let server = FakeServer::start(vec![
        Reply::sse(openai("", &[("c1", "read_file", json!({"path": "/clients/acme.csv"}))], 10)),
        Reply::sse(openai("", &[("c2", "read_file", json!({"path": "/inbox/sales.csv"}))], 10)),
        Reply::sse(openai("North sold 10.", &[], 10)),
    ])
    .await
    .unwrap();
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let args = |base: &str, extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = vec![
            "--state-dir".into(),
            state.display().to_string(),
            "ask".into(),
            folder.display().to_string(),
            "Sales?".into(),
        ];
        v.extend(["--provider", "ollama", "--model", "llama3.1", "--base-url", base].iter().map(|s| s.to_string()));
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // Local-only refuses a base URL off loopback (0.0.0.0 would reach this listener) before connecting.
    let out = folio(args(&format!("http://0.0.0.0:{port}/v1"), &["--local-only"]), vec![]).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("is not on this machine, and the global local-only setting is on — nothing was sent"),
        "{stderr}"
    );
    assert_eq!(server.requests().len(), 0, "nothing reached the listener");

    // On loopback it runs; the never-send file is refused to the model.
    let loopback = format!("http://127.0.0.1:{port}/v1");
    let out = folio(args(&loopback, &["--local-only", "--never-send", "/clients/**", "--json"]), vec![]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let received = server.requests();
    assert_eq!(received.len(), 3);
    assert!(received.iter().all(|r| !String::from_utf8_lossy(&r.raw).contains("acme-secret")));
    assert!(String::from_utf8_lossy(&received[1].raw).contains("never-send list"));

    // `folio ledger` prints what was sent: the exact bodies' hashes, and where results came from.
    let ledger = |extra: &[&str]| {
        let mut v =
            vec!["--state-dir".to_owned(), state.display().to_string(), "ledger".into(), folder.display().to_string()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let out = folio(ledger(&["--json"]), vec![]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let entries = lines(&out);
    assert_eq!(entries.len(), 3);
    for (entry, got) in entries.iter().zip(&received) {
        assert_eq!(entry["bodySha256"].as_str().unwrap(), folio_agent::sha256_hex(&got.raw));
        assert_eq!(entry["model"], "llama3.1");
    }
    let out = folio(ledger(&["--turn", "1"]), vec![]).await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("3 model request(s)"), "{text}");
    assert!(text.contains("tool result read_file c2") && text.contains("from /inbox/sales.csv"), "{text}");
    assert!(text.contains("tool result read_file c1 [error]"), "{text}");
    let out = folio(ledger(&["--turn", "2"]), vec![]).await;
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 model request(s)"));
}
