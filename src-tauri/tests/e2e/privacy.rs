//! Settings → Privacy in the real window: an invalid never-send pattern named under the field,
//! then this folder's local-only switch and a valid pattern saved; the header's "Local only"
//! badge naming the folder's setting; a turn against a loopback fake provider (allowed) whose
//! read of a never-send file is refused, and its "What was sent" rows — one per request, the
//! same hash and size as the bodies the provider received, opened to show what was read.

use std::time::Duration;

use fantoccini::Locator;
use folio_agent::testing::{FakeServer, Reply, openai};
use serde_json::json;

use crate::capabilities::{poll, type_into};
use crate::harness::{App, enabled};

const SECRET: &str = "ACME-SECRET-4411";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_only_and_never_send_set_in_privacy_show_in_the_header_and_what_was_sent() {
    if !enabled() {
        return;
    }
    let server = FakeServer::start(vec![
        Reply::sse(openai(
            "Reading the client file and the sales table.",
            &[
                ("r1", "read_file", json!({"path": "/clients/acme.csv"})),
                ("r2", "read_file", json!({"path": "/sales.csv"})),
            ],
            300,
        )),
        Reply::sse(openai("**Q2 led** (12). The client file stayed on this machine.", &[], 400)),
    ])
    .await
    .unwrap();
    let app = App::start(
        |dir| {
            std::fs::create_dir_all(dir.join("clients")).unwrap();
            std::fs::write(dir.join("clients/acme.csv"), format!("client,fee\n{SECRET},178000\n")).unwrap();
            std::fs::write(dir.join("sales.csv"), "quarter,total\nQ1,10\nQ2,12\n").unwrap();
        },
        &[("FOLIO_NO_KEYCHAIN", "1")],
    )
    .await;
    app.wait_for("#composer").await;
    let badge = "return document.querySelector('#local-only-badge') === null;";
    assert_eq!(app.js(badge).await, json!(true), "no badge while the mode is open");

    // The provider: a local server (keyless) on loopback.
    app.click("#open-settings").await;
    app.wait_for("#settings-provider").await;
    app.c.find(Locator::Css("#settings-provider")).await.unwrap().select_by_value("ollama").await.unwrap();
    type_into(&app, "#settings-model", "fake-model").await;
    type_into(&app, "#settings-base-url", &format!("{}/v1", server.base)).await;
    app.click("#settings-save").await;
    poll(&app, "the dialog closing", "return document.querySelector('#settings') === null;", |v| v == &json!(true))
        .await;

    // Settings → Privacy: an invalid pattern is named under the field, and nothing is saved.
    app.click("#open-settings").await;
    app.click("#settings-tab-privacy").await;
    app.wait_for("#privacy-in-force[data-mode='open']").await;
    app.c.find(Locator::Css("#privacy-folder")).await.unwrap().select_by_value("localOnly").await.unwrap();
    type_into(&app, "#privacy-never-send", "/a/../b").await;
    app.click("#privacy-save").await;
    app.wait_text("#privacy-never-send-error", "\"/a/../b\"").await;
    app.wait_text("#privacy-never-send-error", "Fix:").await;
    app.shot("privacy-1-invalid-pattern.png").await;
    assert_eq!(app.js(badge).await, json!(true), "nothing was saved");

    type_into(&app, "#privacy-never-send", "/clients/**").await;
    app.click("#privacy-save").await;
    app.wait_for("#privacy-saved").await;
    app.wait_for("#privacy-in-force[data-mode='localOnly']").await;
    app.wait_for("#local-only-badge[data-source='folder']").await;
    app.wait_text("#local-only-badge", "this folder").await;
    app.shot("privacy-2-saved.png").await;
    app.click("#settings-close").await;

    // A turn: loopback is allowed under local-only; the never-send read is refused.
    type_into(&app, "#composer", "Which quarter led?").await;
    app.click("#send").await;
    app.wait_for(".turn-end[data-end='done']").await;
    let rows = poll(
        &app,
        "two What-was-sent rows",
        "return [...document.querySelectorAll('.sent-row')].map(e => [e.dataset.sha256, Number(e.dataset.bytes)]);",
        |v| v.as_array().is_some_and(|a| a.len() == 2),
    )
    .await;
    let received = server.requests();
    assert_eq!(received.len(), 2);
    for (row, request) in rows.as_array().unwrap().iter().zip(&received) {
        assert_eq!(row[0], json!(folio_agent::sha256_hex(&request.raw)), "the row is the body that was received");
        assert_eq!(row[1], json!(request.raw.len()));
        assert!(!String::from_utf8_lossy(&request.raw).contains(SECRET), "a never-send file's contents left");
    }
    app.shot("privacy-3-turn-collapsed.png").await;
    // Collapsed by default; opened, the second request shows the refused read and the read file.
    assert_eq!(app.js("return document.querySelectorAll('.sent-detail').length;").await, json!(0));
    let heads = app.c.find_all(Locator::Css(".sent-head")).await.unwrap();
    heads[1].click().await.unwrap();
    app.wait_for(".sent-detail .sent-source").await;
    let sources =
        app.js("return [...document.querySelectorAll('.sent-detail .sent-source')].map(e => e.textContent);").await;
    assert!(sources.as_array().unwrap().iter().any(|s| s == "/sales.csv"), "{sources}");
    let refused = app.js("return document.querySelectorAll('.sent-item.is-error').length;").await;
    assert_eq!(refused, json!(1), "the refused read is an error item");
    app.js("document.querySelector('.sent-detail .sent-items').scrollIntoView({ block: 'end' }); return true;").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    app.shot("privacy-4-what-was-sent.png").await;
    app.close().await;
}
