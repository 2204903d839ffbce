//! The conversation runtime: one agent turn at a time per folder, run through
//! `folio_workspace::Folder::turn` exactly as `folio ask` runs it (the saved settings, the
//! folder's boundary, the turn lock that also excludes a `folio ask` in another process, every
//! event recorded as it happens so the transcript survives a crash and replays after a restart).
//! This file keeps the window's side: which turn runs (for Stop and the transcript), its
//! question's answer, and the mapping to notifications. Nothing here knows Tauri.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use folio_agent::FinishReason;
use folio_store::Store;
use tokio_util::sync::CancellationToken;

use super::notify::Mapper;
use super::settings::Settings;
use crate::api::*;
use crate::session::Session;

/// Where a turn's notifications go while it runs.
pub type NotificationSink = Arc<dyn Fn(ConversationNotification) + Send + Sync>;

/// A running turn: which conversation, the token that stops it, and the event queue its
/// `ask_user` waits on — kept here so an answer reaches the turn even after the folder's session
/// was reopened (Settings → Capabilities or Privacy saved while it runs).
struct Running {
    conversation: String,
    cancel: CancellationToken,
    events: folio_agent::HostEvents,
}

/// The app's agent side: the store, the settings and the running turns.
pub struct AgentHost {
    /// The workspace the turns run through (the store, keys and settings `folio` uses too).
    workspace: folio_workspace::Workspace,
    settings: Settings,
    running: Mutex<HashMap<PathBuf, Running>>,
}

/// Console lines kept per tool call (folio-workspace's cap, which every shell's turn applies).
pub use folio_workspace::{LINES_PER_CALL, LineBudget};

/// Stops tracking a turn when it ends, however it ends.
struct TurnGuard<'a> {
    host: &'a AgentHost,
    folder: PathBuf,
}

impl Drop for TurnGuard<'_> {
    fn drop(&mut self) {
        self.host.running.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.folder);
    }
}

impl AgentHost {
    /// The agent side of `workspace` (the app's one, [`crate::commands::AppState::workspace`]).
    pub fn new(workspace: folio_workspace::Workspace) -> AgentHost {
        let settings = Settings::new(workspace.clone());
        AgentHost { workspace, settings, running: Mutex::new(HashMap::new()) }
    }

    /// The agent side of a workspace opened under `state_root` with keys in `secrets` (tests
    /// keep keys in a file: they must never touch the person's keychain).
    pub fn open_with(state_root: &Path, secrets: folio_store::Secrets) -> Result<AgentHost, String> {
        let workspace = folio_workspace::Workspace::open_with(
            state_root.to_path_buf(),
            secrets,
            folio_workspace::Overrides::default(),
        )
        .map_err(|e| e.to_string())?;
        Ok(AgentHost::new(workspace))
    }

