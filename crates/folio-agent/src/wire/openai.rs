//! OpenAI Chat Completions and compatibles: request body and stream chunks (`choices[].delta`
//! with `content` and `tool_calls` fragments assembled by index, a final usage chunk with
//! `stream_options.include_usage`, then `data: [DONE]`).

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
                        Part::Image { media_type, data } => content
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
pub(crate) struct Parser;

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
                let index = call["index"].as_u64().unwrap_or(0) as usize;
                let id = call["id"].as_str().unwrap_or_default();
                let name = call["function"]["name"].as_str().unwrap_or_default();
                if !id.is_empty() || !name.is_empty() {
                    out.push(StreamEvent::ToolStart { index, id: id.to_owned(), name: name.to_owned() });
                }
                if let Some(fragment) = call["function"]["arguments"].as_str().filter(|a| !a.is_empty()) {
                    out.push(StreamEvent::ToolInputDelta { index, fragment: fragment.to_owned() });
                }
            }
            if let Some(reason) = choice["finish_reason"].as_str() {
                out.push(StreamEvent::Stop(match reason {
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
