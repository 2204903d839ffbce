//! The conversation, Settings and Doctor commands through Tauri's mock runtime (no display): the
//! same IPC path and parameter names the UI uses. No key is ever saved here (a developer's real
//! keychain must not be touched); a typed key is tested unsaved.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_agent::testing::{FakeServer, Reply, openai};
use folio_desktop::api::*;
use serde_json::{Value, json};

mod mock;
use mock::{app, call};

#[test]
fn settings_round_trip_and_test_connection_through_ipc() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = runtime
        .block_on(FakeServer::start(vec![
            Reply::sse(openai("ok", &[], 5)),
            Reply::status(404, r#"{"error":{"message":"no such model"}}"#),
        ]))
        .unwrap();
    let app = app();
    let view: SettingsGetResponse = call(&app, "settings_get", json!({})).unwrap();
    assert!(view.presets.iter().any(|p| p.name == "openai" && p.key_env.as_deref() == Some("OPENAI_API_KEY")));
    assert_eq!(view.settings.max_turns, 120);

    let settings = AgentSettings {
        provider: ProviderName::Openai,
        model: "fake-model".into(),
        base_url: format!("{}/v1", server.base),
        vision_model: String::new(),
        max_turns: 30,
        script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
    };
    let saved: SettingsGetResponse =
        call(&app, "settings_save", json!({"params": {"settings": settings, "apiKey": null}})).unwrap();
    assert_eq!(saved.settings, settings);
    let again: SettingsGetResponse = call(&app, "settings_get", json!({})).unwrap();
    assert_eq!(again.settings, settings, "the settings persist in the store");

    let params = json!({"params": {"settings": settings, "apiKey": "sk-typed"}});
    let ok: ConnectionTestResponse = call(&app, "connection_test", params.clone()).unwrap();
    assert_eq!(ok.outcome, ConnectionOutcomeName::Ok, "{}", ok.message);
    assert_eq!(ok.model, "fake-model");
    let missing: ConnectionTestResponse = call(&app, "connection_test", params).unwrap();
    assert_eq!(missing.outcome, ConnectionOutcomeName::NotFound, "{}", missing.message);
    assert!(missing.message.contains("check the model id and the base URL"), "{}", missing.message);
    assert_eq!(server.requests()[0].header("authorization"), Some("Bearer sk-typed"));

    let bad = AgentSettings { max_turns: 0, ..settings };
    let err = call::<SettingsGetResponse>(&app, "settings_save", json!({"params": {"settings": bad, "apiKey": null}}))
        .unwrap_err();
    assert!(err.contains("run budget must be at least 1"), "{err}");
}

#[test]
fn conversation_commands_need_a_folder_and_name_what_is_missing() {
    let app = app();
    let err = call::<ConversationListResponse>(&app, "conversation_list", json!({})).unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");

    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "hello\n").unwrap();
    let _: FolderOpenResponse =
        call(&app, "folder_open", json!({"params": {"path": folder.path().display().to_string()}})).unwrap();
    let list: ConversationListResponse = call(&app, "conversation_list", json!({})).unwrap();
    assert!(list.conversations.is_empty());
    let err =
        call::<ConversationOpenResponse>(&app, "conversation_open", json!({"params": {"id": "c1-1"}})).unwrap_err();
    assert!(err.contains("no conversation c1-1"), "{err}");
    let stop: ConversationStopResponse =
        call(&app, "conversation_stop", json!({"params": {"conversationId": "c1-1"}})).unwrap();
    assert!(!stop.stopped, "nothing was running");
    let err =
        call::<Value>(&app, "conversation_answer", json!({"params": {"questionId": 9, "answer": "yes"}})).unwrap_err();
    assert!(err.contains("no longer waiting"), "{err}");

    // A torn doctor cache is said in the panel itself (it used to reach only stderr), and rewritten.
    std::fs::write(app.state.path().join("doctor-cache.json"), "{torn").unwrap();
    let doctor: DoctorGetResponse = call(&app, "doctor_get", json!({})).unwrap();
    assert!(
        doctor.warnings.iter().any(|w| w.contains("doctor-cache.json could not be read") && w.contains("rewritten")),
        "{:?}",
        doctor.warnings
    );
    let again: DoctorGetResponse = call(&app, "doctor_get", json!({})).unwrap();
    assert!(again.warnings.is_empty(), "the cache was rewritten: {:?}", again.warnings);
    let names: Vec<&str> = doctor.rows.iter().map(|r| r.name.as_str()).collect();
    assert!(names.contains(&"pdfium") && names.last() == Some(&"provider"), "{names:?}");
    assert!(doctor.rows.iter().all(|r| r.ok || !r.fix.is_empty()), "every failing row names its fix");
}

