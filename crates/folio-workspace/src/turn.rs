//! One agent turn in a folder, the same for both shells: the settings and boundary read afresh,
//! the turn lock taken ([`crate::lock`]) before a conversation is created or a message saved,
//! the request recorded, every event recorded as it happens (so the transcript survives a crash),
//! a script's console lines capped per call, and the conversation's messages saved at the end.
//!
//! Everything that can fail before the turn starts — no key, a provider local-only mode refuses,
//! another turn in the folder — fails before the person's request is stored.

use std::path::Path;
use std::sync::Arc;

use folio_agent::{Agent, AgentConfig, AgentError, AgentEvent, EnvTools, FinishReason, Message, ModelClient, Tools};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::{Folder, WorkspaceError};

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct TurnRequest {
    /// Continue this conversation (`None`: a new one, titled by `text`).
    pub conversation: Option<String>,
    /// The person's request; `None` continues a conversation that stopped at its turn limit.
    pub text: Option<String>,
}

/// What a turn says as it runs.
#[derive(Debug, Clone)]
pub enum TurnEvent {
    /// The turn holds the folder and its conversation is known.
    Started {
        /// The conversation.
        conversation_id: String,
        /// Its title.
        title: String,
    },
    /// The person's request, recorded.
    User {
        /// Its text.
        text: String,
    },
    /// One of the loop's events, already recorded (console lines past the cap are not passed).
    Agent(AgentEvent),
}

/// How a turn ended.
#[derive(Debug)]
pub struct TurnOutcome {
    /// The conversation it ran in.
    pub conversation_id: String,
    /// The loop's answer (an error was already reported as an event).
    pub result: Result<FinishReason, AgentError>,
    /// The first thing that could not be saved, when something could not.
    pub store_failure: Option<String>,
}

/// Console lines kept per tool call: a script that prints in a tight loop would otherwise flood the
/// store and the shell with millions of lines nobody reads.
pub const LINES_PER_CALL: usize = 400;

/// Past [`LINES_PER_CALL`], one line per this interval still passes, so the live line keeps moving.
const LIVE_LINE_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// A long job's progress passes at most once per this interval (and always its last unit).
const JOB_LINE_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Counts a call's console lines, drops those past [`LINES_PER_CALL`] (but for one per
/// [`LIVE_LINE_EVERY`]) and says how many were dropped when the call finishes. A job's progress
/// is not console output: it does not count, and passes once per [`JOB_LINE_EVERY`].
#[derive(Default)]
pub struct LineBudget {
    shown: usize,
    dropped: usize,
    last: Option<std::time::Instant>,
    last_job: Option<std::time::Instant>,
    script: String,
}

impl LineBudget {
    /// The event to record and show, or `None` to drop it.
    pub fn admit(&mut self, event: AgentEvent) -> Option<AgentEvent> {
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

    /// Console lines shown in the current call so far.
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// The line that counts the dropped ones, once, when a call finishes.
    pub fn summary(&mut self) -> Option<AgentEvent> {
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

fn conversation_error(e: impl std::fmt::Display) -> WorkspaceError {
    WorkspaceError::Conversation(format!(
        "the conversation could not be read or created: {e} — hint: check that the state directory is writable"
    ))
}

impl Folder {
    /// Runs one turn here: a new request, or (without text) a continuation. `on_event` gets each
    /// event as it happens; `cancel` stops the turn (the model stream, a running script, a waiting
    /// question). Refused at once, before anything is saved, when another turn holds the folder
    /// — in this process or another.
    pub async fn turn(
        &self,
        request: TurnRequest,
        cancel: &CancellationToken,
        on_event: &mut (dyn FnMut(TurnEvent) + Send),
    ) -> Result<TurnOutcome, WorkspaceError> {
        let ws = self.workspace();
        let store = ws.store().clone();
        let text = request.text.map(|t| t.trim().to_owned()).filter(|t| !t.is_empty());
        let settings = ws.settings()?;
        let provider = ws.provider(&settings, None)?;
        let folder = self.root().to_path_buf();
        let boundary = ws.boundary(&folder)?;
        boundary
            .check_url(folio_boundary::Crossing::Provider(settings.provider.as_str()), &provider.base_url)
            .map_err(|e| WorkspaceError::Boundary(e.to_string()))?;
        let client = ModelClient::new(provider)
            .map_err(|e| WorkspaceError::Provider(e.to_string()))?
            .with_boundary(boundary.clone());
        let _lock = crate::lock::lock_turn(&self.state_dir(), &folder, self.shell())?;
        let id = match (request.conversation, &text) {
            (Some(id), _) => {
                let info = store.conversation(&id).map_err(conversation_error)?;
                if Path::new(&info.folder) != folder {
                    return Err(WorkspaceError::Conversation(format!(
                        "conversation {id} belongs to {}, not {} — hint: continue it in its own folder, or start a new conversation",
                        info.folder,
                        folder.display()
                    )));
                }
                id
            }
            (None, Some(text)) => store.create_conversation(&folder, text).map_err(conversation_error)?,
            (None, None) => {
                return Err(WorkspaceError::Conversation(
                    "there is nothing to ask — type a request first (or continue a conversation by its id)".to_owned(),
                ));
            }
        };
        let mut conversation =
            folio_agent::conversation_from_stored(&id, store.messages(&id).map_err(conversation_error)?)
                .map_err(WorkspaceError::Conversation)?;
        let title = store.conversation(&id).map(|c| c.title).unwrap_or_default();
        on_event(TurnEvent::Started { conversation_id: id.clone(), title });
        // A store that fails mid-turn does not stop the work; the first failure is said at the end.
        let mut store_failure: Option<String> = None;
        if let Some(text) = &text {
            if let Err(e) = store.append_event(&id, &json!({"type": "user", "text": text})) {
                store_failure.get_or_insert(e.to_string());
            }
            on_event(TurnEvent::User { text: text.clone() });
        }
        let env = self.environment().clone();
        let tools =
            EnvTools::new(env.clone(), self.events().clone()).with_boundary(boundary).with_conversation(id.clone());
        // Lines printed by runs before this turn are not this turn's.
        drop(tools.drain_events());
        let agent = Agent::new(
            client,
            Arc::new(tools),
            AgentConfig {
                system: folio_agent::system_prompt(&folio_env::preamble(&env)),
                max_turns: settings.max_turns.max(1),
                ..AgentConfig::default()
            },
        );
        let mut lines = LineBudget::default();
        let result = {
            let mut record = |event: AgentEvent| {
                let value = serde_json::to_value(&event).unwrap_or(Value::Null);
                if let Err(e) = store.record_event(&id, &value) {
                    store_failure.get_or_insert(e.to_string());
                }
                on_event(TurnEvent::Agent(event));
            };
            let mut each = |event: AgentEvent| {
                if matches!(event, AgentEvent::ToolCallFinished { .. })
                    && let Some(dropped) = lines.summary()
                {
                    record(dropped);
                }
                if let Some(event) = lines.admit(event) {
                    record(event);
                }
            };
            agent.run(&mut conversation, text.map(Message::user), cancel, &mut each).await
        };
        let messages: Vec<Value> =
            conversation.messages.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect();
        if let Err(e) = store.save_messages(&id, &messages) {
            store_failure.get_or_insert(e.to_string());
        }
        Ok(TurnOutcome { conversation_id: id, result, store_failure })
    }
}
