//! `folio ask`: one headless run of the agent loop over a folder.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Result, anyhow};
use folio_agent::{
    Agent, AgentConfig, AgentEvent, Conversation, EnvTools, FinishReason, HostEvents, Message, ModelClient,
    ToolCallStatus, Usage,
};
use folio_env::KeepPresented;
use folio_host::{Host, Seams};
use folio_store::{Secrets, Store};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// The arguments of `folio ask`.
#[derive(Debug, clap::Args)]
pub(crate) struct AskArgs {
    /// The folder.
    folder: PathBuf,
    /// What to do.
    prompt: Option<String>,
    /// anthropic, openai, openrouter, gemini, ollama or lmstudio (default: `FOLIO_PROVIDER`, else
    /// anthropic — the same default `folio doctor` and the desktop use).
    #[arg(long, env = "FOLIO_PROVIDER", default_value = "anthropic")]
    provider: String,
    /// The model id (default: `FOLIO_MODEL`, else the provider's; required for ollama and lmstudio).
    #[arg(long, env = "FOLIO_MODEL")]
    model: Option<String>,
    /// Another endpoint speaking the provider's API, as its official SDK takes it (OpenAI's
    /// includes /v1, Anthropic's does not). Default: `FOLIO_BASE_URL`.
    #[arg(long, value_name = "URL", env = "FOLIO_BASE_URL")]
    base_url: Option<String>,
    /// Continue this conversation (its id is printed when it starts).
    #[arg(long, value_name = "ID")]
    conversation: Option<String>,
    /// Model calls before the run stops and asks to be continued.
    #[arg(long, default_value_t = 120)]
    max_turns: u32,
    /// A path the agent may read but never change (repeatable).
    #[arg(long = "read-only", value_name = "PATH")]
    read_only: Vec<String>,
    /// Open the whole folder read-only: the agent reads everything, changes nothing in it (its
    /// scratch space /tmp still works), and nothing becomes pending.
    #[arg(long)]
    read_only_folder: bool,
    /// The run budget of one script, in milliseconds (default 30000): long work that cannot
    /// finish in it is refused up front, and a script still running at its end is stopped.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1000..=3_600_000))]
    run_budget_ms: Option<u64>,
    /// How the agent sees images (`view_image`, `env:vision`): `main` when the main model can
    /// see images, or PROVIDER:MODEL for a separate vision model (e.g. openai:gpt-4.1-mini).
    /// Without it both are absent.
    #[arg(long, value_name = "MODE")]
    vision: Option<String>,
    /// An MCP server for this run, on top of the configured ones (repeatable):
    /// 'NAME=COMMAND ARGS…' (a stdio server; words split on spaces) or NAME=http://…/mcp.
    /// Scripts import it as env:NAME.
    #[arg(long = "mcp", value_name = "NAME=COMMAND")]
    mcp: Vec<String>,
    /// Allow only a model provider on this machine (localhost, 127.0.0.1, ::1 — Ollama, LM
    /// Studio): anything else is refused before a connection is opened. The folder's and the
    /// global stored settings apply too; the stricter wins.
    #[arg(long)]
    local_only: bool,
    /// A path pattern whose contents never reach the model (repeatable, e.g. /clients/**), on
    /// top of the folder's stored never-send list. Scripts may still read them locally.
    #[arg(long = "never-send", value_name = "GLOB")]
    never_send: Vec<String>,
    /// Print the event stream as JSON lines.
    #[arg(long)]
    json: bool,
}

