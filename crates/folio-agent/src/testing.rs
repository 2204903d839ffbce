//! A fake model provider for tests (feature `testing`): an HTTP/1.1 server on 127.0.0.1 that
//! records each request and answers with scripted replies — a status, headers, and body chunks with
//! pauses between them — then closes the connection. Each reply can carry a fault: a delay before
//! its headers ([`Reply::after`]), a pause that outlasts the client's idle limit
//! ([`Chunk::Pause`]), or a connection reset ([`Chunk::Reset`], a TCP RST, not a clean close).
//! The SSE builders produce the providers' documented event shapes. Tests never reach a real
//! provider.
#![allow(missing_docs)]

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

pub enum Chunk {
    Bytes(Vec<u8>),
    /// Milliseconds of silence.
    Pause(u64),
    /// Resets the connection (SO_LINGER 0, then close: the client reads ECONNRESET).
    Reset,
}

pub struct Reply {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub chunks: Vec<Chunk>,
    /// Milliseconds between reading the request and sending the headers.
    pub delay_ms: u64,
}

impl Reply {
    pub fn sse(chunks: Vec<Chunk>) -> Reply {
        Reply { status: 200, headers: vec![("content-type", "text/event-stream".into())], chunks, delay_ms: 0 }
    }

    pub fn status(status: u16, body: &str) -> Reply {
        Reply {
            status,
            headers: vec![("content-type", "application/json".into())],
            chunks: vec![Chunk::Bytes(body.as_bytes().to_vec())],
            delay_ms: 0,
        }
    }

    /// No answer at all: the connection is reset once the request has been read.
    pub fn reset() -> Reply {
        Reply { status: 0, headers: Vec::new(), chunks: vec![Chunk::Reset], delay_ms: 0 }
    }

    /// The same reply with its headers sent only after `ms`.
    pub fn after(mut self, ms: u64) -> Reply {
        self.delay_ms = ms;
        self
    }

    /// The same reply with a header added.
    pub fn header(mut self, name: &'static str, value: &str) -> Reply {
        self.headers.push((name, value.to_owned()));
        self
    }
}

#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Value,
    /// The body exactly as it arrived.
    pub raw: Vec<u8>,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub struct FakeServer {
    /// `http://127.0.0.1:PORT` (append `/v1` for OpenAI-style clients).
    pub base: String,
    pub requests: Arc<Mutex<Vec<Recorded>>>,
}

impl FakeServer {
    /// Starts the server on a free port of 127.0.0.1. Fails only when the loopback interface
    /// refuses a listener (the error says so).
    pub async fn start(replies: Vec<Reply>) -> std::io::Result<FakeServer> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let requests = Arc::new(Mutex::new(Vec::new()));
        let replies = Arc::new(Mutex::new(std::collections::VecDeque::from(replies)));
        let recorded = requests.clone();
        tokio::spawn(async move {
            loop {
                let Ok((mut socket, _)) = listener.accept().await else { return };
                let recorded = recorded.clone();
                let replies = replies.clone();
                tokio::spawn(async move {
                    let mut buf = Vec::new();
                    let mut chunk = [0u8; 8192];
                    let header_end = loop {
                        let n = socket.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            return;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                        if let Some(pos) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                            break pos + 4;
                        }
                    };
                    let head = String::from_utf8_lossy(&buf[..header_end]).into_owned();
                    let mut lines = head.lines();
                    let path = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("").to_owned();
                    let headers: Vec<(String, String)> = lines
                        .filter_map(|l| l.split_once(':').map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned())))
                        .collect();
                    let length: usize = headers
                        .iter()
                        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
                        .and_then(|(_, v)| v.parse().ok())
                        .unwrap_or(0);
                    while buf.len() < header_end + length {
                        let n = socket.read(&mut chunk).await.unwrap_or(0);
                        if n == 0 {
                            break;
                        }
                        buf.extend_from_slice(&chunk[..n]);
                    }
                    let raw = buf[header_end..].to_vec();
                    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
                    recorded.lock().unwrap_or_else(PoisonError::into_inner).push(Recorded { path, headers, body, raw });
                    let reply =
                        replies.lock().unwrap_or_else(PoisonError::into_inner).pop_front().unwrap_or_else(|| {
                            Reply::status(500, "{\"error\":{\"message\":\"no more scripted replies\"}}")
                        });
                    if reply.delay_ms > 0 {
                        tokio::time::sleep(Duration::from_millis(reply.delay_ms)).await;
                    }
                    if reply.status == 0 {
                        let _ = socket.set_zero_linger();
                        return;
                    }
                    let mut head = format!("HTTP/1.1 {} Scripted\r\nconnection: close\r\n", reply.status);
                    for (k, v) in &reply.headers {
                        head.push_str(&format!("{k}: {v}\r\n"));
                    }
                    head.push_str("\r\n");
                    if socket.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    for c in reply.chunks {
                        match c {
                            Chunk::Bytes(b) => {
                                if socket.write_all(&b).await.is_err() {
                                    return;
                                }
                                let _ = socket.flush().await;
                            }
                            Chunk::Pause(ms) => tokio::time::sleep(Duration::from_millis(ms)).await,
                            Chunk::Reset => {
                                let _ = socket.set_zero_linger();
                                return;
                            }
                        }
                    }
                    let _ = socket.shutdown().await;
                });
            }
        });
        Ok(FakeServer { base, requests })
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

