//! One tab of a render: its own browser context (no cookies, storage or cache shared with any
//! other render), the init scripts registered *before* navigation (so the clock is replaced
//! before any scene code runs), every request answered by the [`Site`], page errors collected
//! with the author's file:line, and frames captured by `HeadlessExperimental.beginFrame` on the
//! headless shell or `Page.captureScreenshot` elsewhere (the same pixels).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};
use tokio::sync::Notify;

use crate::browser::Browser;
use crate::cdp::Cdp;
use crate::error::MotionError;
use crate::site::{ORIGIN, Site, Wanted};

/// A page error, with where it happened in the author's file when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageError {
    /// The message (`TypeError: x is not a function`).
    pub message: String,
    /// `/in/scene.jsx:12:5`, when the stack names a tree file.
    pub at: Option<String>,
}

impl std::fmt::Display for PageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{} (at {at})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// What the tab has seen so far.
#[derive(Default)]
struct Seen {
    errors: Vec<PageError>,
    console_errors: Vec<String>,
}

/// An open tab.
pub struct Tab {
    cdp: Arc<Cdp>,
    session: String,
    context: String,
    begin_frame: bool,
    ticks: Arc<tokio::sync::Mutex<f64>>,
    interval: f64,
    seen: Arc<Mutex<Seen>>,
    threw: Arc<Notify>,
    events: tokio::task::JoinHandle<()>,
    last_png: Option<Vec<u8>>,
}

/// How to open a tab.
pub struct TabParams<'a> {
    /// Viewport width in CSS pixels (DPR 1).
    pub width: u32,
    /// Viewport height.
    pub height: u32,
    /// Frames per second (the beginFrame interval).
    pub fps: u32,
    /// Init scripts, in order, registered before navigation.
    pub init: &'a [String],
    /// The page's server.
    pub site: Arc<Site>,
    /// The page to open, a path under the origin (`/__folio/page.html`).
    pub page: &'a str,
}

