//! The loop over a fake provider and a small in-memory tool set: a multi-turn task with a fix,
//! cancel mid-stream and mid-tool, compaction by a small window, and the turn limit.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_agent::{
    Agent, AgentConfig, AgentEvent, BoxFuture, Conversation, FinishReason, Message, ModelClient, Part, Provider,
    ToolDef, ToolOutcome, Tools, WireFormat,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use folio_agent::testing::{Chunk, FakeServer, Reply, anthropic, openai};

/// A tiny environment: files in a map, a "script" that fails while its text says `bug`, and a
/// run that never finishes when its text says `forever` (until cancelled).
#[derive(Default)]
struct Desk {
    files: Mutex<BTreeMap<String, String>>,
    presented: Mutex<Vec<String>>,
}

impl Tools for Desk {
    fn definitions(&self) -> Vec<ToolDef> {
        ["write_file", "run_script", "present"]
            .iter()
            .map(|n| ToolDef {
                name: (*n).into(),
                description: format!("{n} verb"),
                input_schema: json!({"type": "object"}),
            })
            .collect()
    }

    fn call<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, ToolOutcome> {
        Box::pin(async move {
            let path = input["path"].as_str().unwrap_or_default().to_owned();
            match name {
                "write_file" => {
                    let content = input["content"].as_str().unwrap_or_default().to_owned();
                    self.files.lock().unwrap().insert(path.clone(), content);
                    ToolOutcome::text(true, format!("wrote {path}"))
                }
                "run_script" => {
                    let text = self.files.lock().unwrap().get(&path).cloned().unwrap_or_default();
                    if text.contains("forever") {
                        cancel.cancelled().await;
                        return ToolOutcome::text(false, "run cancelled");
                    }
                    if text.contains("bug") {
                        ToolOutcome::text(
                            false,
                            "ReferenceError: totl is not defined\n    at default (/scripts/sum.js:3:10)",
                        )
                    } else {
                        ToolOutcome::text(true, "result: {\"total\": 30}")
                    }
                }
                "present" => {
                    self.presented.lock().unwrap().push(path.clone());
                    ToolOutcome::text(true, format!("presented {path}"))
                }
                other => ToolOutcome::text(false, format!("no tool named {other}")),
            }
        })
    }

    fn facts(&self) -> String {
        let files = self.files.lock().unwrap();
        format!("files: {}", files.keys().cloned().collect::<Vec<_>>().join(", "))
    }
}

fn provider(format: WireFormat, base: &str) -> Provider {
    let base = if format == WireFormat::OpenAi { format!("{base}/v1") } else { base.to_owned() };
    Provider { initial_backoff_ms: 10, ..Provider::new(format, base, "test-model") }
}

fn turn(format: WireFormat, text: &str, tools: &[(&str, &str, Value)], prompt: u64) -> Reply {
    Reply::sse(match format {
        WireFormat::Anthropic => anthropic(text, tools, prompt),
        WireFormat::OpenAi => openai(text, tools, prompt),
    })
}

async fn run(
    agent: &Agent,
    conversation: &mut Conversation,
    input: Option<Message>,
    cancel: &CancellationToken,
) -> (FinishReason, Vec<AgentEvent>) {
    let mut events = Vec::new();
    let reason = agent.run(conversation, input, cancel, &mut |e| events.push(e)).await.unwrap();
    (reason, events)
}