/// The Doctor panel's provider row, red for a local server with no model saved, says to fill the
/// model in Settings (a key would not help); doing that turns it green.
#[test]
fn the_provider_rows_fix_in_the_doctor_panel_works_when_followed() {
    let app = app();
    let provider_row = |app: &mock::App| -> DoctorRow {
        let doctor: DoctorGetResponse = call(app, "doctor_get", json!({})).unwrap();
        doctor.rows.into_iter().find(|r| r.name == "provider").unwrap()
    };
    let mut settings = AgentSettings {
        provider: ProviderName::Ollama,
        model: String::new(),
        base_url: String::new(),
        vision_model: String::new(),
        max_turns: 30,
        script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
    };
    let _: SettingsGetResponse =
        call(&app, "settings_save", json!({"params": {"settings": settings, "apiKey": null}})).unwrap();
    let red = provider_row(&app);
    assert!(!red.ok, "{red:?}");
    assert!(red.fix.contains("Settings") && red.fix.contains("model") && !red.fix.contains("key"), "{}", red.fix);
    settings.model = "llama3.2".into();
    let _: SettingsGetResponse =
        call(&app, "settings_save", json!({"params": {"settings": settings, "apiKey": null}})).unwrap();
    let green = provider_row(&app);
    assert!(green.ok && green.fix.is_empty(), "{green:?}");
}

// ---- What crosses the boundary (issue 16): the desktop's turns behind the stored boundary ----

/// The channel a `conversation_send` streams over; the mock webview drops what it receives, so
/// the tests read the stored transcript back with `conversation_open`.
const CHANNEL: &str = "__CHANNEL__:4242";

/// Saves a keyless local-server provider (no key is ever saved here) at `base_url`, with `vision`.
fn provider_at(app: &mock::App, base_url: &str, vision: &str) {
    let settings = AgentSettings {
        provider: ProviderName::Ollama,
        model: "fake-model".into(),
        base_url: base_url.into(),
        vision_model: vision.into(),
        max_turns: 8,
        script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
    };
    let _: SettingsGetResponse =
        call(app, "settings_save", json!({"params": {"settings": settings, "apiKey": null}})).unwrap();
}

fn open_folder(app: &mock::App, folder: &std::path::Path) {
    let _: FolderOpenResponse =
        call(app, "folder_open", json!({"params": {"path": folder.display().to_string()}})).unwrap();
}

fn privacy(app: &mock::App, global: &str, folder: &str, never_send: &[&str]) -> Result<PrivacyGetResponse, String> {
    call(app, "privacy_save", json!({"params": {"globalMode": global, "folderMode": folder, "neverSend": never_send}}))
}

fn send(app: &mock::App, text: &str) -> Result<ConversationSendResponse, String> {
    call(app, "conversation_send", json!({"params": {"conversationId": null, "text": text}, "onEvent": CHANNEL}))
}

/// The "What was sent" rows of a stored conversation, as the UI receives them.
fn sent(app: &mock::App, id: &str) -> Vec<SentRequest> {
    let opened: ConversationOpenResponse = call(app, "conversation_open", json!({"params": {"id": id}})).unwrap();
    opened
        .items
        .into_iter()
        .filter_map(|n| match n {
            ConversationNotification::ModelRequest { request } => Some(request),
            _ => None,
        })
        .collect()
}

/// Every row's hash and size equal those of a body the fake provider received, one for one.
fn assert_rows_are_what_was_received(rows: &[SentRequest], server: &FakeServer) {
    let mut received: Vec<(String, u64)> =
        server.requests().iter().map(|r| (folio_agent::sha256_hex(&r.raw), r.raw.len() as u64)).collect();
    let mut shown: Vec<(String, u64)> = rows.iter().map(|r| (r.body_sha256.clone(), r.body_bytes)).collect();
    received.sort();
    shown.sort();
    assert_eq!(shown, received, "the ledger shown is exactly what the provider received");
}

