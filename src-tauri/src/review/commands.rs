//! The review area's Tauri commands (registered in `lib.rs`), and the single-instance handler
//! that opens a folder a second launch named.

use tauri::{AppHandle, Emitter, Manager, Runtime, State};

use crate::api::*;
use crate::commands::{AppState, blocking};

/// `review.diff`: the diff of one pending change.
#[tauri::command]
pub async fn review_diff(
    state: State<'_, AppState>,
    params: ReviewDiffParams,
) -> Result<ReviewDiffResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::diff::diff(&session, &params.path)).await
}

/// `inbox.drop`: copies dropped host files and folders into `/inbox`.
#[tauri::command]
pub async fn inbox_drop(
    state: State<'_, AppState>,
    params: InboxDropParams,
) -> Result<InboxDropResponse, CommandError> {
    let session = state.current()?;
    blocking(move || Ok::<_, CommandError>(super::drop::drop_paths(&session, &params.paths))).await
}

/// `tree.find`: every path containing a text.
#[tauri::command]
pub async fn tree_find(state: State<'_, AppState>, params: TreeFindParams) -> Result<TreeFindResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::files::find(&session, &params.query)).await
}

/// `tree.open`: opens a file with the default application, or reveals it in the file manager.
#[tauri::command]
pub async fn tree_open(state: State<'_, AppState>, params: TreeOpenParams) -> Result<TreeOpenResponse, CommandError> {
    let session = state.current()?;
    blocking(move || {
        let exports = std::env::temp_dir().join("folio-export");
        let reply = super::files::resolve(&session, &params.path, params.reveal, &exports)?;
        let outcome = if params.reveal {
            tauri_plugin_opener::reveal_item_in_dir(&reply.host_path)
        } else {
            tauri_plugin_opener::open_path(&reply.host_path, None::<&str>)
        };
        outcome.map_err(|e| {
            format!(
                "{} could not be handed to the system: {e} — check that a file manager or an application for this type is installed",
                reply.host_path
            )
        })?;
        Ok::<_, CommandError>(reply)
    })
    .await
}

/// `scripts.form`: a script's arguments, from its `.d.ts`.
#[tauri::command]
pub async fn scripts_form(
    state: State<'_, AppState>,
    params: ScriptsFormParams,
) -> Result<ScriptsFormResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::form::form(&session, &params.path)).await
}

/// `recent.list`: folders opened before, newest first.
#[tauri::command]
pub async fn recent_list(state: State<'_, AppState>) -> Result<RecentListResponse, CommandError> {
    let root = state.state_dir.clone();
    blocking(move || super::recent::list(root.as_deref())).await
}

/// The event a second launch's folder is announced with.
pub const FOLDER_OPENED: &str = "folder-opened";

/// What a second launch does (single instance): it focuses this window and, when it named a
/// folder, opens it here and tells the UI.
pub fn second_launch<R: Runtime>(app: &AppHandle<R>, args: Vec<String>, cwd: String) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    let Some(folder) = crate::folder_argument(args) else { return };
    let folder = std::path::Path::new(&cwd).join(folder);
    let state = app.state::<AppState>();
    let note = match state.open(&folder.to_string_lossy(), None) {
        Ok(opened) => FolderOpenedNotification { folder: Some(opened.folder), error: None },
        Err(e) => FolderOpenedNotification { folder: None, error: Some(e) },
    };
    let _ = app.emit(FOLDER_OPENED, note);
}
