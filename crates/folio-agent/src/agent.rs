//! The loop: ask the model, run the tools it calls, send the results back, until it answers
//! without tools, the person stops it, or the turn limit is reached.
//!
//! Tool calls run one after another, each racing the cancel token, so Stop ends a running script
//! as promptly as the tool honours the token. Results carry the full story (a failed verb's data,
//! not just its message). When the prompt the provider reports crosses a share of the model's
//! context window, earlier history is summarised (one extra model call without tools, a request
//! of its own saying what triggered it — `context.rs` — never streamed as the agent's reply) and the model continues from the summary, the original request
//! and the environment's facts.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::client::ModelClient;
use crate::error::AgentError;
use crate::events::{AgentEvent, FinishReason, ToolCallStatus};
use crate::message::{Message, ModelRequest, Part, Role, ToolDef};
use crate::wire::StreamEvent;

/// A boxed future, for the object-safe [`Tools`] trait.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ToolOutcome {
    /// False when the tool failed.
    pub ok: bool,
    /// What goes back to the model.
    pub content: String,
    /// Images for a multimodal model to see (from `view_image`).
    pub images: Vec<crate::message::Image>,
    /// The files the content came from, for the egress ledger.
    pub sources: Vec<crate::ledger::Source>,
}

impl ToolOutcome {
    /// A text outcome.
    pub fn text(ok: bool, content: impl Into<String>) -> ToolOutcome {
        ToolOutcome { ok, content: content.into(), images: Vec::new(), sources: Vec::new() }
    }
}

/// The tools the model may call: in Folio, the working environment's verbs.
pub trait Tools: Send + Sync {
    /// Their definitions, sent with every call.
    fn definitions(&self) -> Vec<ToolDef>;
    /// Runs one call; must return promptly once `cancel` fires.
    fn call<'a>(&'a self, name: &'a str, input: &'a Value, cancel: &'a CancellationToken)
    -> BoxFuture<'a, ToolOutcome>;
    /// Facts that must survive compaction (what is in `/out`, which `/scripts` exist).
    fn facts(&self) -> String {
        String::new()
    }
    /// Events the tools produced since the last call (script progress, hand-offs, overlay
    /// changes); the loop polls this while a call runs and after it.
    fn drain_events(&self) -> Vec<AgentEvent> {
        Vec::new()
    }
    /// The loop is about to run the tool calls one model call asked for. Tools that record who
    /// asked for their work keep it ([`EnvTools`](crate::EnvTools): a script run's provenance);
    /// the default ignores it.
    fn on_turn(&self, _turn: &TurnContext) {}
}

/// Which model call of which request the tool calls that follow belong to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnContext {
    /// The person's request in the conversation (1-based; the ledger's turn number).
    pub request: u32,
    /// The loop's model call within this run (1-based).
    pub call: u32,
    /// The model that asked.
    pub model: String,
}

/// How the loop behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentConfig {
    /// The system prompt.
    pub system: String,
    /// Model calls per run before stopping with [`FinishReason::MaxTurns`].
    pub max_turns: u32,
    /// Share of the context window at which history is compacted.
    pub compact_at: f64,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig { system: String::new(), max_turns: 120, compact_at: 0.8 }
    }
}

/// The whole history of a conversation; the model sees it from the last compaction on.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Conversation {
    /// Every message, compaction summaries included.
    pub messages: Vec<Message>,
}

impl Conversation {
    /// What the model is sent: from the last compaction summary on.
    pub fn visible(&self) -> &[Message] {
        let start = self.messages.iter().rposition(|m| m.compaction).unwrap_or(0);
        &self.messages[start..]
    }
}

/// The loop over one provider and one tool set.
pub struct Agent {
    client: ModelClient,
    tools: Arc<dyn Tools>,
    config: AgentConfig,
}

