//! Starting the app under WebKitWebDriver and the small waits every scenario uses.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use tempfile::TempDir;

/// WebKitWebDriver, stopped with SIGTERM so it stops the app it started.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

/// One running app: the WebDriver client, the folder it opened and its state directory (both
/// removed when the test ends).
pub struct App {
    pub c: Client,
    pub folder: TempDir,
    pub state: TempDir,
    _driver: Driver,
}

/// Whether end-to-end tests run now. With `FOLIO_E2E` unset the test returns early and says so;
/// with it set and no display, it fails.
pub fn enabled() -> bool {
    if std::env::var_os("FOLIO_E2E").is_none() {
        eprintln!("e2e skipped: set FOLIO_E2E=1 and run under xvfb-run (scripts/test.sh does)");
        return false;
    }
    assert!(std::env::var_os("DISPLAY").is_some(), "FOLIO_E2E=1 needs an X display — run under xvfb-run");
    true
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn out_dir() -> PathBuf {
    let dir = std::env::var_os("FOLIO_E2E_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/e2e"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl App {
    /// Writes the fixture with `fill`, then starts the app on that folder. `env` is passed to
    /// the app (through the driver, which it inherits from), e.g. a fake provider's address.
    pub async fn start(fill: impl FnOnce(&Path), env: &[(&str, &str)]) -> App {
        let folder = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        fill(folder.path());
        let port = free_port();
        let mut cmd = Command::new("/usr/bin/WebKitWebDriver");
        cmd.arg(format!("--port={port}"))
            .env("TAURI_WEBVIEW_AUTOMATION", "true")
            .env("FOLIO_STATE_DIR", state.path())
            .stdout(Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let driver =
            cmd.spawn().expect("/usr/bin/WebKitWebDriver is missing — install webkit2gtk-driver (scripts/install.sh)");
        let driver = Driver(driver);
        let c = connect(port, folder.path()).await;
        App { c, folder, state, _driver: driver }
    }

    /// Waits until the element's text contains `want`, and returns the text.
    pub async fn wait_text(&self, css: &str, want: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut last = String::new();
        while Instant::now() < deadline {
            if let Ok(el) = self.c.find(Locator::Css(css)).await {
                last = el.text().await.unwrap_or_default();
                if last.contains(want) {
                    return last;
                }
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
        panic!("{css} never contained {want:?}; last text: {last:?}");
    }

    /// Waits until an element matches `css`. (WebKit leaves text clipped by `overflow: hidden`
    /// out of an element's visible text, so rows are found by their attributes.)
    /// A WebDriver error while the page is being replaced (WebKit answers "Callback was not called
    /// before the unload event" when a reload lands mid-command) is retried like a miss.
    pub async fn wait_for(&self, css: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let last = match self.c.find(Locator::Css(css)).await {
                Ok(_) => return,
                Err(e) => e,
            };
            if Instant::now() >= deadline {
                panic!("no element matched {css} within 20 s; last answer: {last}");
            }
            tokio::time::sleep(Duration::from_millis(150)).await;
        }
    }

    pub async fn click(&self, css: &str) {
        self.c
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css(css))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
    }

    /// Runs `script` in the page and returns its JSON result (`return …` in the body).
    pub async fn js(&self, script: &str) -> serde_json::Value {
        self.c.execute(script, vec![]).await.unwrap()
    }

    /// Saves a screenshot of the window as `name` under [`out_dir`].
    pub async fn shot(&self, name: &str) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        let png = self.c.screenshot().await.unwrap();
        std::fs::write(out_dir().join(name), png).unwrap();
    }

    /// Closes the window, which ends the app (the driver may report the session gone).
    pub async fn close(self) {
        let _ = self.c.clone().close().await;
    }
}

async fn connect(port: u16, folder: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("wry"));
    caps.insert(
        "webkitgtk:browserOptions".into(),
        json!({ "binary": env!("CARGO_BIN_EXE_folio-desktop"), "args": [folder.display().to_string()] }),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match ClientBuilder::native().capabilities(caps.clone()).connect(&format!("http://127.0.0.1:{port}")).await {
            Ok(client) => return client,
            Err(_) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(300)).await,
            Err(e) => panic!("WebKitWebDriver did not start the app: {e}"),
        }
    }
}
