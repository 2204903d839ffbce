//! The app on Tauri's mock runtime (no display) and one IPC call through the same path the UI
//! uses, shared by the command test files.

use folio_desktop::commands::AppState;
use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::webview::InvokeRequest;

/// The app with its commands and a main webview; its state directory is removed when dropped.
pub struct App {
    /// Held so the app lives as long as the test; some tests listen to its events.
    #[allow(dead_code)]
    pub app: tauri::App<tauri::test::MockRuntime>,
    pub webview: tauri::WebviewWindow<tauri::test::MockRuntime>,
    /// The app's state root (held so it lives as long as the test; some tests write into it).
    #[allow(dead_code)]
    pub state: tempfile::TempDir,
}

/// A fresh app whose per-folder state lives in a temporary directory.
pub fn app() -> App {
    let state = tempfile::tempdir().unwrap();
    let app = folio_desktop::builder(mock_builder(), AppState::new(Some(state.path().to_path_buf())))
        .build(mock_context(noop_assets()))
        .unwrap();
    let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().unwrap();
    App { app, webview, state }
}

/// Invokes `cmd` with `body` and decodes its response, or returns the error as one line: the
/// message and, after ` — hint: `, the fix the UI shows apart.
pub fn call<T: serde::de::DeserializeOwned>(app: &App, cmd: &str, body: Value) -> Result<T, String> {
    call_json(app, cmd, body).map_err(|e| {
        let error: folio_desktop::api::CommandError =
            serde_json::from_value(e.clone()).unwrap_or_else(|_| panic!("not a {{kind, message, hint}} error: {e}"));
        error.text()
    })
}

/// Invokes `cmd` with `body` and decodes its response, or returns the error's JSON as the UI
/// receives it.
#[allow(dead_code)]
pub fn call_json<T: serde::de::DeserializeOwned>(app: &App, cmd: &str, body: Value) -> Result<T, Value> {
    let request = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        url: "tauri://localhost".parse().unwrap(),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(&app.webview, request).map(|b| b.deserialize::<T>().unwrap())
}
