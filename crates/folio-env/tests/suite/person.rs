//! present and ask_user: absent until wired, validated, and honest about failures.

use std::sync::{Arc, Mutex};

use folio_env::{Answers, Asker, EnvOptions, Presented, Presenter};
use serde_json::json;

use super::Expect::{Err, Ok};
use super::{check, env, env_with, err, ok, put};

#[derive(Default)]
struct Inbox(Mutex<Vec<Presented>>);
impl Presenter for Inbox {
    fn present(&self, item: &Presented) -> Result<(), String> {
        self.0.lock().unwrap().push(item.clone());
        Result::Ok(())
    }
}
struct Broken;
impl Presenter for Broken {
    fn present(&self, _: &Presented) -> Result<(), String> {
        Result::Err("the viewer is offline".into())
    }
}
impl Asker for Broken {
    fn ask(&self, _: &str, _: &[String]) -> Result<Option<String>, String> {
        Result::Err("the chat window is closed".into())
    }
}

fn names(env: &folio_env::Environment) -> Vec<&'static str> {
    env.tools().iter().map(|t| t.name).collect()
}

#[test]
fn host_verbs_are_absent_until_wired() {
    let env = env();
    let tools = names(&env);
    assert_eq!(
        tools,
        [
            "write_file",
            "edit_file",
            "rm",
            "mv",
            "cp",
            "read_file",
            "ls",
            "grep",
            "describe",
            "run_script",
            "run_tests",
            "undo",
            "redo",
            "checkpoint",
            "diff",
            "history"
        ]
    );
    assert!(err(&env, "present", json!({"path": "/out/a", "caption": "c"})).contains("no verb named \"present\""));
    assert!(super::read(&env, "/skills/delivering.md").is_none() && super::read(&env, "/skills/asking.md").is_none());
    assert!(!folio_env::preamble(&env).contains("ask_user"));
    for t in env.tools() {
        assert_eq!(t.schema["type"], "object", "{}", t.name);
        assert_eq!(t.schema["additionalProperties"], false, "{}", t.name);
        assert!(!t.description.is_empty());
    }
    let write = env.tools().into_iter().find(|t| t.name == "write_file").unwrap();
    assert_eq!(write.schema["required"], json!(["path", "content"]));
}