impl Tab {
    /// Opens a tab on `browser` and navigates it to the page.
    pub async fn open(browser: &Browser, params: TabParams<'_>) -> Result<Tab, MotionError> {
        let cdp = Arc::clone(&browser.cdp);
        let fail = |e: crate::cdp::CdpError| MotionError::Browser(e.to_string());
        let ctx =
            cdp.call(None, "Target.createBrowserContext", json!({"disposeOnDetach": true})).await.map_err(fail)?;
        let context = ctx["browserContextId"].as_str().unwrap_or_default().to_string();
        let mut create = json!({
            "url": "about:blank",
            "browserContextId": context,
            "width": params.width,
            "height": params.height,
        });
        if browser.begin_frame {
            create["enableBeginFrameControl"] = json!(true);
        }
        let target = cdp.call(None, "Target.createTarget", create).await.map_err(fail)?;
        let target_id = target["targetId"].as_str().unwrap_or_default().to_string();
        let attached = cdp
            .call(None, "Target.attachToTarget", json!({"targetId": target_id, "flatten": true}))
            .await
            .map_err(fail)?;
        let session = attached["sessionId"].as_str().unwrap_or_default().to_string();
        let seen = Arc::new(Mutex::new(Seen::default()));
        let threw = Arc::new(Notify::new());
        let events = spawn_events(&cdp, &session, Arc::clone(&params.site), Arc::clone(&seen), Arc::clone(&threw));
        let s = Some(session.as_str());
        cdp.call(s, "Fetch.enable", json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}))
            .await
            .map_err(fail)?;
        cdp.call(s, "Runtime.enable", json!({})).await.map_err(fail)?;
        cdp.call(s, "Page.enable", json!({})).await.map_err(fail)?;
        cdp.call(
            s,
            "Emulation.setDeviceMetricsOverride",
            json!({"width": params.width, "height": params.height, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await
        .map_err(fail)?;
        // Dates and number formats read the same on every host.
        cdp.call(s, "Emulation.setTimezoneOverride", json!({"timezoneId": "UTC"})).await.map_err(fail)?;
        cdp.call(s, "Emulation.setLocaleOverride", json!({"locale": "en-US"})).await.map_err(fail)?;
        for source in params.init {
            cdp.call(s, "Page.addScriptToEvaluateOnNewDocument", json!({"source": source})).await.map_err(fail)?;
        }
        let mut tab = Tab {
            cdp,
            session,
            context,
            begin_frame: browser.begin_frame,
            ticks: Arc::clone(&browser.ticks),
            interval: 1000.0 / f64::from(params.fps.max(1)),
            seen,
            threw,
            events,
            last_png: None,
        };
        tab.navigate(params.page).await?;
        Ok(tab)
    }

    async fn navigate(&mut self, page: &str) -> Result<(), MotionError> {
        let s = Some(self.session.as_str());
        let url = format!("{ORIGIN}{page}");
        if !self.begin_frame {
            let nav = self
                .cdp
                .call(s, "Page.navigate", json!({"url": url}))
                .await
                .map_err(|e| MotionError::Browser(e.to_string()))?;
            if let Some(err) = nav.get("errorText").and_then(Value::as_str) {
                return Err(MotionError::Browser(format!("the page did not load: {err}")));
            }
            return Ok(());
        }
        // With beginFrame control nothing moves until frames are sent: navigate while pumping
        // frames (the same monotonic ticks as every later frame).
        let cdp = Arc::clone(&self.cdp);
        let session = self.session.clone();
        let nav = tokio::spawn(async move { cdp.call(Some(&session), "Page.navigate", json!({"url": url})).await });
        let deadline = Instant::now() + Duration::from_secs(20);
        while !nav.is_finished() && Instant::now() < deadline {
            self.begin_frame(false).await?;
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        match nav.await {
            Ok(Ok(v)) => match v.get("errorText").and_then(Value::as_str) {
                Some(err) => Err(MotionError::Browser(format!("the page did not load: {err}"))),
                None => Ok(()),
            },
            Ok(Err(e)) => Err(MotionError::Browser(e.to_string())),
            Err(e) => Err(MotionError::Browser(e.to_string())),
        }
    }

    /// Evaluates `expr` in the page, awaiting a returned promise, and returns its value.
    pub async fn eval(&self, expr: &str) -> Result<Value, MotionError> {
        let v = self
            .cdp
            .call(
                Some(&self.session),
                "Runtime.evaluate",
                json!({"expression": expr, "awaitPromise": true, "returnByValue": true}),
            )
            .await
            .map_err(|e| MotionError::Browser(e.to_string()))?;
        if let Some(ex) = v.get("exceptionDetails") {
            let text = ex
                .pointer("/exception/description")
                .and_then(Value::as_str)
                .or_else(|| ex.get("text").and_then(Value::as_str))
                .unwrap_or("unknown error");
            return Err(MotionError::Browser(format!("evaluating {expr}: {text}")));
        }
        Ok(v.pointer("/result/value").cloned().unwrap_or(Value::Null))
    }

    /// Waits until `window.__folio.mounted`, failing at once when the page throws first (an
    /// uncaught exception, or an error the page's runtime caught: a render error, a module that
    /// failed to load, a default export that is not a component).
    pub async fn wait_mounted(&mut self, within: Duration, site: &Site) -> Result<(), MotionError> {
        let deadline = Instant::now() + within;
        let probe = "(() => { const F = window.__folio; return F ? {m: !!F.mounted, e: F.errors.slice(0, 3)} : {m: false, e: []}; })()";
        loop {
            let state = self.eval(probe).await?;
            let mut errors: Vec<String> = state["e"]
                .as_array()
                .map(|a| a.iter().map(|e| page_error_from_js(e, site).to_string()).collect())
                .unwrap_or_default();
            if errors.is_empty() {
                errors = self.errors().iter().take(3).map(ToString::to_string).collect();
            }
            if !errors.is_empty() {
                return Err(MotionError::SceneThrew(errors.join("\n")));
            }
            if state["m"] == Value::Bool(true) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                let errs: Vec<String> = self.console_errors().into_iter().take(3).collect();
                let detail =
                    if errs.is_empty() { String::new() } else { format!("; the page logged: {}", errs.join(" | ")) };
                return Err(MotionError::NeverMounted { ms: within.as_millis() as u64, detail });
            }
            if self.begin_frame {
                self.begin_frame(false).await?;
            }
            let _ = tokio::time::timeout(Duration::from_millis(10), self.threw.notified()).await;
        }
    }

    /// Errors the page raised so far.
    pub fn errors(&self) -> Vec<PageError> {
        self.seen.lock().map(|s| s.errors.clone()).unwrap_or_default()
    }

    /// `console.error` messages so far (never fatal).
    pub fn console_errors(&self) -> Vec<String> {
        self.seen.lock().map(|s| s.console_errors.clone()).unwrap_or_default()
    }

    /// Records an error the page's own runtime caught (`__folio.errors`).
    pub fn note_error(&self, e: PageError) {
        if let Ok(mut s) = self.seen.lock()
            && !s.errors.contains(&e)
        {
            s.errors.push(e);
        }
    }

    /// One frame's pixels as PNG, after the page was driven to it.
    pub async fn capture(&mut self) -> Result<Vec<u8>, MotionError> {
        if self.begin_frame {
            if let Some(png) = self.begin_frame(true).await? {
                self.last_png = Some(png.clone());
                return Ok(png);
            }
            // No damage: the pixels are the last frame's. The first capture always draws.
            if let Some(last) = &self.last_png {
                return Ok(last.clone());
            }
            for _ in 0..50 {
                if let Some(png) = self.begin_frame(true).await? {
                    self.last_png = Some(png.clone());
                    return Ok(png);
                }
            }
            return Err(MotionError::Browser("the headless shell drew no frame after 50 BeginFrames".into()));
        }
        let shot = self
            .cdp
            .call(
                Some(&self.session),
                "Page.captureScreenshot",
                json!({"format": "png", "fromSurface": true, "captureBeyondViewport": false}),
            )
            .await
            .map_err(|e| MotionError::Browser(e.to_string()))?;
        decode(shot.get("data"))
    }

    /// Draws the current state without capturing it (beginFrame only; a no-op otherwise), so a
    /// walk to a frame has the same paint history as a render that captured every frame.
    pub async fn paint(&mut self) -> Result<(), MotionError> {
        if self.begin_frame {
            self.begin_frame(false).await?;
        }
        Ok(())
    }

    async fn begin_frame(&mut self, screenshot: bool) -> Result<Option<Vec<u8>>, MotionError> {
        let mut ticks = self.ticks.lock().await;
        *ticks += self.interval;
        let mut params = json!({"frameTimeTicks": *ticks, "interval": self.interval, "noDisplayUpdates": false});
        if screenshot {
            params["screenshot"] = json!({"format": "png"});
        }
        let v = self
            .cdp
            .call(Some(&self.session), "HeadlessExperimental.beginFrame", params)
            .await
            .map_err(|e| MotionError::Browser(e.to_string()))?;
        match v.get("screenshotData") {
            Some(d) if screenshot => decode(Some(d)).map(Some),
            _ => Ok(None),
        }
    }

    /// Closes the tab and its context.
    pub async fn close(self) {
        self.events.abort();
        let _ = self.cdp.call(None, "Target.disposeBrowserContext", json!({"browserContextId": self.context})).await;
    }
}

fn decode(data: Option<&Value>) -> Result<Vec<u8>, MotionError> {
    let b64 = data.and_then(Value::as_str).ok_or_else(|| MotionError::Browser("a capture returned no image".into()))?;
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .map_err(|e| MotionError::Browser(format!("a capture was not base64: {e}")))
}

fn spawn_events(
    cdp: &Arc<Cdp>,
    session: &str,
    site: Arc<Site>,
    seen: Arc<Mutex<Seen>>,
    threw: Arc<Notify>,
) -> tokio::task::JoinHandle<()> {
    let mut rx = cdp.subscribe();
    let cdp = Arc::clone(cdp);
    let session = session.to_string();
    tokio::spawn(async move {
        loop {
            let ev = match rx.recv().await {
                Ok(ev) => ev,
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(_) => break,
            };
            if ev.session.as_deref() != Some(session.as_str()) {
                continue;
            }
            match ev.method.as_str() {
                "Fetch.requestPaused" => {
                    let id = ev.params["requestId"].as_str().unwrap_or_default().to_string();
                    let url = ev.params.pointer("/request/url").and_then(Value::as_str).unwrap_or_default();
                    let wanted = Wanted::from_cdp(ev.params["resourceType"].as_str().unwrap_or(""));
                    match site.reply(url, wanted) {
                        Some(r) => cdp.fire(
                            Some(&session),
                            "Fetch.fulfillRequest",
                            json!({
                                "requestId": id,
                                "responseCode": r.status,
                                "responseHeaders": [
                                    {"name": "Content-Type", "value": r.mime},
                                    {"name": "Cache-Control", "value": "no-store"},
                                ],
                                "body": base64::engine::general_purpose::STANDARD.encode(&r.body),
                            }),
                        ),
                        None => cdp.fire(
                            Some(&session),
                            "Fetch.failRequest",
                            json!({"requestId": id, "errorReason": "BlockedByClient"}),
                        ),
                    }
                }
                "Runtime.exceptionThrown" => {
                    let e = page_error(&ev.params["exceptionDetails"], &site);
                    if let Ok(mut s) = seen.lock() {
                        s.errors.push(e);
                    }
                    threw.notify_waiters();
                }
                "Runtime.consoleAPICalled" if ev.params["type"] == "error" => {
                    let text: Vec<String> = ev.params["args"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|x| {
                                    x.get("value")
                                        .map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()))
                                        .or_else(|| x.get("description").and_then(Value::as_str).map(str::to_string))
                                        .unwrap_or_default()
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    if let Ok(mut s) = seen.lock()
                        && s.console_errors.len() < 20
                    {
                        s.console_errors.push(text.join(" "));
                    }
                }
                _ => {}
            }
        }
    })
}

/// A `Runtime.exceptionThrown` as the author reads it: the message and the first stack frame
/// in a tree file, mapped back to the original line.
fn page_error(details: &Value, site: &Site) -> PageError {
    let message = details
        .pointer("/exception/description")
        .and_then(Value::as_str)
        .and_then(|d| d.lines().next())
        .or_else(|| details.get("text").and_then(Value::as_str))
        .unwrap_or("unknown error")
        .to_string();
    let frames = details.pointer("/stackTrace/callFrames").and_then(Value::as_array).cloned().unwrap_or_default();
    let at = frames
        .iter()
        .map(|f| (f["url"].as_str().unwrap_or(""), f["lineNumber"].as_u64(), f["columnNumber"].as_u64()))
        .chain(std::iter::once((
            details["url"].as_str().unwrap_or(""),
            details["lineNumber"].as_u64(),
            details["columnNumber"].as_u64(),
        )))
        .find_map(|(url, line, col)| tree_location(url, line?, col.unwrap_or(0), site));
    PageError { message, at }
}

/// `http://folio.scene/in/scene.jsx` line 11 (0-based, generated) → `/in/scene.jsx:12:col`.
pub fn tree_location(url: &str, line0: u64, col0: u64, site: &Site) -> Option<String> {
    let path = url.strip_prefix(ORIGIN)?;
    if path.starts_with("/__folio/") || path.is_empty() {
        return None;
    }
    let line0 = u32::try_from(line0).ok()?;
    let line = site.original_line(path, line0).unwrap_or(line0 + 1);
    Some(format!("{path}:{line}:{}", col0 + 1))
}

/// An error the page's runtime recorded, its location mapped back to the author's line.
pub fn page_error_from_js(e: &Value, site: &Site) -> PageError {
    let message = e["message"].as_str().unwrap_or("unknown error").to_string();
    let at = e["location"].as_str().map(|loc| {
        let mut parts = loc.rsplitn(3, ':');
        let (col, line, path) = (parts.next(), parts.next(), parts.next());
        match (path, line.and_then(|l| l.parse::<u32>().ok()), col) {
            (Some(path), Some(line), Some(col)) => {
                let orig = site.original_line(path, line.saturating_sub(1)).unwrap_or(line);
                format!("{path}:{orig}:{col}")
            }
            _ => loc.to_string(),
        }
    });
    PageError { message, at }
}
