//! The working environment's verbs as the loop's [`Tools`].

use std::sync::{Arc, Mutex};

use folio_env::{CancelToken, Environment, OnProgress, ProgressLine, Status};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::agent::{BoxFuture, ToolOutcome, Tools};
use crate::events::AgentEvent;
use crate::message::ToolDef;

/// Events the environment produces between the loop's polls, and the answers to its questions.
#[derive(Clone, Default)]
pub struct HostEvents {
    queue: Arc<Mutex<Vec<AgentEvent>>>,
    asks: Arc<Mutex<Asks>>,
}

#[derive(Default)]
struct Asks {
    next: u64,
    waiting: std::collections::HashMap<u64, std::sync::mpsc::Sender<Option<String>>>,
}

impl HostEvents {
    /// An [`folio_env::Asker`] that turns `ask_user` into an [`AgentEvent::Ask`] and waits for
    /// [`HostEvents::answer`] (a `None` answer, or [`HostEvents::cancel_questions`], means nobody
    /// answered). Wire it as `EnvOptions::asker`.
    pub fn asker(&self) -> Arc<dyn folio_env::Asker> {
        Arc::new(self.clone())
    }

    /// Answers question `id`; false when no such question is waiting.
    pub fn answer(&self, id: u64, answer: Option<String>) -> bool {
        let sender = self.asks.lock().unwrap_or_else(|p| p.into_inner()).waiting.remove(&id);
        sender.is_some_and(|s| s.send(answer).is_ok())
    }

    /// How many questions are waiting for an answer.
    pub fn waiting_questions(&self) -> usize {
        self.asks.lock().unwrap_or_else(|p| p.into_inner()).waiting.len()
    }

    /// Gives up every waiting question (Stop, or the window closing).
    pub fn cancel_questions(&self) {
        let waiting = std::mem::take(&mut self.asks.lock().unwrap_or_else(|p| p.into_inner()).waiting);
        for (_, sender) in waiting {
            let _ = sender.send(None);
        }
    }

    /// A progress callback for `EnvOptions::on_progress` that queues each console line and each
    /// long job's progress for the host's view. None of it reaches the model: the model sees the
    /// run's result, whose console output never holds job progress.
    pub fn progress_callback(&self) -> OnProgress {
        let queue = self.queue.clone();
        Arc::new(move |lines: &[ProgressLine]| {
            let mut q = queue.lock().unwrap_or_else(|p| p.into_inner());
            for line in lines {
                q.push(AgentEvent::ScriptProgress {
                    run_id: line.run_id.clone(),
                    script: line.script.clone(),
                    stream: format!("{:?}", line.stream).to_lowercase(),
                    text: line.text.clone(),
                    job: line.job.clone(),
                });
            }
        })
    }

