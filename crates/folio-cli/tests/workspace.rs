//! The stored settings (what the app's Settings and `folio settings set` save) govern every
//! subcommand, each flag overrides its setting, and two `folio ask` processes on one folder
//! exclude each other through folio-workspace's turn lock — all through the `folio` binary.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use std::path::Path;
use std::process::{Command, Output, Stdio};

use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::{Value, json};

fn command(state: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
    cmd.arg("--state-dir").arg(state).args(args).env("FOLIO_NO_KEYCHAIN", "1").env("OPENAI_API_KEY", "sk-test");
    for var in
        ["FOLIO_PROVIDER", "FOLIO_MODEL", "FOLIO_BASE_URL", "FOLIO_API_KEY", "ANTHROPIC_API_KEY", "FOLIO_STATE_DIR"]
    {
        cmd.env_remove(var);
    }
    cmd
}

async fn folio(state: &Path, args: &[&str]) -> Output {
    let mut cmd = command(state, args);
    tokio::task::spawn_blocking(move || cmd.stdin(Stdio::null()).output().unwrap()).await.unwrap()
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap_or("").to_owned()).collect()
}

/// Provider, model, base URL and turn limit saved once apply to `folio ask` with no flags; each
/// flag overrides its own setting. `ask_user` is absent without a terminal or `--answers`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_provider_model_base_url_and_turn_limit_govern_ask_and_flags_override_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (state, folder) = (tmp.path().join("state"), tmp.path().join("folder"));
    std::fs::create_dir_all(&folder).unwrap();
    let ls = || Reply::sse(openai("", &[("c", "ls", json!({"path": "/"}))], 10));
    let stored = FakeServer::start(vec![ls(), ls()]).await.unwrap();
    let other = FakeServer::start(vec![ls(), Reply::sse(openai("done", &[], 10))]).await.unwrap();
    let base = format!("{}/v1", stored.base);
    let f = folder.to_str().unwrap();
    ok(&folio(
        &state,
        &[
            "settings",
            "set",
            "--provider",
            "openai",
            "--model",
            "stored-model",
            "--base-url",
            &base,
            "--max-turns",
            "1",
        ],
    )
    .await);
    let shown = ok(&folio(&state, &["settings", "show"]).await);
    assert!(shown.contains("stored-model") && shown.contains(&base), "{shown}");

    // The stored values: one call (the turn limit) to the stored endpoint with the stored model.
    let out = folio(&state, &["ask", f, "look", "--json"]).await;
    let text = ok(&out);
    assert!(text.contains("\"max_turns\""), "the stored turn limit of 1 stopped it: {text}");
    let requests = stored.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].path, "/v1/chat/completions", "the stored provider (openai)");
    assert_eq!(requests[0].body["model"], "stored-model");
    assert!(!tool_names(&requests[0].body).contains(&"ask_user".to_owned()), "no terminal, no --answers: absent");

    // Each flag overrides its setting: base URL, model, turn limit.
    let other_base = format!("{}/v1", other.base);
    let answers = tmp.path().join("answers.json");
    std::fs::write(&answers, "[\"yes\"]").unwrap();
    let out = folio(
        &state,
        &[
            "ask",
            f,
            "look",
            "--json",
            "--base-url",
            &other_base,
            "--model",
            "flag-model",
            "--max-turns",
            "2",
            "--answers",
            answers.to_str().unwrap(),
        ],
    )
    .await;
    ok(&out);
    let requests = other.requests();
    assert_eq!(requests.len(), 2, "--max-turns 2 allowed a second call");
    assert_eq!(requests[0].body["model"], "flag-model");
    assert!(tool_names(&requests[0].body).contains(&"ask_user".to_owned()), "--answers wires ask_user");
    assert_eq!(stored.requests().len(), 1, "the stored endpoint was not asked");

    // --provider overrides the stored provider (and drops its model and endpoint): anthropic
    // with no key is refused before any request, naming its key.
    let out = folio(&state, &["ask", f, "look", "--provider", "anthropic"]).await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("ANTHROPIC_API_KEY"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stored.requests().len(), 1);
}

const SPIN: &str = "export default async function () {\n  const end = Date.now() + 2500;\n  while (Date.now() < end) {}\n  return 'spun';\n}\n";
const WRITE: &str = "import * as fs from 'fs';\nexport default async function () {\n  fs.writeFileSync('/out/x.txt', 'x');\n  return 'wrote';\n}\n";
const VISION: &str =
    "import * as vision from 'env:vision';\nexport default async function () {\n  return typeof vision;\n}\n";

