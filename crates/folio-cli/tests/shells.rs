//! Both shells over one workspace: a setting saved through the desktop app's own entry points
//! (the functions its `settings_save`, `folder_open` and `capabilities_save` commands call, no
//! window) governs the `folio` binary on the same folder and state root, and a flag overrides it;
//! and the other way round, what `folio settings`/`folio mcp` store governs a folder the app
//! opens. One row per setting: provider, model, base URL, script budget, vision, read-only
//! choice and MCP servers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use folio_agent::testing::{FakeServer, Reply, openai};
use folio_desktop::agent::AgentHost;
use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use serde_json::json;

const SPIN: &str = "export default async function () {\n  const end = Date.now() + 2500;\n  while (Date.now() < end) {}\n  return 'spun';\n}\n";
const WRITE: &str = "import * as fs from 'fs';\nexport default async function () {\n  fs.writeFileSync('/out/x.txt', 'x');\n  return 'wrote';\n}\n";
const VISION: &str =
    "import * as vision from 'env:vision';\nexport default async function () {\n  return typeof vision;\n}\n";
const MCP: &str = "import { get_sum } from 'env:everything';\nexport default async function () {\n  return await get_sum({ a: 2, b: 40 });\n}\n";

/// One state root and one folder, shared by the app's API and the `folio` binary.
struct Shared {
    _tmp: tempfile::TempDir,
    state: PathBuf,
    folder: PathBuf,
}

impl Shared {
    fn new() -> Shared {
        let tmp = tempfile::tempdir().unwrap();
        let (state, folder) = (tmp.path().join("state"), tmp.path().join("folder"));
        std::fs::create_dir_all(folder.join("scripts")).unwrap();
        std::fs::create_dir_all(folder.join("out")).unwrap();
        std::fs::create_dir_all(&state).unwrap();
        for (name, text) in [("spin.js", SPIN), ("write.js", WRITE), ("vision.js", VISION), ("mcp.js", MCP)] {
            std::fs::write(folder.join("scripts").join(name), text).unwrap();
        }
        Shared { _tmp: tmp, state, folder }
    }

    fn f(&self) -> &str {
        self.folder.to_str().unwrap()
    }

    /// The app's agent side over its workspace (keys in a file: never the person's keychain).
    fn host(&self) -> AgentHost {
        AgentHost::open_with(&self.state, folio_store::Secrets::file_only(&self.state.join("keys.json"))).unwrap()
    }

    /// What the app's Settings dialog saves: the stored settings with `change` applied.
    fn app_saves(&self, change: impl FnOnce(&mut AgentSettings)) {
        let host = self.host();
        let mut settings = host.settings().load().unwrap();
        change(&mut settings);
        host.settings().save(SettingsSaveParams { settings, api_key: None }).unwrap();
    }

    /// What the app's Settings → Capabilities saves: a global stdio server.
    fn app_adds_mcp(&self, name: &str, command: &str, args: Vec<String>) {
        let server = McpServerForm {
            name: name.into(),
            kind: McpTransportKind::Stdio,
            command: command.into(),
            args,
            url: String::new(),
            settings: Vec::new(),
            enabled: true,
            folder: None,
        };
        folio_desktop::agent::capabilities::save(&self.state, &CapabilitiesSaveParams { server, replacing: None })
            .unwrap();
    }

    /// What the app's `folder_open` does: opens the folder read-only (the app remembers it).
    fn app_opens_read_only(&self) {
        let app = AppState::new(Some(self.state.clone()));
        assert!(app.open(self.f(), Some(true)).unwrap().read_only);
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_folio"));
        cmd.arg("--state-dir").arg(&self.state).args(args);
        cmd.env("FOLIO_NO_KEYCHAIN", "1").env("OPENAI_API_KEY", "sk-test").stdin(Stdio::null());
        for var in
            ["FOLIO_PROVIDER", "FOLIO_MODEL", "FOLIO_BASE_URL", "FOLIO_API_KEY", "ANTHROPIC_API_KEY", "FOLIO_STATE_DIR"]
        {
            cmd.env_remove(var);
        }
        cmd
    }

