//! The conversation runtime: one agent turn at a time per folder, run through the same library
//! calls as `folio ask` (the folder's environment, `EnvTools` with the session's `HostEvents`, the
//! provider from the saved settings), every event appended to the store as it happens so the
//! transcript survives a crash and replays after a restart. Nothing here knows Tauri.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use folio_agent::{Agent, AgentConfig, AgentEvent, EnvTools, FinishReason, Message, ModelClient, Tools};
use folio_store::Store;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::notify::Mapper;
use super::settings::Settings;
use crate::api::*;
use crate::session::Session;

/// Where a turn's notifications go while it runs.
pub type NotificationSink = Arc<dyn Fn(ConversationNotification) + Send + Sync>;

/// A running turn: which conversation, and the token that stops it.
struct Running {
    conversation: String,
    cancel: CancellationToken,
}

/// The app's agent side: the store, the settings and the running turns.
pub struct AgentHost {
    store: Arc<Store>,
    /// Where the store is, for messages.
    store_path: PathBuf,
    settings: Settings,
    running: Mutex<HashMap<PathBuf, Running>>,
}

/// Console lines kept per tool call: a script that prints in a tight loop would otherwise flood the
/// store and the webview with millions of rows nobody reads.
pub const LINES_PER_CALL: usize = 400;

/// Past [`LINES_PER_CALL`], one line per this interval still passes, so the live progress line
/// keeps moving.
const LIVE_LINE_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// A long job's progress passes at most once per this interval (and always its last unit): each
/// replaces the one before on the tool row, so more would only grow the stored transcript.
const JOB_LINE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Counts a call's console lines, drops those past [`LINES_PER_CALL`] (but for one per
/// [`LIVE_LINE_EVERY`]) and says how many were dropped when the call finishes. A job's progress
/// is not console output: it does not count, and passes once per [`JOB_LINE_EVERY`].
#[derive(Default)]
struct LineBudget {
    shown: usize,
    dropped: usize,
    last: Option<std::time::Instant>,
    last_job: Option<std::time::Instant>,
    script: String,
}

impl LineBudget {
    /// The event to record and show, or `None` to drop it.
    fn admit(&mut self, event: AgentEvent) -> Option<AgentEvent> {
        match &event {
            AgentEvent::ScriptProgress { job: Some(job), .. } => {
                let last_unit = job.done >= job.total;
                if !last_unit && self.last_job.is_some_and(|t| t.elapsed() < JOB_LINE_EVERY) {
                    return None;
                }
                self.last_job = Some(std::time::Instant::now());
                Some(event)
            }
            AgentEvent::ScriptProgress { script, .. } => {
                let live = self.last.is_none_or(|t| t.elapsed() >= LIVE_LINE_EVERY);
                if self.shown >= LINES_PER_CALL && !live {
                    self.dropped += 1;
                    self.script.clone_from(script);
                    return None;
                }
                self.shown += 1;
                self.last = Some(std::time::Instant::now());
                Some(event)
            }
            AgentEvent::ToolCallStarted { .. } => {
                (self.shown, self.dropped, self.last, self.last_job) = (0, 0, None, None);
                Some(event)
            }
            _ => Some(event),
        }
    }

