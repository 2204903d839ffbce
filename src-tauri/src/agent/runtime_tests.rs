#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Mutex;

use folio_agent::AgentEvent;
use folio_agent::testing::{Chunk, FakeServer, Reply, openai};
use serde_json::json;

use super::*;

struct Fixture {
    host: Arc<AgentHost>,
    session: Arc<Session>,
    folder: tempfile::TempDir,
    state: tempfile::TempDir,
}

/// A folder with one file, a host whose key lives in a file (never the person's keychain), and
/// settings pointing at `server`.
fn fixture(server: &FakeServer) -> Fixture {
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("sales.csv"), "q,total\nQ1,10\nQ2,12\n").unwrap();
    let secrets = folio_store::Secrets::file_only(&state.path().join("keys.json"));
    let host = Arc::new(AgentHost::open_with(state.path(), secrets).unwrap());
    let settings = AgentSettings {
        provider: ProviderName::Openai,
        model: "fake-model".into(),
        base_url: format!("{}/v1", server.base),
        vision_model: String::new(),
        max_turns: 8,
        script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
    };
    host.settings().save(SettingsSaveParams { settings, api_key: Some("sk-fake".into()) }).unwrap();
    let session = Arc::new(Session::open_in(host.workspace(), folder.path(), None).unwrap());
    Fixture { host, session, folder, state }
}