    /// `folio verbs FOLDER EXTRA…` with one `run_script` call of `script` on stdin: its reply line.
    async fn verbs(&self, script: &str, extra: &[&str]) -> String {
        let args: Vec<&str> = ["verbs", self.f()].into_iter().chain(extra.iter().copied()).collect();
        let mut cmd = self.command(&args);
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let line = format!("{}\n", serde_json::json!({"verb": "run_script", "args": {"path": script}}));
        tokio::task::spawn_blocking(move || {
            use std::io::Write;
            let mut child = cmd.spawn().unwrap();
            child.stdin.take().unwrap().write_all(line.as_bytes()).unwrap();
            said(&child.wait_with_output().unwrap())
        })
        .await
        .unwrap()
    }

    /// Runs `folio ARGS…` off the async runtime.
    async fn folio(&self, args: &[&str]) -> Output {
        let mut cmd = self.command(args);
        tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap()
    }
}

fn said(out: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// What a `folio` run must show: success with this in its output, or failure with this.
enum Expect {
    Ok(&'static str),
    Fails(&'static str),
}

fn check(row: &str, args: &[&str], out: &Output, expect: &Expect) {
    let text = said(out);
    match expect {
        Expect::Ok(needle) => {
            assert!(
                out.status.success() && text.contains(needle),
                "{row}: `folio {}` should say {needle}: {text}",
                args.join(" ")
            )
        }
        Expect::Fails(needle) => assert!(
            !out.status.success() && text.contains(needle),
            "{row}: `folio {}` should fail saying {needle}: {text}",
            args.join(" ")
        ),
    }
}

/// One setting's row: how the app saves it, the script that shows it, what `folio run` does
/// with the saved value, and the flag that overrides it with what it does then.
struct Row {
    name: &'static str,
    save: Box<dyn Fn(&Shared)>,
    script: &'static str,
    stored: Expect,
    flag: &'static [&'static str],
    flagged: Expect,
}

/// The settings `folio run` reads: each saved through the app, then the subcommand with no flag
/// (the saved value governs) and with its flag (the flag wins).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_saved_in_the_app_govern_folio_run_and_each_flag_overrides_its_setting() {
    let entry = folio_mcp::testing::server_entry().display().to_string();
    let rows: Vec<Row> = vec![
        Row {
            name: "script budget",
            save: Box::new(|s: &Shared| s.app_saves(|a| a.script_budget_ms = 1_000)),
            script: "/scripts/spin.js",
            stored: Expect::Fails("1000ms"),
            flag: &["--run-budget-ms", "5000"],
            flagged: Expect::Ok("spun"),
        },
        Row {
            name: "vision",
            save: Box::new(|s: &Shared| {
                s.app_saves(|a| {
                    (a.provider, a.model, a.vision_model) = (ProviderName::Openai, "m".into(), "main".into());
                })
            }),
            script: "/scripts/vision.js",
            stored: Expect::Ok("object"),
            flag: &["--vision", "off"],
            flagged: Expect::Fails("vision"),
        },
        Row {
            name: "read-only choice",
            save: Box::new(|s: &Shared| s.app_opens_read_only()),
            script: "/scripts/write.js",
            stored: Expect::Fails("read-only"),
            flag: &["--writable"],
            flagged: Expect::Ok("wrote"),
        },
        Row {
            name: "MCP servers",
            save: Box::new(move |s: &Shared| s.app_adds_mcp("everything", "node", vec![entry.clone(), "stdio".into()])),
            script: "/scripts/mcp.js",
            stored: Expect::Ok("42"),
            // A run's own --mcp server joins the stored ones: it is tried (and said not to start).
            flag: &["--mcp", "other=node /nonexistent/folio/server.js"],
            flagged: Expect::Ok("env:other is not available"),
        },
    ];
    for Row { name, save, script, stored, flag, flagged } in rows {
        let shared = Shared::new();
        save(&shared);
        let args = ["run", shared.f(), script];
        check(name, &args, &shared.folio(&args).await, &stored);
        let args: Vec<&str> = ["run", shared.f(), script].into_iter().chain(flag.iter().copied()).collect();
        check(name, &args, &shared.folio(&args).await, &flagged);
        // `folio verbs` opens the folder the same way: the saved value, then the flag, each
        // shows in the run_script reply (a failed verb is a line with its status, not an exit code).
        for (extra, expect) in [(&[][..], &stored), (flag, &flagged)] {
            let reply = shared.verbs(script, extra).await;
            let needle = match expect {
                Expect::Ok(n) | Expect::Fails(n) => *n,
            };
            assert!(reply.contains(needle), "{name}: `folio verbs` {extra:?} should say {needle}: {reply}");
        }
    }
}

/// Provider, model and base URL saved in the app govern `folio ask`; each flag overrides its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn provider_model_and_base_url_saved_in_the_app_govern_folio_ask_and_flags_override_them() {
    let done = || Reply::sse(openai("done", &[], 10));
    let saved = FakeServer::start(vec![done(), done()]).await.unwrap();
    let other = FakeServer::start(vec![done()]).await.unwrap();
    let shared = Shared::new();
    let base = format!("{}/v1", saved.base);
    shared.app_saves(|a| {
        (a.provider, a.model, a.base_url) = (ProviderName::Openai, "app-model".into(), base.clone());
    });
    let f = shared.f();

    // Saved values: the app's provider (openai's path), model and endpoint.
    let out = shared.folio(&["ask", f, "look", "--json"]).await;
    assert!(out.status.success(), "{}", said(&out));
    let asked = saved.requests();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].path, "/v1/chat/completions", "the saved provider (openai)");
    assert_eq!(asked[0].body["model"], "app-model", "the saved model");

    // --model overrides the model only.
    let out = shared.folio(&["ask", f, "look", "--json", "--model", "flag-model"]).await;
    assert!(out.status.success(), "{}", said(&out));
    assert_eq!(saved.requests()[1].body["model"], "flag-model");

    // --base-url overrides the endpoint only.
    let other_base = format!("{}/v1", other.base);
    let out = shared.folio(&["ask", f, "look", "--json", "--base-url", &other_base]).await;
    assert!(out.status.success(), "{}", said(&out));
    assert_eq!(other.requests().len(), 1);
    assert_eq!(other.requests()[0].body["model"], "app-model");

    // --provider overrides the provider (and drops the saved model and endpoint): anthropic has
    // no key here, so it is refused naming its key, and nothing is asked of the saved endpoint.
    let out = shared.folio(&["ask", f, "look", "--provider", "anthropic"]).await;
    assert!(!out.status.success() && said(&out).contains("ANTHROPIC_API_KEY"), "{}", said(&out));
    assert_eq!(saved.requests().len(), 2);
}