/// How many requests the person has made in `conversation` (its user messages with text and no
/// tool results, summaries excluded): the ledger's turn number.
fn person_requests(conversation: &Conversation) -> u32 {
    conversation
        .messages
        .iter()
        .filter(|m| {
            m.role == Role::User
                && !m.compaction
                && m.parts.iter().any(|p| matches!(p, Part::Text { .. }))
                && !m.parts.iter().any(|p| matches!(p, Part::ToolResult { .. }))
        })
        .count() as u32
}

/// A ledger entry made inside a tool (the vision model's call) gets the turn and call it belongs to.
fn stamp(mut event: AgentEvent, request_no: u32, turn: u32) -> AgentEvent {
    if let AgentEvent::ModelRequest { entry } = &mut event
        && entry.turn == 0
    {
        (entry.turn, entry.call) = (request_no, turn);
    }
    event
}

/// Why a call's arguments cannot be run, when they are not one JSON object: the wire layer keeps
/// arguments that do not parse as the raw string the model streamed.
fn broken_input(name: &str, input: &Value) -> Option<String> {
    if input.is_object() {
        return None;
    }
    let (sent, why) = match input {
        Value::String(raw) => match serde_json::from_str::<Value>(raw) {
            Err(e) => (raw.clone(), format!("they are not valid JSON ({e})")),
            Ok(_) => (raw.clone(), "they are JSON but not an object".to_owned()),
        },
        other => (other.to_string(), "they are JSON but not an object".to_owned()),
    };
    let sent: String = sent.chars().take(400).collect();
    Some(format!(
        "Folio did not run this {name} call: its arguments arrived broken — {why}. What arrived: `{sent}` — hint: send the call again with the complete arguments as one JSON object"
    ))
}

const SUMMARY_INSTRUCTIONS: &str = "Summarise this working session so that you can continue it from the summary alone. \
Keep: what the person asked for, in their words; decisions made and why; which files you created or changed and what each holds; \
what is finished and what remains; errors met and how they were fixed. Leave out tool output that can be read again from files. \
Write it as notes to yourself.";

impl Agent {
    /// An agent calling `client`, with `tools`.
    pub fn new(client: ModelClient, tools: Arc<dyn Tools>, config: AgentConfig) -> Agent {
        Agent { client, tools, config }
    }

