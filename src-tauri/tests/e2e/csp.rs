//! The webview's Content-Security-Policy holds against a hostile model reply: a reply carrying a
//! `<script>`, an `<img onerror>` and a `javascript:` link runs nothing when shown, and the page
//! itself cannot run inline script, inline handlers or `eval` even if markup slipped past the
//! sanitiser — the policy (`src-tauri/tauri.conf.json`) is the second wall behind DOMPurify.

use std::time::Duration;

use fantoccini::Locator;
use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::json;

use crate::harness::{App, enabled};

/// What a compromised or prompt-injected model might answer.
const HOSTILE: &str = "Here is the summary.\n\n<script>window.__pwned = 'script';</script>\n\n<img src=\"nope.png\" onerror=\"window.__pwned = 'onerror'\">\n\n[open the report](javascript:window.__pwned='link')\n\n<a href=\"javascript:window.__pwned='anchor'\" id=\"evil\">click</a>";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hostile_reply_runs_nothing_and_the_page_refuses_inline_script() {
    if !enabled() {
        return;
    }
    let server = FakeServer::start(vec![Reply::sse(openai(HOSTILE, &[], 50))]).await.unwrap();
    let base = format!("{}/v1", server.base);
    // Nothing saved: the FOLIO_* variables are the settings (the key through FOLIO_API_KEY).
    let app = App::start(
        |dir| std::fs::write(dir.join("notes.txt"), "q3\n").unwrap(),
        &[
            ("FOLIO_NO_KEYCHAIN", "1"),
            ("FOLIO_PROVIDER", "openai"),
            ("FOLIO_MODEL", "fake-model"),
            ("FOLIO_BASE_URL", &base),
            ("FOLIO_API_KEY", "sk-e2e"),
        ],
    )
    .await;
    app.wait_for("#composer").await;
    let composer = app.c.find(Locator::Css("#composer")).await.unwrap();
    composer.send_keys("Summarise the notes").await.unwrap();
    app.click("#send").await;
    app.wait_text(".msg-text", "Here is the summary.").await;
    app.wait_for(".turn-end[data-end='done']").await;

    // Shown: nothing ran, and nothing executable is left in the transcript.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let left = app
        .js("const m = [...document.querySelectorAll('.msg-text')].pop();
             return { pwned: window.__pwned ?? null,
                      scripts: m.querySelectorAll('script').length,
                      handlers: [...m.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
                      jsLinks: [...m.querySelectorAll('a')].filter(a => (a.getAttribute('href') || '').trim().toLowerCase().startsWith('javascript:')).length };")
        .await;
    assert_eq!(
        left,
        json!({"pwned": null, "scripts": 0, "handlers": 0, "jsLinks": 0}),
        "the transcript kept something executable"
    );
    // Clicking every link of the reply runs nothing either.
    app.js("[...document.querySelectorAll('.msg-text a')].forEach(a => a.click()); return true;").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.js("return window.__pwned ?? null;").await, json!(null), "a link of the reply ran script");
    app.shot("csp-1-hostile-reply.png").await;

    // The policy itself: markup that bypassed the sanitiser still cannot run.
    let refused = app
        .js("const out = {};
             const s = document.createElement('script'); s.textContent = 'window.__inline = 1;'; document.body.appendChild(s);
             out.inlineScript = window.__inline ?? null;
             const d = document.createElement('div'); d.innerHTML = '<img src=\"data:,x\" onerror=\"window.__handler = 1\">'; document.body.appendChild(d);
             try { out.eval = eval('1 + 1'); } catch (e) { out.eval = 'refused'; }
             try { out.fn = new Function('return 2')(); } catch (e) { out.fn = 'refused'; }
             return out;")
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(refused, json!({"inlineScript": null, "eval": "refused", "fn": "refused"}), "the CSP let script run");
    assert_eq!(app.js("return window.__handler ?? null;").await, json!(null), "an inline handler ran");
    // The app's own script and its IPC work under the policy: the turn above reached the model.
    assert_eq!(server.requests()[0].header("authorization"), Some("Bearer sk-e2e"));
}