    fn push(&self, event: AgentEvent) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).push(event);
    }

    fn drain(&self) -> Vec<AgentEvent> {
        std::mem::take(&mut *self.queue.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

/// Adapts an [`Environment`] to the loop.
#[derive(Clone)]
pub struct EnvTools {
    env: Arc<Environment>,
    events: HostEvents,
}

impl folio_env::Asker for HostEvents {
    fn ask(&self, question: &str, options: &[String]) -> Result<Option<String>, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let id = {
            let mut asks = self.asks.lock().unwrap_or_else(|p| p.into_inner());
            asks.next += 1;
            let id = asks.next;
            asks.waiting.insert(id, tx);
            id
        };
        self.push(AgentEvent::Ask { id, question: question.to_owned(), options: options.to_vec() });
        // The verb runs on the blocking pool, so waiting here stalls nothing else.
        rx.recv().map_err(|_| "the window that was asking closed before an answer came".to_owned())
    }
}

impl EnvTools {
    /// Wraps `env`; `events` is the queue whose progress callback the environment was opened with.
    pub fn new(env: Arc<Environment>, events: HostEvents) -> EnvTools {
        EnvTools { env, events }
    }

    /// The environment.
    pub fn env(&self) -> &Arc<Environment> {
        &self.env
    }
}

impl Tools for EnvTools {
    fn definitions(&self) -> Vec<ToolDef> {
        self.env
            .tools()
            .into_iter()
            .map(|t| ToolDef { name: t.name.to_owned(), description: t.description, input_schema: t.schema })
            .collect()
    }

    /// Verbs are synchronous; each runs on the blocking pool so a long one never stalls the stream
    /// of another conversation. The model gets the full story: the message, then the data.
    /// Verbs are synchronous; each runs on the blocking pool so a long one never stalls the stream
    /// of another conversation. The loop's cancel reaches a running script through its own token,
    /// even after the loop has stopped waiting for the call. The model gets the full story: the
    /// message, then the data.
    fn call<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, ToolOutcome> {
        let env = self.env.clone();
        let verb = name.to_owned();
        let input = input.clone();
        let token = CancelToken::new();
        let watcher = {
            let (cancel, token, events) = (cancel.clone(), token.clone(), self.events.clone());
            tokio::spawn(async move {
                cancel.cancelled().await;
                token.cancel();
                events.cancel_questions();
            })
        };
        Box::pin(async move {
            let mutating = folio_env::verb(&verb).is_some_and(|spec| spec.mutates);
            let name = verb.clone();
            let joined = tokio::task::spawn_blocking(move || env.call_with_cancel(&name, input, &token)).await;
            watcher.abort();
            for p in self.env.take_presented() {
                self.events.push(AgentEvent::Presented {
                    path: p.path.to_string(),
                    name: p.name.clone(),
                    media_type: p.media_type.clone(),
                    size: p.size,
                    caption: p.caption.clone(),
                });
            }
            if mutating
                && let Some(overlay) = self.env.overlay()
                && let Ok(pending) = overlay.pending_count()
            {
                self.events.push(AgentEvent::OverlayChanged { pending });
            }
            match joined {
                Ok(result) if result.data.get("attach").is_some() => {
                    // view_image for a main model that can see: the image travels with the result.
                    let attach = &result.data["attach"];
                    let image = attach["path"]
                        .as_str()
                        .ok_or_else(|| "the result named no image path".to_string())
                        .and_then(|p| folio_vfs::VPath::parse(p).map_err(|e| format!("{p}: {e}")))
                        .and_then(|p| folio_vfs::Tree::read(self.env.tree(), &p).map_err(|e| format!("{p}: {e}")));
                    match image {
                        Ok(bytes) => ToolOutcome {
                            ok: true,
                            content: result.message,
                            images: vec![crate::message::Image {
                                media_type: attach["media_type"].as_str().unwrap_or("image/png").to_owned(),
                                data: crate::vision::encode(&bytes),
                            }],
                        },
                        Err(why) => ToolOutcome::text(
                            false,
                            format!(
                                "{}\n(the image could not be read back to attach it: {why} — view it again with view_image)",
                                result.message
                            ),
                        ),
                    }
                }
                Ok(result) => {
                    let mut content = result.message;
                    if !result.data.is_null() {
                        let data = match &result.data {
                            Value::String(s) => s.clone(),
                            other => serde_json::to_string_pretty(other).unwrap_or_default(),
                        };
                        if !content.is_empty() {
                            content.push('\n');
                        }
                        content.push_str(&data);
                    }
                    ToolOutcome { ok: result.status == Status::Success, content, images: Vec::new() }
                }
                Err(e) => ToolOutcome::text(
                    false,
                    format!(
                        "the verb crashed inside Folio ({e}); this is a bug — report it, and try another approach meanwhile"
                    ),
                ),
            }
        })
    }

    fn drain_events(&self) -> Vec<AgentEvent> {
        self.events.drain()
    }

    fn facts(&self) -> String {
        let list = |dir: &str| -> String {
            let v = self.env.call("ls", serde_json::json!({"path": dir, "depth": 3}));
            if v.status == Status::Success { v.message } else { format!("{dir}: (none)") }
        };
        format!("{}\n{}", list("/out"), list("/scripts"))
    }
}