/// The other way round: what `folio settings` and `folio mcp` store, the app's dialog shows and a
/// folder the app opens applies (budget, read-only choice, MCP servers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_the_cli_stores_the_app_shows_and_applies() {
    let shared = Shared::new();
    let f = shared.f();
    let entry = folio_mcp::testing::server_entry().display().to_string();
    for args in [
        vec!["settings", "set", "--provider", "ollama", "--model", "llama3", "--base-url", "http://127.0.0.1:9/v1"],
        vec!["settings", "set", "--run-budget-ms", "1000", "--max-turns", "7"],
        vec!["settings", "read-only", f, "on"],
        vec!["mcp", "add", "everything", "node", &entry, "stdio"],
    ] {
        let out = shared.folio(&args).await;
        assert!(out.status.success(), "folio {}: {}", args.join(" "), said(&out));
    }
    let view = shared.host().settings().view().unwrap();
    let s = &view.settings;
    assert_eq!(
        (s.provider, s.model.as_str(), s.base_url.as_str(), s.script_budget_ms, s.max_turns),
        (ProviderName::Ollama, "llama3", "http://127.0.0.1:9/v1", 1_000, 7)
    );

    // The app opens the folder read-only, as remembered; its scripts run under the 1 s budget
    // and see env:everything.
    let app = AppState::new(Some(shared.state.clone()));
    let opened = app.open(f, None).unwrap();
    assert!(opened.read_only, "the read-only choice `folio settings read-only` stored");
    let session = app.session().unwrap();
    let run = |path: &str| {
        let params = ScriptsRunParams { path: path.into(), args: Some(json!({})) };
        session.run_script(params, Box::new(|_| {}))
    };
    let spun = tokio::task::block_in_place(|| run("/scripts/spin.js")).unwrap();
    assert!(!spun.ok && spun.error.as_deref().unwrap_or("").contains("1000ms"), "{spun:?}");
    let sum = tokio::task::block_in_place(|| run("/scripts/mcp.js")).unwrap();
    assert!(sum.ok && sum.result_text.as_deref().unwrap_or("").contains("42"), "{sum:?}");
}
