//! The two wire formats. Each turns a [`ModelRequest`] into the provider's JSON body and the
//! provider's SSE events into [`StreamEvent`]s; [`TurnBuilder`] assembles those into a finished
//! turn. Tool calls stream as they arrive (start, then argument fragments), so the UI can show a
//! script being written.

pub(crate) mod anthropic;
pub(crate) mod openai;

use serde_json::Value;

use crate::message::{Message, Part, Role, StopReason, Usage};
use crate::sse::SseEvent;

/// Which API a provider speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireFormat {
    /// Anthropic Messages (`POST {base}/v1/messages`).
    Anthropic,
    /// OpenAI Chat Completions and compatibles (`POST {base}/chat/completions`): OpenAI,
    /// OpenRouter, Gemini's OpenAI endpoint, Ollama, LM Studio.
    OpenAi,
}

/// What a stream says, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// More answer text.
    TextDelta(String),
    /// A tool call began (`index` orders calls within the turn).
    ToolStart {
        /// Position within the turn.
        index: usize,
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
    },
    /// More of a tool call's JSON arguments.
    ToolInputDelta {
        /// Position within the turn.
        index: usize,
        /// The fragment.
        fragment: String,
    },
    /// Token counts so far (fields that are zero were not reported by this event).
    Usage(Usage),
    /// The provider's stop reason.
    Stop(StopReason),
    /// The end-of-stream marker arrived.
    Done,
    /// The client is waiting before trying again.
    Retrying {
        /// Attempt about to be made (2 = first retry).
        attempt: u32,
        /// Wait in milliseconds.
        delay_ms: u64,
        /// Why.
        reason: String,
    },
}

/// What a parser found wrong with an event; the client adds where it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WireError {
    /// Not the format's documented shape.
    Malformed(String),
    /// The provider's own error event; `transient` when asking again may succeed (overloaded).
    Provider { message: String, transient: bool },
}

/// Parses one format's SSE events.
pub(crate) trait WireParser: Send {
    fn parse(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, WireError>;
    /// The marker a complete stream ends with, named for the truncation error.
    fn end_marker(&self) -> &'static str;
}

#[derive(Debug, Default, Clone)]
struct PendingCall {
    id: String,
    name: String,
    arguments: String,
}

/// A finished model turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelTurn {
    /// The assistant message (text then tool calls).
    pub message: Message,
    /// Token counts.
    pub usage: Usage,
    /// Why it stopped.
    pub stop: StopReason,
}

/// Assembles stream events into a [`ModelTurn`].
#[derive(Debug, Default)]
pub struct TurnBuilder {
    text: String,
    calls: Vec<(usize, PendingCall)>,
    usage: Usage,
    stop: Option<StopReason>,
    pub(crate) done: bool,
}

impl TurnBuilder {
    /// Takes one event into account.
    pub fn push(&mut self, event: &StreamEvent) {
        match event {
            StreamEvent::TextDelta(t) => self.text.push_str(t),
            StreamEvent::ToolStart { index, id, name } => match self.calls.iter_mut().find(|(i, _)| i == index) {
                Some((_, call)) => {
                    if !id.is_empty() {
                        call.id.clone_from(id);
                    }
                    if !name.is_empty() {
                        call.name.clone_from(name);
                    }
                }
                None => self
                    .calls
                    .push((*index, PendingCall { id: id.clone(), name: name.clone(), arguments: String::new() })),
            },
            StreamEvent::ToolInputDelta { index, fragment } => {
                if let Some((_, call)) = self.calls.iter_mut().find(|(i, _)| i == index) {
                    call.arguments.push_str(fragment);
                }
            }
            StreamEvent::Usage(u) => {
                let merge = |old: &mut u64, new: u64| {
                    if new > 0 {
                        *old = new;
                    }
                };
                merge(&mut self.usage.input_tokens, u.input_tokens);
                merge(&mut self.usage.output_tokens, u.output_tokens);
                merge(&mut self.usage.cache_read_tokens, u.cache_read_tokens);
                merge(&mut self.usage.cache_write_tokens, u.cache_write_tokens);
            }
            StreamEvent::Stop(s) => self.stop = Some(s.clone()),
            StreamEvent::Done => self.done = true,
            StreamEvent::Retrying { .. } => {}
        }
    }

    /// The finished turn. Arguments that are not valid JSON are kept as the raw string, so the loop
    /// returns the problem to the model as the call's error instead of the turn failing.
    pub fn finish(mut self) -> ModelTurn {
        let mut parts = Vec::new();
        if !self.text.is_empty() {
            parts.push(Part::Text { text: self.text });
        }
        self.calls.sort_by_key(|(i, _)| *i);
        let has_calls = !self.calls.is_empty();
        for (n, (_, call)) in self.calls.into_iter().enumerate() {
            let input = if call.arguments.trim().is_empty() {
                Value::Object(Default::default())
            } else {
                serde_json::from_str(&call.arguments).unwrap_or(Value::String(call.arguments))
            };
            let id = if call.id.is_empty() { format!("call_{n}") } else { call.id };
            parts.push(Part::ToolUse { id, name: call.name, input });
        }
        let stop = self.stop.unwrap_or(if has_calls { StopReason::ToolUse } else { StopReason::EndTurn });
        ModelTurn { message: Message { role: Role::Assistant, parts, compaction: false }, usage: self.usage, stop }
    }
}

/// Makes a history safe to send: same-role neighbours merged, and a tool call without a result
/// (a turn stopped mid-way) answered with an explicit "no result" so the provider accepts it.
pub fn heal(messages: &[Message]) -> Vec<Message> {
    let mut out: Vec<Message> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        match out.last_mut() {
            Some(last) if last.role == m.role => last.parts.extend(m.parts.iter().cloned()),
            _ => out.push(Message { compaction: false, ..m.clone() }),
        }
        if m.role == Role::Assistant {
            let answered: Vec<&str> = messages
                .get(i + 1)
                .map(|next| {
                    next.parts
                        .iter()
                        .filter_map(|p| match p {
                            Part::ToolResult { id, .. } => Some(id.as_str()),
                            _ => None,
                        })
                        .collect()
                })
                .unwrap_or_default();
            let orphans: Vec<Part> = m
                .tool_uses()
                .filter(|(id, _, _)| !answered.contains(id))
                .map(|(id, name, _)| Part::ToolResult {
                    id: id.to_owned(),
                    name: name.to_owned(),
                    content: "No result: this call was interrupted before it finished.".to_owned(),
                    is_error: true,
                    images: Vec::new(),
                    sources: Vec::new(),
                })
                .collect();
            if !orphans.is_empty() {
                out.push(Message { role: Role::User, parts: orphans, compaction: false });
            }
        }
    }
    out
}