#[tokio::test]
async fn a_multi_turn_task_with_a_fix_ends_in_a_presented_file() {
    for format in [WireFormat::Anthropic, WireFormat::OpenAi] {
        let replies = vec![
            turn(
                format,
                "I'll write a script.",
                &[("t1", "write_file", json!({"path": "/scripts/sum.js", "content": "bug"}))],
                100,
            ),
            turn(format, "", &[("t2", "run_script", json!({"path": "/scripts/sum.js"}))], 200),
            turn(
                format,
                "A typo; fixing.",
                &[("t3", "write_file", json!({"path": "/scripts/sum.js", "content": "fixed"}))],
                300,
            ),
            turn(format, "", &[("t4", "run_script", json!({"path": "/scripts/sum.js"}))], 400),
            turn(
                format,
                "",
                &[
                    ("t5", "write_file", json!({"path": "/out/summary.csv", "content": "total\n30\n"})),
                    ("t6", "present", json!({"path": "/out/summary.csv", "caption": "Totals"})),
                ],
                500,
            ),
            turn(format, "The summary is in /out/summary.csv.", &[], 600),
        ];
        let server = FakeServer::start(replies).await.unwrap();
        let desk = Arc::new(Desk::default());
        let agent = Agent::new(
            ModelClient::new(provider(format, &server.base)).unwrap(),
            desk.clone(),
            AgentConfig { system: "You are an analyst.".into(), ..AgentConfig::default() },
        );
        let mut conversation = Conversation::default();
        let (reason, events) =
            run(&agent, &mut conversation, Some(Message::user("Total the sales")), &CancellationToken::new()).await;
        assert_eq!(reason, FinishReason::Done, "{format:?}");
        assert_eq!(desk.presented.lock().unwrap().as_slice(), ["/out/summary.csv"]);
        assert_eq!(desk.files.lock().unwrap()["/scripts/sum.js"], "fixed");
        assert_eq!(conversation.messages.len(), 1 + 6 + 5, "{format:?}");
        assert_eq!(conversation.messages.last().unwrap().text(), "The summary is in /out/summary.csv.");

        // The failed run went back to the model with its full story.
        let third = &server.requests()[2];
        let sent = third.body.to_string();
        assert!(sent.contains("ReferenceError: totl is not defined"), "{format:?}: {sent}");
        if format == WireFormat::Anthropic {
            let last = &third.body["messages"].as_array().unwrap().last().unwrap()["content"][0];
            assert_eq!(last["is_error"], true);
        }
        let finished: Vec<(String, String)> = events
            .iter()
            .filter_map(|e| match e {
                AgentEvent::ToolCallFinished { name, status, .. } => Some((name.clone(), status.name().to_owned())),
                _ => None,
            })
            .collect();
        assert_eq!(finished.len(), 6);
        assert_eq!(finished[1], ("run_script".to_owned(), "error".to_owned()));
        assert!(
            events.iter().any(|e| matches!(e, AgentEvent::ToolInputDelta { id, .. } if id == "t1")),
            "arguments stream"
        );
        assert!(matches!(events.last(), Some(AgentEvent::Finished { reason: FinishReason::Done })));
    }
}

#[tokio::test]
async fn stop_during_a_script_ends_the_turn_within_200ms_and_heals_history() {
    let server = FakeServer::start(vec![
        turn(
            WireFormat::Anthropic,
            "",
            &[("t1", "write_file", json!({"path": "/scripts/loop.js", "content": "forever"}))],
            10,
        ),
        turn(WireFormat::Anthropic, "", &[("t2", "run_script", json!({"path": "/scripts/loop.js"}))], 10),
        turn(WireFormat::Anthropic, "Understood.", &[], 10),
    ])
    .await
    .unwrap();
    let agent = Agent::new(
        ModelClient::new(provider(WireFormat::Anthropic, &server.base)).unwrap(),
        Arc::new(Desk::default()),
        AgentConfig::default(),
    );
    let mut conversation = Conversation::default();
    let cancel = CancellationToken::new();
    let mut events = Vec::new();
    let cancelled_at: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mut stopped_after = None;
    let reason = agent
        .run(&mut conversation, Some(Message::user("loop")), &cancel, &mut |e| {
            if matches!(&e, AgentEvent::ToolCallStarted { name, .. } if name == "run_script") {
                let (c, at) = (cancel.clone(), cancelled_at.clone());
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    *at.lock().unwrap() = Some(Instant::now());
                    c.cancel();
                });
            }
            if matches!(e, AgentEvent::Finished { .. }) {
                stopped_after = cancelled_at.lock().unwrap().map(|at| at.elapsed());
            }
            events.push(e);
        })
        .await
        .unwrap();
    assert_eq!(reason, FinishReason::Cancelled);
    assert!(
        events.iter().any(|e| matches!(e, AgentEvent::ToolCallFinished { status, .. } if status.name() == "aborted"))
    );
    let last = conversation.messages.last().unwrap();
    assert!(matches!(&last.parts[0], Part::ToolResult { is_error: true, .. }), "{last:?}");
    let stopped_after = stopped_after.expect("the run finished after the cancel");
    assert!(stopped_after < Duration::from_millis(200), "stop took {stopped_after:?}");
    // The next message goes through; history is valid for the provider.
    let (reason, _) =
        run(&agent, &mut conversation, Some(Message::user("never mind")), &CancellationToken::new()).await;
    assert_eq!(reason, FinishReason::Done);
}

