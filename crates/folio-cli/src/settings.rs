//! `folio settings`: the stored settings the app's Settings dialog shows — provider, model, base
//! URL, vision model, turn limit, script run budget — and a folder's remembered read-only choice;
//! `folio settings set` changes them (checked by folio-workspace, the same rules as the dialog).
//! Every folder-opening subcommand applies them unless one of its flags overrides a value.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, anyhow};
use folio_workspace::{Overrides, ProviderName, Workspace};

/// `folio settings …`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SettingsCommand {
    /// Print the stored settings (and where the provider's key is found).
    Show {
        /// Print JSON (the stored form).
        #[arg(long)]
        json: bool,
    },
    /// Change stored settings; each flag given replaces its value (an empty string clears a model,
    /// base URL or vision model).
    Set {
        /// The provider.
        #[arg(long)]
        provider: Option<String>,
        /// The model id (empty: the provider's default).
        #[arg(long)]
        model: Option<String>,
        /// The endpoint (empty: the provider's own).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
        /// How the agent sees images: `main`, PROVIDER:MODEL, or empty for not at all.
        #[arg(long, value_name = "MODE")]
        vision: Option<String>,
        /// Model calls per request before the run stops.
        #[arg(long, value_name = "N")]
        max_turns: Option<u32>,
        /// The script run budget in milliseconds (1000–3600000: 1 s to 60 min).
        #[arg(long, value_name = "MS")]
        run_budget_ms: Option<u64>,
    },
    /// Remember FOLDER as read-only (`on`) or writable (`off`), as the app's Open Folder choice
    /// does: every later command over it applies the choice unless --read-only-folder/--writable.
    ReadOnly {
        /// The folder.
        folder: PathBuf,
        /// on or off.
        #[arg(value_parser = ["on", "off"])]
        choice: String,
    },
}

pub(crate) fn run(state_dir: Option<PathBuf>, command: SettingsCommand) -> Result<ExitCode> {
    let ws = Workspace::open(state_dir, Overrides::default())?;
    match command {
        SettingsCommand::Show { json } => show(&ws, json),
        SettingsCommand::Set { provider, model, base_url, vision, max_turns, run_budget_ms } => {
            let mut s = ws.stored_settings()?;
            if let Some(p) = provider {
                let p = ProviderName::parse(&p)?;
                if p != s.provider {
                    s.model.clear();
                    s.base_url.clear();
                }
                s.provider = p;
            }
            if let Some(m) = model {
                s.model = m;
            }
            if let Some(u) = base_url {
                s.base_url = u;
            }
            if let Some(v) = vision {
                s.vision_model = v;
            }
            if let Some(n) = max_turns {
                s.max_turns = n;
            }
            if let Some(ms) = run_budget_ms {
                s.script_budget_ms = ms;
            }
            ws.save_settings(&s, None)?;
            show(&ws, false)
        }
        SettingsCommand::ReadOnly { folder, choice } => {
            let real = std::fs::canonicalize(&folder)
                .map_err(|e| anyhow!("{} is not a folder Folio can open: {e}", folder.display()))?;
            ws.remember(&real, choice == "on")?;
            println!("{} opens {} from now on", real.display(), if choice == "on" { "read-only" } else { "writable" });
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn show(ws: &Workspace, json: bool) -> Result<ExitCode> {
    let s = ws.stored_settings()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&s)?);
        return Ok(ExitCode::SUCCESS);
    }
    let preset = s.provider.preset();
    let or = |v: &str, default: &str| if v.trim().is_empty() { format!("({default})") } else { v.to_owned() };
    println!("provider        {}", s.provider);
    println!(
        "model           {}",
        or(&s.model, if preset.default_model.is_empty() { "none — set one" } else { preset.default_model })
    );
    println!("base URL        {}", or(&s.base_url, preset.base_url));
    println!("vision          {}", or(&s.vision_model, "off"));
    println!("turn limit      {} model calls", s.max_turns);
    println!("script budget   {}", folio_budget::duration_words(s.script_budget_ms));
    let key = match ws.key(s.provider.as_str()).0 {
        Some(found) => format!("found in {}", found.source),
        None if preset.key_env.is_none() => "none needed".to_owned(),
        None => "not found".to_owned(),
    };
    println!("key             {key}");
    Ok(ExitCode::SUCCESS)
}
