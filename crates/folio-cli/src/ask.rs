//! `folio ask`: one headless turn over a folder, through folio-workspace's `Folder::turn` (the
//! stored settings under this command's flags, the turn lock shared with the app, the
//! transcript recorded as it happens); this file prints the events and answers `ask_user`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use folio_agent::{AgentEvent, FinishReason, ToolCallStatus, Usage};
use folio_workspace::{Asking, FolderOptions, Shell, TurnEvent, TurnRequest};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// The arguments of `folio ask`.
#[derive(Debug, clap::Args)]
pub(crate) struct AskArgs {
    /// The folder.
    folder: PathBuf,
    /// What to do.
    prompt: Option<String>,
    /// Continue this conversation (its id is printed when it starts).
    #[arg(long, value_name = "ID")]
    conversation: Option<String>,
    /// Answers for the agent's ask_user, in order: a JSON list of strings (or one answer per
    /// line). Without it, a question is asked on the terminal; with neither, the agent has no
    /// ask_user tool.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    #[command(flatten)]
    flags: crate::flags::Flags,
    /// Print the event stream as JSON lines.
    #[arg(long)]
    json: bool,
}

/// Asks the agent's questions on the terminal: the question and its options on stderr, the
/// answer read from stdin (an empty line answers nothing).
struct TerminalAsker;

impl folio_env::Asker for TerminalAsker {
    fn ask(&self, question: &str, options: &[String]) -> std::result::Result<Option<String>, String> {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "\n? {question}");
        for (i, option) in options.iter().enumerate() {
            let _ = writeln!(err, "  {}. {option}", i + 1);
        }
        let _ = write!(err, "> ");
        let _ = err.flush();
        let mut line = String::new();
        std::io::stdin()
            .read_line(&mut line)
            .map_err(|e| format!("the answer could not be read from the terminal: {e}"))?;
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        // A number picks that option.
        let picked = line.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).and_then(|i| options.get(i));
        Ok(Some(picked.cloned().unwrap_or_else(|| line.to_owned())))
    }
}

/// Who answers ask_user: `--answers`, else the terminal, else nobody (the tool is absent).
pub(crate) fn asking(answers: Option<&PathBuf>) -> Result<Asking> {
    use std::io::IsTerminal;
    if let Some(file) = answers {
        let text = std::fs::read_to_string(file).map_err(|e| {
            anyhow!("cannot read the answers file {}: {e} — hint: pass a JSON list of strings", file.display())
        })?;
        return Ok(Asking::With(Arc::new(folio_env::Answers::parse(&text))));
    }
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        return Ok(Asking::With(Arc::new(TerminalAsker)));
    }
    Ok(Asking::Absent)
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    if line.chars().count() > 100 {
        format!("{}…", line.chars().take(100).collect::<String>())
    } else {
        line.to_owned()
    }
}

