//! The preview commands through Tauri's mock runtime (no display): registered, wired to the
//! shared preview state, and answering on the same IPC path the UI uses.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

use folio_desktop::api::*;
use folio_desktop::commands::AppState;
use serde_json::{Value, json};
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;

struct App {
    _app: tauri::App<tauri::test::MockRuntime>,
    webview: tauri::WebviewWindow<tauri::test::MockRuntime>,
    folder: tempfile::TempDir,
    _state: tempfile::TempDir,
}

fn app() -> App {
    let state = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("sales.csv"), "region,units\nNorth,12\nSouth,7\n").unwrap();
    std::fs::write(folder.path().join("notes.md"), "# Notes\n").unwrap();
    let app = folio_desktop::builder(
        mock_builder(),
        AppState { state_dir: Some(state.path().to_path_buf()), ..AppState::default() },
    )
    .build(mock_context(noop_assets()))
    .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    App { _app: app, webview, folder, _state: state }
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
fn previews_need_a_folder_then_describe_files_and_read_tables() {
    let app = app();
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("no folder is open"), "{err}");
    let folder = app.folder.path().display().to_string();
    let _: FolderOpenResponse = call(&app, "folder_open", json!({"params": {"path": folder}})).unwrap();

    let info: PreviewInfoResponse = call(&app, "preview_info", json!({"params": {"path": "/notes.md"}})).unwrap();
    assert_eq!((info.kind, info.size), (PreviewKind::Markdown, 8));
    let table: PreviewTableResponse =
        call(&app, "preview_table", json!({"params": {"path": "/sales.csv", "limit": 2}})).unwrap();
    assert_eq!((table.rows.len(), table.total_rows, table.truncated), (2, 3, true));
    let err =
        call::<PreviewPagesResponse>(&app, "preview_pages", json!({"params": {"path": "/sales.csv"}})).unwrap_err();
    assert!(err.contains("only PDFs and Office documents have pages"), "{err}");
    let err = call::<PreviewInfoResponse>(&app, "preview_info", json!({"params": {"path": "/.env/x"}})).unwrap_err();
    assert!(err.contains("private settings zone"), "{err}");
}
