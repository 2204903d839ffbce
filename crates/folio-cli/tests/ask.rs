//! `folio ask` end to end against a fake provider on 127.0.0.1: a run that writes and presents a
//! file, then the same conversation resumed from SQLite by a new process.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::process::{Command, Output};

use folio_agent::testing::{FakeServer, Reply, anthropic, openai};
use serde_json::{Value, json};

async fn folio(args: Vec<String>, envs: Vec<(&'static str, String)>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
        cmd.args(&args).env_remove("ANTHROPIC_API_KEY").env_remove("OPENAI_API_KEY");
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
    .await;
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
    .await;
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
    assert!(text.contains("0 change(s) pending"), "{text}");
    assert!(text.contains("about $"), "known prices show a cost: {text}");
    assert_eq!(server.requests()[0].header("x-api-key"), Some("sk-ant-test"));
}
