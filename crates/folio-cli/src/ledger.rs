//! `folio ledger`: what was sent to the model, read back from the store.
//!
//! The agent records each request as it sends it (`model_request` events, kept with the
//! conversation); this prints them. Each request carries the whole visible history, so the human
//! form shows only what is new since the request before it and counts the rest; `--json` prints
//! every entry whole, one per line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use folio_agent::{LedgerEntry, LedgerItem};
use folio_store::Store;

/// The arguments of `folio ledger`.
#[derive(Debug, clap::Args)]
pub(crate) struct LedgerArgs {
    /// The folder.
    folder: PathBuf,
    /// The conversation (default: the folder's most recent).
    #[arg(long, value_name = "ID")]
    conversation: Option<String>,
    /// Only the requests made for the person's Nth request (1-based).
    #[arg(long, value_name = "N")]
    turn: Option<u32>,
    /// Print each entry as one JSON object per line.
    #[arg(long)]
    json: bool,
}

/// The ledger entries stored for conversation `id`, in order.
pub(crate) fn entries(store: &Store, id: &str) -> Result<Vec<LedgerEntry>> {
    let mut out = Vec::new();
    for event in store.events(id)? {
        if event.get("type").and_then(|t| t.as_str()) == Some("model_request") {
            let entry = serde_json::from_value(event["entry"].clone()).map_err(|e| {
                anyhow!("a ledger entry of conversation {id} does not parse ({e}) — hint: it was written by another Folio version")
            })?;
            out.push(entry);
        }
    }
    Ok(out)
}

fn clip(text: &str, n: usize) -> String {
    let one: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one.chars().count() > n { format!("{}…", one.chars().take(n).collect::<String>()) } else { one }
}

fn describe(item: &LedgerItem) -> String {
    match item {
        LedgerItem::System { text } => format!("system prompt ({} chars)", text.chars().count()),
        LedgerItem::Text { role, text } => {
            let who = match role {
                folio_agent::Role::User => "text (you)",
                folio_agent::Role::Assistant => "text (model)",
            };
            format!("{who}: \"{}\"", clip(text, 100))
        }
        LedgerItem::ToolCall { name, id, arguments } => format!("tool call {name} {id}: {}", clip(arguments, 80)),
        LedgerItem::ToolResult { name, id, text, is_error, sources } => {
            let from = if sources.is_empty() {
                String::new()
            } else {
                let list: Vec<String> = sources
                    .iter()
                    .map(|s| match &s.range {
                        Some(r) => format!("{} ({r})", s.path),
                        None => s.path.clone(),
                    })
                    .collect();
                format!(" from {}", list.join(", "))
            };
            let failed = if *is_error { " [error]" } else { "" };
            format!("tool result {name} {id}{failed}, {} chars{from}: \"{}\"", text.chars().count(), clip(text, 80))
        }
        LedgerItem::Image { media_type, bytes, sha256, source, .. } => format!(
            "image {media_type}, {bytes} bytes, sha256 {}{}",
            &sha256[..sha256.len().min(16)],
            source.as_ref().map(|s| format!(", from {s}")).unwrap_or_default()
        ),
    }
}

pub(crate) fn run(state_dir: Option<PathBuf>, args: LedgerArgs) -> Result<ExitCode> {
    let state_root = match state_dir {
        Some(dir) => dir,
        None => folio_vfs::default_state_root()?,
    };
    let store = Store::open(&state_root.join("folio.sqlite"))?;
    let id = match &args.conversation {
        Some(id) => id.clone(),
        None => {
            let canonical = std::fs::canonicalize(&args.folder).unwrap_or_else(|_| args.folder.clone());
            let mut list = store.conversations(&canonical)?;
            if list.is_empty() {
                list = store.conversations(&args.folder)?;
            }
            list.into_iter().next().map(|c| c.id).ok_or_else(|| {
                anyhow!(
                    "no conversation over {} — hint: `folio ask {} \"…\"` starts one; its ledger is kept with it",
                    args.folder.display(),
                    args.folder.display()
                )
            })?
        }
    };
    store.conversation(&id)?;
    let all = entries(&store, &id)?;
    let mut out = std::io::stdout().lock();
    let shown: Vec<(usize, &LedgerEntry)> =
        all.iter().enumerate().filter(|(_, e)| args.turn.is_none_or(|t| e.turn == t)).collect();
    if args.json {
        for (_, entry) in &shown {
            writeln!(out, "{}", serde_json::to_string(entry)?)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let total: u64 = shown.iter().map(|(_, e)| e.body_bytes).sum();
    writeln!(out, "conversation {id}: {} model request(s), {total} bytes sent", shown.len())?;
    if shown.is_empty() {
        writeln!(out, "(nothing was sent{})", args.turn.map(|t| format!(" for request {t}")).unwrap_or_default())?;
    }
    for (i, entry) in shown {
        writeln!(
            out,
            "\nrequest {} call {} ({:?}, attempt {}) — {} {} → {}",
            entry.turn, entry.call, entry.purpose, entry.attempt, entry.provider, entry.model, entry.endpoint
        )?;
        writeln!(
            out,
            "  body {} bytes, sha256 {}; {} tool(s) offered",
            entry.body_bytes,
            entry.body_sha256,
            entry.tools.len()
        )?;
        // What the request before it (in the whole conversation) already carried is counted, not repeated.
        let before = i.checked_sub(1).map(|p| &all[p].items);
        let repeated = before.map_or(0, |b| b.iter().zip(&entry.items).take_while(|(a, c)| a == c).count());
        if repeated > 0 {
            writeln!(out, "  ({repeated} item(s) as in the request before)")?;
        }
        for item in &entry.items[repeated..] {
            writeln!(out, "  + {}", describe(item))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
