//! The preview commands. Each runs on the blocking pool (files are read whole, PDFium renders,
//! ffmpeg transcodes) and answers a `*Response` or a [`CommandError`] made from the [`PreviewError`].

use std::sync::Arc;

use tauri::State;
use tauri::ipc::Channel;

use super::Previews;
use super::error::PreviewError;
use super::table;
use crate::api::*;
use crate::commands::AppState;
use crate::session::Session;

/// The most rows a table preview returns when the UI does not say.
const DEFAULT_ROWS: u32 = 500;

fn session(state: &AppState) -> Result<Arc<Session>, CommandError> {
    state.current()
}

async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, PreviewError> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(job)
        .await
        .map_err(|e| CommandError::stopped("the preview", e, "try again"))?
        .map_err(CommandError::from)
}

/// `preview.info`: how to preview a file (kind, media probe, notes).
#[tauri::command]
pub async fn preview_info(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewInfoParams,
) -> Result<PreviewInfoResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.info(&session, &params.path)).await
}

/// `preview.transcode`: makes the webm preview of a media file, streaming progress.
#[tauri::command]
pub async fn preview_transcode(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewTranscodeParams,
    on_progress: Channel<TranscodeProgressNotification>,
) -> Result<PreviewTranscodeResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || {
        previews.transcode(&session, &params.path, &|p| {
            let _ = on_progress.send(p);
        })
    })
    .await
}

/// `preview.scene`: one frame of a motion scene, rendered by env:motion (a newer request for the
/// same scene cancels this one, which then answers "superseded").
#[tauri::command]
pub async fn preview_scene(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewSceneParams,
) -> Result<PreviewSceneResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.scene(&session, &params)).await
}

/// `preview.pages`: a PDF's or Office document's page count (pages load over `folio://`).
#[tauri::command]
pub async fn preview_pages(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewPagesParams,
) -> Result<PreviewPagesResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.pages(&session, &params.path)).await
}

/// `preview.email`: a message's card (sender, recipients, date, subject, body, attachments).
#[tauri::command]
pub async fn preview_email(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewEmailParams,
) -> Result<PreviewEmailResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.email(&session, &params.path)).await
}

/// `preview.emailAttachment`: puts one attachment in the scratch zone to preview it.
#[tauri::command]
pub async fn preview_email_attachment(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewEmailAttachmentParams,
) -> Result<PreviewEmailAttachmentResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.email_attachment(&session, &params.path, params.index)).await
}

/// `preview.ocr`: one page of a scan read by env:ocr (cached by content).
#[tauri::command]
pub async fn preview_ocr(
    state: State<'_, AppState>,
    previews: State<'_, Arc<Previews>>,
    params: PreviewOcrParams,
) -> Result<PreviewOcrResponse, CommandError> {
    let (session, previews) = (session(&state)?, previews.inner().clone());
    blocking(move || previews.ocr_page(&session, &params.path, params.page)).await
}

/// `preview.table`: the first rows of a CSV/TSV file or a workbook sheet.
#[tauri::command]
pub async fn preview_table(
    state: State<'_, AppState>,
    params: PreviewTableParams,
) -> Result<PreviewTableResponse, CommandError> {
    let session = session(&state)?;
    blocking(move || table_response(&session, params)).await
}

/// The table behind `preview.table`.
pub fn table_response(session: &Session, params: PreviewTableParams) -> Result<PreviewTableResponse, PreviewError> {
    let at = super::checked_path(&params.path)?;
    let path = at.to_string();
    let bytes = super::read(session, &at, super::Version::Current)?;
    let limit = params.limit.unwrap_or(DEFAULT_ROWS).max(1) as usize;
    let (kind, _) = super::kind::classify(&path, &bytes[..bytes.len().min(8192)]);
    let parsed = match kind {
        PreviewKind::Spreadsheet => table::workbook(&bytes, params.sheet.as_deref(), limit),
        _ => table::delimited(&path, &bytes, limit),
    };
    let t = parsed.map_err(|why| PreviewError::Table { path: path.clone(), why })?;
    Ok(PreviewTableResponse {
        path,
        truncated: (t.rows.len() as u32) < t.total_rows,
        sheets: t.sheets,
        sheet: t.sheet,
        rows: t.rows,
        total_rows: t.total_rows,
        uncalculated: t.uncalculated.into_iter().map(|(row, column)| [row, column]).collect(),
    })
}
