//! End to end: the real window under X (Xvfb in CI) driven through WebDriver — fantoccini talks
//! to WebKitGTK's own driver (`/usr/bin/WebKitWebDriver`), which starts the app binary.
//!
//! Runs only with `FOLIO_E2E=1` (scripts/test.sh sets it and wraps the run in `xvfb-run` and
//! `timeout`); with it set and no `DISPLAY`, it fails rather than skipping. Screenshots of each
//! state are saved under `$FOLIO_E2E_OUT` (default: `target/e2e`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, missing_docs)]

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;

const PORT: u16 = 4461;

/// WebKitWebDriver, stopped with SIGTERM so it stops the app it started.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

fn out_dir() -> PathBuf {
    let dir = std::env::var_os("FOLIO_E2E_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/e2e"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn connect(folder: &std::path::Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("wry"));
    caps.insert(
        "webkitgtk:browserOptions".into(),
        json!({ "binary": env!("CARGO_BIN_EXE_folio-desktop"), "args": [folder.display().to_string()] }),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::native().capabilities(caps.clone()).connect(&format!("http://127.0.0.1:{PORT}")).await {
            Ok(client) => return client,
            Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(300)).await,
            Err(e) => panic!("WebKitWebDriver did not start the app: {e}"),
        }
    }
}

/// Waits until the element's text contains `want`, and returns the text.
async fn wait_text(c: &Client, css: &str, want: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Ok(el) = c.find(Locator::Css(css)).await {
            last = el.text().await.unwrap_or_default();
            if last.contains(want) {
                return last;
            }
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    panic!("{css} never contained {want:?}; last text: {last:?}");
}

/// Waits until an element matches `css`. (WebKit leaves text clipped by `overflow: hidden` out
/// of an element's visible text, so rows are found by their attributes.)
async fn wait_for(c: &Client, css: &str) {
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)).await.unwrap();
}

async fn click(c: &Client, css: &str) {
    c.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)).await.unwrap().click().await.unwrap();
}

async fn shot(c: &Client, name: &str) {
    tokio::time::sleep(Duration::from_millis(250)).await;
    let png = c.screenshot().await.unwrap();
    std::fs::write(out_dir().join(name), png).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_run_review_commit_and_discard_in_the_real_window() {
    if std::env::var_os("FOLIO_E2E").is_none() {
        eprintln!("e2e skipped: set FOLIO_E2E=1 and run under xvfb-run (scripts/test.sh does)");
        return;
    }
    assert!(std::env::var_os("DISPLAY").is_some(), "FOLIO_E2E=1 needs an X display — run under xvfb-run");
    let folder = tempfile::tempdir().unwrap();
    let state = tempfile::tempdir().unwrap();
    common::write(folder.path());

    let driver = Command::new("/usr/bin/WebKitWebDriver")
        .arg(format!("--port={PORT}"))
        .env("TAURI_WEBVIEW_AUTOMATION", "true")
        .env("FOLIO_STATE_DIR", state.path())
        .stdout(Stdio::null())
        .spawn()
        .expect("/usr/bin/WebKitWebDriver is missing — install webkit2gtk-driver (scripts/install.sh)");
    let _driver = Driver(driver);
    // The app inherits FOLIO_STATE_DIR from the driver, so the test's state stays in `state`.
    let c = connect(folder.path()).await;

    // The folder from the command line is open: its name, the tree and the catalogue show.
    wait_text(&c, "#folder-name", &folder.path().file_name().unwrap().to_string_lossy()).await;
    wait_for(&c, "#tree .row[data-path='/notes.txt']").await;
    wait_text(&c, "#scripts", "Summarises notes.txt").await;
    wait_text(&c, "#pending-count", "No pending changes").await;
    click(&c, "#tree .row[data-path='/report.md']").await;
    wait_text(&c, "#preview-text", "Revenue grew.").await;
    shot(&c, "1-opened.png").await;

    // Run the script from the catalogue: progress, result, and two pending changes.
    click(&c, ".script[data-path='/scripts/summarise.js'] button.run").await;
    wait_text(&c, "#run-state", "Finished").await;
    wait_text(&c, "#run-output", "step 3/3: done").await;
    wait_text(&c, "#run-result", "summarised 23 characters").await;
    // The new folder /out/ and the two files in it.
    wait_text(&c, "#pending-count", "3 pending changes").await;
    shot(&c, "2-script-ran.png").await;

    // Review: untick the scratch file and commit the summary only.
    click(&c, "#review-toggle").await;
    wait_for(&c, ".change[data-path='/out/summary.md']").await;
    click(&c, ".change[data-path='/out/scratch.txt'] input[type=checkbox]").await;
    shot(&c, "3-review.png").await;
    click(&c, "#commit-btn").await;
    wait_text(&c, "#summary", "Committed 1 change").await;
    wait_text(&c, "#pending-count", "1 pending change").await;
    assert_eq!(
        std::fs::read_to_string(folder.path().join("out/summary.md")).unwrap(),
        "# Summary\n\nBUY MILK\nCALL THE BANK\n"
    );
    assert!(!folder.path().join("out/scratch.txt").exists(), "the unticked change stayed pending");
    shot(&c, "4-committed.png").await;

    // Discard the rest: nothing pending, the folder untouched.
    click(&c, "#select-all").await;
    click(&c, "#discard-btn").await;
    wait_text(&c, "#summary", "Discarded 1 change").await;
    wait_text(&c, "#pending-count", "No pending changes").await;
    assert!(!folder.path().join("out/scratch.txt").exists());
    shot(&c, "5-discarded.png").await;

    // Closing the last window ends the app, so the driver may report the session gone.
    let _ = c.close().await;
}