    /// The workspace.
    pub fn workspace(&self) -> &folio_workspace::Workspace {
        &self.workspace
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The store (the update settings live in it beside the agent's).
    pub fn store(&self) -> &Arc<Store> {
        self.workspace.store()
    }

    /// The boundary a turn in `folder` runs behind, read afresh from the store (Settings →
    /// Privacy applies from the next turn); an unreadable store is an error with its fix.
    pub fn boundary(&self, folder: &Path) -> Result<folio_boundary::Boundary, String> {
        self.workspace.boundary(folder).map_err(|e| e.to_string())
    }

    /// The boundary outside any folder: the global mode alone.
    pub fn global_boundary(&self) -> Result<folio_boundary::Boundary, String> {
        self.workspace.global_boundary().map_err(|e| e.to_string())
    }

    /// The conversations over `folder`, most recent first.
    pub fn conversations(&self, folder: &Path) -> Result<ConversationListResponse, String> {
        let list = self.store().conversations(folder).map_err(|e| e.to_string())?;
        Ok(ConversationListResponse {
            conversations: list
                .into_iter()
                .map(|c| ConversationSummary { id: c.id, title: c.title, updated_at: c.updated_at })
                .collect(),
        })
    }

    /// A stored conversation's transcript, replayed through the same mapping a live turn uses.
    pub fn replay(&self, id: &str) -> Result<ConversationOpenResponse, String> {
        let info = self.store().conversation(id).map_err(|e| e.to_string())?;
        let mut mapper = Mapper::default();
        let items =
            self.store().events(id).map_err(|e| e.to_string())?.iter().filter_map(|v| mapper.replay(v)).collect();
        let running =
            self.running.lock().unwrap_or_else(PoisonError::into_inner).values().any(|r| r.conversation == id);
        Ok(ConversationOpenResponse { id: info.id, title: info.title, items, running })
    }

    /// Stops the running turn of `conversation`: the model stream is dropped, a running script is
    /// cancelled and a waiting question released.
    pub fn stop(&self, conversation: &str) -> bool {
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        let turn = running.values().find(|r| r.conversation == conversation);
        if let Some(turn) = turn {
            turn.cancel.cancel();
        }
        turn.is_some()
    }

    /// Runs one turn in `session`'s folder: a new request, or (without text) a continuation. Every
    /// notification goes to `sink` as it happens; the answer says how the turn ended.
    pub async fn send(
        &self,
        session: Arc<Session>,
        params: ConversationSendParams,
        sink: NotificationSink,
    ) -> Result<ConversationSendResponse, String> {
        let text = params.text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
        let folder = session.folder().to_path_buf();
        if params.conversation_id.is_none() && text.is_none() {
            return Err("there is nothing to send — type a request first".to_owned());
        }
        // A provider the saved settings cannot make is refused with the dialog's fix.
        let saved = self.settings.load()?;
        self.settings.provider(&saved, None)?;
        let cancel = CancellationToken::new();
        // This window's own turn is refused first, with its Stop; a turn in another process is
        // refused by the workspace's turn lock, naming it.
        {
            let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
            if running.contains_key(&folder) {
                return Err(
                    "the agent is still working in this folder — wait for it to finish, or press Stop (Esc)".to_owned()
                );
            }
            let events = session.agent_events().clone();
            running.insert(folder.clone(), Running { conversation: String::new(), cancel: cancel.clone(), events });
        }
        let _guard = TurnGuard { host: self, folder: folder.clone() };
        let turn = session.opened_folder();
        let request = folio_workspace::TurnRequest { conversation: params.conversation_id, text };
        let mut mapper = Mapper::default();
        let mut on_event = |event: folio_workspace::TurnEvent| match event {
            folio_workspace::TurnEvent::Started { conversation_id, title } => {
                if let Some(r) = self.running.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&folder) {
                    r.conversation.clone_from(&conversation_id);
                }
                sink(ConversationNotification::Started { conversation_id, title });
            }
            folio_workspace::TurnEvent::User { text } => sink(ConversationNotification::User { text }),
            folio_workspace::TurnEvent::Agent(event) => {
                if let Some(notification) = mapper.map(&event) {
                    sink(notification);
                }
            }
        };
        let outcome = turn.turn(request, &cancel, &mut on_event).await.map_err(|e| e.to_string())?;
        let (id, result) = (outcome.conversation_id, outcome.result);
        if let Some(failure) = outcome.store_failure {
            sink(ConversationNotification::Error {
                message: format!(
                    "part of this conversation was not saved ({failure}) — it will not replay completely after a restart; check that the state directory is writable"
                ),
                missing: None,
            });
        }
        let end = match result {
            Ok(FinishReason::Done) => TurnEnd::Done,
            Ok(FinishReason::Cancelled) => TurnEnd::Stopped,
            Ok(FinishReason::MaxTurns) => TurnEnd::MaxTurns,
            // The loop already reported the error as an event (and the store has it).
            Err(_) => {
                sink(ConversationNotification::Finished { end: TurnEnd::Failed });
                TurnEnd::Failed
            }
        };
        Ok(ConversationSendResponse { conversation_id: id, end })
    }

    /// Answers the agent's waiting question in `session`'s folder: through the running turn's own
    /// event queue (the session may have been reopened since the turn started), else the session's.
    pub fn answer(&self, session: &Session, params: ConversationAnswerParams) -> Result<(), String> {
        let turn_events =
            self.running.lock().unwrap_or_else(PoisonError::into_inner).get(session.folder()).map(|r| r.events.clone());
        let events = turn_events.unwrap_or_else(|| session.agent_events().clone());
        if events.answer(params.question_id, params.answer) {
            Ok(())
        } else {
            Err("that question is no longer waiting (the turn ended or was stopped) — send your answer as a new message"
                .to_owned())
        }
    }
}

#[cfg(test)]
#[path = "runtime_tests.rs"]
mod tests;
