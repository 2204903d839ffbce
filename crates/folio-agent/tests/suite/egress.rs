//! What crosses the boundary, against the fake provider: local-only refuses a provider off this
//! machine before any connection; the ledger's entries equal what the provider received, byte
//! for byte; never-send paths are refused to the agent and absent from every request, while a
//! script may still use them.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_agent::testing::{FakeServer, Recorded, Reply, anthropic, openai};
use folio_agent::{
    Agent, AgentConfig, AgentError, AgentEvent, Conversation, EnvTools, HostEvents, LedgerEntry, LedgerItem, Message,
    ModelClient, Provider, WireFormat, sha256_hex,
};
use folio_boundary::{Boundary, NetworkMode};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn local_only() -> Boundary {
    Boundary::new(NetworkMode::LocalOnly, NetworkMode::Open, &[]).unwrap()
}

fn user() -> folio_agent::ModelRequest {
    folio_agent::ModelRequest { system: "s".into(), messages: vec![Message::user("hello")], tools: vec![] }
}

#[tokio::test]
async fn local_only_refuses_a_provider_off_this_machine_before_connecting() {
    // A listener that must see nothing: 0.0.0.0 reaches this machine's listeners on Linux, but it
    // is not loopback, so local-only refuses it.
    let server = FakeServer::start((0..3).map(|_| Reply::sse(openai("hi", &[], 1))).collect()).await.unwrap();
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let wildcard = format!("http://0.0.0.0:{port}/v1");
    for base in
        [wildcard.as_str(), "http://10.255.255.1:9/v1", "http://ollama.lan:11434/v1", "https://api.openai.com/v1"]
    {
        let client =
            ModelClient::new(Provider::new(WireFormat::OpenAi, base, "m")).unwrap().with_boundary(local_only());
        let started = Instant::now();
        let err = client.stream(&user(), &CancellationToken::new(), &mut |_| {}).await.unwrap_err();
        assert!(matches!(err, AgentError::Boundary(_)), "{base}: {err:?}");
        let msg = err.to_string();
        assert!(msg.contains(&format!("at {base} is not on this machine")), "{msg}");
        assert!(msg.contains("the global local-only setting is on — nothing was sent"), "{msg}");
        assert!(started.elapsed() < Duration::from_secs(1), "{base}: refused without trying to connect");
    }
    assert_eq!(server.requests().len(), 0, "nothing reached the listener");
    // The control: the same URL in open mode does reach it, so the refusal above was the boundary's.
    let open = ModelClient::new(Provider::new(WireFormat::OpenAi, wildcard.as_str(), "m")).unwrap();
    match open.stream(&user(), &CancellationToken::new(), &mut |_| {}).await {
        Ok(_) => assert_eq!(server.requests().len(), 1),
        Err(e) => println!("control skipped: 0.0.0.0 does not reach local listeners here ({e})"),
    }
    // Loopback is allowed, by address and by name.
    for base in [format!("{}/v1", server.base), format!("http://localhost:{port}/v1")] {
        let before = server.requests().len();
        let client = ModelClient::new(Provider::new(WireFormat::OpenAi, base.as_str(), "m"))
            .unwrap()
            .with_boundary(local_only());
        let turn = client.stream(&user(), &CancellationToken::new(), &mut |_| {}).await;
        assert_eq!(turn.unwrap_or_else(|e| panic!("{base}: {e}")).message.text(), "hi");
        assert_eq!(server.requests().len(), before + 1, "{base} was allowed");
    }
    // The settings dialog's connection test asks the same boundary.
    let report = folio_agent::test_connection_within(
        &Provider::new(WireFormat::OpenAi, "http://10.255.255.1:9/v1", "m"),
        &local_only(),
    )
    .await;
    assert_eq!(report.outcome, folio_agent::ConnectionOutcome::Failed);
    assert!(report.message.contains("local-only setting"), "{}", report.message);
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDRledger";

fn env(files: &[(&str, &[u8])], vision: bool) -> Arc<folio_env::Environment> {
    let opts = folio_env::EnvOptions {
        vision: vision.then(|| Arc::new(folio_agent::VisionSeam::MainModel) as Arc<dyn folio_env::Vision>),
        ..Default::default()
    };
    let env = folio_env::Environment::new(Arc::new(folio_vfs::MemTree::new()), None, opts).unwrap();
    for (path, bytes) in files {
        folio_vfs::Tree::write(env.tree(), &folio_vfs::VPath::parse(path).unwrap(), bytes).unwrap();
    }
    Arc::new(env)
}

type Call<'a> = (&'a str, &'a str, Value);

fn turn(format: WireFormat, text: &str, calls: &[Call<'_>]) -> Reply {
    Reply::sse(match format {
        WireFormat::Anthropic => anthropic(text, calls, 10),
        WireFormat::OpenAi => openai(text, calls, 10),
    })
}

/// Runs one request through the loop against `replies`; returns the ledger and the server.
async fn run(
    format: WireFormat,
    env: Arc<folio_env::Environment>,
    boundary: Boundary,
    replies: Vec<Reply>,
) -> (Vec<LedgerEntry>, Vec<AgentEvent>, FakeServer) {
    let server = FakeServer::start(replies).await.unwrap();
    let base = if format == WireFormat::OpenAi { format!("{}/v1", server.base) } else { server.base.clone() };
    let client = ModelClient::new(Provider::new(format, base, "m")).unwrap().with_boundary(boundary.clone());
    let tools = EnvTools::new(env, HostEvents::default()).with_boundary(boundary);
    let agent =
        Agent::new(client, Arc::new(tools), AgentConfig { system: "You are Folio.".into(), ..Default::default() });
    let mut events = Vec::new();
    agent
        .run(&mut Conversation::default(), Some(Message::user("Summarise Q3.")), &CancellationToken::new(), &mut |e| {
            events.push(e)
        })
        .await
        .unwrap();
    let ledger = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::ModelRequest { entry } => Some((**entry).clone()),
            _ => None,
        })
        .collect();
    (ledger, events, server)
}

