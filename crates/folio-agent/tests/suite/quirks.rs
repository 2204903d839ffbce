//! The local servers' OpenAI-compatible streams as they really are (Ollama, LM Studio), through
//! their presets against the fake server: one stream per quirk, each read into the right calls.

use folio_agent::testing::{Chunk, FakeServer, Reply, sse_data};
use folio_agent::{ModelClient, ModelRequest, Part, Provider, StopReason, WireFormat, preset};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn chunk(delta: Value, finish: Option<&str>) -> Chunk {
    sse_data(
        json!({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
    )
}

fn done() -> Chunk {
    Chunk::Bytes(b"data: [DONE]\n\n".to_vec())
}

/// Streams `chunks` through preset `name` at the fake server and checks the calls and stop.
async fn check(name: &str, quirk: &str, chunks: Vec<Chunk>, calls: &[(&str, &str, Value)], stop: StopReason) {
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let provider =
        preset(name).unwrap().provider(Some("local-model"), Some(&format!("{}/v1", server.base)), None).unwrap();
    let client = ModelClient::new(provider).unwrap();
    let req = ModelRequest { system: "s".into(), messages: vec![folio_agent::Message::user("go")], tools: vec![] };
    let turn =
        client.stream(&req, &CancellationToken::new(), &mut |_| {}).await.unwrap_or_else(|e| panic!("{quirk}: {e}"));
    let got: Vec<(String, String, Value)> = turn
        .message
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::ToolUse { id, name, input } => Some((id.clone(), name.clone(), input.clone())),
            _ => None,
        })
        .collect();
    let want: Vec<(String, String, Value)> =
        calls.iter().map(|(i, n, v)| ((*i).to_owned(), (*n).to_owned(), v.clone())).collect();
    assert_eq!(got, want, "{name}: {quirk}");
    assert_eq!(turn.stop, stop, "{name}: {quirk}");
    // The preset's wire: the OpenAI path under /v1, no key, `max_tokens`.
    let sent = &server.requests()[0];
    assert_eq!(sent.path, "/v1/chat/completions", "{name}");
    assert!(sent.header("authorization").is_none(), "{name}: a keyless local server gets no key");
    assert!(sent.body["max_tokens"].is_u64(), "{name}: {}", sent.body);
}

#[tokio::test]
async fn the_local_presets_point_at_their_servers() {
    assert_eq!(preset("ollama").unwrap().base_url, "http://localhost:11434/v1");
    assert_eq!(preset("lmstudio").unwrap().base_url, "http://localhost:1234/v1");
    for name in ["ollama", "lmstudio"] {
        let err = preset(name).unwrap().provider(None, None, None).unwrap_err();
        assert!(err.contains("--model"), "{name}: {err}");
    }
}

/// A preset's provider is named by its preset wherever its server listens (a local server on
/// another port or address is still "ollama" in messages and the ledger); one built by hand is
/// named by its host when that is a preset's, else by the API it speaks.
#[test]
fn a_provider_is_named_by_its_preset_wherever_it_listens() {
    let cases = [
        (
            preset("ollama").unwrap().provider(Some("llama3.2"), Some("http://127.0.0.1:41234/v1"), None).unwrap(),
            "ollama",
        ),
        (preset("lmstudio").unwrap().provider(Some("qwen"), None, None).unwrap(), "lmstudio"),
        (Provider::new(WireFormat::OpenAi, "http://localhost:11434/v1", "llama3.2"), "ollama"),
        (Provider::new(WireFormat::OpenAi, "http://127.0.0.1:41234/v1", "llama3.2"), "OpenAI-compatible"),
    ];
    for (provider, name) in cases {
        assert_eq!(provider.site().provider, name, "{}", provider.base_url);
    }
}

#[tokio::test]
async fn ollama_whole_call_in_one_chunk_without_index_and_stop() {
    check(
        "ollama",
        "one chunk per call, no index, finish_reason stop",
        vec![
            chunk(json!({"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_a", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"/a.csv\"}"}}]}), None),
            chunk(json!({"role": "assistant", "content": ""}), Some("stop")),
            done(),
        ],
        &[("call_a", "read_file", json!({"path": "/a.csv"}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn ollama_parallel_calls_without_index_stay_apart() {
    check(
        "ollama",
        "two calls in one chunk, neither with an index",
        vec![
            chunk(
                json!({"tool_calls": [
                {"id": "call_a", "function": {"name": "read_file", "arguments": "{\"path\":\"/a\"}"}},
                {"id": "call_b", "function": {"name": "read_file", "arguments": "{\"path\":\"/b\"}"}}]}),
                None,
            ),
            chunk(json!({}), Some("stop")),
            done(),
        ],
        &[("call_a", "read_file", json!({"path": "/a"})), ("call_b", "read_file", json!({"path": "/b"}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn ollama_arguments_as_an_object() {
    check(
        "ollama",
        "arguments as a JSON object, not a string",
        vec![
            chunk(json!({"tool_calls": [{"id": "call_a", "index": 0, "function": {"name": "grep", "arguments": {"pattern": "Q3", "path": "/data"}}}]}), None),
            chunk(json!({}), Some("tool_calls")),
            done(),
        ],
        &[("call_a", "grep", json!({"pattern": "Q3", "path": "/data"}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn parallel_calls_that_all_say_index_zero_stay_apart() {
    check(
        "ollama",
        "two calls both at index 0, with different ids",
        vec![
            chunk(json!({"tool_calls": [{"id": "call_a", "index": 0, "function": {"name": "ls", "arguments": "{}"}}]}), None),
            chunk(json!({"tool_calls": [{"id": "call_b", "index": 0, "function": {"name": "ls", "arguments": "{\"path\":\"/out\"}"}}]}), None),
            chunk(json!({}), Some("stop")),
            done(),
        ],
        &[("call_a", "ls", json!({})), ("call_b", "ls", json!({"path": "/out"}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn lmstudio_repeats_the_id_and_an_empty_name_on_every_fragment() {
    check(
        "lmstudio",
        "id repeated with name \"\" on each argument fragment",
        vec![
            chunk(json!({"role": "assistant", "tool_calls": [{"index": 0, "id": "193629320", "type": "function", "function": {"name": "read_file", "arguments": ""}}]}), None),
            chunk(json!({"tool_calls": [{"index": 0, "id": "193629320", "type": "function", "function": {"name": "", "arguments": "{\"path\":"}}]}), None),
            chunk(json!({"tool_calls": [{"index": 0, "id": "193629320", "type": "function", "function": {"name": "", "arguments": "\"/a.csv\"}"}}]}), None),
            chunk(json!({}), Some("tool_calls")),
            done(),
        ],
        &[("193629320", "read_file", json!({"path": "/a.csv"}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn lmstudio_empty_id_gets_one_of_folios() {
    check(
        "lmstudio",
        "a call with an empty id",
        vec![
            chunk(json!({"content": null, "tool_calls": [{"index": 0, "id": "", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]}), None),
            chunk(json!({}), Some("tool_calls")),
            done(),
        ],
        &[("call_0", "ls", json!({}))],
        StopReason::ToolUse,
    )
    .await;
}

#[tokio::test]
async fn stop_without_calls_still_ends_the_turn() {
    check(
        "ollama",
        "plain text then stop",
        vec![chunk(json!({"content": "Done."}), None), chunk(json!({}), Some("stop")), done()],
        &[],
        StopReason::EndTurn,
    )
    .await;
}
