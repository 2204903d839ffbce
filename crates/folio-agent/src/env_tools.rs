//! The working environment's verbs as the loop's [`Tools`].
//!
//! Two boundary duties sit here, because only this adapter knows what each verb reads:
//! **never-send paths** — a call that would return a covered file's contents (read_file,
//! view_image, describe, diff, edit_file, grep inside it, cp/mv out of the list) is refused with
//! [`folio_boundary::BoundaryError::NeverSend`]'s message before the verb runs, and grep's matches
//! in covered files are withheld (counted, not shown); `run_script` runs, since a script
//! processes files on this machine and only its result reaches the model — and **provenance** —
//! each result carries the files (and line or page ranges) it came from, for the egress ledger.

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

    /// A ledger sink for clients whose calls happen inside a tool (the vision model's): each
    /// entry joins the conversation's events when the loop next drains them.
    pub fn ledger_sink(&self) -> crate::ledger::LedgerSink {
        let queue = self.queue.clone();
        Arc::new(move |entry| {
            queue.lock().unwrap_or_else(|p| p.into_inner()).push(AgentEvent::ModelRequest { entry: Box::new(entry) })
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
    boundary: folio_boundary::Boundary,
    /// The conversation the loop runs (named in script runs' provenance).
    conversation: Option<String>,
    /// Who asks for the calls now: set by [`Tools::on_turn`] before each model call's tools.
    origin: Arc<std::sync::Mutex<folio_env::RunOrigin>>,
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
        EnvTools {
            env,
            events,
            boundary: folio_boundary::Boundary::open(),
            conversation: None,
            origin: Arc::new(std::sync::Mutex::new(folio_env::RunOrigin::Direct)),
        }
    }

    /// The same tools naming `conversation` in the provenance of the scripts they run.
    pub fn with_conversation(mut self, conversation: impl Into<String>) -> EnvTools {
        self.conversation = Some(conversation.into());
        self
    }

    /// The same tools refusing the folder's never-send paths.
    pub fn with_boundary(mut self, boundary: folio_boundary::Boundary) -> EnvTools {
        self.boundary = boundary;
        self
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
    /// of another conversation. The loop's cancel reaches a running script through its own token,
    /// even after the loop has stopped waiting for the call. The model gets the message, which
    /// is the whole answer said once (the data is for hosts).
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
        let refusal = self.refusal(&verb, &input);
        let sources = sources_of(&verb, &input);
        Box::pin(async move {
            if let Some(why) = refusal {
                watcher.abort();
                return ToolOutcome::text(false, why);
            }
            let mutating = folio_env::verb(&verb).is_some_and(|spec| spec.mutates);
            let name = verb.clone();
            let origin = self.origin.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let joined = tokio::task::spawn_blocking(move || env.call_as(&name, input, &token, &origin)).await;
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
                                source: sources.first().map(|s| s.path.clone()),
                            }],
                            sources,
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
                    // The message is the whole answer; the data is its structured twin for
                    // hosts, and sending both would say everything twice.
                    let mut content = result.model_text().to_owned();
                    if verb == "grep" {
                        let (kept, withheld) = self.withhold_matches(&content);
                        content = kept;
                        let sources = grep_sources(&content);
                        return ToolOutcome {
                            ok: result.status == Status::Success,
                            content,
                            images: Vec::new(),
                            sources,
                        }
                        .noting(withheld);
                    }
                    let sources = if verb == "read_file" { read_range(sources, &content) } else { sources };
                    ToolOutcome { ok: result.status == Status::Success, content, images: Vec::new(), sources }
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

    fn on_turn(&self, turn: &crate::agent::TurnContext) {
        *self.origin.lock().unwrap_or_else(|p| p.into_inner()) = folio_env::RunOrigin::Agent {
            conversation: self.conversation.clone(),
            turn: turn.request,
            call: turn.call,
            model: turn.model.clone(),
        };
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

/// A path argument as the VFS spells it (`/a/b`), or as given when it does not parse.
fn vpath(raw: &str) -> String {
    folio_vfs::VPath::parse(raw).map(|p| p.to_string()).unwrap_or_else(|_| raw.to_owned())
}

/// The verbs whose `path` argument's contents reach the model.
const READS_PATH: &[&str] = &["read_file", "view_image", "describe", "diff", "edit_file"];

/// What a call reads, before it runs: the file it names, with the part asked for.
fn sources_of(verb: &str, input: &Value) -> Vec<crate::ledger::Source> {
    let Some(path) = input["path"].as_str().filter(|_| READS_PATH.contains(&verb)) else { return Vec::new() };
    let range = match verb {
        "view_image" => input["page"].as_u64().map(|p| format!("page {p}")),
        _ => None,
    };
    vec![crate::ledger::Source { path: vpath(path), range }]
}

/// read_file's range, from the header it prints when it shows part of a file
/// (`showing lines 1–200 of 5,000 (/a.csv)`); the whole file otherwise.
fn read_range(mut sources: Vec<crate::ledger::Source>, content: &str) -> Vec<crate::ledger::Source> {
    let shown = content
        .lines()
        .take(2)
        .find_map(|l| l.strip_prefix("showing "))
        .and_then(|rest| rest.split(" of ").next())
        .map(str::to_owned);
    if let (Some(first), Some(range)) = (sources.first_mut(), shown) {
        first.range = Some(range);
    }
    sources
}

/// The file a grep output line is about: the text before `:LINE:`, `:LINE-` or ` (page …):`.
fn grep_line_file(line: &str) -> Option<(&str, &str)> {
    if !line.starts_with('/') {
        return None;
    }
    for (i, _) in line.match_indices(':') {
        let rest = &line[i + 1..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && matches!(rest[digits..].chars().next(), Some(':') | Some('-')) {
            let at = &line[..i];
            let file = at.split_once(" (").map_or(at, |(f, _)| f);
            return Some((file, &rest[..digits]));
        }
    }
    None
}

/// The files grep's shown matches came from, each with its matching line numbers.
fn grep_sources(content: &str) -> Vec<crate::ledger::Source> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in content.lines() {
        let Some((file, number)) = grep_line_file(line) else { continue };
        match out.iter_mut().find(|(f, _)| f == file) {
            Some((_, lines)) => {
                if !lines.iter().any(|l| l == number) {
                    lines.push(number.to_owned());
                }
            }
            None => out.push((file.to_owned(), vec![number.to_owned()])),
        }
    }
    out.into_iter()
        .map(|(path, lines)| crate::ledger::Source { path, range: Some(format!("lines {}", lines.join(", "))) })
        .collect()
}

impl ToolOutcome {
    /// The same outcome, saying how many grep lines were withheld as never-send.
    fn noting(mut self, withheld: Option<(usize, String)>) -> ToolOutcome {
        if let Some((lines, pattern)) = withheld {
            self.content.push_str(&format!(
                "\n({lines} line(s) from files on this folder's never-send list ({pattern}) withheld — their contents never reach the model; search them in a script and return only what may be shared)"
            ));
        }
        self
    }
}

impl EnvTools {
    /// Why this call may not run: it would return a never-send file's contents.
    fn refusal(&self, verb: &str, input: &Value) -> Option<String> {
        let check = |raw: &str| self.boundary.check_read(&vpath(raw)).err().map(|e| e.to_string());
        match verb {
            v if READS_PATH.contains(&v) => input["path"].as_str().and_then(check),
            // A search rooted inside a covered folder or file shows nothing else.
            "grep" => input["path"].as_str().and_then(check),
            // A copy out of the list would make the contents readable under another name.
            "cp" | "mv" => {
                let from = input["from"].as_str()?;
                let to = input["to"].as_str().unwrap_or_default();
                let refused = check(from)?;
                if self.boundary.never_send(&vpath(to)).is_some() { None } else { Some(refused) }
            }
            _ => None,
        }
    }

    /// grep's output without the lines of covered files, and how many went (with a pattern).
    fn withhold_matches(&self, content: &str) -> (String, Option<(usize, String)>) {
        let mut withheld = 0;
        let mut pattern = String::new();
        let mut kept: Vec<&str> = Vec::new();
        for line in content.lines() {
            if let Some((file, _)) = grep_line_file(line)
                && let Some(p) = self.boundary.never_send(file)
            {
                withheld += 1;
                pattern = p.to_owned();
                continue;
            }
            kept.push(line);
        }
        if withheld == 0 {
            return (content.to_owned(), None);
        }
        // Context separators left next to each other (or at an end) by withheld blocks go too.
        let mut tidy: Vec<&str> = Vec::new();
        for line in kept {
            if line == "--" && tidy.last().is_none_or(|l| *l == "--") {
                continue;
            }
            tidy.push(line);
        }
        while tidy.last() == Some(&"--") {
            tidy.pop();
        }
        (tidy.join("\n"), Some((withheld, pattern)))
    }
}
