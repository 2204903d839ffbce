//! The commands through Tauri's mock runtime (no display): the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;

struct App {
    _app: tauri::App<tauri::test::MockRuntime>,
    webview: tauri::WebviewWindow<tauri::test::MockRuntime>,
    _state: tempfile::TempDir,
}

fn app() -> App {
    let state = tempfile::tempdir().unwrap();
    let app = folio_desktop::builder(
        mock_builder(),
        AppState { state_dir: Some(state.path().to_path_buf()), ..AppState::default() },
    )
    .build(mock_context(noop_assets()))
    .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    App { _app: app, webview, _state: state }
}

fn call<T: serde::de::DeserializeOwned>(app: &App, cmd: &str, body: Value) -> Result<T, String> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(&app.webview, request)
        .map(|b| b.deserialize::<T>().unwrap())
        .map_err(|e| e.as_str().unwrap_or_default().to_string())
}

#[test]
fn before_a_folder_is_open_status_is_empty_and_other_commands_say_what_to_do() {
    let app = app();
    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert_eq!(status.folder, None);
    let err = call::<TreeListResponse>(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap_err();
    assert!(err.contains("no folder is open") && err.contains("Open Folder"), "{err}");
}

#[test]
fn opening_a_missing_folder_says_so() {
    let app = app();
    let err =
        call::<FolderOpenResponse>(&app, "folder_open", json!({"params": {"path": "/no/such/folder"}})).unwrap_err();
    assert!(err.contains("/no/such/folder") && err.contains("choose an existing folder"), "{err}");
}

#[test]
fn open_list_read_run_commit_and_discard_through_ipc() {
    let app = app();
    let folder = tempfile::tempdir().unwrap();
    common::write(folder.path());
    let path = folder.path().display().to_string();

    let opened: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": path}})).unwrap();
    assert_eq!(opened.name, folder.path().file_name().unwrap().to_string_lossy());

    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    let names: Vec<&str> = tree.entries.iter().map(|e| e.name.as_str()).collect();
    assert!(names.contains(&"notes.txt") && names.contains(&"scripts"), "{names:?}");
    assert!(!names.contains(&".env"), "/.env is hidden: {names:?}");
    assert!(tree.entries.iter().all(|e| e.badge.is_none()));

    let file: FileReadResponse = call(&app, "file_read", json!({"params": {"path": "/report.md"}})).unwrap();
    assert_eq!(file.text.as_deref(), Some("# Q3 report\n\nRevenue grew.\n"));

    let scripts: ScriptsListResponse = call(&app, "scripts_list", json!({})).unwrap();
    assert_eq!(scripts.scripts.len(), 1);
    assert_eq!(scripts.scripts[0].path, "/scripts/summarise.js");
    assert_eq!(scripts.scripts[0].summary, "Summarises notes.txt into out/summary.md.");

    // scripts_run takes a Channel, which the mock IPC cannot build; the session runs it directly
    // in the session tests. Here the same edits are made through the state the commands share.
    let state = tauri::Manager::state::<AppState>(&app.webview);
    let session = state.current().unwrap();
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = lines.clone();
    let run = session
        .run_script(
            ScriptsRunParams { path: "/scripts/summarise.js".into(), args: None },
            Box::new(move |line| sink.lock().unwrap().push(line.text)),
        )
        .unwrap();
    assert!(run.ok, "{run:?}");
    assert_eq!(run.result_text.as_deref(), Some("\"summarised 23 characters\""));
    assert_eq!(*lines.lock().unwrap(), ["step 1/3: read notes", "step 2/3: wrote summary", "step 3/3: done"]);

    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    let paths: Vec<&str> = status.changes.iter().map(|c| c.path.as_str()).collect();
    assert!(paths.contains(&"/out/summary.md") && paths.contains(&"/out/scratch.txt"), "{paths:?}");

    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/"}})).unwrap();
    let out = tree.entries.iter().find(|e| e.name == "out").unwrap();
    assert!(out.badge.is_some(), "a directory holding changes is badged");
    let tree: TreeListResponse = call(&app, "tree_list", json!({"params": {"path": "/out"}})).unwrap();
    assert!(tree.entries.iter().all(|e| e.badge == Some(Badge::Added)), "{:?}", tree.entries);

    let err = call::<CommitApplyResponse>(&app, "commit_apply", json!({"params": {"paths": []}})).unwrap_err();
    assert!(err.contains("nothing was selected"), "{err}");
    let commit: CommitApplyResponse =
        call(&app, "commit_apply", json!({"params": {"paths": ["/out/summary.md"]}})).unwrap();
    assert_eq!(commit.written, ["/out/summary.md"]);
    assert_eq!(
        std::fs::read_to_string(folder.path().join("out/summary.md")).unwrap(),
        "# Summary\n\nBUY MILK\nCALL THE BANK\n"
    );
    assert!(!folder.path().join("out/scratch.txt").exists());

    let discard: DiscardApplyResponse =
        call(&app, "discard_apply", json!({"params": {"paths": ["/out/scratch.txt"]}})).unwrap();
    assert_eq!(discard.discarded, ["/out/scratch.txt"]);
    let status: StatusGetResponse = call(&app, "status_get", json!({})).unwrap();
    assert!(status.changes.is_empty(), "{:?}", status.changes);
    assert!(!folder.path().join("out/scratch.txt").exists());
}
