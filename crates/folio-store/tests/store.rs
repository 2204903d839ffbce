//! The store survives the process and keeps everything in order.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use folio_store::{KeySource, Presented, Secrets, Store};
use serde_json::json;

#[test]
fn a_conversation_round_trips_through_a_reopen() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("folio.sqlite");
    let folder = tmp.path().join("q3");
    let id = {
        let store = Store::open(&db).unwrap();
        let id = store.create_conversation(&folder, "Total the sales by region, then chart it").unwrap();
        store
            .save_messages(
                &id,
                &[json!({"role": "user", "parts": [{"type": "text", "text": "hi"}]}), json!({"role": "assistant"})],
            )
            .unwrap();
        store.append_event(&id, &json!({"type": "turn_started", "turn": 1})).unwrap();
        store.append_event(&id, &json!({"type": "finished", "reason": "done"})).unwrap();
        store
            .record_presented(
                &id,
                &Presented {
                    path: "/out/a.pdf".into(),
                    name: "a.pdf".into(),
                    media_type: "application/pdf".into(),
                    size: 10,
                    caption: "A".into(),
                },
            )
            .unwrap();
        store.set_setting("provider", &json!({"name": "ollama"})).unwrap();
        id
    };
    let store = Store::open(&db).unwrap();
    assert_eq!(store.messages(&id).unwrap().len(), 2);
    assert_eq!(store.messages(&id).unwrap()[0]["parts"][0]["text"], "hi");
    let events = store.events(&id).unwrap();
    assert_eq!(events[1]["type"], "finished");
    assert_eq!(store.presented(&id).unwrap()[0].caption, "A");
    assert_eq!(store.setting("provider").unwrap().unwrap()["name"], "ollama");
    assert_eq!(store.setting("missing").unwrap(), None);
    let listed = store.conversations(&folder).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].title, "Total the sales by region, then chart it");
    // Saving again replaces the history rather than appending duplicates.
    store.save_messages(&id, &[json!(1), json!(2), json!(3)]).unwrap();
    assert_eq!(store.messages(&id).unwrap(), vec![json!(1), json!(2), json!(3)]);
    let err = store.messages("nope").unwrap_err().to_string();
    assert!(err.starts_with("no conversation nope — hint:"), "{err}");
}

#[test]
fn a_newer_schema_is_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("folio.sqlite");
    drop(Store::open(&db).unwrap());
    let conn = rusqlite_conn(&db);
    conn.pragma_update(None, "user_version", 99).unwrap();
    drop(conn);
    let err = Store::open(&db).err().unwrap().to_string();
    assert!(err.contains("has schema 99, newer than this Folio understands"), "{err}");
}

fn rusqlite_conn(path: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(path).unwrap()
}

#[test]
fn keys_fall_back_to_the_environment_when_no_keychain_runs() {
    // Headless CI has no Secret Service: the environment variable is used, with a notice.
    let secrets = Secrets::with_service(format!("folio-test-{}", std::process::id()));
    let var = format!("FOLIO_TEST_KEY_{}", std::process::id());
    // Setting a variable needs `unsafe` in edition 2024, so an unset name and PATH stand in.
    let (none, _) = secrets.get("anthropic", Some(&var));
    assert!(none.is_none(), "no key anywhere is None, not an error");
    let (found, _notice) = secrets.get("anthropic", Some("PATH"));
    let (key, source) = found.unwrap();
    assert!(!key.is_empty());
    assert!(matches!(&source, KeySource::Environment(v) if v == "PATH") || source == KeySource::Keychain);
}

#[test]
fn where_no_keychain_is_used_keys_go_to_an_owner_only_file_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("keys.json");
    let secrets = Secrets::file_only(&file);
    assert_eq!(secrets.get("openai", None).0, None);
    let source = secrets.set("openai", "sk-test-1").unwrap();
    assert_eq!(source, KeySource::File(file.clone()));
    assert!(source.to_string().contains("no OS keychain"), "{source}");
    let (found, _) = secrets.get("openai", Some("PATH"));
    assert_eq!(found, Some(("sk-test-1".to_owned(), KeySource::File(file.clone()))), "the file wins over the variable");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    assert_eq!(secrets.get("anthropic", None).0, None, "keys are per provider");
    secrets.set("openai", "").unwrap();
    assert_eq!(secrets.get("openai", None).0, None, "an empty key removes it");
}

#[test]
fn a_recorded_handoff_event_is_also_a_presented_row_and_a_malformed_one_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::open(&tmp.path().join("folio.sqlite")).unwrap();
    let id = store.create_conversation(tmp.path(), "chart").unwrap();
    store.record_event(&id, &json!({"type": "text_delta", "text": "Here"})).unwrap();
    let handoff = json!({"type": "presented", "path": "/out/c.png", "name": "c.png",
        "media_type": "image/png", "size": 42, "caption": "The chart"});
    store.record_event(&id, &handoff).unwrap();
    assert_eq!(store.events(&id).unwrap(), [json!({"type": "text_delta", "text": "Here"}), handoff]);
    let presented = store.presented(&id).unwrap();
    assert_eq!(
        presented,
        [Presented {
            path: "/out/c.png".into(),
            name: "c.png".into(),
            media_type: "image/png".into(),
            size: 42,
            caption: "The chart".into(),
        }]
    );

    let err = store.record_event(&id, &json!({"type": "presented", "path": "/out/d.png"})).unwrap_err();
    assert!(err.to_string().starts_with("a presented event cannot be recorded: missing field"), "{err}");
    assert_eq!((store.events(&id).unwrap().len(), store.presented(&id).unwrap().len()), (2, 1));
}
