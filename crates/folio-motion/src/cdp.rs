//! The DevTools protocol, as much of it as a render uses: one WebSocket to the browser, commands
//! matched to their answers by id, and events fanned out to whoever listens for a session.
//!
//! Sessions are *flat* (`Target.attachToTarget{flatten:true}`): every tab's commands and events
//! travel on the browser's one socket, tagged with the tab's `sessionId`. A command is a method
//! name and a JSON object; the answer is the `result` object, or [`CdpError::Protocol`] with
//! the browser's own message. Nothing here knows what a scene is.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::sync::{Mutex, broadcast, mpsc, oneshot};
use tokio_tungstenite::tungstenite::Message;

/// How long one command may wait for its answer (a screenshot of a big frame takes < 1 s; a
/// navigation is answered when it starts, not when it loads).
const ANSWER_WITHIN: Duration = Duration::from_secs(60);

/// What went wrong talking to the browser.
#[derive(Debug, thiserror::Error)]
pub enum CdpError {
    /// The WebSocket could not be opened (the browser died during start-up, or printed an
    /// address nobody listens on). The renderer relaunches once; the caller sees it after that.
    #[error("could not connect to the browser's DevTools socket {url}: {reason}")]
    Connect {
        /// The address the browser printed.
        url: String,
        /// The socket's error.
        reason: String,
    },
    /// The browser answered the command with an error (a bad parameter, a closed target). Not
    /// retried: it is a defect in the call or a tab that is already gone.
    #[error("the browser refused {method}: {message}")]
    Protocol {
        /// The command.
        method: String,
        /// The browser's message.
        message: String,
    },
    /// The socket closed: the browser exited or crashed. The pool discards the browser and the
    /// next render launches a new one.
    #[error("the browser went away (its DevTools socket closed) during {method}")]
    Closed {
        /// The command in flight.
        method: String,
    },
    /// No answer within [`ANSWER_WITHIN`]: the browser hangs. The pool discards it.
    #[error("the browser did not answer {method} within {secs} s")]
    Timeout {
        /// The command.
        method: String,
        /// The wait.
        secs: u64,
    },
}

/// One event from the browser.
#[derive(Debug, Clone)]
pub struct Event {
    /// The session (tab) it belongs to; `None` for browser-level events.
    pub session: Option<String>,
    /// `Fetch.requestPaused`, `Runtime.exceptionThrown`, …
    pub method: String,
    /// The event's parameters.
    pub params: Value,
}

type Waiters = Arc<std::sync::Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>>;

/// A connection to one browser.
pub struct Cdp {
    next: AtomicU64,
    out: mpsc::UnboundedSender<Message>,
    waiters: Waiters,
    events: broadcast::Sender<Event>,
    alive: Arc<std::sync::atomic::AtomicBool>,
    /// Serialises nothing but keeps the reader task's handle for the connection's life.
    _reader: Mutex<Option<tokio::task::JoinHandle<()>>>,
}

impl Cdp {
    /// Opens the browser's socket (`ws://127.0.0.1:<port>/devtools/browser/<id>`).
    pub async fn connect(url: &str) -> Result<Arc<Cdp>, CdpError> {
        let mut config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default();
        config.max_message_size = Some(256 << 20);
        config.max_frame_size = Some(256 << 20);
        let (socket, _) = tokio_tungstenite::connect_async_with_config(url, Some(config), true)
            .await
            .map_err(|e| CdpError::Connect { url: url.to_string(), reason: e.to_string() })?;
        let (mut sink, mut stream) = socket.split();
        let (out, mut out_rx) = mpsc::unbounded_channel::<Message>();
        let waiters: Waiters = Arc::default();
        let (events, _) = broadcast::channel(4096);
        let alive = Arc::new(std::sync::atomic::AtomicBool::new(true));
        tokio::spawn(async move {
            while let Some(m) = out_rx.recv().await {
                if sink.send(m).await.is_err() {
                    break;
                }
            }
        });
        let reader = {
            let waiters = Arc::clone(&waiters);
            let events = events.clone();
            let alive = Arc::clone(&alive);
            tokio::spawn(async move {
                while let Some(Ok(m)) = stream.next().await {
                    let text = match &m {
                        Message::Text(t) => t.as_str(),
                        Message::Close(_) => break,
                        _ => continue,
                    };
                    let Ok(v) = serde_json::from_str::<Value>(text) else { continue };
                    if let Some(id) = v.get("id").and_then(Value::as_u64) {
                        let answer = match v.get("error") {
                            Some(e) => {
                                Err(e.get("message").and_then(Value::as_str).unwrap_or("unknown error").to_string())
                            }
                            None => Ok(v.get("result").cloned().unwrap_or(Value::Null)),
                        };
                        if let Some(tx) = waiters.lock().ok().and_then(|mut w| w.remove(&id)) {
                            let _ = tx.send(answer);
                        }
                    } else if let Some(method) = v.get("method").and_then(Value::as_str) {
                        let _ = events.send(Event {
                            session: v.get("sessionId").and_then(Value::as_str).map(str::to_string),
                            method: method.to_string(),
                            params: v.get("params").cloned().unwrap_or(Value::Null),
                        });
                    }
                }
                alive.store(false, Ordering::SeqCst);
                // Everyone still waiting learns the browser is gone (their sender drops).
                if let Ok(mut w) = waiters.lock() {
                    w.clear();
                }
            })
        };
        Ok(Arc::new(Cdp { next: AtomicU64::new(1), out, waiters, events, alive, _reader: Mutex::new(Some(reader)) }))
    }

    /// Whether the socket is still open.
    pub fn is_alive(&self) -> bool {
        self.alive.load(Ordering::SeqCst)
    }

    /// Listens to every event from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    /// Sends `method` with `params` (to `session`'s tab, or to the browser) and waits for the
    /// answer's `result`.
    pub async fn call(&self, session: Option<&str>, method: &str, params: Value) -> Result<Value, CdpError> {
        let rx = self.send(session, method, params)?;
        match tokio::time::timeout(ANSWER_WITHIN, rx).await {
            Err(_) => Err(CdpError::Timeout { method: method.to_string(), secs: ANSWER_WITHIN.as_secs() }),
            Ok(Err(_)) => Err(CdpError::Closed { method: method.to_string() }),
            Ok(Ok(Err(message))) => Err(CdpError::Protocol { method: method.to_string(), message }),
            Ok(Ok(Ok(v))) => Ok(v),
        }
    }

    /// Sends a command without waiting (answers to `Fetch.fulfillRequest` carry nothing a render
    /// needs, and waiting for each would serialise the page's loads).
    pub fn fire(&self, session: Option<&str>, method: &str, params: Value) {
        let _ = self.send(session, method, params);
    }

    fn send(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<oneshot::Receiver<Result<Value, String>>, CdpError> {
        if !self.is_alive() {
            return Err(CdpError::Closed { method: method.to_string() });
        }
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = Value::String(s.to_string());
        }
        let (tx, rx) = oneshot::channel();
        if let Ok(mut w) = self.waiters.lock() {
            w.insert(id, tx);
        }
        self.out.send(Message::text(msg.to_string())).map_err(|_| CdpError::Closed { method: method.to_string() })?;
        Ok(rx)
    }
}
