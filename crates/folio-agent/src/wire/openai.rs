//! OpenAI Chat Completions and compatibles: request body and stream chunks (`choices[].delta`
//! with `content` and `tool_calls` fragments assembled by index, a final usage chunk with
//! `stream_options.include_usage`, then `data: [DONE]`).
//!
//! The local servers' streams differ from OpenAI's, and the parser takes them as they are:
//! - **Ollama** sends a whole tool call in one chunk, older versions without `index` (several
//!   calls in one chunk then all look like call 0), `arguments` sometimes as a JSON object rather
//!   than a string, and `finish_reason: "stop"` after tool calls.
//! - **LM Studio** repeats the call's `id` (and an empty `name`) on every argument fragment, and
//!   can send an empty `id`.
//!
//! So: a call without `index` that names an id or a tool is a new call, one without is more of
//! the last; a call whose `id` differs from the one already at its `index` is a new call; object
//! arguments are serialised; and `stop` after tool calls means the model wants them run.

use serde_json::{Value, json};

use super::{StreamEvent, WireError, WireParser, heal};
use crate::message::{ModelRequest, Part, Role, StopReason, Usage};
use crate::sse::SseEvent;

/// Which field carries the output limit: OpenAI's newer models refuse `max_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenParam {
    /// `max_tokens` (compatibles: Ollama, LM Studio, OpenRouter, Gemini).
    MaxTokens,
    /// `max_completion_tokens` (api.openai.com).
    MaxCompletionTokens,
}

impl TokenParam {
    /// The field OpenAI itself wants, `max_tokens` for everyone else.
    pub fn for_base_url(base_url: &str) -> TokenParam {
        if base_url.contains("api.openai.com") { TokenParam::MaxCompletionTokens } else { TokenParam::MaxTokens }
    }
}

pub(crate) fn body(req: &ModelRequest, model: &str, max_tokens: u32, param: TokenParam) -> Value {
    let mut messages = vec![json!({"role": "system", "content": req.system})];
    for m in heal(&req.messages) {
        match m.role {
            Role::Assistant => {
                let text = m.text();
                let calls: Vec<Value> = m
                    .tool_uses()
                    .map(|(id, name, input)| {
                        let arguments = match input {
                            Value::String(raw) => raw.clone(),
                            other => other.to_string(),
                        };
                        json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}})
                    })
                    .collect();
                let mut msg = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { Value::String(text) }});
                if !calls.is_empty() {
                    msg["tool_calls"] = Value::Array(calls);
                }
                messages.push(msg);
            }
            Role::User => {
                let mut content: Vec<Value> = Vec::new();
                for p in &m.parts {
                    match p {
                        Part::ToolResult { id, content: text, images, .. } => {
                            messages.push(json!({"role": "tool", "tool_call_id": id, "content": text}));
                            // Tool messages carry text only in this format: the images follow as
                            // the user's, labelled with the call they answer.
                            for image in images {
                                content.push(json!({"type": "text", "text": format!("Image returned by tool call {id}:")}));
                                content.push(json!({"type": "image_url", "image_url": {"url": format!("data:{};base64,{}", image.media_type, image.data)}}));
                            }
                        }
                        Part::Text { text } => content.push(json!({"type": "text", "text": text})),
                        Part::Image { media_type, data, .. } => content
                            .push(json!({"type": "image_url", "image_url": {"url": format!("data:{media_type};base64,{data}")}})),
                        Part::ToolUse { .. } => {}
                    }
                }
                let only_text = content.iter().all(|c| c["type"] == "text");
                match content.len() {
                    0 => {}
                    _ if only_text => {
                        let joined: Vec<&str> = content.iter().filter_map(|c| c["text"].as_str()).collect();
                        messages.push(json!({"role": "user", "content": joined.join("\n\n")}));
                    }
                    _ => messages.push(json!({"role": "user", "content": content})),
                }
            }
        }
    }
    let mut body = json!({
        "model": model,
        "stream": true,
        "stream_options": {"include_usage": true},
        "messages": messages,
    });
    let field = match param {
        TokenParam::MaxTokens => "max_tokens",
        TokenParam::MaxCompletionTokens => "max_completion_tokens",
    };
    body[field] = json!(max_tokens);
    if !req.tools.is_empty() {
        body["tools"] = req
            .tools
            .iter()
            .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.input_schema}}))
            .collect();
    }
    body
}

