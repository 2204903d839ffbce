//! Test connection: one minimal real request against the fake provider, its outcome named.

use folio_agent::testing::{FakeServer, Reply, anthropic, openai};
use folio_agent::{ConnectionOutcome, Provider, WireFormat, test_connection};

struct Case {
    what: &'static str,
    format: WireFormat,
    reply: Option<Reply>,
    outcome: ConnectionOutcome,
    says: &'static str,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_outcome_is_reported_by_name() {
    let cases = vec![
        Case {
            what: "anthropic answers",
            format: WireFormat::Anthropic,
            reply: Some(Reply::sse(anthropic("ok", &[], 5))),
            outcome: ConnectionOutcome::Ok,
            says: "ok — probe-model answered in",
        },
        Case {
            what: "openai answers",
            format: WireFormat::OpenAi,
            reply: Some(Reply::sse(openai("ok", &[], 5))),
            outcome: ConnectionOutcome::Ok,
            says: "ok — probe-model answered in",
        },
        Case {
            what: "bad key",
            format: WireFormat::Anthropic,
            reply: Some(Reply::status(401, r#"{"error":{"message":"invalid x-api-key"}}"#)),
            outcome: ConnectionOutcome::Unauthorised,
            says: "unauthorised: the model provider at",
        },
        Case {
            what: "wrong model",
            format: WireFormat::OpenAi,
            reply: Some(Reply::status(404, r#"{"error":{"message":"model not found"}}"#)),
            outcome: ConnectionOutcome::NotFound,
            says: "not found:",
        },
        Case {
            what: "rate limit (not retried by the probe)",
            format: WireFormat::OpenAi,
            reply: Some(Reply::status(429, r#"{"error":{"message":"slow down"}}"#)),
            outcome: ConnectionOutcome::RateLimited,
            says: "rate-limited:",
        },
        Case {
            what: "nothing listens",
            format: WireFormat::OpenAi,
            reply: None,
            outcome: ConnectionOutcome::Unreachable,
            says: "unreachable: cannot reach the model provider",
        },
    ];
    for case in cases {
        let (base, server) = match case.reply {
            Some(reply) => {
                let server = FakeServer::start(vec![reply]).await.unwrap();
                (server.base.clone(), Some(server))
            }
            None => {
                // A port that was free a moment ago: nothing answers there.
                let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
                (format!("http://127.0.0.1:{port}"), None)
            }
        };
        let mut provider = Provider::new(case.format, base, "probe-model");
        provider.api_key = Some("k".into());
        let report = test_connection(&provider).await;
        assert_eq!(report.outcome, case.outcome, "{}: {}", case.what, report.message);
        assert!(report.message.starts_with(case.says), "{}: {}", case.what, report.message);
        assert_eq!(report.model, "probe-model");
        if let Some(server) = server {
            let sent = server.requests();
            assert_eq!(sent.len(), 1, "{}: one request, no retries", case.what);
            assert_eq!(
                sent[0].body["max_tokens"].as_u64().or(sent[0].body["max_completion_tokens"].as_u64()),
                Some(16)
            );
        }
    }
}
