#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use folio_agent::{AgentEvent, FinishReason, Usage};

use crate::api::JobUnit;
use serde_json::json;

use super::*;

#[test]
fn verbs_fall_into_their_class() {
    let cases = [
        ("read_file", VerbClass::Read),
        ("ls", VerbClass::Read),
        ("grep", VerbClass::Read),
        ("view_image", VerbClass::Read),
        ("write_file", VerbClass::Write),
        ("edit_file", VerbClass::Write),
        ("rm", VerbClass::Write),
        ("undo", VerbClass::Write),
        ("run_script", VerbClass::Run),
        ("run_tests", VerbClass::Run),
        ("present", VerbClass::Present),
        ("ask_user", VerbClass::Ask),
    ];
    for (verb, class) in cases {
        assert_eq!(verb_class(verb), class, "{verb}");
    }
}

#[test]
fn summaries_put_what_the_call_is_about_in_one_line() {
    let long = "x".repeat(200);
    let cases = [
        ("write_file", json!({"path": "/scripts/a.js", "content": "export default 1"}), "/scripts/a.js".to_owned()),
        ("mv", json!({"from": "/a.md", "to": "/out/a.md"}), "/a.md → /out/a.md".to_owned()),
        ("grep", json!({"pattern": "total", "path": "/inbox"}), "total in /inbox".to_owned()),
        ("run_script", json!({"path": "/scripts/a.js", "args": {"n": 3}}), "/scripts/a.js {\"n\":3}".to_owned()),
        ("run_script", json!({"path": "/scripts/a.js", "args": {}}), "/scripts/a.js".to_owned()),
        ("present", json!({"path": "/out/c.png", "caption": "Chart"}), "/out/c.png — Chart".to_owned()),
        ("ask_user", json!({"question": "Which quarter?\nQ1 or Q2", "options": []}), "Which quarter?".to_owned()),
        ("checkpoint", json!({"name": "before"}), "name: before".to_owned()),
        ("undo", json!({}), String::new()),
        ("read_file", json!({"path": long}), format!("{}…", "x".repeat(90))),
    ];
    for (verb, input, want) in cases {
        assert_eq!(summary(verb, &input), want, "{verb} {input}");
    }
}

#[test]
fn a_missing_capability_is_recognised_in_a_failure() {
    let cases = [
        (
            "PDFium is not available on this host (tried …) — hint: run bash scripts/get-pdfium.sh",
            Some(MissingCapability::Pdfium),
        ),
        (
            "/in/a.docx needs LibreOffice to render, and none was found (…) — hint: apt-get install …",
            Some(MissingCapability::Libreoffice),
        ),
        ("Chromium was not found — hint: install chromium", Some(MissingCapability::Chromium)),
        ("ffmpeg is not installed — hint: apt-get install ffmpeg", Some(MissingCapability::Ffmpeg)),
        ("/out/a.pdf is damaged or not a PDF — hint: repair it", None),
        ("read_file: /missing.txt not found", None),
    ];
    for (text, want) in cases {
        assert_eq!(missing_capability(text), want, "{text}");
    }
}

#[test]
fn a_tool_call_finishes_with_its_arguments_assembled_from_the_fragments() {
    let mut m = Mapper::default();
    let started = m.map(&AgentEvent::ToolCallStarted { id: "t1".into(), name: "write_file".into() });
    assert_eq!(started, Some(N::ToolStarted { id: "t1".into(), name: "write_file".into(), class: VerbClass::Write }));
    for fragment in [r#"{"path": "/scri"#, r#"pts/a.js", "content""#, r#": "1"}"#] {
        m.map(&AgentEvent::ToolInputDelta { id: "t1".into(), fragment: fragment.into() });
    }
    let finished = m.map(&AgentEvent::ToolCallFinished {
        id: "t1".into(),
        name: "write_file".into(),
        status: folio_agent::ToolCallStatus::Success,
        output: "created /scripts/a.js (1B)".into(),
        duration_ms: 12,
    });
    let Some(N::ToolFinished { input, summary, status, missing, duration_ms, .. }) = finished else {
        panic!("not a finished row: {finished:?}")
    };
    assert_eq!(input, json!({"path": "/scripts/a.js", "content": "1"}));
    assert_eq!((summary.as_str(), status, missing, duration_ms), ("/scripts/a.js", ToolStatus::Success, None, 12));
}