/// The folder's boundary: the stored global and folder settings, with `--local-only` and
/// `--never-send` added for this run.
fn boundary(store: &Store, args: &AskArgs) -> Result<folio_boundary::Boundary> {
    use folio_boundary::NetworkMode;
    let global = if args.local_only { NetworkMode::LocalOnly } else { store.global_mode()? };
    let own = store.folder_boundary(&args.folder)?;
    let mut patterns = own.never_send;
    patterns.extend(args.never_send.iter().cloned());
    Ok(folio_boundary::Boundary::new(global, own.mode, &patterns)?)
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
    let preset = folio_agent::preset_named(&args.provider).map_err(|e| anyhow!(e))?;
    let state_root = match state_dir {
        Some(dir) => dir,
        None => folio_vfs::default_state_root()?,
    };
    let store = Store::open(&state_root.join("folio.sqlite"))?;
    // The key file under the state root is where the desktop app saves keys when no keychain runs.
    let secrets = Secrets::for_state_root(&state_root);
    let (key, notice) = secrets.get(preset.name, preset.key_env);
    if let (Some(notice), Some(_)) = (&notice, preset.key_env) {
        eprintln!("folio: {notice}");
    }
    let provider = preset
        .provider(args.model.as_deref(), args.base_url.as_deref(), key.map(|(k, _)| k))
        .map_err(|e| anyhow!(e))?;
    // Refused here, before a conversation is created, when local-only mode forbids the provider.
    let boundary = boundary(&store, &args)?;
    boundary.check_url(folio_boundary::Crossing::Provider(preset.name), &provider.base_url)?;
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let host_events = HostEvents::default();
    let vision = folio_agent::vision_setup_within(
        args.vision.as_deref().unwrap_or(""),
        &provider,
        runtime.handle(),
        |p| secrets.get(p.name, p.key_env).0.map(|(k, _)| k),
        &boundary,
        Some(host_events.ledger_sink()),
    )
    .map_err(|e| anyhow!(e))?;
    let (seam, extra) = match vision {
        Some(v) => (Some(v.seam), v.modules),
        None => (None, Vec::new()),
    };
    let mounted =
        crate::mcp::mount_for_run(&state_root, &args.mcp, &args.folder, &boundary, &secrets, runtime.handle())?;
    let host = Host::builder().state_dir(Some(state_root)).modules(extra).mcp(mounted).build()?;
    let seams = Seams {
        read_only_paths: args.read_only.clone(),
        read_only_folder: args.read_only_folder,
        run_budget_ms: args.run_budget_ms,
        presenter: Some(Arc::new(KeepPresented)),
        on_progress: Some(host_events.progress_callback()),
        vision: seam,
        ..Seams::default()
    };
    let env = Arc::new(host.open_folder(&args.folder, seams)?);
    for warning in host.warnings() {
        eprintln!("folio: warning: {warning}");
    }
    let root = env.overlay().map(|o| o.root().to_path_buf()).unwrap_or_else(|| args.folder.clone());

    let (id, mut conversation, input) = match (&args.conversation, &args.prompt) {
        (Some(id), prompt) => {
            let info = store.conversation(id)?;
            if info.folder != root.display().to_string() {
                return Err(anyhow!(
                    "conversation {id} belongs to {}, not {} — hint: run it against its own folder, or omit --conversation",
                    info.folder,
                    root.display()
                ));
            }
            let conversation =
                folio_agent::conversation_from_stored(id, store.messages(id)?).map_err(|e| anyhow!(e))?;
            (id.clone(), conversation, prompt.clone().map(Message::user))
        }
        (None, Some(prompt)) => {
            (store.create_conversation(&root, prompt)?, Conversation::default(), Some(Message::user(prompt.clone())))
        }
        (None, None) => return Err(anyhow!("nothing to ask — hint: folio ask FOLDER \"what to do\"")),
    };

    let tools =
        Arc::new(EnvTools::new(env.clone(), host_events).with_boundary(boundary.clone()).with_conversation(id.clone()));
    let system = folio_agent::system_prompt(&folio_env::preamble(&env));
    let agent = Agent::new(
        ModelClient::new(provider)?.with_boundary(boundary),
        tools,
        AgentConfig { system, max_turns: args.max_turns, ..AgentConfig::default() },
    );
    let cancel = CancellationToken::new();
    let json_mode = args.json;
    let mut out = std::io::stdout();
    // The person's request is part of the transcript a later replay (the desktop app) shows.
    if let Some(Message { parts, .. }) = &input
        && let Some(folio_agent::Part::Text { text }) = parts.first()
    {
        store.append_event(&id, &json!({"type": "user", "text": text}))?;
    }
    if json_mode {
        writeln!(out, "{}", json!({"type": "conversation", "id": id}))?;
    } else {
        eprintln!("folio: conversation {id}");
    }
    let mut totals = Usage::default();
    let mut cost = 0.0;
    let mut priced = false;
    // A transcript that could not be saved is said once at the end, not swallowed per event.
    let mut store_failure: Option<String> = None;
    let result = runtime.block_on(async {
        let stop = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop.cancel();
            }
        });
        let style = crate::progress::Style::detect();
        let mut screen = crate::progress::Screen::with_prefix("    | ");
        let mut on_event = |event: AgentEvent| {
            let value = serde_json::to_value(&event).unwrap_or(Value::Null);
            if let Err(e) = store.record_event(&id, &value) {
                store_failure.get_or_insert_with(|| e.to_string());
            }
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
        agent.run(&mut conversation, input, &cancel, &mut on_event).await
    });
    let messages: Vec<Value> =
        conversation.messages.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect();
    store.save_messages(&id, &messages)?;
    if let Some(failure) = store_failure {
        eprintln!("folio: part of this run's transcript (events or hand-offs) was not saved: {failure}");
    }
    // A pending list that cannot be read is said, never counted as zero.
    let pending = match env.overlay().map(|o| o.pending()) {
        Some(Ok(changes)) => format!("{} change(s) pending", changes.len()),
        Some(Err(e)) => format!("the pending changes could not be read ({e})"),
        None => "nothing is pending (no folder overlay)".to_string(),
    };
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
    match result {
        Ok(FinishReason::Done | FinishReason::MaxTurns) => Ok(ExitCode::SUCCESS),
        Ok(FinishReason::Cancelled) => Ok(ExitCode::from(130)),
        Err(e) => Err(e.into()),
    }
}
