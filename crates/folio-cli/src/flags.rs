//! The flags every folder-opening subcommand shares (`ask`, `run`, `verbs`, `provenance`,
//! `regenerate`), translated into the workspace's [`Overrides`]: each overrides its stored
//! setting for this command only (`folio settings` shows and changes the stored ones). The rule
//! itself — flag, else stored, else environment default — is folio-workspace's.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use folio_workspace::{Overrides, ProviderName, SCRIPT_BUDGET_MAX_MS, SCRIPT_BUDGET_MIN_MS, Workspace};

/// Overrides of the stored settings for one command.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct Flags {
    /// anthropic, openai, openrouter, gemini, ollama or lmstudio (default: the stored setting,
    /// else `FOLIO_PROVIDER`, else anthropic).
    #[arg(long)]
    pub provider: Option<String>,
    /// The model id (default: the stored setting, else `FOLIO_MODEL`, else the provider's).
    #[arg(long)]
    pub model: Option<String>,
    /// Another endpoint speaking the provider's API, as its official SDK takes it (OpenAI's
    /// includes /v1, Anthropic's does not). Default: the stored setting, else `FOLIO_BASE_URL`.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Model calls before the run stops and asks to be continued (default: the stored setting, 120).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// How the agent sees images (`view_image`, `env:vision`): `main`, PROVIDER:MODEL, or `off`.
    /// Default: the stored setting.
    #[arg(long, value_name = "MODE")]
    pub vision: Option<String>,
    /// The run budget of one script, in milliseconds (default: the stored setting, 30000).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(SCRIPT_BUDGET_MIN_MS..=SCRIPT_BUDGET_MAX_MS))]
    pub run_budget_ms: Option<u64>,
    /// A path the agent may read but never change (repeatable).
    #[arg(long = "read-only", value_name = "PATH")]
    pub read_only: Vec<String>,
    /// Open the whole folder read-only: everything reads, nothing in it changes (/tmp still
    /// works), nothing becomes pending. Default: the folder's remembered choice.
    #[arg(long, conflicts_with = "writable")]
    pub read_only_folder: bool,
    /// Open the folder writable even though it was last opened read-only.
    #[arg(long)]
    pub writable: bool,
    /// An MCP server for this command, on top of the configured ones (repeatable):
    /// 'NAME=COMMAND ARGS…' (a stdio server; words split on spaces) or NAME=http://…/mcp.
    #[arg(long = "mcp", value_name = "NAME=COMMAND")]
    pub mcp: Vec<String>,
    /// Allow only a model provider on this machine (localhost, 127.0.0.1, ::1); the stored
    /// settings apply too, and the stricter wins.
    #[arg(long)]
    pub local_only: bool,
    /// A path pattern whose contents never reach the model (repeatable), on top of the folder's
    /// stored never-send list.
    #[arg(long = "never-send", value_name = "GLOB")]
    pub never_send: Vec<String>,
}

impl Flags {
    /// The workspace's overrides.
    pub fn overrides(&self) -> Result<Overrides> {
        let provider = match &self.provider {
            Some(p) => Some(ProviderName::parse(p)?),
            None => None,
        };
        Ok(Overrides {
            provider,
            model: self.model.clone(),
            base_url: self.base_url.clone(),
            max_turns: self.max_turns,
            vision: self.vision.clone(),
            script_budget_ms: self.run_budget_ms,
            read_only_folder: if self.read_only_folder {
                Some(true)
            } else if self.writable {
                Some(false)
            } else {
                None
            },
            read_only_paths: self.read_only.clone(),
            mcp: self.mcp.clone(),
            local_only: self.local_only,
            never_send: self.never_send.clone(),
        })
    }
}

/// The workspace under `state_dir` with `flags` laid over its settings.
pub(crate) fn workspace(state_dir: Option<PathBuf>, flags: &Flags) -> Result<Workspace> {
    Workspace::open(state_dir, flags.overrides()?).map_err(|e| anyhow!(e))
}

/// A multi-threaded runtime for MCP servers, the vision client and the model stream.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?)
}

/// Opens `folder` in `ws` for a command that prints as it goes, saying what opening found.
pub(crate) fn open(
    ws: &Workspace,
    folder: &std::path::Path,
    options: folio_workspace::FolderOptions,
    runtime: &tokio::runtime::Runtime,
) -> Result<folio_workspace::Folder> {
    let opened = ws.open_folder(folder, options, runtime.handle()).map_err(|e| anyhow!(e))?;
    for warning in opened.warnings() {
        eprintln!("folio: warning: {warning}");
    }
    Ok(opened)
}