#[test]
fn present_delivers_files_under_out_with_media_types() {
    let inbox = Arc::new(Inbox::default());
    let env = env_with(EnvOptions { presenter: Some(inbox.clone()), ..Default::default() });
    assert!(names(&env).contains(&"present"));
    assert!(super::read(&env, "/skills/delivering.md").unwrap().contains("present({ path: '/out/"));
    assert!(super::read(&env, "/skills/README.md").unwrap().contains("/skills/delivering.md"));
    for (name, want) in [
        ("report.pdf", "application/pdf"),
        ("deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
        ("data.csv", "text/csv"),
        ("notes.md", "text/markdown"),
        ("PIC.PNG", "image/png"),
        ("clip.mp4", "video/mp4"),
        ("clip.webm", "video/webm"),
        ("clip.mov", "video/quicktime"),
        ("clip.mkv", "video/x-matroska"),
        ("anim.gif", "image/gif"),
        ("song.mp3", "audio/mpeg"),
        ("odd.wat", "application/octet-stream"),
    ] {
        put(&env, &format!("/out/{name}"), "plain text bytes");
        ok(&env, "present", json!({"path": format!("/out/{name}"), "caption": "c"}));
        assert_eq!(inbox.0.lock().unwrap().last().unwrap().media_type, want, "{name}");
    }
    folio_vfs::Tree::write(env.tree(), &super::p("/out/noext"), b"\x89PNG\r\n\x1a\n..").unwrap();
    ok(&env, "present", json!({"path": "/out/noext", "caption": "c"}));
    assert_eq!(inbox.0.lock().unwrap().last().unwrap().media_type, "image/png");
    let before = inbox.0.lock().unwrap().len();
    put(&env, "/inbox/r.pdf", "x");
    put(&env, "/output/r.pdf", "x");
    check(
        &env,
        &[
            (
                "present",
                json!({"path": "/out/report.pdf", "caption": "  Q2 revenue.  "}),
                Ok(&["presented report.pdf (16B) — Q2 revenue."]),
            ),
            (
                "present",
                json!({"path": "/inbox/r.pdf", "caption": "c"}),
                Err(&["only works on files under /out", "cp /inbox/r.pdf /out/r.pdf"]),
            ),
            ("present", json!({"path": "/output/r.pdf", "caption": "c"}), Err(&["only works on files under /out"])),
            ("present", json!({"path": "/out/missing.pdf", "caption": "c"}), Err(&["no such file"])),
            ("present", json!({"path": "/out", "caption": "c"}), Err(&["is a directory"])),
            ("present", json!({"path": "/out/report.pdf", "caption": "   "}), Err(&["caption", "Example:"])),
            ("present", json!({"path": "/out/report.pdf"}), Err(&["missing field `caption`"])),
        ],
    );
    let got = inbox.0.lock().unwrap();
    assert_eq!(got.len(), before + 1);
    let last = got.last().unwrap();
    assert_eq!(
        (last.name.as_str(), last.caption.as_str(), last.bytes.as_slice()),
        ("report.pdf", "Q2 revenue.", &b"plain text bytes"[..])
    );

    let env = env_with(EnvOptions { presenter: Some(Arc::new(Broken)), ..Default::default() });
    put(&env, "/out/a.txt", "a");
    assert!(err(&env, "present", json!({"path": "/out/a.txt", "caption": "c"})).contains("the viewer is offline"));
}

#[test]
fn ask_user_returns_trimmed_answers_and_reports_silence() {
    let env = env_with(EnvOptions {
        asker: Some(Arc::new(Answers::new(vec!["  Q2 (512 rows)  ".into(), "   ".into()]))),
        ..Default::default()
    });
    assert!(names(&env).contains(&"ask_user"));
    assert!(folio_env::preamble(&env).contains("ask_user(question, options)"));
    assert!(super::read(&env, "/skills/asking.md").is_some());
    let r = env.call("ask_user", json!({"question": "Which quarter?", "options": ["Q1", " ", "Q2"]}));
    assert_eq!((r.message.as_str(), r.data["answer"].as_str()), ("Q2 (512 rows)", Some("Q2 (512 rows)")));
    check(
        &env,
        &[
            ("ask_user", json!({"question": "Again?"}), Err(&["did not respond", "assumption"])),
            ("ask_user", json!({"question": "Out of answers?"}), Err(&["did not respond"])),
            ("ask_user", json!({"question": "  "}), Err(&["non-empty string"])),
            ("ask_user", json!({"question": "x", "options": "Q1"}), Err(&["options", "sequence"])),
        ],
    );
    let env = env_with(EnvOptions { asker: Some(Arc::new(Broken)), ..Default::default() });
    assert!(err(&env, "ask_user", json!({"question": "x"})).contains("the chat window is closed"));
}

/// Records what the host was asked, and answers with a fixed text.
#[derive(Default)]
struct Recorder(Mutex<Vec<(String, Vec<String>)>>);
impl Asker for Recorder {
    fn ask(&self, question: &str, options: &[String]) -> Result<Option<String>, String> {
        self.0.lock().unwrap().push((question.to_owned(), options.to_vec()));
        Result::Ok(Some("yes".into()))
    }
}

#[test]
fn ask_user_passes_the_question_and_cleaned_options_to_the_host() {
    let rec = Arc::new(Recorder::default());
    let env = env_with(EnvOptions { asker: Some(rec.clone()), ..Default::default() });
    check(
        &env,
        &[
            ("ask_user", json!({"question": "  Which quarter?  ", "options": [" Q1 ", "", "Q2"]}), Ok(&["yes"])),
            ("ask_user", json!({"question": "Proceed?", "options": ["  ", ""]}), Ok(&["yes"])),
            ("ask_user", json!({}), Err(&["question"])),
            ("ask_user", json!({"question": 3}), Err(&["ask_user { question"])),
        ],
    );
    let got = rec.0.lock().unwrap();
    assert_eq!(got[0], ("Which quarter?".to_owned(), vec!["Q1".to_owned(), "Q2".to_owned()]));
    assert_eq!(got[1], ("Proceed?".to_owned(), vec![]), "options that trim to nothing are treated as absent");
    assert_eq!(got.len(), 2, "invalid calls never reach the host");
}

#[test]
fn present_media_types_cover_the_documented_extensions() {
    let inbox = Arc::new(Inbox::default());
    let env = env_with(EnvOptions { presenter: Some(inbox.clone()), ..Default::default() });
    for (name, want) in [
        ("book.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
        ("memo.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
        ("notes.txt", "text/plain"),
        ("data.json", "application/json"),
        ("page.html", "text/html"),
        ("feed.xml", "application/xml"),
        ("bundle.zip", "application/zip"),
        ("bundle.tar", "application/x-tar"),
        ("bundle.gz", "application/gzip"),
        ("photo.jpg", "image/jpeg"),
        ("photo.JPEG", "image/jpeg"),
        ("photo.webp", "image/webp"),
        ("logo.svg", "image/svg+xml"),
        ("voice.wav", "audio/wav"),
        ("voice.m4a", "audio/mp4"),
        ("voice.ogg", "audio/ogg"),
        // Office Writer files, unknown to this table before the workspace had one.
        ("old.doc", "application/msword"),
        ("memo.rtf", "application/rtf"),
    ] {
        put(&env, &format!("/out/{name}"), "bytes");
        ok(&env, "present", json!({"path": format!("/out/{name}"), "caption": "c"}));
        assert_eq!(inbox.0.lock().unwrap().last().unwrap().media_type, want, "{name}");
    }
    check(&env, &[("present", json!({"path": 1, "caption": "c"}), Err(&["present { path, caption }"]))]);
}
