//! Anthropic Messages: request body and stream events
//! (`message_start`, `content_block_start/delta/stop`, `message_delta`, `message_stop`, `ping`,
//! `error`). Prompt caching is on: the system block and the last block of the conversation carry
//! `cache_control`.

use serde_json::{Value, json};

use super::{StreamEvent, WireError, WireParser, heal};
use crate::message::{ModelRequest, Part, Role, StopReason, Usage};
use crate::sse::SseEvent;

pub(crate) fn body(req: &ModelRequest, model: &str, max_tokens: u32) -> Value {
    let mut messages: Vec<Value> = heal(&req.messages)
        .iter()
        .map(|m| {
            let content: Vec<Value> = m
                .parts
                .iter()
                .map(|p| match p {
                    Part::Text { text } => json!({"type": "text", "text": text}),
                    Part::Image { media_type, data, .. } => {
                        json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
                    }
                    // Anthropic takes only an object here. Arguments that were not one (broken
                    // JSON, kept as the raw string) go as `{}`; the call's error result quotes
                    // them, so the model sees what it wrote.
                    Part::ToolUse { id, name, input } => {
                        let input = if input.is_object() { input.clone() } else { json!({}) };
                        json!({"type": "tool_use", "id": id, "name": name, "input": input})
                    }
                    Part::ToolResult { id, content, is_error, images, .. } if !images.is_empty() => {
                        let mut blocks = vec![json!({"type": "text", "text": content})];
                        blocks.extend(images.iter().map(|i| {
                            json!({"type": "image", "source": {"type": "base64", "media_type": i.media_type, "data": i.data}})
                        }));
                        json!({"type": "tool_result", "tool_use_id": id, "content": blocks, "is_error": is_error})
                    }
                    Part::ToolResult { id, content, is_error, .. } => {
                        json!({"type": "tool_result", "tool_use_id": id, "content": content, "is_error": is_error})
                    }
                })
                .collect();
            let role = if m.role == Role::User { "user" } else { "assistant" };
            json!({"role": role, "content": content})
        })
        .collect();
    if let Some(last) = messages.last_mut().and_then(|m| m["content"].as_array_mut()).and_then(|c| c.last_mut()) {
        last["cache_control"] = json!({"type": "ephemeral"});
    }
    let tools: Vec<Value> = req
        .tools
        .iter()
        .map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.input_schema}))
        .collect();
    let mut body = json!({
        "model": model,
        "max_tokens": max_tokens,
        "stream": true,
        "system": [{"type": "text", "text": req.system, "cache_control": {"type": "ephemeral"}}],
        "messages": messages,
    });
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
    }
    body
}

/// Tracks which content block index is which tool call.
#[derive(Default)]
pub(crate) struct Parser {
    tool_blocks: Vec<usize>,
}

fn usage(v: &Value) -> Usage {
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    Usage {
        input_tokens: n("input_tokens"),
        output_tokens: n("output_tokens"),
        cache_read_tokens: n("cache_read_input_tokens"),
        cache_write_tokens: n("cache_creation_input_tokens"),
    }
}

impl WireParser for Parser {
    fn parse(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, WireError> {
        let data: Value = serde_json::from_str(&event.data).map_err(|e| {
            WireError::Malformed(format!("an Anthropic event that is not JSON ({e}): `{:.200}`", event.data))
        })?;
        let kind = data.get("type").and_then(Value::as_str).or(event.event.as_deref()).unwrap_or("");
        let index = data.get("index").and_then(Value::as_u64).unwrap_or(0) as usize;
        Ok(match kind {
            "message_start" => vec![StreamEvent::Usage(usage(&data["message"]["usage"]))],
            "content_block_start" => {
                let block = &data["content_block"];
                if block["type"] == "tool_use" {
                    self.tool_blocks.push(index);
                    vec![StreamEvent::ToolStart {
                        index,
                        id: block["id"].as_str().unwrap_or_default().to_owned(),
                        name: block["name"].as_str().unwrap_or_default().to_owned(),
                    }]
                } else {
                    match block["text"].as_str() {
                        Some(t) if !t.is_empty() => vec![StreamEvent::TextDelta(t.to_owned())],
                        _ => vec![],
                    }
                }
            }
            "content_block_delta" => {
                let delta = &data["delta"];
                match delta["type"].as_str() {
                    Some("text_delta") => {
                        vec![StreamEvent::TextDelta(delta["text"].as_str().unwrap_or_default().to_owned())]
                    }
                    Some("input_json_delta") if self.tool_blocks.contains(&index) => {
                        vec![StreamEvent::ToolInputDelta {
                            index,
                            fragment: delta["partial_json"].as_str().unwrap_or_default().to_owned(),
                        }]
                    }
                    _ => vec![],
                }
            }
            "message_delta" => {
                let mut out = vec![StreamEvent::Usage(usage(&data["usage"]))];
                if let Some(reason) = data["delta"]["stop_reason"].as_str() {
                    out.push(StreamEvent::Stop(match reason {
                        "end_turn" | "stop_sequence" => StopReason::EndTurn,
                        "tool_use" => StopReason::ToolUse,
                        "max_tokens" => StopReason::MaxTokens,
                        other => StopReason::Other(other.to_owned()),
                    }));
                }
                out
            }
            "message_stop" => vec![StreamEvent::Done],
            "error" => {
                let message = data["error"]["message"].as_str().unwrap_or("unknown error");
                let kind = data["error"]["type"].as_str().unwrap_or("error");
                // Anthropic's documented transient kinds; the rest say the request is wrong.
                let transient = matches!(kind, "overloaded_error" | "api_error" | "rate_limit_error" | "timeout_error");
                return Err(WireError::Provider { message: format!("{kind}: {message}"), transient });
            }
            _ => vec![],
        })
    }

    fn end_marker(&self) -> &'static str {
        "its message_stop event"
    }
}