/// Local-only (this folder's switch) refuses a provider off this machine before anything is
/// created or connected — an address, a name (never resolved) and the wildcard address of a live
/// listener that must see nothing — and names the setting; a loopback provider still works.
#[test]
fn local_only_refuses_a_remote_provider_before_connecting_and_allows_loopback() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = runtime.block_on(FakeServer::start(vec![Reply::sse(openai("Hello from here.", &[], 5))])).unwrap();
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("notes.txt"), "hello\n").unwrap();
    open_folder(&app, folder.path());
    let view = privacy(&app, "open", "localOnly", &[]).unwrap();
    assert_eq!((view.effective, view.source), (NetworkModeName::LocalOnly, Some(ModeSourceName::Folder)));

    let wildcard = format!("http://0.0.0.0:{port}/v1");
    for base in ["http://10.255.255.1:9/v1", "http://models.example.invalid/v1", wildcard.as_str()] {
        provider_at(&app, base, "");
        let started = std::time::Instant::now();
        let err = send(&app, "hello?").unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{base}: refused without connecting");
        assert!(err.contains(&format!("at {base} is not on this machine")), "{err}");
        assert!(err.contains("this folder's local-only setting is on — nothing was sent"), "{err}");
    }
    assert!(server.requests().is_empty(), "the listener saw nothing");
    let list: ConversationListResponse = call(&app, "conversation_list", json!({})).unwrap();
    assert!(list.conversations.is_empty(), "a refused turn leaves no conversation");

    // The global switch alone refuses too, and is the one named.
    privacy(&app, "localOnly", "open", &[]).unwrap();
    let err = send(&app, "hello?").unwrap_err();
    assert!(err.contains("the global local-only setting is on"), "{err}");

    // A provider on loopback is allowed under local-only.
    provider_at(&app, &format!("{}/v1", server.base), "");
    let reply = send(&app, "hello?").unwrap();
    assert_eq!(reply.end, TurnEnd::Done);
    assert_eq!(server.requests().len(), 1);
    // The connection test asks the same boundary.
    let far = AgentSettings {
        provider: ProviderName::Ollama,
        model: "fake-model".into(),
        base_url: "http://10.255.255.1:9/v1".into(),
        vision_model: String::new(),
        max_turns: 8,
        script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
    };
    let test: ConnectionTestResponse =
        call(&app, "connection_test", json!({"params": {"settings": far, "apiKey": null}})).unwrap();
    assert_eq!(test.outcome, ConnectionOutcomeName::Failed, "{}", test.message);
    assert!(test.message.contains("local-only setting"), "{}", test.message);
    privacy(&app, "open", "open", &[]).unwrap();
}

