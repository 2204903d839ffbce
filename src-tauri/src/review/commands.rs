//! The review area's Tauri commands (registered in `lib.rs`), and the single-instance handler
//! that opens a folder a second launch named.

use std::sync::Arc;

use tauri::ipc::Channel;
use tauri::{AppHandle, Emitter, Manager, Runtime, State};

use crate::api::*;
use crate::commands::{AppState, blocking};
use crate::preview::Previews;
use crate::review::visual::VisualDiffs;

/// `review.diff`: the diff of one pending change.
#[tauri::command]
pub async fn review_diff(
    state: State<'_, AppState>,
    params: ReviewDiffParams,
) -> Result<ReviewDiffResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::diff::diff(&session, &params.path)).await
}

/// `review.pages`: a paged document's diff summary (page counts, alignment, known-unchanged
/// pages), nothing rendered. An Office document's LibreOffice conversions stream their progress
/// (done/total, time left) over `on_progress`.
#[tauri::command]
pub async fn review_pages(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    diffs: State<'_, Arc<VisualDiffs>>,
    params: ReviewVisualParams,
    on_progress: Channel<JobProgressNotice>,
) -> Result<ReviewPagesResponse, CommandError> {
    let (session, previews, diffs) = (state.current()?, previews.inner().clone(), diffs.inner().clone());
    let progress: folio_budget::ProgressFn = Arc::new(move |p| {
        let _ = on_progress.send(JobProgressNotice::from(p));
    });
    blocking(move || diffs.pages(&previews, &session, &params.path, Some(progress))).await
}

/// `review.page`: one aligned page pair, rendered and compared.
#[tauri::command]
pub async fn review_page(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    diffs: State<'_, Arc<VisualDiffs>>,
    params: ReviewPageParams,
) -> Result<ReviewPageResponse, CommandError> {
    let (session, previews, diffs) = (state.current()?, previews.inner().clone(), diffs.inner().clone());
    blocking(move || diffs.page(&previews, &session, &params)).await
}

/// `review.cells`: a workbook's or CSV's cell diff per sheet.
#[tauri::command]
pub async fn review_cells(
    state: State<'_, AppState>,
    params: ReviewVisualParams,
) -> Result<ReviewCellsResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::cells::cells(&session, &params.path)).await
}

/// `review.image`: an image's before, after and difference overlay.
#[tauri::command]
pub async fn review_image(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: ReviewVisualParams,
) -> Result<ReviewImageResponse, CommandError> {
    let (session, previews) = (state.current()?, previews.inner().clone());
    blocking(move || super::visual::image(&previews, &session, &params.path)).await
}

/// `review.video`: a video's changed frame ranges with thumbnails, and both sides' facts.
#[tauri::command]
pub async fn review_video(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: ReviewVisualParams,
) -> Result<ReviewVideoResponse, CommandError> {
    let (session, previews) = (state.current()?, previews.inner().clone());
    blocking(move || super::visual::video(&previews, &session, &params.path)).await
}

/// `review.archive`: an archive's entry-list diff.
#[tauri::command]
pub async fn review_archive(
    state: State<'_, AppState>,
    params: ReviewVisualParams,
) -> Result<ReviewArchiveResponse, CommandError> {
    let session = state.current()?;
    blocking(move || super::visual::archive(&session, &params.path)).await
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
    let ws = state.workspace()?;
    blocking(move || super::recent::list(&ws)).await
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