fn collect() -> (NotificationSink, Arc<Mutex<Vec<ConversationNotification>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let into = seen.clone();
    (Arc::new(move |n| into.lock().unwrap().push(n)), seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_streams_records_and_replays_identically() {
    let server = FakeServer::start(vec![
        Reply::sse(openai(
            "Writing the summary.",
            &[("t1", "write_file", json!({"path": "/out/summary.md", "content": "# Q2 led\n"}))],
            100,
        )),
        Reply::sse(openai(
            "",
            &[("t2", "ask_user", json!({"question": "Which format?", "options": ["md", "pdf"]}))],
            120,
        )),
        Reply::sse(openai("Done: /out/summary.md is pending.", &[], 140)),
    ])
    .await
    .unwrap();
    let f = fixture(&server);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let into = seen.clone();
    let events = f.session.agent_events().clone();
    let sink: NotificationSink = Arc::new(move |n: ConversationNotification| {
        if let ConversationNotification::Ask { id, .. } = &n {
            assert!(events.answer(*id, Some("md".into())));
        }
        into.lock().unwrap().push(n);
    });
    let params = ConversationSendParams { conversation_id: None, text: Some("Summarise sales".into()) };
    let reply = f.host.send(f.session.clone(), params, sink).await.unwrap();
    assert_eq!(reply.end, TurnEnd::Done);
    let streamed = seen.lock().unwrap().clone();
    assert!(matches!(&streamed[0], ConversationNotification::Started { title, .. } if title == "Summarise sales"));
    assert_eq!(streamed[1], ConversationNotification::User { text: "Summarise sales".into() });
    let text: String = streamed
        .iter()
        .filter_map(|n| match n {
            ConversationNotification::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(text, "Writing the summary.Done: /out/summary.md is pending.");
    let finished: Vec<(&str, ToolStatus, &str)> = streamed
        .iter()
        .filter_map(|n| match n {
            ConversationNotification::ToolFinished { name, status, summary, .. } => {
                Some((name.as_str(), *status, summary.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        [("write_file", ToolStatus::Success, "/out/summary.md"), ("ask_user", ToolStatus::Success, "Which format?")]
    );
    assert!(streamed.iter().any(|n| matches!(n, ConversationNotification::Pending { count } if *count >= 1)));
    assert_eq!(streamed.last(), Some(&ConversationNotification::Finished { end: TurnEnd::Done }));
    assert!(!f.folder.path().join("out").exists(), "the turn's writes stay pending");
    let sent = server.requests();
    assert_eq!(sent[0].header("authorization"), Some("Bearer sk-fake"), "the saved key is used");
    assert!(sent[2].body.to_string().contains("md"), "the answer went back to the model");

    // After a restart (a new host over the same state), the transcript replays as it streamed,
    // minus the `started` line that only a live turn sends.
    let list = f.host.conversations(f.session.folder()).unwrap();
    assert_eq!(list.conversations.len(), 1);
    let replay = f.host.replay(&reply.conversation_id).unwrap();
    assert!(!replay.running);
    assert_eq!(replay.items, streamed[1..].to_vec());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_a_long_script_promptly_and_a_second_send_waits_its_turn() {
    let script = "export default async function main() {\n  for (let i = 0; ; i++) {\n    console.log(`tick ${i}`);\n    await Promise.resolve();\n  }\n}\n";
    let server = FakeServer::start(vec![
        Reply::sse(openai("", &[("t1", "write_file", json!({"path": "/scripts/spin.js", "content": script}))], 10)),
        Reply::sse(openai("", &[("t2", "run_script", json!({"path": "/scripts/spin.js"}))], 10)),
    ])
    .await
    .unwrap();
    let f = fixture(&server);
    let (sink, seen) = collect();
    let host = f.host.clone();
    let session = f.session.clone();
    let turn = tokio::spawn(async move {
        let params = ConversationSendParams { conversation_id: None, text: Some("spin".into()) };
        host.send(session, params, sink).await
    });
    let id = loop {
        let started = seen.lock().unwrap().iter().find_map(|n| match n {
            ConversationNotification::ToolStarted { name, .. } if name == "run_script" => Some(()),
            _ => None,
        });
        let id = seen.lock().unwrap().iter().find_map(|n| match n {
            ConversationNotification::Started { conversation_id, .. } => Some(conversation_id.clone()),
            _ => None,
        });
        if let (Some(()), Some(id)) = (started, id) {
            break id;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let (sink2, _) = collect();
    let busy = f
        .host
        .send(f.session.clone(), ConversationSendParams { conversation_id: None, text: Some("more".into()) }, sink2)
        .await
        .unwrap_err();
    assert!(busy.contains("press Stop"), "{busy}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let asked = std::time::Instant::now();
    assert!(f.host.stop(&id));
    let reply = tokio::time::timeout(std::time::Duration::from_secs(10), turn).await.unwrap().unwrap().unwrap();
    assert_eq!(reply.end, TurnEnd::Stopped);
    assert!(asked.elapsed() < std::time::Duration::from_secs(3), "stopped in {:?}", asked.elapsed());
    let seen = seen.lock().unwrap();
    assert!(seen.iter().any(|n| matches!(n, ConversationNotification::ToolFinished { name, status: ToolStatus::Aborted, .. } if name == "run_script")));
    let lines = seen.iter().filter(|n| matches!(n, ConversationNotification::ToolProgress { .. })).count();
    // The cap, a live line per half second of the ~0.3 s past it, and the count of dropped lines.
    assert!(lines <= LINES_PER_CALL + 4, "a script printing in a tight loop is capped: {lines} lines");
    let dropped = seen.iter().any(|n| matches!(n, ConversationNotification::ToolProgress { text, .. } if text.contains("more console lines not shown")));
    assert!(dropped, "the dropped lines are counted");
    assert_eq!(seen.last(), Some(&ConversationNotification::Finished { end: TurnEnd::Stopped }));
    assert!(!f.host.stop(&id), "nothing runs any more");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_that_refuses_is_a_failed_turn_with_the_fix() {
    let server = FakeServer::start(vec![Reply::status(401, r#"{"error":{"message":"bad key"}}"#)]).await.unwrap();
    let f = fixture(&server);
    let (sink, seen) = collect();
    let params = ConversationSendParams { conversation_id: None, text: Some("hello".into()) };
    let reply = f.host.send(f.session.clone(), params, sink).await.unwrap();
    assert_eq!(reply.end, TurnEnd::Failed);
    let seen = seen.lock().unwrap();
    let error = seen.iter().find_map(|n| match n {
        ConversationNotification::Error { message, .. } => Some(message.clone()),
        _ => None,
    });
    assert!(error.unwrap().contains("answered 401: bad key — hint: check the API key"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_round_trip_and_test_connection_names_its_outcome() {
    let server = FakeServer::start(vec![
        Reply::sse(openai("ok", &[], 5)),
        Reply::sse(vec![Chunk::Pause(1)]),
        Reply::status(401, r#"{"error":{"message":"invalid key"}}"#),
    ])
    .await
    .unwrap();
    let f = fixture(&server);
    let view = f.host.settings().view().unwrap();
    assert_eq!(view.settings.model, "fake-model");
    assert_eq!(view.settings.max_turns, 8);
    assert!(view.key.present);
    assert!(view.key.source.unwrap().contains("keys.json"), "the key file is named as the key's home");
    assert!(view.presets.iter().any(|p| p.name == "anthropic"));

    let ok = f
        .host
        .settings()
        .test(
            ConnectionTestParams { settings: view.settings.clone(), api_key: None },
            &folio_boundary::Boundary::open(),
        )
        .await;
    assert_eq!(ok.outcome, ConnectionOutcomeName::Ok, "{}", ok.message);
    assert!(ok.message.starts_with("ok — fake-model answered in"), "{}", ok.message);
    let cut = f
        .host
        .settings()
        .test(
            ConnectionTestParams { settings: view.settings.clone(), api_key: None },
            &folio_boundary::Boundary::open(),
        )
        .await;
    assert_eq!(cut.outcome, ConnectionOutcomeName::Failed, "a stream cut short: {}", cut.message);
    let typed = ConnectionTestParams { settings: view.settings.clone(), api_key: Some("sk-typed".into()) };
    let refused = f.host.settings().test(typed, &folio_boundary::Boundary::open()).await;
    assert_eq!(refused.outcome, ConnectionOutcomeName::Unauthorised, "{}", refused.message);
    assert_eq!(server.requests()[2].header("authorization"), Some("Bearer sk-typed"), "a typed key is tested unsaved");

    // A provider Folio does not know cannot even be said: the settings' provider is an enum.
    let mut bad = serde_json::to_value(&view.settings).unwrap();
    bad["provider"] = json!("nonesuch");
    assert!(serde_json::from_value::<AgentSettings>(bad).is_err());
    let keyless = AgentSettings { provider: ProviderName::Anthropic, model: String::new(), ..view.settings };
    let saved = f.host.settings().save(SettingsSaveParams { settings: keyless.clone(), api_key: None }).unwrap();
    assert_eq!(saved.settings, keyless);
    if std::env::var_os("ANTHROPIC_API_KEY").is_none() && std::env::var_os("FOLIO_API_KEY").is_none() {
        assert!(!saved.key.present);
        let err = f.host.settings().provider(&keyless, None).unwrap_err();
        assert!(err.contains("no API key for anthropic") && err.contains("open Settings"), "{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_vision_setting_reaches_a_folder_opened_after_it_or_says_why_not() {
    let server = FakeServer::start(vec![]).await.unwrap();
    let f = fixture(&server);
    // The folder opened (by the app, through folio-workspace) after `vision` was saved.
    let open_with = |vision: &str| {
        let settings = AgentSettings { vision_model: vision.into(), ..f.host.settings().load().unwrap() };
        f.host.settings().save(SettingsSaveParams { settings, api_key: None }).unwrap();
        let session = Session::open_in(f.host.workspace(), f.folder.path(), None).unwrap();
        let sees = session.environment().tools().iter().any(|t| t.name == "view_image");
        (sees, session.opened().warnings)
    };
    let (sees, warnings) = open_with("");
    assert!(!sees && warnings.is_empty(), "{warnings:?}");
    let (sees, warnings) = open_with("main");
    assert!(sees && warnings.is_empty(), "{warnings:?}");
    let (sees, warnings) = open_with("openai:gpt-4.1-mini");
    assert!(sees, "{warnings:?}");
    let (sees, warnings) = open_with("nonesuch:model");
    assert!(!sees);
    assert!(warnings.iter().any(|w| w.contains("no provider named `nonesuch`")), "{warnings:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_run_budget_pauses_and_continue_resumes_the_same_conversation() {
    let server = FakeServer::start(vec![
        Reply::sse(openai("Looking first.", &[("l1", "ls", json!({"path": "/"}))], 10)),
        Reply::sse(openai("Found sales.csv.", &[], 20)),
    ])
    .await
    .unwrap();
    let f = fixture(&server);
    let settings = AgentSettings { max_turns: 1, ..f.host.settings().load().unwrap() };
    f.host.settings().save(SettingsSaveParams { settings, api_key: None }).unwrap();
    let (sink, seen) = collect();
    let first = ConversationSendParams { conversation_id: None, text: Some("what is here?".into()) };
    let paused = f.host.send(f.session.clone(), first, sink.clone()).await.unwrap();
    assert_eq!(paused.end, TurnEnd::MaxTurns);
    assert!(seen.lock().unwrap().contains(&ConversationNotification::MaxTurns { turns: 1 }));
    let resume = ConversationSendParams { conversation_id: Some(paused.conversation_id.clone()), text: None };
    let done = f.host.send(f.session.clone(), resume, sink).await.unwrap();
    assert_eq!((done.end, done.conversation_id.as_str()), (TurnEnd::Done, paused.conversation_id.as_str()));
    let continued = server.requests()[1].body.to_string();
    assert!(continued.contains("what is here?") && continued.contains("sales.csv"), "the history went along");
    let users = seen.lock().unwrap().iter().filter(|n| matches!(n, ConversationNotification::User { .. })).count();
    assert_eq!(users, 1, "Continue adds no request of its own");
    assert_eq!(f.host.conversations(f.session.folder()).unwrap().conversations.len(), 1);
}

/// A job's progress is not console output: it never counts against the call's console lines,
/// and a burst passes as its first and last line only (each replaces the one before on the row).
#[test]
fn job_progress_passes_throttled_and_apart_from_the_console_line_budget() {
    let job = |done: u64| AgentEvent::ScriptProgress {
        run_id: "r".into(),
        script: "/scripts/r.js".into(),
        stream: "stdout".into(),
        text: format!("/a.pdf: {done}/50 pages"),
        job: Some(folio_budget::JobProgress {
            job: "/a.pdf".into(),
            done,
            total: 50,
            unit: folio_budget::Unit::Page,
            eta_ms: Some(1_000),
            elapsed_ms: 10,
        }),
    };
    let console = |i: usize| AgentEvent::ScriptProgress {
        run_id: "r".into(),
        script: "/scripts/r.js".into(),
        stream: "stdout".into(),
        text: format!("line {i}"),
        job: None,
    };
    let mut budget = LineBudget::default();
    let passed: Vec<u64> = (0..=50)
        .filter_map(|d| match budget.admit(job(d)) {
            Some(AgentEvent::ScriptProgress { job: Some(j), .. }) => Some(j.done),
            _ => None,
        })
        .collect();
    assert_eq!(passed, [0, 50], "a burst: the first and the last unit");
    assert_eq!(budget.shown(), 0, "job lines do not count as console lines");
    let shown = (0..LINES_PER_CALL).filter(|&i| budget.admit(console(i)).is_some()).count();
    assert_eq!(shown, LINES_PER_CALL, "the console keeps its whole budget");
    assert!(budget.summary().is_none());
}

/// Saving settings while a turn waits in `ask_user` replaces the folder's session (the folder is
/// reopened with them); the answer given through the new session still reaches the waiting turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_reaches_the_waiting_turn_after_settings_reopened_the_folder() {
    let server = FakeServer::start(vec![
        Reply::sse(openai("", &[("q1", "ask_user", json!({"question": "Which quarter?"}))], 10)),
        Reply::sse(openai("Q2 it is.", &[], 10)),
    ])
    .await
    .unwrap();
    let f = fixture(&server);
    let (sink, seen) = collect();
    let (host, session) = (f.host.clone(), f.session.clone());
    let turn = tokio::spawn(async move {
        let params = ConversationSendParams { conversation_id: None, text: Some("total a quarter".into()) };
        host.send(session, params, sink).await
    });
    let started = std::time::Instant::now();
    let id = loop {
        let asked = seen.lock().unwrap().iter().find_map(|n| match n {
            ConversationNotification::Ask { id, .. } => Some(*id),
            _ => None,
        });
        if let Some(id) = asked {
            break id;
        }
        assert!(started.elapsed().as_secs() < 20, "the question never came");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    // Settings saved while the turn waits, and the folder reopened with them: a new session.
    let settings = AgentSettings { max_turns: 9, ..f.host.settings().load().unwrap() };
    f.host.settings().save(SettingsSaveParams { settings, api_key: None }).unwrap();
    let reopened = Arc::new(Session::open(f.folder.path(), Some(f.state.path().to_path_buf())).unwrap());
    f.host.answer(&reopened, ConversationAnswerParams { question_id: id, answer: Some("Q2".into()) }).unwrap();
    let reply = tokio::time::timeout(std::time::Duration::from_secs(20), turn).await.unwrap().unwrap().unwrap();
    assert_eq!(reply.end, TurnEnd::Done);
    let answered = server.requests()[1].body.to_string();
    assert!(answered.contains("Q2"), "the answer reached the model: {answered}");
}
