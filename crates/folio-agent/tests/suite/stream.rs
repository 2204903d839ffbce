//! One streamed model call per wire format: assembly, headers, retries, and every failure named.

use std::time::{Duration, Instant};

use folio_agent::{
    AgentError, Message, ModelClient, ModelRequest, Part, Provider, StopReason, StreamEvent, ToolDef, WireFormat,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use folio_agent::testing::{Chunk, FakeServer, Reply, anthropic, openai};

fn request() -> ModelRequest {
    ModelRequest {
        system: "You are a test.".into(),
        messages: vec![Message::user("Summarise /inbox/sales.csv")],
        tools: vec![ToolDef {
            name: "write_file".into(),
            description: "Write a file.".into(),
            input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}),
        }],
    }
}

fn provider(format: WireFormat, base: &str) -> Provider {
    let base = if format == WireFormat::OpenAi { format!("{base}/v1") } else { base.to_owned() };
    Provider { api_key: Some("sk-test".into()), initial_backoff_ms: 10, ..Provider::new(format, base, "test-model") }
}

async fn call(p: Provider) -> (Result<folio_agent::ModelTurn, AgentError>, Vec<StreamEvent>) {
    let client = ModelClient::new(p).unwrap();
    let mut events = Vec::new();
    let result =
        client.stream(&request(), &CancellationToken::new(), &mut |e: &StreamEvent| events.push(e.clone())).await;
    (result, events)
}

#[tokio::test]
async fn both_formats_assemble_text_and_fragmented_tool_calls() {
    let args = json!({"path": "/out/summary.csv", "content": "region,total\nnorth,10\n"});
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let chunks = match format {
            WireFormat::Anthropic => anthropic("Writing it now.", &[("toolu_1", "write_file", args.clone())], 1000),
            WireFormat::OpenAi => openai("Writing it now.", &[("call_1", "write_file", args.clone())], 1000),
        };
        let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
        let (turn, events) = call(provider(format, &server.base)).await;
        let turn = turn.unwrap();
        assert_eq!(turn.message.text(), "Writing it now.", "{format:?}");
        let calls: Vec<_> = turn.message.tool_uses().map(|(_, n, i)| (n.to_owned(), i.clone())).collect();
        assert_eq!(calls, [("write_file".to_owned(), args.clone())], "{format:?}");
        assert_eq!(turn.stop, StopReason::ToolUse);
        assert_eq!(turn.usage.prompt_tokens(), 1000, "{format:?}: {:?}", turn.usage);
        assert!(turn.usage.cache_read_tokens > 0, "cache reads are reported: {:?}", turn.usage);
        assert_eq!(turn.usage.output_tokens, 42);
        // The arguments streamed as they arrived, in more than one fragment.
        let fragments = events.iter().filter(|e| matches!(e, StreamEvent::ToolInputDelta { .. })).count();
        assert_eq!(fragments, 3, "{format:?}");
        let text_deltas = events.iter().filter(|e| matches!(e, StreamEvent::TextDelta(_))).count();
        assert!(text_deltas >= 3, "{format:?}");

        let sent = &server.requests()[0];
        assert_eq!(sent.body["stream"], true);
        match format {
            WireFormat::Anthropic => {
                assert_eq!(sent.path, "/v1/messages");
                assert_eq!(sent.header("x-api-key"), Some("sk-test"));
                assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
                assert_eq!(sent.body["system"][0]["cache_control"]["type"], "ephemeral", "prompt caching is on");
                assert_eq!(sent.body["tools"][0]["input_schema"]["required"][0], "path");
                assert_eq!(sent.body["max_tokens"], 8192);
            }
            WireFormat::OpenAi => {
                assert_eq!(sent.path, "/v1/chat/completions");
                assert_eq!(sent.header("authorization"), Some("Bearer sk-test"));
                assert_eq!(sent.body["stream_options"]["include_usage"], true);
                assert_eq!(sent.body["messages"][0]["role"], "system");
                assert_eq!(sent.body["tools"][0]["function"]["name"], "write_file");
                assert_eq!(sent.body["max_tokens"], 8192, "compatibles take max_tokens");
            }
        }
    }
}