pub(crate) fn run(state_dir: Option<PathBuf>, args: AskArgs) -> Result<ExitCode> {
    let ws = crate::flags::workspace(state_dir, &args.flags)?;
    let settings = ws.settings()?;
    if let (Some(notice), Some(_)) = (ws.key(settings.provider.as_str()).1, settings.provider.preset().key_env) {
        eprintln!("folio: {notice}");
    }
    // The provider is refused here, before the folder opens, when it cannot start.
    ws.provider(&settings, None)?;
    let runtime = crate::flags::runtime()?;
    let options =
        FolderOptions { asking: asking(args.answers.as_ref())?, shell: Some(Shell::Cli), ..FolderOptions::default() };
    let folder = crate::flags::open(&ws, &args.folder, options, &runtime)?;
    let request = TurnRequest { conversation: args.conversation.clone(), text: args.prompt.clone() };
    if request.conversation.is_none() && request.text.is_none() {
        return Err(anyhow!("nothing to ask — hint: folio ask FOLDER \"what to do\""));
    }
    let cancel = CancellationToken::new();
    let json_mode = args.json;
    let mut out = std::io::stdout();
    let mut totals = Usage::default();
    let mut cost = 0.0;
    let mut priced = false;
    let mut conversation_id = String::new();
    let result = runtime.block_on(async {
        let stop = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop.cancel();
            }
        });
        let style = crate::progress::Style::detect();
        let mut screen = crate::progress::Screen::with_prefix("    | ");
        let mut on_event = |event: TurnEvent| {
            let event = match event {
                TurnEvent::Started { conversation_id: id, .. } => {
                    if json_mode {
                        let _ = writeln!(out, "{}", json!({"type": "conversation", "id": id}));
                    } else {
                        eprintln!("folio: conversation {id}");
                    }
                    conversation_id = id;
                    return;
                }
                TurnEvent::User { .. } => return,
                TurnEvent::Agent(event) => event,
            };
            let id = &conversation_id;
            let value = serde_json::to_value(&event).unwrap_or(Value::Null);
            if json_mode {
                let _ = writeln!(out, "{value}");
            } else {
                match &event {
                    AgentEvent::TextDelta { text } => {
                        let _ = write!(out, "{text}");
                        let _ = out.flush();
                    }
                    AgentEvent::ToolCallFinished { name, status, output, duration_ms, .. } => {
                        let mark = if *status == ToolCallStatus::Success { "ok" } else { status.name() };
                        let _ = writeln!(out, "\n  [{mark}] {name} ({duration_ms} ms) {}", first_line(output));
                    }
                    AgentEvent::Retrying { delay_ms, reason, .. } => {
                        eprintln!("folio: retrying in {delay_ms} ms — {reason}");
                    }
                    AgentEvent::Compacted { messages, .. } => {
                        let _ = writeln!(out, "\n  (earlier history summarised: {messages} messages, to stay within the model's window)");
                    }
                    AgentEvent::MaxTurns { turns } => {
                        let _ = writeln!(out, "\n\nStopped at the turn limit ({turns} model calls). Continue with: folio ask {} --conversation {id}", args.folder.display());
                    }
                    AgentEvent::Error { message } => eprintln!("folio: {message}"),
                    AgentEvent::ScriptProgress { run_id, script, text, job, .. } => {
                        let line = folio_env::ProgressLine {
                            run_id: run_id.clone(),
                            script: script.clone(),
                            // The stream was already folded into how the line reads.
                            stream: folio_env::Stream::Stdout,
                            text: text.clone(),
                            job: job.clone(),
                        };
                        crate::progress::draw(&mut std::io::stderr().lock(), &mut screen, style, &line);
                    }
                    AgentEvent::Presented { path, caption, .. } => {
                        let _ = writeln!(out, "  >> presented {path} — {caption}");
                    }
                    _ => {}
                }
            }
            if let AgentEvent::Usage { usage, cost_usd, .. } = &event {
                totals.input_tokens += usage.input_tokens;
                totals.output_tokens += usage.output_tokens;
                totals.cache_read_tokens += usage.cache_read_tokens;
                totals.cache_write_tokens += usage.cache_write_tokens;
                if let Some(c) = cost_usd {
                    cost += c;
                    priced = true;
                }
            }
        };
        folder.turn(request, &cancel, &mut on_event).await
    })?;
    if let Some(failure) = &result.store_failure {
        eprintln!("folio: part of this run's transcript (events or hand-offs) was not saved: {failure}");
    }
    // A pending list that cannot be read is said, never counted as zero.
    let pending = folder.pending_line();
    if !json_mode {
        // A model without a known price says so rather than printing nothing.
        let money = if priced { format!(", about ${cost:.4}") } else { ", cost unknown for this model".to_owned() };
        println!(
            "\n\n{pending} — review with `folio status {}`. Tokens: {} in ({} from cache), {} out{money}.",
            args.folder.display(),
            totals.input_tokens + totals.cache_read_tokens + totals.cache_write_tokens,
            totals.cache_read_tokens,
            totals.output_tokens,
        );
    }
    match result.result {
        Ok(FinishReason::Done | FinishReason::MaxTurns) => Ok(ExitCode::SUCCESS),
        Ok(FinishReason::Cancelled) => Ok(ExitCode::from(130)),
        Err(e) => Err(e.into()),
    }
}