#[test]
fn every_event_maps_to_its_notification() {
    let usage = Usage { input_tokens: 10, output_tokens: 5, cache_read_tokens: 30, cache_write_tokens: 0 };
    let cases = [
        (AgentEvent::TurnStarted { turn: 2 }, N::ModelCall { turn: 2 }),
        (AgentEvent::TextDelta { text: "Hi".into() }, N::Text { text: "Hi".into() }),
        (
            AgentEvent::ScriptProgress {
                run_id: "r1".into(),
                script: "/scripts/a.js".into(),
                stream: "stderr".into(),
                text: "oops".into(),
                job: None,
            },
            N::ToolProgress { script: "/scripts/a.js".into(), is_error: true, text: "oops".into(), job: None },
        ),
        (
            AgentEvent::ScriptProgress {
                run_id: "r1".into(),
                script: "/scripts/a.js".into(),
                stream: "stdout".into(),
                text: "env:render.rasterize /in/a.pdf: 12/300 pages, about 31 s left".into(),
                job: Some(folio_budget::JobProgress {
                    job: "env:render.rasterize /in/a.pdf".into(),
                    done: 12,
                    total: 300,
                    unit: folio_budget::Unit::Page,
                    eta_ms: Some(31_200),
                    elapsed_ms: 1_300,
                }),
            },
            N::ToolProgress {
                script: "/scripts/a.js".into(),
                is_error: false,
                text: "env:render.rasterize /in/a.pdf: 12/300 pages, about 31 s left".into(),
                job: Some(JobProgressNotice {
                    job: "env:render.rasterize /in/a.pdf".into(),
                    done: 12,
                    total: 300,
                    unit: JobUnit::Page,
                    units: "pages".into(),
                    eta_ms: Some(31_200),
                    elapsed_ms: 1_300,
                    left: Some("about 31 s left".into()),
                }),
            },
        ),
        (
            AgentEvent::Ask { id: 7, question: "Q?".into(), options: vec!["a".into()] },
            N::Ask { id: 7, question: "Q?".into(), options: vec!["a".into()] },
        ),
        (AgentEvent::OverlayChanged { pending: 3 }, N::Pending { count: 3 }),
        (
            AgentEvent::Usage { usage, context_window: 200_000, cost_usd: Some(0.01) },
            N::Usage { input_tokens: 40, output_tokens: 5, context_window: 200_000, cost_usd: Some(0.01) },
        ),
        (AgentEvent::MaxTurns { turns: 4 }, N::MaxTurns { turns: 4 }),
        (AgentEvent::Finished { reason: FinishReason::Cancelled }, N::Finished { end: TurnEnd::Stopped }),
        (AgentEvent::Finished { reason: FinishReason::MaxTurns }, N::Finished { end: TurnEnd::MaxTurns }),
        (
            AgentEvent::Error { message: "PDFium is not available on this host".into() },
            N::Error {
                message: "PDFium is not available on this host".into(),
                missing: Some(MissingCapability::Pdfium),
            },
        ),
    ];
    for (event, want) in cases {
        assert_eq!(Mapper::default().map(&event), Some(want), "{event:?}");
    }
}

#[test]
fn a_stored_transcript_replays_as_it_streamed() {
    let events = [
        AgentEvent::TurnStarted { turn: 1 },
        AgentEvent::TextDelta { text: "Done.".into() },
        AgentEvent::ToolCallStarted { id: "t1".into(), name: "ls".into() },
        AgentEvent::ToolInputDelta { id: "t1".into(), fragment: r#"{"path":"/out"}"#.into() },
        AgentEvent::ToolCallFinished {
            id: "t1".into(),
            name: "ls".into(),
            status: folio_agent::ToolCallStatus::Error,
            output: "no /out".into(),
            duration_ms: 1,
        },
        AgentEvent::Finished { reason: FinishReason::Done },
    ];
    let mut live = Mapper::default();
    let mut streamed = vec![N::User { text: "list /out".into() }];
    streamed.extend(events.iter().filter_map(|e| live.map(e)));
    let mut stored = vec![json!({"type": "user", "text": "list /out"}), json!({"type": "from_a_newer_folio"})];
    stored.extend(events.iter().map(|e| serde_json::to_value(e).unwrap()));
    let mut replay = Mapper::default();
    let replayed: Vec<N> = stored.iter().filter_map(|v| replay.replay(v)).collect();
    assert_eq!(replayed, streamed, "an unknown stored event is skipped, the rest replays identically");
}

/// A ledger entry is a "What was sent" row, live and replayed from its stored JSON alike.
#[test]
fn a_model_request_is_a_what_was_sent_row_live_and_replayed() {
    let stored = json!({"type": "model_request", "entry": {
    "turn": 2, "call": 1, "purpose": "turn", "attempt": 1, "provider": "ollama", "model": "m",
    "endpoint": "http://127.0.0.1:9/v1/chat/completions", "bodyBytes": 1234, "bodySha256": "ab12",
    "tools": ["read_file"],
    "items": [
        {"kind": "text", "role": "user", "text": "Which quarter led?"},
        {"kind": "toolResult", "id": "r1", "name": "read_file", "text": "q,total\nQ2,12", "isError": false,
         "sources": [{"path": "/sales.csv", "range": "lines 1–2"}]}
    ]}});
    let event: AgentEvent = serde_json::from_value(stored.clone()).unwrap();
    let live = Mapper::default().map(&event).unwrap();
    let replayed = Mapper::default().replay(&stored).unwrap();
    assert_eq!(live, replayed);
    let N::ModelRequest { request } = live else { panic!("not a row: {live:?}") };
    assert_eq!((request.turn, request.body_bytes, request.body_sha256.as_str()), (2, 1234, "ab12"));
    assert_eq!(request.items[0].preview, "Which quarter led?");
    assert_eq!(request.items[1].sources[0].path, "/sales.csv");
}
