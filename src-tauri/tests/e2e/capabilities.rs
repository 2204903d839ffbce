//! Settings → Capabilities in the real window: the MCP test server
//! (`@modelcontextprotocol/server-everything`, installed by `scripts/get-mcp-test-server.sh`) added
//! through the form by command + arguments, Test listing its tools, then a conversation where the
//! fake model's script imports `env:everything`, calls `get_sum`, and the result shows in the
//! transcript.

use std::time::{Duration, Instant};

use fantoccini::Locator;
use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::json;

use crate::harness::{App, enabled};

const SUM: &str = "/** Adds with the MCP server. */\nimport { get_sum } from 'env:everything';\nexport default async function main() {\n  return await get_sum({ a: 19, b: 23 });\n}\n";

use folio_mcp::testing::server_entry;

/// Replaces the text of the field at `css` (shared with the privacy scenario).
pub(crate) async fn type_into(app: &App, css: &str, text: &str) {
    let el = app.c.find(Locator::Css(css)).await.unwrap();
    el.clear().await.unwrap();
    el.send_keys(text).await.unwrap();
}

/// Runs `script` until `done` says yes (40 s at most), and returns its last answer.
pub(crate) async fn poll(
    app: &App,
    what: &str,
    script: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(40);
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_server_added_in_settings_is_called_from_a_conversations_script() {
    if !enabled() {
        return;
    }
    let entry = server_entry();
    let server = FakeServer::start(vec![
        Reply::sse(openai("ok", &[], 5)),
        Reply::sse(openai("", &[("w1", "write_file", json!({"path": "/scripts/sum.js", "content": SUM}))], 100)),
        Reply::sse(openai("", &[("r1", "run_script", json!({"path": "/scripts/sum.js"}))], 200)),
        Reply::sse(openai("The MCP server says the sum is 42.", &[], 300)),
    ])
    .await
    .unwrap();
    let app =
        App::start(|dir| std::fs::write(dir.join("notes.md"), "numbers\n").unwrap(), &[("FOLIO_NO_KEYCHAIN", "1")])
            .await;
    app.wait_for("#composer").await;

    // The provider, as a person sets it.
    app.click("#open-settings").await;
    app.wait_for("#settings-provider").await;
    app.c.find(Locator::Css("#settings-provider")).await.unwrap().select_by_value("openai").await.unwrap();
    type_into(&app, "#settings-model", "fake-model").await;
    type_into(&app, "#settings-base-url", &format!("{}/v1", server.base)).await;
    type_into(&app, "#settings-key", "sk-e2e").await;
    app.click("#settings-test").await;
    app.wait_text("#connection-result", "ok — fake-model answered in").await;
    app.click("#settings-save").await;
    poll(&app, "the dialog closing", "return document.querySelector('#settings') === null;", |v| v == &json!(true))
        .await;

    // Settings → Capabilities: the server by command and arguments, Test, then Add.
    app.click("#open-settings").await;
    app.click("#settings-tab-capabilities").await;
    app.wait_for("#mcp-empty").await;
    type_into(&app, "#mcp-name", "everything").await;
    type_into(&app, "#mcp-command", "node").await;
    // WebKitWebDriver drops a typed "\n"; Enter (U+E007) makes the new line.
    type_into(&app, "#mcp-args", &format!("{}\u{E007}stdio", entry.display())).await;
    app.click("#mcp-add-setting").await;
    type_into(&app, ".mcp-setting-name", "API_TOKEN").await;
    type_into(&app, ".mcp-setting-value", "not-in-the-file").await;
    app.click("#mcp-test").await;
    app.wait_for("#mcp-test-result[data-ok='true']").await;
    let tools = app
        .js("return [...document.querySelectorAll('#mcp-test-result .mcp-tool code')].map(e => e.textContent);")
        .await;
    assert!(tools.as_array().unwrap().iter().any(|t| t == "get_sum"), "{tools}");
    app.shot("capabilities-1-tested.png").await;
    app.click("#mcp-save").await;
    app.wait_for(".mcp-server[data-name='everything'][data-enabled='true']").await;
    app.click("#mcp-test-everything").await;
    app.wait_for("#mcp-result-everything[data-ok='true']").await;
    app.shot("capabilities-2-listed.png").await;
    let file = std::fs::read_to_string(app.state.path().join("mcp.json")).unwrap();
    assert!(file.contains("\"secret\": \"mcp.everything.env.API_TOKEN\""), "{file}");
    assert!(!file.contains("not-in-the-file"), "the secret value stays out of the file: {file}");

    // A bad server's Test shows the server's own stderr.
    type_into(&app, "#mcp-name", "broken").await;
    type_into(&app, "#mcp-command", "node").await;
    type_into(&app, "#mcp-args", "/nonexistent/folio/server.js").await;
    app.click("#mcp-test").await;
    app.wait_for("#mcp-test-result[data-ok='false']").await;
    app.wait_text("#mcp-test-result", "Cannot find module").await;
    app.shot("capabilities-3-failed.png").await;
    app.click("#settings-close").await;

    // A conversation started now: the model's script calls the server's tool through env:everything.
    type_into(&app, "#composer", "Add 19 and 23 with the MCP server").await;
    app.click("#send").await;
    app.wait_for(".tool-row[data-name='run_script'][data-status='success']").await;
    app.wait_for(".turn-end[data-end='done']").await;
    let output = app
        .js("return [...document.querySelectorAll(\".tool-row[data-name='run_script']\")].map(e => e.textContent + ' ' + (e.getAttribute('data-output') || '')).join(' ');")
        .await;
    let sent = server.requests();
    let result = sent[3].body.to_string();
    assert!(result.contains("The sum of 19 and 23 is 42"), "the tool's result reached the model: {result}");
    app.wait_text(".msg-text", "the sum is 42").await;
    app.shot("capabilities-4-conversation.png").await;
    eprintln!("run_script rows: {output}");
}