    /// Runs the loop. With `input` it starts from the person's new message; without, it continues
    /// where the last run stopped (after [`FinishReason::MaxTurns`] or a cancel).
    pub async fn run(
        &self,
        conversation: &mut Conversation,
        input: Option<Message>,
        cancel: &CancellationToken,
        on_event: &mut (dyn FnMut(AgentEvent) + Send),
    ) -> Result<FinishReason, AgentError> {
        if let Some(message) = input {
            conversation.messages.push(message);
        }
        let tools = self.tools.definitions();
        let request_no = person_requests(conversation);
        for turn in 1..=self.config.max_turns {
            on_event(AgentEvent::TurnStarted { turn });
            // Images older than a few model turns travel as a line naming their path.
            let request = ModelRequest {
                system: self.config.system.clone(),
                messages: crate::context::age_images(conversation.visible(), crate::context::KEEP_IMAGE_TURNS),
                tools: tools.clone(),
            };
            let mut ids: Vec<(usize, String)> = Vec::new();
            // The stream's events and the ledger's entries both go to `on_event`, from one call.
            let shared = std::sync::Mutex::new(&mut *on_event);
            let emit = |event: AgentEvent| (shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner))(event);
            let mut ledger = |mut entry: crate::ledger::LedgerEntry| {
                (entry.turn, entry.call) = (request_no, turn);
                emit(AgentEvent::ModelRequest { entry: Box::new(entry) });
            };
            let on_event = &emit;
            let mut forward = |ev: &StreamEvent| match ev {
                StreamEvent::TextDelta(text) => on_event(AgentEvent::TextDelta { text: text.clone() }),
                StreamEvent::ToolStart { index, id, name } => {
                    if !ids.iter().any(|(i, _)| i == index) {
                        ids.push((*index, id.clone()));
                        on_event(AgentEvent::ToolCallStarted { id: id.clone(), name: name.clone() });
                    }
                }
                StreamEvent::ToolInputDelta { index, fragment } => {
                    let id = ids.iter().find(|(i, _)| i == index).map(|(_, id)| id.clone()).unwrap_or_default();
                    on_event(AgentEvent::ToolInputDelta { id, fragment: fragment.clone() });
                }
                StreamEvent::Retrying { attempt, delay_ms, reason } => {
                    on_event(AgentEvent::Retrying { attempt: *attempt, delay_ms: *delay_ms, reason: reason.clone() })
                }
                StreamEvent::Usage(_) | StreamEvent::Stop(_) | StreamEvent::Done => {}
            };
            let turn_result =
                self.client.stream_as(crate::ledger::Purpose::Turn, &request, cancel, &mut forward, &mut ledger).await;
            let on_event: &mut (dyn FnMut(AgentEvent) + Send) =
                shared.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
            let model_turn = match turn_result {
                Ok(t) => t,
                Err(AgentError::Cancelled) => {
                    on_event(AgentEvent::Finished { reason: FinishReason::Cancelled });
                    return Ok(FinishReason::Cancelled);
                }
                Err(e) => {
                    on_event(AgentEvent::Error { message: e.to_string() });
                    return Err(e);
                }
            };
            let usage = model_turn.usage;
            let provider = self.client.provider();
            let cost_usd = provider.pricing.map(|p| p.cost(&usage));
            on_event(AgentEvent::Usage { usage, context_window: provider.context_window, cost_usd });
            let calls: Vec<(String, String, Value)> =
                model_turn.message.tool_uses().map(|(i, n, v)| (i.to_owned(), n.to_owned(), v.clone())).collect();
            conversation.messages.push(model_turn.message);
            if calls.is_empty() {
                on_event(AgentEvent::Finished { reason: FinishReason::Done });
                return Ok(FinishReason::Done);
            }
            let mut results = Vec::new();
            let mut cancelled = false;
            self.tools.on_turn(&TurnContext { request: request_no, call: turn, model: provider.model.clone() });
            for (id, name, input) in calls {
                if cancel.is_cancelled() {
                    cancelled = true;
                    break;
                }
                let started = Instant::now();
                // Arguments that are not one JSON object (a stream that sent broken JSON) never
                // reach the tool: the model is told what it sent, so it can send the call again.
                let malformed = broken_input(&name, &input);
                // Biased: when the tool noticed the cancel too, the call still counts as aborted.
                // While the call runs, what it reports (a script's console lines) is forwarded.
                let outcome = if let Some(why) = malformed {
                    Some(ToolOutcome::text(false, why))
                } else {
                    let call = self.tools.call(&name, &input, cancel);
                    tokio::pin!(call);
                    let mut tick = tokio::time::interval(std::time::Duration::from_millis(100));
                    loop {
                        tokio::select! {
                            biased;
                            _ = cancel.cancelled() => break None,
                            o = &mut call => break Some(o),
                            _ = tick.tick() => self.tools.drain_events().into_iter().for_each(|e| on_event(stamp(e, request_no, turn))),
                        }
                    }
                };
                self.tools.drain_events().into_iter().for_each(|e| on_event(stamp(e, request_no, turn)));
                let duration_ms = started.elapsed().as_millis() as u64;
                let (status, content, is_error, images, sources) = match outcome {
                    Some(o) if o.ok => (ToolCallStatus::Success, o.content, false, o.images, o.sources),
                    Some(o) => (ToolCallStatus::Error, o.content, true, o.images, o.sources),
                    None => {
                        cancelled = true;
                        (
                            ToolCallStatus::Aborted,
                            "Stopped by the person before this call finished.".to_owned(),
                            true,
                            Vec::new(),
                            Vec::new(),
                        )
                    }
                };
                on_event(AgentEvent::ToolCallFinished {
                    id: id.clone(),
                    name: name.clone(),
                    status,
                    output: content.clone(),
                    duration_ms,
                });
                // At most the pixels the provider uses (crate::context::ImageLimit).
                let format = self.client.provider().format;
                let images = images.into_iter().map(|i| crate::context::fit_image(i, format)).collect();
                results.push(Part::ToolResult { id, name, content, is_error, images, sources });
                if cancelled || cancel.is_cancelled() {
                    cancelled = true;
                    break;
                }
            }
            conversation.messages.push(Message { role: Role::User, parts: results, compaction: false });
            if cancelled {
                on_event(AgentEvent::Finished { reason: FinishReason::Cancelled });
                return Ok(FinishReason::Cancelled);
            }
            let window = self.client.provider().context_window as f64;
            if usage.prompt_tokens() as f64 >= self.config.compact_at * window {
                match self.compact(conversation, usage.prompt_tokens(), (request_no, turn), cancel, on_event).await {
                    Ok(()) => {}
                    Err(AgentError::Cancelled) => {
                        on_event(AgentEvent::Finished { reason: FinishReason::Cancelled });
                        return Ok(FinishReason::Cancelled);
                    }
                    Err(e) => {
                        on_event(AgentEvent::Error { message: e.to_string() });
                        return Err(e);
                    }
                }
            }
        }
        on_event(AgentEvent::MaxTurns { turns: self.config.max_turns });
        on_event(AgentEvent::Finished { reason: FinishReason::MaxTurns });
        Ok(FinishReason::MaxTurns)
    }

    async fn compact(
        &self,
        conversation: &mut Conversation,
        prompt_tokens: u64,
        (request_no, turn): (u32, u32),
        cancel: &CancellationToken,
        on_event: &mut (dyn FnMut(AgentEvent) + Send),
    ) -> Result<(), AgentError> {
        let visible = conversation.visible().to_vec();
        // Its own request: one message saying why, the work so far as a transcript, and the
        // instructions — never an instruction glued to a turn of tool results.
        let window = self.client.provider().context_window;
        let asked = crate::context::compaction_request(
            &visible,
            prompt_tokens,
            window,
            self.config.compact_at,
            SUMMARY_INSTRUCTIONS,
        );
        let request = ModelRequest { system: self.config.system.clone(), messages: vec![asked], tools: Vec::new() };
        // The summary is not the agent's reply: nothing of it is forwarded as text.
        let shared = std::sync::Mutex::new(&mut *on_event);
        let emit = |event: AgentEvent| (shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner))(event);
        let mut quiet = |ev: &StreamEvent| {
            if let StreamEvent::Retrying { attempt, delay_ms, reason } = ev {
                emit(AgentEvent::Retrying { attempt: *attempt, delay_ms: *delay_ms, reason: reason.clone() });
            }
        };
        let mut ledger = |mut entry: crate::ledger::LedgerEntry| {
            (entry.turn, entry.call) = (request_no, turn);
            emit(AgentEvent::ModelRequest { entry: Box::new(entry) });
        };
        let streamed =
            self.client.stream_as(crate::ledger::Purpose::Summary, &request, cancel, &mut quiet, &mut ledger).await;
        let on_event: &mut (dyn FnMut(AgentEvent) + Send) =
            shared.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        let summary = streamed?.message.text();
        let asked: Vec<String> = visible
            .iter()
            .filter(|m| m.role == Role::User && !m.compaction)
            .map(Message::text)
            .filter(|t| !t.is_empty())
            .collect();
        let mut text = String::from("[Summary of the work so far]\n");
        text.push_str(&summary);
        if !asked.is_empty() {
            text.push_str("\n\n[What the person asked, verbatim]\n");
            text.push_str(&asked.join("\n---\n"));
        }
        let facts = self.tools.facts();
        if !facts.is_empty() {
            text.push_str("\n\n[The environment now]\n");
            text.push_str(&facts);
        }
        text.push_str("\n\n[Continue the task from here.]");
        conversation.messages.push(Message { role: Role::User, parts: vec![Part::Text { text }], compaction: true });
        on_event(AgentEvent::Compacted { messages: visible.len(), prompt_tokens });
        Ok(())
    }
}