/// A never-send path is refused to the agent's read in a desktop turn, its contents are in no
/// request the provider received, and the rows the UI gets are exactly those requests (hash and
/// size) with the provenance of what was read.
#[test]
fn never_send_is_refused_in_a_desktop_turn_and_the_ledger_shown_is_what_was_received() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = runtime
        .block_on(FakeServer::start(vec![
            Reply::sse(openai(
                "",
                &[
                    ("r1", "read_file", json!({"path": "/clients/acme.csv"})),
                    ("r2", "read_file", json!({"path": "/sales.csv"})),
                ],
                10,
            )),
            Reply::sse(openai("Q2 led; the client file stays on this machine.", &[], 20)),
        ]))
        .unwrap();
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("clients")).unwrap();
    std::fs::write(folder.path().join("clients/acme.csv"), "client,fee\nACME-SECRET-4411,178000\n").unwrap();
    std::fs::write(folder.path().join("sales.csv"), "q,total\nQ1,10\nQ2,12\n").unwrap();
    provider_at(&app, &format!("{}/v1", server.base), "");
    open_folder(&app, folder.path());
    // An invalid pattern is named with its fix, and nothing is saved.
    let err = privacy(&app, "open", "open", &["/clients/**", "/a/../b"]).unwrap_err();
    assert!(err.contains("\"/a/../b\"") && err.contains("hint:"), "{err}");
    let view = privacy(&app, "open", "open", &["/clients/**"]).unwrap();
    assert_eq!(view.never_send, ["/clients/**"]);

    let reply = send(&app, "Which quarter led?").unwrap();
    assert_eq!(reply.end, TurnEnd::Done);
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    for r in &requests {
        assert!(!String::from_utf8_lossy(&r.raw).contains("ACME-SECRET-4411"), "a never-send file's contents left");
    }
    let second = String::from_utf8_lossy(&requests[1].raw).into_owned();
    assert!(second.contains("never-send list (/clients/**)"), "the refusal was the tool's result: {second}");

    let rows = sent(&app, &reply.conversation_id);
    assert_eq!(rows.len(), 2, "one row per request");
    assert_rows_are_what_was_received(&rows, &server);
    let said: Vec<(SentPurpose, u32, &str, &str)> =
        rows.iter().map(|r| (r.purpose, r.turn, r.provider.as_str(), r.model.as_str())).collect();
    assert_eq!(said, [(SentPurpose::Turn, 1, "ollama", "fake-model"); 2], "{said:?}");
    assert!(rows[0].endpoint.ends_with("/v1/chat/completions"), "{}", rows[0].endpoint);
    let results: Vec<&SentItem> = rows[1].items.iter().filter(|i| i.kind == SentItemKind::ToolResult).collect();
    assert_eq!(results.len(), 2, "{:?}", rows[1].items);
    let refused = results.iter().find(|i| i.is_error).unwrap();
    assert!(refused.preview.contains("never-send"), "{}", refused.preview);
    let read = results.iter().find(|i| !i.is_error).unwrap();
    assert_eq!(read.sources.iter().map(|s| s.path.as_str()).collect::<Vec<_>>(), ["/sales.csv"]);
}

/// A vision call made by a script in a desktop turn (`env:vision` over the main model) is a row
/// of the conversation's ledger like the turn's own requests: purpose vision, the image with its
/// path and the hash of the file, and the body the provider received.
#[test]
fn a_desktop_vision_call_is_in_the_ledger() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let server = runtime
        .block_on(FakeServer::start(vec![
            Reply::sse(openai("", &[("s1", "run_script", json!({"path": "/scripts/look.js"}))], 10)),
            Reply::sse(openai("A red square.", &[], 5)),
            Reply::sse(openai("The picture is a red square.", &[], 20)),
        ]))
        .unwrap();
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    let mut png = std::io::Cursor::new(Vec::new());
    image::RgbImage::from_pixel(4, 4, image::Rgb([200, 0, 0])).write_to(&mut png, image::ImageFormat::Png).unwrap();
    let png = png.into_inner();
    std::fs::create_dir_all(folder.path().join("img")).unwrap();
    std::fs::create_dir_all(folder.path().join("scripts")).unwrap();
    std::fs::write(folder.path().join("img/dot.png"), &png).unwrap();
    std::fs::write(
        folder.path().join("scripts/look.js"),
        "/** Asks the vision model about the picture. */\nimport { look } from 'env:vision';\nexport default async function main() {\n  return await look({ path: '/img/dot.png', prompt: 'What is this?' });\n}\n",
    )
    .unwrap();
    // The vision setting applies to folders opened after it.
    provider_at(&app, &format!("{}/v1", server.base), "main");
    open_folder(&app, folder.path());
    let reply = send(&app, "What is in the picture?").unwrap();
    assert_eq!(reply.end, TurnEnd::Done);
    assert_eq!(server.requests().len(), 3, "turn, vision, turn");
    let rows = sent(&app, &reply.conversation_id);
    assert_rows_are_what_was_received(&rows, &server);
    let purposes: Vec<SentPurpose> = rows.iter().map(|r| r.purpose).collect();
    assert_eq!(purposes, [SentPurpose::Turn, SentPurpose::Vision, SentPurpose::Turn]);
    let vision = &rows[1];
    assert_eq!((vision.turn, vision.call), (1, 1), "stamped with the turn and call it belongs to");
    let image = vision.items.iter().find_map(|i| i.image.as_ref()).expect("the image is an item");
    assert_eq!(image.source.as_deref(), Some("/img/dot.png"));
    assert_eq!((image.sha256.as_str(), image.bytes), (folio_agent::sha256_hex(&png).as_str(), png.len() as u64));
}