fn event(name: &str, data: Value) -> Chunk {
    Chunk::Bytes(format!("event: {name}\ndata: {data}\n\n").into_bytes())
}

/// One `data:` event of an OpenAI-style stream, for tests scripting a server's own quirks.
pub fn sse_data(value: Value) -> Chunk {
    data(value)
}

fn data(data: Value) -> Chunk {
    Chunk::Bytes(format!("data: {data}\n\n").into_bytes())
}

/// Splits `s` into three fragments, the way providers stream tool arguments.
fn thirds(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let a = chars.len() / 3;
    let b = 2 * chars.len() / 3;
    vec![chars[..a].iter().collect(), chars[a..b].iter().collect(), chars[b..].iter().collect()]
}

/// An Anthropic Messages stream: optional text, optional tool calls, usage, stop.
pub fn anthropic(text: &str, tools: &[(&str, &str, Value)], prompt_tokens: u64) -> Vec<Chunk> {
    let mut out = vec![event(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [],
               "usage": {"input_tokens": prompt_tokens / 2, "cache_read_input_tokens": prompt_tokens - prompt_tokens / 2, "output_tokens": 1}}}),
    )];
    out.push(event("ping", json!({"type": "ping"})));
    let mut index = 0;
    if !text.is_empty() {
        out.push(event(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        ));
        for piece in thirds(text) {
            out.push(event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": piece}}),
            ));
            out.push(Chunk::Pause(5));
        }
        out.push(event("content_block_stop", json!({"type": "content_block_stop", "index": 0})));
        index = 1;
    }
    for (id, name, input) in tools {
        out.push(event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
        ));
        for piece in thirds(&input.to_string()) {
            out.push(event(
                "content_block_delta",
                json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}),
            ));
        }
        out.push(event("content_block_stop", json!({"type": "content_block_stop", "index": index})));
        index += 1;
    }
    let stop = if tools.is_empty() { "end_turn" } else { "tool_use" };
    out.push(event("message_delta", json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null}, "usage": {"output_tokens": 42}})));
    out.push(event("message_stop", json!({"type": "message_stop"})));
    out
}

/// An OpenAI Chat Completions stream: text deltas, tool-call fragments by index, a usage chunk, [DONE].
pub fn openai(text: &str, tools: &[(&str, &str, Value)], prompt_tokens: u64) -> Vec<Chunk> {
    let mut out = vec![data(
        json!({"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": null}]}),
    )];
    for piece in if text.is_empty() { vec![] } else { thirds(text) } {
        out.push(data(
            json!({"id": "c1", "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]}),
        ));
        out.push(Chunk::Pause(5));
    }
    for (i, (id, name, input)) in tools.iter().enumerate() {
        out.push(data(json!({"id": "c1", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": i, "id": id, "type": "function", "function": {"name": name, "arguments": ""}}]}, "finish_reason": null}]})));
        for piece in thirds(&input.to_string()) {
            out.push(data(json!({"id": "c1", "choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": i, "function": {"arguments": piece}}]}, "finish_reason": null}]})));
        }
    }
    let finish = if tools.is_empty() { "stop" } else { "tool_calls" };
    out.push(data(json!({"id": "c1", "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})));
    out.push(data(
        json!({"id": "c1", "choices": [], "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 42,
        "prompt_tokens_details": {"cached_tokens": prompt_tokens / 4}}}),
    ));
    out.push(Chunk::Bytes(b"data: [DONE]\n\n".to_vec()));
    out
}