#[test]
fn openai_itself_gets_max_completion_tokens() {
    let p = Provider::new(WireFormat::OpenAi, "https://api.openai.com/v1", "gpt-5");
    let body = p.body(&request());
    assert_eq!(body["max_completion_tokens"], 8192);
    assert!(body.get("max_tokens").is_none());
    let local = Provider::new(WireFormat::OpenAi, "http://localhost:11434/v1", "llama3.1");
    assert_eq!(local.body(&request())["max_tokens"], 8192);
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_honouring_retry_after() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let ok = match format {
            WireFormat::Anthropic => anthropic("done", &[], 10),
            WireFormat::OpenAi => openai("done", &[], 10),
        };
        let mut limited = Reply::status(429, r#"{"error":{"type":"rate_limit_error","message":"slow down"}}"#);
        limited.headers.push(("retry-after", "0.05".into()));
        let server = FakeServer::start(vec![
            limited,
            Reply::status(503, r#"{"error":{"message":"overloaded"}}"#),
            Reply::sse(ok),
        ])
        .await
        .unwrap();
        let (turn, events) = call(provider(format, &server.base)).await;
        assert_eq!(turn.unwrap().message.text(), "done");
        let retries: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::Retrying { attempt, delay_ms, reason } => Some((*attempt, *delay_ms, reason.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(retries.len(), 2, "{format:?}: {retries:?}");
        assert_eq!(retries[0].1, 50, "Retry-After is honoured");
        assert!(retries[0].2.contains("HTTP 429: slow down"), "{retries:?}");
        assert!(retries[1].2.contains("HTTP 503"), "{retries:?}");
        assert_eq!(server.requests().len(), 3);
    }
}

#[tokio::test]
async fn a_request_error_is_not_retried_and_names_the_fix() {
    let server = FakeServer::start(vec![Reply::status(
        401,
        r#"{"error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
    )])
    .await
    .unwrap();
    let (turn, _) = call(provider(WireFormat::Anthropic, &server.base)).await;
    let err = turn.unwrap_err().to_string();
    assert!(err.contains("answered 401: invalid x-api-key — hint: check the API key (ANTHROPIC_API_KEY"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_truncated_stream_is_a_named_error_not_a_hang() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let mut chunks = match format {
            WireFormat::Anthropic => anthropic("half an answ", &[], 10),
            WireFormat::OpenAi => openai("half an answ", &[], 10),
        };
        chunks.truncate(chunks.len() - 2);
        let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
        let started = Instant::now();
        let (turn, _) = call(provider(format, &server.base)).await;
        let err = turn.unwrap_err();
        assert!(matches!(err, AgentError::Truncated { .. }), "{format:?}: {err}");
        assert!(err.to_string().contains("the model's answer was cut off"), "{err}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[tokio::test]
async fn an_error_event_mid_stream_is_reported() {
    let anthropic_error = Chunk::Bytes(
        b"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n".to_vec(),
    );
    let mut chunks = anthropic("partial", &[], 10);
    chunks.insert(4, anthropic_error);
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let (turn, _) = call(provider(WireFormat::Anthropic, &server.base)).await;
    let err = turn.unwrap_err().to_string();
    assert!(err.contains("reported an error mid-stream: overloaded_error: Overloaded"), "{err}");

    let mut chunks = openai("partial", &[], 10);
    chunks.insert(2, Chunk::Bytes(b"data: {\"error\":{\"message\":\"upstream failed\"}}\n\n".to_vec()));
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let (turn, _) = call(provider(WireFormat::OpenAi, &server.base)).await;
    assert!(turn.unwrap_err().to_string().contains("upstream failed"));
}

#[tokio::test]
async fn cancel_stops_a_stream_within_200ms() {
    let mut chunks = anthropic("a long answer that never ends", &[], 10);
    chunks.insert(3, Chunk::Pause(10_000));
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let client = ModelClient::new(provider(WireFormat::Anthropic, &server.base)).unwrap();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let result = client.stream(&request(), &cancel, &mut |_: &StreamEvent| {}).await;
    let waited = started.elapsed();
    assert!(matches!(result, Err(AgentError::Cancelled)), "{result:?}");
    assert!(waited < Duration::from_millis(150 + 200), "cancel took {waited:?}");
}

#[tokio::test]
async fn a_silent_stream_stalls_with_a_named_error() {
    let mut chunks = openai("x", &[], 10);
    chunks.insert(1, Chunk::Pause(3_000));
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let p = Provider { idle_timeout_ms: 200, ..provider(WireFormat::OpenAi, &server.base) };
    let (turn, _) = call(p).await;
    let err = turn.unwrap_err().to_string();
    assert!(
        err.contains("(OpenAI-compatible, model test-model) sent nothing for 0.2 s after its response began"),
        "{err}"
    );
}

#[test]
fn orphaned_tool_calls_are_healed_before_sending() {
    let messages = vec![
        Message::user("go"),
        Message {
            role: folio_agent::Role::Assistant,
            parts: vec![Part::ToolUse { id: "t1".into(), name: "run_script".into(), input: json!({}) }],
            compaction: false,
        },
        Message::user("never mind, do something else"),
    ];
    let healed = folio_agent::heal(&messages);
    assert_eq!(healed.len(), 3, "the orphan's result is merged into the next user message");
    let Part::ToolResult { id, is_error, content, .. } = &healed[2].parts[0] else { panic!("{healed:?}") };
    assert_eq!(id, "t1");
    assert!(is_error);
    assert!(content.contains("interrupted"));
    let body = Provider::new(WireFormat::Anthropic, "http://x", "m").body(&ModelRequest {
        system: String::new(),
        messages,
        tools: vec![],
    });
    assert_eq!(body["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(body["messages"][2]["content"][1]["type"], "text");
}
