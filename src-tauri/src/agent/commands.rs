//! The Tauri commands of the conversation, Settings and Doctor. A turn streams its notifications
//! over a `Channel`; when the window is in the background, a question that waits or a long turn
//! that ends raises an OS notification.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, Runtime, State};
use tauri_plugin_notification::NotificationExt;

use super::AgentHost;
use crate::api::*;
use crate::commands::{AppState, blocking};

/// A turn longer than this raises a notification when it ends in the background.
const LONG_TURN: Duration = Duration::from_secs(20);

/// The agent side of the app, opened on first use (the store lives under the state root).
#[derive(Default)]
pub struct AgentState {
    host: OnceLock<Arc<AgentHost>>,
}

impl AgentState {
    /// The agent host over the app's workspace, made the first time.
    pub fn host(&self, app: &AppState) -> Result<Arc<AgentHost>, CommandError> {
        if let Some(host) = self.host.get() {
            return Ok(host.clone());
        }
        let host = Arc::new(AgentHost::new(app.workspace()?));
        Ok(self.host.get_or_init(|| host).clone())
    }
}

/// True when no window of the app has the focus (the person is elsewhere).
fn in_background<R: Runtime>(app: &AppHandle<R>) -> bool {
    !app.webview_windows().values().any(|w| w.is_focused().unwrap_or(false))
}

fn notify<R: Runtime>(app: &AppHandle<R>, title: &str, body: &str) {
    if in_background(app) {
        // A notification that cannot be shown (no notification daemon) is not worth an error:
        // the transcript already holds the news.
        let _ = app.notification().builder().title(title).body(body).show();
    }
}

/// `settings.get`: the saved settings, the presets and where the key is.
#[tauri::command]
pub async fn settings_get(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
) -> Result<SettingsGetResponse, CommandError> {
    let host = agent.host(&app)?;
    blocking(move || host.settings().view()).await
}

/// `settings.save`: saves the settings and, when given, the key (keychain, or the key file).
#[tauri::command]
pub async fn settings_save(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: SettingsSaveParams,
) -> Result<SettingsGetResponse, CommandError> {
    let host = agent.host(&app)?;
    blocking(move || host.settings().save(params)).await
}

/// `connection.test`: one minimal real request with the dialog's values.
#[tauri::command]
pub async fn connection_test(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: ConnectionTestParams,
) -> Result<ConnectionTestResponse, CommandError> {
    let host = agent.host(&app)?;
    // Behind the open folder's boundary (or the global mode): local-only refuses before connecting.
    let folder = app.current().ok().map(|s| s.folder().to_path_buf());
    let reader = host.clone();
    let boundary = blocking(move || match folder {
        Some(folder) => reader.boundary(&folder),
        None => reader.global_boundary(),
    })
    .await?;
    Ok(host.settings().test(params, &boundary).await)
}

/// `conversation.list`: the open folder's conversations.
#[tauri::command]
pub async fn conversation_list(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
) -> Result<ConversationListResponse, CommandError> {
    let session = app.current()?;
    let host = agent.host(&app)?;
    blocking(move || host.conversations(session.folder())).await
}

/// `conversation.open`: a stored conversation's transcript.
#[tauri::command]
pub async fn conversation_open(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: ConversationOpenParams,
) -> Result<ConversationOpenResponse, CommandError> {
    let host = agent.host(&app)?;
    blocking(move || host.replay(&params.id)).await
}

/// `conversation.send`: runs one turn, streaming its notifications over `on_event`; answers when
/// the turn has ended.
#[tauri::command]
pub async fn conversation_send<R: Runtime>(
    handle: AppHandle<R>,
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: ConversationSendParams,
    on_event: Channel<ConversationNotification>,
) -> Result<ConversationSendResponse, CommandError> {
    let session = app.current()?;
    let host = agent.host(&app)?;
    let started = Instant::now();
    let asker = handle.clone();
    let sink = Arc::new(move |n: ConversationNotification| {
        if let ConversationNotification::Ask { question, .. } = &n {
            notify(&asker, "Folio is waiting for your answer", question);
        }
        let _ = on_event.send(n);
    });
    // The turn runs on its own task so a slow webview never stalls it, and a dropped invoke
    // (the window reloading) does not cancel it half-way.
    let turn = tauri::async_runtime::spawn(async move { host.send(session, params, sink).await });
    let reply = turn.await.map_err(|e| CommandError::stopped("the agent turn", e, "send the request again"))??;
    if started.elapsed() >= LONG_TURN {
        let body = match reply.end {
            TurnEnd::Done => "The agent finished.",
            TurnEnd::Stopped => "The turn was stopped.",
            TurnEnd::MaxTurns => "The agent reached its run budget — Continue to go on.",
            TurnEnd::Failed => "The turn failed — see the transcript.",
        };
        notify(&handle, "Folio", body);
    }
    Ok(reply)
}

/// `conversation.stop`: stops the conversation's running turn and any script it runs.
#[tauri::command]
pub async fn conversation_stop(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: ConversationStopParams,
) -> Result<ConversationStopResponse, CommandError> {
    let host = agent.host(&app)?;
    Ok(ConversationStopResponse { stopped: host.stop(&params.conversation_id) })
}

/// `conversation.answer`: answers the agent's waiting question.
#[tauri::command]
pub async fn conversation_answer(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: ConversationAnswerParams,
) -> Result<(), CommandError> {
    let session = app.current()?;
    let host = agent.host(&app)?;
    Ok(host.answer(&session, params)?)
}

/// `doctor.get`: every capability row and the provider row.
#[tauri::command]
pub async fn doctor_get(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
) -> Result<DoctorGetResponse, CommandError> {
    let host = agent.host(&app)?;
    let folder = app.current().ok().map(|s| s.folder().to_path_buf());
    blocking(move || Ok::<_, CommandError>(super::doctor::rows(&host, folder.as_deref()))).await
}

/// `handoff.save`: writes a presented file's bytes (pending or committed) to a place the person
/// chose outside the folder. Inside the folder it is refused: that is what a commit is for.
#[tauri::command]
pub async fn handoff_save(
    app: State<'_, AppState>,
    params: HandoffSaveParams,
) -> Result<HandoffSaveResponse, CommandError> {
    let session = app.current()?;
    blocking(move || super::handoff::save(&session, &params)).await
}