/// Every string in a JSON value.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

/// The SHA-256 of every image in a received body (Anthropic's `source.data`, OpenAI's data URL).
fn image_hashes(body: &Value) -> Vec<String> {
    use base64::Engine as _;
    let mut all = Vec::new();
    strings(body, &mut all);
    let mut out = Vec::new();
    let mut walk = vec![body];
    while let Some(v) = walk.pop() {
        match v {
            Value::Object(o) => {
                if o.get("type").and_then(Value::as_str) == Some("base64")
                    && let Some(d) = o.get("data").and_then(Value::as_str)
                {
                    out.push(base64::engine::general_purpose::STANDARD.decode(d).unwrap());
                }
                walk.extend(o.values());
            }
            Value::Array(a) => walk.extend(a),
            _ => {}
        }
    }
    for s in all {
        if let Some((_, d)) = s.strip_prefix("data:").and_then(|rest| rest.split_once(";base64,")) {
            out.push(base64::engine::general_purpose::STANDARD.decode(d).unwrap());
        }
    }
    out.iter().map(|b| sha256_hex(b)).collect()
}

/// The ledger against what the fake provider captured: one entry per request, the exact bytes'
/// hash and size, and every item found in the body as sent.
fn assert_ledger_is_what_arrived(format: WireFormat, ledger: &[LedgerEntry], received: &[Recorded]) {
    assert_eq!(ledger.len(), received.len(), "{format:?}: one entry per request");
    for (n, (entry, got)) in ledger.iter().zip(received).enumerate() {
        assert_eq!(entry.body_sha256, sha256_hex(&got.raw), "{format:?} request {n}: body hash");
        assert_eq!(entry.body_bytes, got.raw.len() as u64, "{format:?} request {n}: body size");
        assert_eq!(entry.call, n as u32 + 1);
        assert_eq!(entry.turn, 1);
        assert!(entry.endpoint.ends_with(&got.path), "{} vs {}", entry.endpoint, got.path);
        let mut sent = Vec::new();
        strings(&got.body, &mut sent);
        let images = image_hashes(&got.body);
        let mut seen_images = 0;
        for item in &entry.items {
            match item {
                LedgerItem::System { text } => assert!(sent.contains(text), "system prompt sent as recorded"),
                LedgerItem::Text { text, .. } => {
                    assert!(sent.iter().any(|s| s.contains(text.as_str())), "{format:?} {n}: text {text:?}")
                }
                LedgerItem::ToolResult { text, .. } => {
                    assert!(sent.contains(text), "{format:?} {n}: tool result sent exactly as recorded: {text:?}")
                }
                LedgerItem::ToolCall { name, .. } => assert!(sent.contains(name)),
                LedgerItem::Image { sha256, .. } => {
                    seen_images += 1;
                    assert!(images.contains(sha256), "{format:?} {n}: image {sha256} in the body")
                }
            }
        }
        assert_eq!(seen_images, images.len(), "{format:?} {n}: every image sent is in the ledger");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ledger_equals_what_the_provider_received_for_text_tool_results_and_images() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let files: &[(&str, &[u8])] =
            &[("/data/q3.csv", b"region,revenue\nnorth,120\nsouth,95\n"), ("/out/chart.png", PNG)];
        let replies = vec![
            turn(
                format,
                "Reading.",
                &[("r1", "read_file", json!({"path": "/data/q3.csv", "start_line": 2, "end_line": 3}))],
            ),
            turn(format, "", &[("g1", "grep", json!({"pattern": "north"}))]),
            turn(format, "", &[("v1", "view_image", json!({"path": "/out/chart.png", "prompt": "Bars?"}))]),
            turn(format, "North leads with 120.", &[]),
        ];
        let (ledger, _, server) = run(format, env(files, true), Boundary::open(), replies).await;
        let received = server.requests();
        assert_eq!(received.len(), 4);
        assert_ledger_is_what_arrived(format, &ledger, &received);
        // Provenance: the last request carries all three results with where they came from.
        let last = ledger.last().unwrap();
        let results: Vec<(&str, &Vec<folio_agent::Source>)> = last
            .items
            .iter()
            .filter_map(|i| match i {
                LedgerItem::ToolResult { name, sources, .. } => Some((name.as_str(), sources)),
                _ => None,
            })
            .collect();
        let read = &results.iter().find(|(n, _)| *n == "read_file").unwrap().1[0];
        assert_eq!((read.path.as_str(), read.range.as_deref()), ("/data/q3.csv", Some("lines 2–3")), "{format:?}");
        let grep = &results.iter().find(|(n, _)| *n == "grep").unwrap().1[0];
        assert_eq!((grep.path.as_str(), grep.range.as_deref()), ("/data/q3.csv", Some("lines 2")), "{format:?}");
        let image = last.items.iter().find_map(|i| match i {
            LedgerItem::Image { source, sha256, bytes, call_id, .. } => {
                Some((source.clone(), sha256.clone(), *bytes, call_id.clone()))
            }
            _ => None,
        });
        assert_eq!(
            image,
            Some((Some("/out/chart.png".to_owned()), sha256_hex(PNG), PNG.len() as u64, Some("v1".to_owned()))),
            "{format:?}"
        );
        assert!(last.items.iter().any(|i| matches!(i, LedgerItem::Text { text, .. } if text == "Summarise Q3.")));
        assert_eq!(last.tools.iter().filter(|t| *t == "read_file").count(), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn never_send_paths_are_refused_to_the_agent_and_absent_from_every_request() {
    let salaries: &[u8] = b"name,salary\nalice-secret,91000\nbob-secret,87000\n";
    let script: &[u8] = b"/** Totals the salaries on this machine. */\nimport * as fs from 'env:fs';\nexport default async function () {\n  const rows = (await fs.readText('/clients/salaries.csv')).trim().split('\\n').slice(1);\n  return { total: rows.reduce((t, r) => t + Number(r.split(',')[1]), 0) };\n}\n";
    let files: &[(&str, &[u8])] = &[
        ("/clients/salaries.csv", salaries),
        ("/data/notes.txt", b"salary review in march\n"),
        ("/scripts/total.js", script),
    ];
    let boundary = Boundary::new(NetworkMode::Open, NetworkMode::Open, &["/clients/**".to_owned()]).unwrap();
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let replies = vec![
            turn(format, "", &[("r1", "read_file", json!({"path": "/clients/salaries.csv"}))]),
            turn(format, "", &[("g1", "grep", json!({"pattern": "salar|secret"}))]),
            turn(format, "", &[("g2", "grep", json!({"pattern": "secret", "path": "/clients"}))]),
            turn(format, "", &[("d1", "describe", json!({"path": "/clients/salaries.csv"}))]),
            turn(format, "", &[("c1", "cp", json!({"from": "/clients/salaries.csv", "to": "/tmp/s.csv"}))]),
            turn(format, "", &[("s1", "run_script", json!({"path": "/scripts/total.js"}))]),
            turn(format, "The total is 178000.", &[]),
        ];
        let (ledger, events, server) = run(format, env(files, false), boundary.clone(), replies).await;
        let outputs: Vec<(String, String)> = events
            .iter()
            .filter_map(|e| match e {
                AgentEvent::ToolCallFinished { id, output, .. } => Some((id.clone(), output.clone())),
                _ => None,
            })
            .collect();
        let output = |id: &str| outputs.iter().find(|(i, _)| i == id).map(|(_, o)| o.clone()).unwrap();
        for id in ["r1", "g2", "d1", "c1"] {
            let o = output(id);
            assert!(o.contains("is on this folder's never-send list (/clients/**)"), "{format:?} {id}: {o}");
            assert!(o.contains("hint: process it in a script"), "{o}");
        }
        let g1 = output("g1");
        assert!(g1.contains("/data/notes.txt:1: salary review"), "{format:?}: {g1}");
        assert!(g1.contains("line(s) from files on this folder's never-send list (/clients/**) withheld"), "{g1}");
        assert!(output("s1").contains("178000"), "the script used the file locally: {}", output("s1"));
        let received = server.requests();
        assert_eq!(received.len(), 7);
        for (n, r) in received.iter().enumerate() {
            let body = String::from_utf8_lossy(&r.raw);
            for secret in ["alice-secret", "bob-secret", "91000", "87000"] {
                assert!(!body.contains(secret), "{format:?} request {n} carried {secret}");
            }
        }
        assert_ledger_is_what_arrived(format, &ledger, &received);
        // The ledger shows the script's derived result as what was sent.
        let last = ledger.last().unwrap();
        assert!(last.items.iter().any(|i| matches!(i, LedgerItem::ToolResult { name, text, .. } if name == "run_script" && text.contains("178000"))));
    }
}
