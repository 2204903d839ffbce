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
        provider: "openai".into(),
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
        provider: "ollama".into(),
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