/// The stored script budget, read-only choice and vision model govern `folio run`; each flag
/// overrides its setting.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stored_budget_read_only_choice_and_vision_govern_run_and_flags_override_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (state, folder) = (tmp.path().join("state"), tmp.path().join("folder"));
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::create_dir_all(folder.join("out")).unwrap();
    std::fs::write(folder.join("scripts/spin.js"), SPIN).unwrap();
    std::fs::write(folder.join("scripts/write.js"), WRITE).unwrap();
    std::fs::write(folder.join("scripts/vision.js"), VISION).unwrap();
    let f = folder.to_str().unwrap();

    // Script budget.
    ok(&folio(&state, &["settings", "set", "--run-budget-ms", "1000"]).await);
    let out = folio(&state, &["run", f, "/scripts/spin.js"]).await;
    assert!(!out.status.success(), "the stored 1 s budget stops a 2.5 s script");
    assert!(String::from_utf8_lossy(&out.stderr).contains("1000ms"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(ok(&folio(&state, &["run", f, "/scripts/spin.js", "--run-budget-ms", "5000"]).await).contains("spun"));

    // Read-only choice.
    ok(&folio(&state, &["settings", "read-only", f, "on"]).await);
    let out = folio(&state, &["run", f, "/scripts/write.js"]).await;
    assert!(!out.status.success(), "the remembered read-only choice refuses the write");
    let status = ok(&folio(&state, &["status", f, "--json"]).await);
    assert!(!status.contains("/out/x.txt"), "nothing pending: {status}");
    assert!(ok(&folio(&state, &["run", f, "/scripts/write.js", "--writable"]).await).contains("wrote"));

    // Vision: stored `main` mounts env:vision; --vision off leaves it out.
    let out = folio(&state, &["run", f, "/scripts/vision.js"]).await;
    assert!(!out.status.success(), "no vision stored: env:vision is absent");
    ok(&folio(&state, &["settings", "set", "--provider", "openai", "--model", "m", "--vision", "main"]).await);
    assert!(ok(&folio(&state, &["run", f, "/scripts/vision.js"]).await).contains("object"));
    let out = folio(&state, &["run", f, "/scripts/vision.js", "--vision", "off"]).await;
    assert!(!out.status.success(), "--vision off overrides the stored vision model");
}

/// Two real `folio ask` processes on one folder: the second is refused at once, naming the
/// first (its pid and shell), and the first's saved messages are all there afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_ask_on_a_folder_is_refused_naming_the_first_and_no_message_is_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let (state, folder) = (tmp.path().join("state"), tmp.path().join("folder"));
    std::fs::create_dir_all(&folder).unwrap();
    let server = FakeServer::start(vec![
        Reply::sse(openai("First answer, slowly.", &[], 10)).after(4000),
        Reply::sse(openai("Second answer.", &[], 10)),
    ])
    .await
    .unwrap();
    let base = format!("{}/v1", server.base);
    ok(&folio(&state, &["settings", "set", "--provider", "openai", "--model", "m", "--base-url", &base]).await);
    let f = folder.to_str().unwrap();
    let first = command(&state, &["ask", f, "first request", "--json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = first.id();
    // Wait until the first holds the folder: its request reached the model.
    let started = std::time::Instant::now();
    while server.requests().is_empty() {
        assert!(started.elapsed().as_secs() < 30, "the first ask never asked the model");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let asked = std::time::Instant::now();
    let second = folio(&state, &["ask", f, "second request", "--json"]).await;
    assert!(!second.status.success());
    assert!(asked.elapsed().as_secs() < 3, "refused at once, not after waiting");
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains(&format!("pid {pid}")) && said.contains("`folio ask`") && said.contains("Ctrl-C"), "{said}");
    let first = tokio::task::spawn_blocking(move || first.wait_with_output().unwrap()).await.unwrap();
    let out = ok(&first);
    let id = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["type"] == "conversation")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(server.requests().len(), 1, "the second ask sent nothing");
    // Continuing the first conversation sends everything it saved.
    ok(&folio(&state, &["ask", f, "and then?", "--conversation", &id, "--json"]).await);
    let body = server.requests()[1].body.to_string();
    assert!(body.contains("first request") && body.contains("First answer, slowly."), "{body}");
    assert!(!body.contains("second request"));
}
