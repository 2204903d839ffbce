//! ask_user through the loop: the question reaches the host as an event while the verb waits, the
//! host's answer goes back to the model, and Stop releases a question nobody answers.

use std::sync::Arc;
use std::time::{Duration, Instant};

use folio_agent::testing::{FakeServer, Reply, anthropic};
use folio_agent::{
    Agent, AgentConfig, AgentEvent, Conversation, EnvTools, FinishReason, HostEvents, Message, ModelClient, Provider,
    WireFormat,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn agent(server: &FakeServer, events: &HostEvents) -> Agent {
    let env = folio_env::Environment::new(
        Arc::new(folio_vfs::MemTree::new()),
        None,
        folio_env::EnvOptions { asker: Some(events.asker()), ..Default::default() },
    )
    .unwrap();
    Agent::new(
        ModelClient::new(Provider::new(WireFormat::Anthropic, server.base.clone(), "m")).unwrap(),
        Arc::new(EnvTools::new(Arc::new(env), events.clone())),
        AgentConfig::default(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_is_an_event_and_the_answer_reaches_the_model() {
    let server = FakeServer::start(vec![
        Reply::sse(anthropic(
            "",
            &[("a1", "ask_user", json!({"question": "Which quarter?", "options": ["Q1", "Q2"]}))],
            10,
        )),
        Reply::sse(anthropic("Using Q2.", &[], 10)),
    ])
    .await
    .unwrap();
    let events = HostEvents::default();
    let agent = agent(&server, &events);
    let mut asked = Vec::new();
    let reason = agent
        .run(&mut Conversation::default(), Some(Message::user("report")), &CancellationToken::new(), &mut |e| {
            if let AgentEvent::Ask { id, question, options } = &e {
                asked.push((question.clone(), options.clone()));
                assert!(events.answer(*id, Some("Q2".into())));
            }
        })
        .await
        .unwrap();
    assert_eq!(reason, FinishReason::Done);
    assert_eq!(asked, [("Which quarter?".to_owned(), vec!["Q1".to_owned(), "Q2".to_owned()])]);
    let sent = server.requests()[1].body.to_string();
    assert!(sent.contains("\"content\":\"Q2"), "the answer went back as the result");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_releases_an_unanswered_question() {
    let server = FakeServer::start(vec![Reply::sse(anthropic(
        "",
        &[("a1", "ask_user", json!({"question": "Which quarter?"}))],
        10,
    ))])
    .await
    .unwrap();
    let events = HostEvents::default();
    let agent = agent(&server, &events);
    let cancel = CancellationToken::new();
    let started = Instant::now();
    let mut cancelled_at = None;
    let reason = agent
        .run(&mut Conversation::default(), Some(Message::user("report")), &cancel, &mut |e| {
            if matches!(e, AgentEvent::Ask { .. }) {
                cancelled_at = Some(Instant::now());
                cancel.cancel();
            }
        })
        .await
        .unwrap();
    assert_eq!(reason, FinishReason::Cancelled);
    assert!(cancelled_at.unwrap().elapsed() < Duration::from_millis(200));
    assert!(started.elapsed() < Duration::from_secs(5));
    // The waiting verb is released (by the cancel watcher, right after Stop): no question is left
    // hanging.
    let deadline = Instant::now() + Duration::from_secs(2);
    while events.waiting_questions() > 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(events.waiting_questions(), 0);
}