#[tokio::test]
async fn stop_during_the_model_stream_ends_the_turn() {
    let mut chunks = openai("thinking about it", &[], 10);
    chunks.insert(2, Chunk::Pause(10_000));
    let server = FakeServer::start(vec![Reply::sse(chunks)]).await.unwrap();
    let agent = Agent::new(
        ModelClient::new(provider(WireFormat::OpenAi, &server.base)).unwrap(),
        Arc::new(Desk::default()),
        AgentConfig::default(),
    );
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let (reason, _) = run(&agent, &mut Conversation::default(), Some(Message::user("hi")), &cancel).await;
    assert_eq!(reason, FinishReason::Cancelled);
    assert!(started.elapsed() < Duration::from_millis(100 + 200), "{:?}", started.elapsed());
}

#[tokio::test]
async fn a_small_window_compacts_history_without_streaming_the_summary() {
    let server = FakeServer::start(vec![
        turn(WireFormat::Anthropic, "", &[("t1", "write_file", json!({"path": "/out/a.csv", "content": "1"}))], 900),
        turn(WireFormat::Anthropic, "SUMMARY: wrote /out/a.csv", &[], 50),
        turn(WireFormat::Anthropic, "Done: /out/a.csv.", &[], 100),
    ])
    .await
    .unwrap();
    let p = Provider { context_window: 1000, ..provider(WireFormat::Anthropic, &server.base) };
    let agent = Agent::new(ModelClient::new(p).unwrap(), Arc::new(Desk::default()), AgentConfig::default());
    let mut conversation = Conversation::default();
    let (reason, events) =
        run(&agent, &mut conversation, Some(Message::user("Make a.csv")), &CancellationToken::new()).await;
    assert_eq!(reason, FinishReason::Done);
    assert!(events.iter().any(|e| matches!(e, AgentEvent::Compacted { prompt_tokens: 900, .. })), "{events:?}");
    let streamed: String = events
        .iter()
        .filter_map(|e| match e {
            AgentEvent::TextDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!streamed.contains("SUMMARY"), "the summary is not the agent's reply: {streamed}");
    let requests = server.requests();
    assert!(requests[1].body.get("tools").is_none(), "the summary call offers no tools");
    // The compaction is its own request: one user message saying what triggered it, with the
    // work so far as a transcript — not an instruction glued to a turn of tool results.
    let asked = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let text = asked[0]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{}", asked[0]));
    assert!(
        text.starts_with(
            "[Compaction] The last request's prompt was 900 tokens, 90% of this model's 1000-token context window"
        ),
        "{text}"
    );
    assert!(text.contains("PERSON: Make a.csv") && text.contains("YOU CALLED write_file"), "{text}");
    assert!(!requests[1].body.to_string().contains("tool_result"), "no tool_result block in the summary call");
    let after = requests[2].body["messages"][0]["content"][0]["text"].as_str().unwrap();
    assert!(after.contains("SUMMARY: wrote /out/a.csv"), "{after}");
    assert!(after.contains("[What the person asked, verbatim]\nMake a.csv"), "{after}");
    assert!(after.contains("files: /out/a.csv"), "the environment's facts survive: {after}");
    assert_eq!(requests[2].body["messages"].as_array().unwrap().len(), 1, "the model sees history from the summary on");
    assert_eq!(conversation.messages.len(), 5, "the store keeps everything: ask, call, results, summary, answer");
}

#[tokio::test]
async fn the_turn_limit_is_visible_and_the_run_can_continue() {
    let call =
        |id: &str| turn(WireFormat::OpenAi, "", &[(id, "write_file", json!({"path": "/tmp/x", "content": id}))], 10);
    let server =
        FakeServer::start(vec![call("a"), call("b"), turn(WireFormat::OpenAi, "finished", &[], 10)]).await.unwrap();
    let agent = Agent::new(
        ModelClient::new(provider(WireFormat::OpenAi, &server.base)).unwrap(),
        Arc::new(Desk::default()),
        AgentConfig { max_turns: 2, ..AgentConfig::default() },
    );
    let mut conversation = Conversation::default();
    let (reason, events) = run(&agent, &mut conversation, Some(Message::user("go")), &CancellationToken::new()).await;
    assert_eq!(reason, FinishReason::MaxTurns);
    assert!(events.iter().any(|e| matches!(e, AgentEvent::MaxTurns { turns: 2 })));
    let (reason, _) = run(&agent, &mut conversation, None, &CancellationToken::new()).await;
    assert_eq!(reason, FinishReason::Done);
    assert_eq!(conversation.messages.last().unwrap().text(), "finished");
}