#[derive(Default)]
pub(crate) struct Parser {
    /// The call id at each position so far (empty when the server sent none).
    ids: Vec<(usize, String)>,
    /// A server's `index` moved to another position (a second call that also said `index: 0`).
    moved: Vec<(usize, usize)>,
    /// The position of the last call seen, for fragments that name none.
    last: Option<usize>,
}

impl Parser {
    fn next_free(&self) -> usize {
        self.ids.iter().map(|(i, _)| i + 1).max().unwrap_or(0)
    }

    /// The position of a tool-call fragment, by the rules in the module's documentation.
    fn position(&mut self, index: Option<usize>, id: &str, name: &str) -> usize {
        let known = |s: &Parser, id: &str| s.ids.iter().find(|(_, k)| !id.is_empty() && k == id).map(|(i, _)| *i);
        let at = match index {
            Some(i) => match self.ids.iter().find(|(at, _)| *at == i) {
                Some((_, other)) if !id.is_empty() && !other.is_empty() && other != id => {
                    let to = known(self, id).unwrap_or_else(|| self.next_free());
                    self.moved.retain(|(from, _)| *from != i);
                    self.moved.push((i, to));
                    to
                }
                _ if id.is_empty() => self.moved.iter().find(|(from, _)| *from == i).map_or(i, |(_, to)| *to),
                _ => i,
            },
            None if id.is_empty() && name.is_empty() => self.last.unwrap_or(0),
            None => known(self, id).unwrap_or_else(|| self.next_free()),
        };
        match self.ids.iter_mut().find(|(i, _)| *i == at) {
            Some((_, known_id)) if known_id.is_empty() => id.clone_into(known_id),
            Some(_) => {}
            None => self.ids.push((at, id.to_owned())),
        }
        self.last = Some(at);
        at
    }
}

impl WireParser for Parser {
    fn parse(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, WireError> {
        if event.data.trim() == "[DONE]" {
            return Ok(vec![StreamEvent::Done]);
        }
        let data: Value = serde_json::from_str(&event.data)
            .map_err(|e| WireError::Malformed(format!("a chunk that is not JSON ({e}): `{:.200}`", event.data)))?;
        if let Some(err) = data.get("error") {
            let message = err["message"].as_str().map(str::to_owned).unwrap_or_else(|| err.to_string());
            return Err(WireError::Provider { message, transient: false });
        }
        let mut out = Vec::new();
        if let Some(u) = data.get("usage").filter(|u| !u.is_null()) {
            let n = |v: &Value| v.as_u64().unwrap_or(0);
            let cached = n(&u["prompt_tokens_details"]["cached_tokens"]);
            out.push(StreamEvent::Usage(Usage {
                input_tokens: n(&u["prompt_tokens"]).saturating_sub(cached),
                output_tokens: n(&u["completion_tokens"]),
                cache_read_tokens: cached,
                cache_write_tokens: 0,
            }));
        }
        for choice in data["choices"].as_array().into_iter().flatten() {
            let delta = &choice["delta"];
            if let Some(text) = delta["content"].as_str().filter(|t| !t.is_empty()) {
                out.push(StreamEvent::TextDelta(text.to_owned()));
            }
            for call in delta["tool_calls"].as_array().into_iter().flatten() {
                let id = call["id"].as_str().unwrap_or_default();
                let name = call["function"]["name"].as_str().unwrap_or_default();
                let index = self.position(call["index"].as_u64().map(|i| i as usize), id, name);
                if !id.is_empty() || !name.is_empty() {
                    out.push(StreamEvent::ToolStart { index, id: id.to_owned(), name: name.to_owned() });
                }
                let fragment = match &call["function"]["arguments"] {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    // Ollama: the arguments as the object itself.
                    other => other.to_string(),
                };
                if !fragment.is_empty() {
                    out.push(StreamEvent::ToolInputDelta { index, fragment });
                }
            }
            if let Some(reason) = choice["finish_reason"].as_str() {
                out.push(StreamEvent::Stop(match reason {
                    "stop" if !self.ids.is_empty() => StopReason::ToolUse,
                    "stop" => StopReason::EndTurn,
                    "tool_calls" | "function_call" => StopReason::ToolUse,
                    "length" => StopReason::MaxTokens,
                    other => StopReason::Other(other.to_owned()),
                }));
            }
        }
        Ok(out)
    }

    fn end_marker(&self) -> &'static str {
        "its [DONE] line"
    }
}