    /// The line that counts the dropped ones, once, when a call finishes.
    fn summary(&mut self) -> Option<AgentEvent> {
        if self.dropped == 0 {
            return None;
        }
        let text = format!("… {} more console lines not shown ", self.dropped);
        self.dropped = 0;
        Some(AgentEvent::ScriptProgress {
            run_id: String::new(),
            script: self.script.clone(),
            stream: "stdout".to_owned(),
            text,
            job: None,
        })
    }
}

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
    /// Opens the store and the settings under `state_root` (the same files `folio ask` uses); keys
    /// as [`super::settings::secrets_for`] says.
    pub fn open(state_root: &Path) -> Result<AgentHost, String> {
        AgentHost::open_with(state_root, super::settings::secrets_for(state_root))
    }

    /// As [`AgentHost::open`], with keys in `secrets`.
    pub fn open_with(state_root: &Path, secrets: folio_store::Secrets) -> Result<AgentHost, String> {
        let store_path = state_root.join("folio.sqlite");
        let store = Arc::new(Store::open(&store_path).map_err(|e| e.to_string())?);
        let settings = Settings::with_secrets(store.clone(), secrets);
        Ok(AgentHost { store, store_path, settings, running: Mutex::new(HashMap::new()) })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The store (the update settings live in it beside the agent's).
    pub fn store(&self) -> &Arc<Store> {
        &self.store
    }

    /// The boundary a turn in `folder` runs behind, read afresh from the store (Settings →
    /// Privacy applies from the next turn); an unreadable store is an error with its fix.
    pub fn boundary(&self, folder: &Path) -> Result<folio_boundary::Boundary, String> {
        super::egress::folder_boundary(&self.store, &self.store_path, folder)
    }

    /// The boundary outside any folder: the global mode alone.
    pub fn global_boundary(&self) -> Result<folio_boundary::Boundary, String> {
        super::egress::global_boundary(&self.store, &self.store_path)
    }

    /// The conversations over `folder`, most recent first.
    pub fn conversations(&self, folder: &Path) -> Result<ConversationListResponse, String> {
        let list = self.store.conversations(folder).map_err(|e| e.to_string())?;
        Ok(ConversationListResponse {
            conversations: list
                .into_iter()
                .map(|c| ConversationSummary { id: c.id, title: c.title, updated_at: c.updated_at })
                .collect(),
        })
    }

    /// A stored conversation's transcript, replayed through the same mapping a live turn uses.
    pub fn replay(&self, id: &str) -> Result<ConversationOpenResponse, String> {
        let info = self.store.conversation(id).map_err(|e| e.to_string())?;
        let mut mapper = Mapper::default();
        let items = self.store.events(id).map_err(|e| e.to_string())?.iter().filter_map(|v| mapper.replay(v)).collect();
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
        let saved = self.settings.load();
        // Everything that can fail before the turn starts fails here, with its fix, before the
        // person's request is stored.
        let provider = super::settings::off_runtime(|| self.settings.provider(&saved, None))??;
        // The folder's boundary, as stored now: local-only refuses a provider off this machine
        // here, before a conversation is created or a connection opened (the client asks again
        // before every request), and the tools refuse the never-send paths.
        let boundary = self.boundary(&folder)?;
        boundary
            .check_url(folio_boundary::Crossing::Provider(&saved.provider), &provider.base_url)
            .map_err(|e| e.to_string())?;
        let client = ModelClient::new(provider).map_err(|e| e.to_string())?.with_boundary(boundary.clone());
        let cancel = CancellationToken::new();
        // The busy check comes before a new conversation is created, so a refused send leaves none.
        let id = {
            let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
            if running.contains_key(&folder) {
                return Err(
                    "the agent is still working in this folder — wait for it to finish, or press Stop (Esc)".to_owned()
                );
            }
            let id = match (params.conversation_id, &text) {
                (Some(id), _) => {
                    let info = self.store.conversation(&id).map_err(|e| e.to_string())?;
                    if Path::new(&info.folder) != folder {
                        return Err(format!(
                            "conversation {id} belongs to {}, not the open folder {} — open that folder to continue it, or start a new conversation",
                            info.folder,
                            folder.display()
                        ));
                    }
                    id
                }
                (None, Some(text)) => self.store.create_conversation(&folder, text).map_err(|e| e.to_string())?,
                (None, None) => return Err("there is nothing to send — type a request first".to_owned()),
            };
            running.insert(folder.clone(), Running { conversation: id.clone(), cancel: cancel.clone() });
            id
        };
        let _guard = TurnGuard { host: self, folder: folder.clone() };
        let mut conversation =
            folio_agent::conversation_from_stored(&id, self.store.messages(&id).map_err(|e| e.to_string())?)?;
        let title = self.store.conversation(&id).map(|c| c.title).unwrap_or_default();
        sink(ConversationNotification::Started { conversation_id: id.clone(), title });
        // A store that fails mid-turn does not stop the work; the first failure is said at the end.
        let mut store_failure: Option<String> = None;
        if let Some(text) = &text {
            if let Err(e) = self.store.append_event(&id, &json!({"type": "user", "text": text})) {
                store_failure.get_or_insert(e.to_string());
            }
            sink(ConversationNotification::User { text: text.clone() });
        }

        let env = session.environment().clone();
        let tools = EnvTools::new(env.clone(), session.agent_events().clone())
            .with_boundary(boundary)
            .with_conversation(id.clone());
        // Lines printed by catalogue runs before this turn are not this turn's.
        drop(tools.drain_events());
        let agent = Agent::new(
            client,
            Arc::new(tools),
            AgentConfig {
                system: folio_agent::system_prompt(&folio_env::preamble(&env)),
                max_turns: saved.max_turns.max(1),
                ..AgentConfig::default()
            },
        );
        let store = self.store.clone();
        let mut mapper = Mapper::default();
        let mut lines = LineBudget::default();
        let mut record = |event: AgentEvent| {
            let value = serde_json::to_value(&event).unwrap_or(Value::Null);
            if let Err(e) = store.record_event(&id, &value) {
                store_failure.get_or_insert(e.to_string());
            }
            if let Some(notification) = mapper.map(&event) {
                sink(notification);
            }
        };
        let mut on_event = |event: AgentEvent| {
            if matches!(event, AgentEvent::ToolCallFinished { .. })
                && let Some(dropped) = lines.summary()
            {
                record(dropped);
            }
            if let Some(event) = lines.admit(event) {
                record(event);
            }
        };
        let result = agent.run(&mut conversation, text.map(Message::user), &cancel, &mut on_event).await;
        let messages: Vec<Value> =
            conversation.messages.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect();
        if let Err(e) = self.store.save_messages(&id, &messages) {
            store_failure.get_or_insert(e.to_string());
        }
        if let Some(failure) = store_failure {
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

    /// Answers the agent's waiting question in `session`'s folder.
    pub fn answer(&self, session: &Session, params: ConversationAnswerParams) -> Result<(), String> {
        if session.agent_events().answer(params.question_id, params.answer) {
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
