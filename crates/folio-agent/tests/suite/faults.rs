//! Provider faults, as a matrix over both wire formats: each fault the fake provider can script
//! (rate limits, 5xx, resets, stalls, malformed and truncated SSE, broken tool-call JSON) is either
//! retried with backoff and then succeeds, or ends the turn with a named error whose text is
//! asserted (what, where, the fix). Then a turn is cancelled in every state it can wait in and the
//! time from cancel to the end of the run is measured (< 200 ms). With `FOLIO_RELIABILITY_DIR`
//! set, both tables go to `provider-faults.json`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_agent::testing::{Chunk, FakeServer, Reply, anthropic, openai};
use folio_agent::{
    Agent, AgentConfig, AgentEvent, BoxFuture, Conversation, FinishReason, Message, ModelClient, Provider, ToolDef,
    ToolOutcome, Tools, WireFormat,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const FORMATS: [WireFormat; 2] = [WireFormat::Anthropic, WireFormat::OpenAi];
const IDLE_MS: u64 = 300;
const BACKOFF_MS: u64 = 5;

/// Records calls; `slow` takes ten seconds and ignores the cancel token on purpose.
#[derive(Default)]
struct Desk {
    calls: Mutex<Vec<(String, Value)>>,
}

impl Tools for Desk {
    fn definitions(&self) -> Vec<ToolDef> {
        ["write_file", "slow"]
            .iter()
            .map(|n| ToolDef {
                name: (*n).into(),
                description: format!("{n} verb"),
                input_schema: json!({"type": "object"}),
            })
            .collect()
    }

    fn call<'a>(&'a self, name: &'a str, input: &'a Value, _: &'a CancellationToken) -> BoxFuture<'a, ToolOutcome> {
        Box::pin(async move {
            self.calls.lock().unwrap().push((name.to_owned(), input.clone()));
            if name == "slow" {
                tokio::time::sleep(Duration::from_secs(10)).await;
            }
            ToolOutcome::text(true, format!("{name} done"))
        })
    }
}

fn sse_event(name: &str, data: Value) -> Chunk {
    Chunk::Bytes(format!("event: {name}\ndata: {data}\n\n").into_bytes())
}

fn sse_data(data: Value) -> Chunk {
    Chunk::Bytes(format!("data: {data}\n\n").into_bytes())
}

fn answer(format: WireFormat, text: &str) -> Vec<Chunk> {
    match format {
        WireFormat::Anthropic => anthropic(text, &[], 10),
        WireFormat::OpenAi => openai(text, &[], 10),
    }
}

fn ok(format: WireFormat) -> Reply {
    Reply::sse(answer(format, "all good"))
}

/// The opening event only (message_start / the role chunk): no content shown yet.
fn opening(format: WireFormat) -> Vec<Chunk> {
    answer(format, "never shown").into_iter().take(1).collect()
}

/// The stream up to and including its first text delta.
fn some_content(format: WireFormat) -> Vec<Chunk> {
    let n = if format == WireFormat::Anthropic { 4 } else { 2 };
    answer(format, "the first third of an answer").into_iter().take(n).collect()
}

fn spliced(format: WireFormat, at: usize, chunk: Chunk) -> Vec<Chunk> {
    let mut chunks = answer(format, "all good");
    chunks.insert(at, chunk);
    chunks
}

/// A tool call whose streamed argument fragments do not join into JSON.
fn broken_tool_call(format: WireFormat) -> Vec<Chunk> {
    let fragments = ["{\"path\": \"/out/a.csv\", \"con", "tent\": \"x,,}"];
    match format {
        WireFormat::Anthropic => {
            let mut out = vec![
                sse_event(
                    "message_start",
                    json!({"type": "message_start", "message": {"usage": {"input_tokens": 10}}}),
                ),
                sse_event(
                    "content_block_start",
                    json!({"type": "content_block_start", "index": 0, "content_block": {"type": "tool_use", "id": "t1", "name": "write_file", "input": {}}}),
                ),
            ];
            for f in fragments {
                out.push(sse_event(
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": f}}),
                ));
            }
            out.push(sse_event("content_block_stop", json!({"type": "content_block_stop", "index": 0})));
            out.push(sse_event(
                "message_delta",
                json!({"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}}),
            ));
            out.push(sse_event("message_stop", json!({"type": "message_stop"})));
            out
        }
        WireFormat::OpenAi => {
            let mut out = vec![sse_data(json!({"choices": [{"index": 0, "delta": {"role": "assistant",
                "tool_calls": [{"index": 0, "id": "t1", "type": "function", "function": {"name": "write_file", "arguments": ""}}]}}]}))];
            for f in fragments {
                out.push(sse_data(
                    json!({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": f}}]}}]}),
                ));
            }
            out.push(sse_data(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})));
            out.push(Chunk::Bytes(b"data: [DONE]\n\n".to_vec()));
            out
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Outcome {
    /// Retried this many times (each visible as an `AgentEvent::Retrying`), then answered.
    RetriedThenOk { retries: usize, first_delay: (u64, u64), reason: &'static str },
    /// The broken call went back to the model as the call's error; the model then answered.
    ToolErrorThenOk,
    /// The run ended with an error containing each of these (`{end}`: the format's end marker).
    Named { requests: usize, says: &'static [&'static str] },
}

struct Row {
    fault: &'static str,
    formats: &'static [WireFormat],
    replies: fn(WireFormat) -> Vec<Reply>,
    expect: Outcome,
}

const RETRY_AFTER_MS: u64 = 200;

fn rows() -> Vec<Row> {
    use Outcome::*;
    vec![
        Row {
            fault: "429 with Retry-After: 0.2 (seconds)",
            formats: &FORMATS,
            replies: |f| {
                vec![Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("retry-after", "0.2"), ok(f)]
            },
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (RETRY_AFTER_MS, RETRY_AFTER_MS),
                reason: "HTTP 429: slow down",
            },
        },
        Row {
            fault: "429 without Retry-After, twice",
            formats: &FORMATS,
            replies: |f| {
                let limited = || Reply::status(429, r#"{"error":{"message":"slow down"}}"#);
                vec![limited(), limited(), ok(f)]
            },
            expect: RetriedThenOk { retries: 2, first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1), reason: "HTTP 429" },
        },
        Row {
            fault: "500 internal error",
            formats: &FORMATS,
            replies: |f| vec![Reply::status(500, r#"{"error":{"message":"internal"}}"#), ok(f)],
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "HTTP 500: internal",
            },
        },
        Row {
            fault: "502 bad gateway (HTML body)",
            formats: &FORMATS,
            replies: |f| vec![Reply::status(502, "<html>Bad Gateway</html>"), ok(f)],
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "HTTP 502: <html>Bad Gateway",
            },
        },
        Row {
            fault: "503 unavailable",
            formats: &FORMATS,
            replies: |f| vec![Reply::status(503, r#"{"error":{"message":"unavailable"}}"#), ok(f)],
            expect: RetriedThenOk { retries: 1, first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1), reason: "HTTP 503" },
        },
        Row {
            fault: "529 overloaded",
            formats: &FORMATS,
            replies: |f| {
                vec![
                    Reply::status(
                        529,
                        r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                    ),
                    ok(f),
                ]
            },
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "HTTP 529: Overloaded",
            },
        },
        Row {
            fault: "529 that never clears (5 requests)",
            formats: &FORMATS,
            replies: |_| (0..5).map(|_| Reply::status(529, r#"{"error":{"message":"Overloaded"}}"#)).collect(),
            expect: Named {
                requests: 5,
                says: &[
                    "answered 529: Overloaded (gave up after 5 attempts) — hint: the provider is overloaded right now; wait a minute",
                ],
            },
        },
        Row {
            fault: "429 asking to wait an hour",
            formats: &FORMATS,
            replies: |_| vec![Reply::status(429, r#"{"error":{"message":"quota"}}"#).header("retry-after", "3600")],
            expect: Named {
                requests: 1,
                says: &[
                    "answered 429: quota — hint: the provider asks Folio to wait 3600 s before trying again, longer than Folio waits on its own (60 s)",
                ],
            },
        },
        Row {
            fault: "401 bad key (not retried)",
            formats: &FORMATS,
            replies: |_| vec![Reply::status(401, r#"{"error":{"message":"invalid key"}}"#)],
            expect: Named { requests: 1, says: &["answered 401: invalid key — hint: check the API key"] },
        },
        Row {
            fault: "connection reset before any response",
            formats: &FORMATS,
            replies: |f| vec![Reply::reset(), ok(f)],
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "connection failed:",
            },
        },
        Row {
            fault: "connection reset before any response, every time (5 requests)",
            formats: &FORMATS,
            replies: |_| (0..5).map(|_| Reply::reset()).collect(),
            expect: Named {
                requests: 5,
                says: &[
                    "cannot reach the model provider",
                    "(gave up after 5 attempts) — hint: check the base URL and your network",
                ],
            },
        },
        Row {
            fault: "connection reset before any content",
            formats: &FORMATS,
            replies: |f| {
                let mut chunks = opening(f);
                chunks.push(Chunk::Reset);
                vec![Reply::sse(chunks), ok(f)]
            },
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "the stream broke",
            },
        },
        Row {
            fault: "connection reset after content streamed",
            formats: &FORMATS,
            replies: |f| {
                let mut chunks = some_content(f);
                chunks.push(Chunk::Reset);
                vec![Reply::sse(chunks), ok(f)]
            },
            expect: Named {
                requests: 1,
                says: &[
                    "the connection to the model provider",
                    "broke mid-answer, after 9 characters had streamed: the stream broke",
                    "— hint: send the message again; the partial answer was not kept",
                ],
            },
        },
        Row {
            fault: "stalled stream (headers, then nothing)",
            formats: &FORMATS,
            replies: |_| vec![Reply::sse(vec![Chunk::Pause(10_000)])],
            expect: Named {
                requests: 1,
                says: &["sent nothing for 0.3 s after its response began — hint: the provider may be overloaded"],
            },
        },
        Row {
            fault: "stalled stream after content",
            formats: &FORMATS,
            replies: |f| {
                let mut chunks = some_content(f);
                chunks.push(Chunk::Pause(10_000));
                vec![Reply::sse(chunks)]
            },
            expect: Named { requests: 1, says: &["sent nothing for 0.3 s after its response began"] },
        },
        Row {
            fault: "no response headers",
            formats: &FORMATS,
            replies: |f| vec![ok(f).after(10_000)],
            expect: Named {
                requests: 1,
                says: &["sent nothing for 0.3 s after the request was sent (no response began) — hint:"],
            },
        },
        Row {
            fault: "malformed SSE: a garbage line",
            formats: &FORMATS,
            replies: |f| vec![Reply::sse(spliced(f, 1, Chunk::Bytes(b"<html>502 Bad Gateway</html>\n".to_vec())))],
            expect: Named {
                requests: 1,
                says: &[
                    "sent something Folio cannot read: a line that is not Server-Sent Events: `<html>502 Bad Gateway</html>` — hint: check that the base URL",
                ],
            },
        },
        Row {
            fault: "malformed SSE: invalid JSON in a data: event",
            formats: &FORMATS,
            replies: |f| {
                vec![Reply::sse(spliced(
                    f,
                    1,
                    Chunk::Bytes(b"data: {\"type\": \"content_block_delta\", oops\n\n".to_vec()),
                ))]
            },
            expect: Named {
                requests: 1,
                says: &[
                    "sent something Folio cannot read:",
                    "that is not JSON",
                    "`{\"type\": \"content_block_delta\", oops`",
                ],
            },
        },
        Row {
            fault: "truncated SSE after content (no end marker)",
            formats: &FORMATS,
            replies: |f| {
                let mut chunks = answer(f, "half an answer");
                chunks.truncate(chunks.len() - 2);
                vec![Reply::sse(chunks)]
            },
            expect: Named {
                requests: 1,
                says: &[
                    "the model's answer was cut off: the stream from the model provider",
                    "ended before {end} — hint: send the message again (the partial answer was not kept)",
                ],
            },
        },
        Row {
            fault: "truncated SSE before any content",
            formats: &FORMATS,
            replies: |f| vec![Reply::sse(opening(f)), ok(f)],
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "the stream ended before the answer began",
            },
        },
        Row {
            fault: "overloaded_error event before content",
            formats: &[WireFormat::Anthropic],
            replies: |f| {
                let mut chunks = opening(f);
                chunks.push(sse_event(
                    "error",
                    json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
                ));
                vec![Reply::sse(chunks), ok(f)]
            },
            expect: RetriedThenOk {
                retries: 1,
                first_delay: (BACKOFF_MS, BACKOFF_MS * 3 / 2 + 1),
                reason: "the provider reported overloaded_error: Overloaded",
            },
        },
        Row {
            fault: "error event after content",
            formats: &FORMATS,
            replies: |f| {
                let mut chunks = some_content(f);
                chunks.push(match f {
                    WireFormat::Anthropic => sse_event(
                        "error",
                        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
                    ),
                    WireFormat::OpenAi => sse_data(json!({"error": {"message": "Overloaded"}})),
                });
                vec![Reply::sse(chunks)]
            },
            expect: Named {
                requests: 1,
                says: &["reported an error mid-stream:", "Overloaded — hint: send the message again"],
            },
        },
        Row {
            fault: "broken tool-call JSON (input_json_delta fragments)",
            formats: &FORMATS,
            replies: |f| vec![Reply::sse(broken_tool_call(f)), ok(f)],
            expect: ToolErrorThenOk,
        },
    ]
}

fn provider(format: WireFormat, base: &str) -> Provider {
    let base = if format == WireFormat::OpenAi { format!("{base}/v1") } else { base.to_owned() };
    Provider {
        initial_backoff_ms: BACKOFF_MS,
        idle_timeout_ms: IDLE_MS,
        api_key: Some("sk-test".into()),
        ..Provider::new(format, base, "fault-model")
    }
}

fn site(format: WireFormat, server: &FakeServer) -> String {
    let host = server.base.trim_start_matches("http://");
    let label = if format == WireFormat::Anthropic { "Anthropic-compatible" } else { "OpenAI-compatible" };
    format!("at {host} ({label}, model fault-model)")
}

fn end_marker(format: WireFormat) -> &'static str {
    if format == WireFormat::Anthropic { "its message_stop event" } else { "its [DONE] line" }
}

/// One row over one format; returns its figure.
async fn check(row: &Row, format: WireFormat) -> Value {
    let server = FakeServer::start((row.replies)(format)).await.unwrap();
    let desk = Arc::new(Desk::default());
    let agent =
        Agent::new(ModelClient::new(provider(format, &server.base)).unwrap(), desk.clone(), AgentConfig::default());
    let mut conversation = Conversation::default();
    let mut events = Vec::new();
    let started = Instant::now();
    let result = agent
        .run(&mut conversation, Some(Message::user("go")), &CancellationToken::new(), &mut |e| events.push(e))
        .await;
    let ms = started.elapsed().as_millis() as u64;
    let what = format!("{} over {format:?}", row.fault);
    let requests = server.requests();
    let retries: Vec<(u64, String)> = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::Retrying { delay_ms, reason, .. } => Some((*delay_ms, reason.clone())),
            _ => None,
        })
        .collect();
    assert!(ms < 5_000, "{what}: bounded, took {ms} ms");
    let (outcome, error) = match row.expect {
        Outcome::RetriedThenOk { retries: n, first_delay: (lo, hi), reason } => {
            assert_eq!(result.as_ref().ok(), Some(&FinishReason::Done), "{what}: {result:?} {events:?}");
            assert_eq!(retries.len(), n, "{what}: each retry is announced: {retries:?}");
            assert_eq!(requests.len(), n + 1, "{what}");
            let (delay, said) = &retries[0];
            assert!((lo..=hi).contains(delay), "{what}: first wait {delay} ms, expected {lo}..={hi}");
            assert!(said.contains(reason), "{what}: the notice says why: {said}");
            if n > 1 {
                assert!(retries[1].0 >= BACKOFF_MS * 2, "{what}: the backoff grows: {retries:?}");
            }
            assert_eq!(
                conversation.messages.last().unwrap().text(),
                "all good",
                "{what}: the partial attempt is discarded"
            );
            ("retried-then-ok", None)
        }
        Outcome::ToolErrorThenOk => {
            assert_eq!(result.as_ref().ok(), Some(&FinishReason::Done), "{what}: {result:?}");
            assert!(desk.calls.lock().unwrap().is_empty(), "{what}: a broken call is not run");
            assert_eq!(requests.len(), 2, "{what}");
            let sent = &requests[1].body;
            let said = match format {
                WireFormat::Anthropic => {
                    let messages = sent["messages"].as_array().unwrap();
                    assert_eq!(messages[1]["content"][0]["input"], json!({}), "{what}: Anthropic gets an object");
                    let result = &messages[2]["content"][0];
                    assert_eq!(result["is_error"], true, "{what}");
                    result["content"].as_str().unwrap().to_owned()
                }
                WireFormat::OpenAi => {
                    let messages = sent["messages"].as_array().unwrap();
                    // system, user, the assistant's call (its raw arguments kept), the tool's error.
                    let raw = messages[2]["tool_calls"][0]["function"]["arguments"].as_str().unwrap();
                    assert!(raw.ends_with("x,,}"), "{what}: {raw}");
                    assert_eq!(messages[3]["role"], "tool", "{what}");
                    messages[3]["content"].as_str().unwrap().to_owned()
                }
            };
            for part in [
                "Folio did not run this write_file call: its arguments arrived broken — they are not valid JSON (",
                "What arrived: `{\"path\": \"/out/a.csv\", \"content\": \"x,,}` — hint: send the call again with the complete arguments as one JSON object",
            ] {
                assert!(said.contains(part), "{what}: the model is told `{part}`: {said}");
            }
            assert!(
                events
                    .iter()
                    .any(|e| matches!(e, AgentEvent::ToolCallFinished { status, .. } if status.name() == "error"))
            );
            ("tool-error-then-ok", Some(said))
        }
        Outcome::Named { requests: n, says } => {
            let err = result.as_ref().err().map(ToString::to_string).unwrap_or_else(|| panic!("{what}: {result:?}"));
            assert!(err.contains(&site(format, &server)), "{what}: names where: {err}");
            assert!(err.contains(" — hint: "), "{what}: names the fix: {err}");
            for part in says {
                let part = part.replace("{end}", end_marker(format));
                assert!(err.contains(&part), "{what}: expected `{part}` in: {err}");
            }
            assert_eq!(requests.len(), n, "{what}: {err}");
            assert!(
                events.iter().any(|e| matches!(e, AgentEvent::Error { message } if *message == err)),
                "{what}: the shells get the error as an event"
            );
            ("named", Some(err))
        }
    };
    json!({
        "fault": row.fault, "format": format, "outcome": outcome, "requests": requests.len(),
        "retries": retries.len(), "ms": ms, "error": error,
    })
}

/// States a turn can be cancelled in.
#[derive(Debug, Clone, Copy)]
enum State {
    WaitingForHeaders,
    ReadingAnErrorBody,
    MidStream,
    RetryBackoff,
    StalledStream,
    ToolExecution,
}

impl State {
    fn name(self) -> &'static str {
        match self {
            State::WaitingForHeaders => "waiting for headers",
            State::ReadingAnErrorBody => "reading an error body",
            State::MidStream => "mid-stream",
            State::RetryBackoff => "retry backoff sleep",
            State::StalledStream => "stalled stream",
            State::ToolExecution => "tool execution (a tool that ignores cancel)",
        }
    }

    fn replies(self, format: WireFormat) -> Vec<Reply> {
        match self {
            State::WaitingForHeaders => vec![ok(format).after(10_000)],
            State::ReadingAnErrorBody => vec![Reply {
                status: 500,
                headers: vec![("content-type", "application/json".into())],
                chunks: vec![Chunk::Bytes(b"{\"error\":".to_vec()), Chunk::Pause(10_000)],
                delay_ms: 0,
            }],
            State::StalledStream => vec![Reply::sse(vec![Chunk::Pause(10_000)])],
            State::MidStream => {
                let mut chunks = some_content(format);
                chunks.push(Chunk::Pause(10_000));
                vec![Reply::sse(chunks)]
            }
            State::RetryBackoff => {
                vec![Reply::status(429, r#"{"error":{"message":"slow down"}}"#).header("retry-after", "10"), ok(format)]
            }
            State::ToolExecution => vec![Reply::sse(match format {
                WireFormat::Anthropic => anthropic("", &[("t1", "slow", json!({}))], 10),
                WireFormat::OpenAi => openai("", &[("t1", "slow", json!({}))], 10),
            })],
        }
    }

    /// True once the run is in this state, judging by its events (the rest wait a fixed time).
    fn reached(self, event: &AgentEvent) -> bool {
        match self {
            State::MidStream => matches!(event, AgentEvent::TextDelta { .. }),
            State::RetryBackoff => matches!(event, AgentEvent::Retrying { .. }),
            // The stream is done once usage is reported; the tools run next.
            State::ToolExecution => matches!(event, AgentEvent::Usage { .. }),
            State::WaitingForHeaders | State::ReadingAnErrorBody | State::StalledStream => {
                matches!(event, AgentEvent::TurnStarted { .. })
            }
        }
    }
}

/// Cancels a run `after` ms past the moment it reaches `state`; returns the ms from the cancel to
/// the end of the run.
async fn cancel_latency(state: State, format: WireFormat) -> f64 {
    let server = FakeServer::start(state.replies(format)).await.unwrap();
    let mut p = provider(format, &server.base);
    // Long limits, so the only way out is the cancel.
    p.idle_timeout_ms = 60_000;
    let agent = Agent::new(ModelClient::new(p).unwrap(), Arc::new(Desk::default()), AgentConfig::default());
    let cancel = CancellationToken::new();
    let cancelled_at: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mut armed = false;
    let mut events = Vec::new();
    let reason = agent
        .run(&mut Conversation::default(), Some(Message::user("go")), &cancel, &mut |e| {
            if !armed && state.reached(&e) {
                armed = true;
                let (c, at) = (cancel.clone(), cancelled_at.clone());
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(150)).await;
                    *at.lock().unwrap() = Some(Instant::now());
                    c.cancel();
                });
            }
            events.push(e);
        })
        .await;
    let at =
        cancelled_at.lock().unwrap().unwrap_or_else(|| panic!("{state:?} {format:?}: never cancelled: {events:?}"));
    let latency = at.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(reason.ok(), Some(FinishReason::Cancelled), "{state:?} {format:?}: {events:?}");
    assert!(matches!(events.last(), Some(AgentEvent::Finished { reason: FinishReason::Cancelled })));
    assert!(latency < 200.0, "{} over {format:?}: cancel took {latency:.1} ms", state.name());
    latency
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_provider_fault_is_retried_or_named_and_cancel_ends_every_state_within_200ms() {
    let mut faults = Vec::new();
    for row in rows() {
        for format in row.formats {
            faults.push(check(&row, *format).await);
        }
    }
    let mut cancels = Vec::new();
    for state in [
        State::WaitingForHeaders,
        State::ReadingAnErrorBody,
        State::MidStream,
        State::RetryBackoff,
        State::StalledStream,
        State::ToolExecution,
    ] {
        for format in FORMATS {
            let ms = cancel_latency(state, format).await;
            cancels.push(json!({"state": state.name(), "format": format, "latency_ms": (ms * 10.0).round() / 10.0}));
        }
    }
    let count = |o: &str| faults.iter().filter(|f| f["outcome"] == o).count();
    let worst = cancels.iter().filter_map(|c| c["latency_ms"].as_f64()).fold(0.0, f64::max);
    let figures = json!({
        "area": "provider-faults",
        "rows": faults.len(),
        "retried_then_ok": count("retried-then-ok"),
        "named": count("named"),
        "tool_error_then_ok": count("tool-error-then-ok"),
        "idle_timeout_ms": IDLE_MS,
        "initial_backoff_ms": BACKOFF_MS,
        "faults": faults,
        "cancel_bound_ms": 200,
        "cancel_worst_ms": worst,
        "cancels": cancels,
    });
    println!("{}", serde_json::to_string_pretty(&figures).unwrap());
    if let Some(dir) = std::env::var_os("FOLIO_RELIABILITY_DIR") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            std::path::Path::new(&dir).join("provider-faults.json"),
            serde_json::to_string_pretty(&figures).unwrap(),
        )
        .unwrap();
    }
}
