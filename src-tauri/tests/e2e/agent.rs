//! A full agent turn in the real window against the fake provider: Settings filled in through the
//! UI (Test connection makes a real request to it), streaming text, tool rows, a script written
//! and run, a presented PNG that loads, a presented mp4 and webm that really play, a question
//! answered by clicking an option; then a second turn whose endless script Stop ends; the
//! transcript replayed from the store after a reload; the Doctor.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use fantoccini::Locator;
use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::json;

use crate::harness::{App, enabled};

/// The script the agent writes: copies the fixture's chart and clips into /out.
const COPY: &str = "/** Copies the chart and the two clips into /out. */\nimport * as fs from 'env:fs';\nexport default async function main() {\n  for (const name of ['chart.png', 'clip.mp4', 'clip.webm']) {\n    await fs.cp('/media/' + name, '/out/' + name);\n    console.log('copied ' + name);\n  }\n  return 'copied 3 files';\n}\n";

/// The script of the second turn: counts forever, yielding between lines.
const SPIN: &str = "/** Counts until stopped. */\nexport default async function main() {\n  let i = 0;\n  for (;;) {\n    i++;\n    if (i % 5000 === 0) console.log('tick ' + i);\n    await Promise.resolve();\n  }\n}\n";

fn ffmpeg(dir: &Path, args: &[&str], out: &str) {
    let status = Command::new("ffmpeg")
        .args(["-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .arg(dir.join(out))
        .status()
        .expect("ffmpeg is missing — run scripts/install.sh");
    assert!(status.success(), "ffmpeg could not make {out}");
}

/// A folder with a sales table and, under /media, a PNG, an H.264 mp4 and a VP8 webm.
fn fill(dir: &Path) {
    let media = dir.join("media");
    std::fs::create_dir_all(&media).unwrap();
    std::fs::write(dir.join("sales.csv"), "quarter,total\nQ1,10\nQ2,12\n").unwrap();
    let src = ["-f", "lavfi", "-i", "testsrc=duration=4:size=320x240:rate=25"];
    ffmpeg(&media, &["-f", "lavfi", "-i", "testsrc=size=320x240", "-frames:v", "1"], "chart.png");
    ffmpeg(&media, &[&src[..], &["-c:v", "libx264", "-pix_fmt", "yuv420p"]].concat(), "clip.mp4");
    ffmpeg(&media, &[&src[..], &["-c:v", "libvpx", "-b:v", "400k"]].concat(), "clip.webm");
}

fn replies() -> Vec<Reply> {
    vec![
        // Test connection.
        Reply::sse(openai("ok", &[], 5)),
        // Turn 1.
        Reply::sse(openai(
            "Let me copy the chart and the clips into **/out** first.",
            &[("w1", "write_file", json!({"path": "/scripts/copy.js", "content": COPY}))],
            900,
        )),
        Reply::sse(openai("", &[("r1", "run_script", json!({"path": "/scripts/copy.js"}))], 1000)),
        Reply::sse(openai("", &[("p1", "present", json!({"path": "/out/chart.png", "caption": "The chart"}))], 1100)),
        Reply::sse(openai(
            "",
            &[
                ("p2", "present", json!({"path": "/out/clip.mp4", "caption": "The clip (H.264)"})),
                ("p3", "present", json!({"path": "/out/clip.webm", "caption": "The clip (WebM)"})),
            ],
            1200,
        )),
        Reply::sse(openai(
            "",
            &[(
                "a1",
                "ask_user",
                json!({"question": "Which format should the report use?", "options": ["PDF", "Markdown"]}),
            )],
            1300,
        )),
        Reply::sse(openai("Done — the report will be **Markdown**. Everything is pending for your review.", &[], 1400)),
        // Turn 2.
        Reply::sse(openai(
            "Counting.",
            &[("w2", "write_file", json!({"path": "/scripts/spin.js", "content": SPIN}))],
            1500,
        )),
        Reply::sse(openai("", &[("r2", "run_script", json!({"path": "/scripts/spin.js"}))], 1600)),
    ]
}

/// Reloads the page; the old document is emptied first so no wait can match it.
async fn reload(app: &App) {
    // The reload is queued so this command returns before the page unloads; the waits that follow
    // retry through the unload.
    app.js("document.body.innerHTML = ''; setTimeout(() => location.reload(), 0); return true;").await;
}

async fn type_into(app: &App, css: &str, text: &str) {
    let el = app.c.find(Locator::Css(css)).await.unwrap();
    el.clear().await.unwrap();
    el.send_keys(text).await.unwrap();
}

/// Polls `script` (which returns a JSON value) until `done` accepts it.
async fn poll(app: &App, what: &str, script: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = serde_json::Value::Null;
    while Instant::now() < deadline {
        last = app.js(script).await;
        if done(&last) {
            return last;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("{what}: never happened; last {last}");
}

/// Asserts that the hand-off's video really plays: muted, play(), `readyState >= 2` and
/// `currentTime` advancing.
async fn assert_plays(app: &App, path: &str) {
    let find = format!("const v = document.querySelector(\".handoff[data-path='{path}'] video\");");
    poll(app, &format!("the <video> of {path}"), &format!("{find} return v ? v.readyState : -1;"), |v| {
        v.as_i64().unwrap_or(-1) >= 2
    })
    .await;
    app.js(&format!("{find} v.muted = true; v.play(); return true;")).await;
    let first = poll(app, &format!("{path} playing"), &format!("{find} return v.currentTime;"), |t| {
        t.as_f64().unwrap_or(0.0) > 0.0
    })
    .await;
    let later = poll(app, &format!("{path} advancing"), &format!("{find} return v.currentTime;"), |t| {
        t.as_f64().unwrap_or(0.0) > first.as_f64().unwrap_or(0.0) + 0.3
    })
    .await;
    let state = app.js(&format!("{find} return [v.readyState, v.paused, v.error && v.error.code];")).await;
    assert!(state[0].as_i64().unwrap() >= 2, "{path}: {state}");
    eprintln!("{path}: currentTime {first} → {later}, state {state}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_agent_turn_then_stop_in_the_real_window() {
    if !enabled() {
        return;
    }
    let server = FakeServer::start(replies()).await.unwrap();
    // The fake key must never reach a developer's real keychain: only the key file is used.
    let app = App::start(fill, &[("FOLIO_NO_KEYCHAIN", "1")]).await;
    app.wait_for("#composer").await;
    app.shot("agent-0-empty.png").await;

    // Settings, filled in through the dialog; Test connection reaches the fake provider.
    app.click("#open-settings").await;
    app.wait_for("#settings-provider").await;
    app.c.find(Locator::Css("#settings-provider")).await.unwrap().select_by_value("openai").await.unwrap();
    type_into(&app, "#settings-model", "fake-model").await;
    type_into(&app, "#settings-base-url", &format!("{}/v1", server.base)).await;
    type_into(&app, "#settings-key", "sk-e2e").await;
    app.click("#settings-test").await;
    app.wait_text("#connection-result", "ok — fake-model answered in").await;
    app.shot("agent-1-settings-tested.png").await;
    app.click("#settings-save").await;
    poll(&app, "the dialog closing", "return document.querySelector('#settings') === null;", |v| v == &json!(true))
        .await;
    let sent = server.requests();
    assert_eq!(sent[0].header("authorization"), Some("Bearer sk-e2e"), "the typed key was tested");

    // The saved key's home is named: here the owner-only key file in the state directory (as
    // under Xvfb, where no Secret Service runs), which the dialog says.
    app.click("#open-settings").await;
    let placeholder = poll(
        &app,
        "the saved key's placeholder",
        "const k = document.querySelector('#settings-key'); return k ? k.placeholder : '';",
        |p| p.as_str().is_some_and(|p| p.starts_with("saved — in")),
    )
    .await;
    assert!(app.state.path().join("keys.json").exists(), "the key went to the key file");
    assert!(placeholder.as_str().unwrap().contains("no OS keychain runs here"), "{placeholder}");
    app.shot("agent-1b-settings-saved.png").await;
    app.click("#settings .modal-actions button.secondary:not(#settings-test)").await;

    // The request: streaming text, the script filling in, tool rows.
    type_into(&app, "#composer", "Put the chart and the clips in /out and ask me about the report format").await;
    app.click("#send").await;
    app.wait_text(".msg-user", "Put the chart").await;
    app.wait_text(".msg-text", "Let me copy the chart").await;
    app.wait_for(".tool-row[data-name='write_file'][data-status='success']").await;
    app.wait_for(".tool-row[data-name='run_script'][data-status='success']").await;
    app.shot("agent-2-streaming-and-tools.png").await;

    // The question: click an option; the turn continues with the answer.
    app.wait_for(".ask-card.live button[data-option='Markdown']").await;
    app.shot("agent-3-question.png").await;
    app.click(".ask-card.live button[data-option='Markdown']").await;
    app.wait_text(".ask-card.done", "Answered: Markdown").await;
    app.wait_for(".turn-end[data-end='done']").await;
    let said: String = app
        .js("return [...document.querySelectorAll('.msg-text')].map(e => e.textContent).join(' ');")
        .await
        .as_str()
        .unwrap()
        .to_owned();
    assert!(said.contains("the report will be Markdown"), "{said}");
    assert!(server.requests()[6].body.to_string().contains("Markdown"), "the answer reached the model");

    // The hand-offs: the PNG loaded, both videos really play.
    let png = poll(
        &app,
        "the presented PNG",
        "const i = document.querySelector(\".handoff[data-path='/out/chart.png'] img\"); return i && i.complete ? i.naturalWidth : 0;",
        |w| w.as_i64().unwrap_or(0) > 0,
    )
    .await;
    assert_eq!(png, json!(320));
    assert_plays(&app, "/out/clip.mp4").await;
    assert_plays(&app, "/out/clip.webm").await;
    app.js("document.querySelector(\".handoff[data-path='/out/chart.png']\").scrollIntoView(); return true;").await;
    app.shot("agent-4-handoffs.png").await;
    app.js("document.querySelector('#messages').scrollTop = 1e9; return true;").await;
    app.shot("agent-5-turn-done.png").await;
    assert!(!app.folder.path().join("out").exists(), "nothing reached the folder before a commit");

    // Turn 2, sent with Ctrl+Enter: an endless script, ended by Esc (Stop).
    type_into(&app, "#composer", "Count for a while\u{E009}\u{E007}").await;
    app.wait_for(".tool-row[data-name='run_script'][data-status='running']").await;
    // (WebKit's element text leaves out text clipped by overflow, so the live line is read from the DOM.)
    poll(
        &app,
        "the live progress line",
        "const p = document.querySelector(\".tool-row[data-name='run_script'][data-status='running'] .tool-progress\"); return p ? p.textContent : '';",
        |t| t.as_str().is_some_and(|t| t.starts_with("tick ")),
    )
    .await;
    app.shot("agent-6-long-script.png").await;
    // A reload mid-turn loses the live channel, not the turn: the window follows it from the
    // store and can still stop it.
    reload(&app).await;
    app.wait_for(".tool-row[data-name='run_script'][data-status='running']").await;
    app.wait_for("#stop").await;
    let pressed = Instant::now();
    app.c.find(Locator::Css("#composer")).await.unwrap().send_keys("\u{E00C}").await.unwrap();
    app.wait_for(".turn-end[data-end='stopped']").await;
    let took = pressed.elapsed();
    assert!(took < Duration::from_secs(5), "Stop took {took:?}");
    app.wait_for(".tool-row[data-name='run_script'][data-status='aborted']").await;
    app.wait_for("#send").await;
    app.shot("agent-7-stopped.png").await;
    eprintln!("Stop ended the turn in {took:?}");

    // The conversation is in the store: a reload replays it (requests, hand-offs, the stop).
    reload(&app).await;
    app.wait_for(".turn-end[data-end='stopped']").await;
    let replayed =
        poll(&app, "the replay", "return document.querySelectorAll('.msg-user').length;", |n| n == &json!(2)).await;
    assert_eq!(replayed, json!(2), "both requests replay");
    poll(
        &app,
        "the replayed PNG",
        "const i = document.querySelector(\".handoff[data-path='/out/chart.png'] img\"); return i && i.complete ? i.naturalWidth : 0;",
        |w| w.as_i64().unwrap_or(0) > 0,
    )
    .await;
    let answered = app.wait_text(".ask-card.done", "Answered").await;
    assert!(answered.ends_with("Answered: Markdown"), "{answered}");
    app.shot("agent-8-replayed.png").await;

    // The Doctor: one row per capability and the provider row.
    app.click("#open-doctor").await;
    app.wait_for("#doctor .doctor-row[data-name='pdfium']").await;
    app.wait_for("#doctor .doctor-row.ok[data-name='provider']").await;
    app.shot("agent-9-doctor.png").await;
    app.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_conversation_and_its_dialogs_follow_a_dark_system_theme() {
    if !enabled() {
        return;
    }
    let app = App::start(fill, &[("GTK_THEME", "Adwaita:dark")]).await;
    app.wait_for("#composer").await;
    let dark = app.js("return matchMedia('(prefers-color-scheme: dark)').matches;").await;
    assert_eq!(dark, json!(true), "GTK_THEME=Adwaita:dark reaches the webview as prefers-color-scheme: dark");
    let background = app.js("return getComputedStyle(document.body).backgroundColor;").await;
    assert_eq!(background, json!("rgb(20, 22, 27)"), "the dark palette is in use");
    app.shot("agent-dark-empty.png").await;
    app.click("#open-settings").await;
    app.wait_for("#settings-provider").await;
    app.shot("agent-dark-settings.png").await;
    app.close().await;
}
