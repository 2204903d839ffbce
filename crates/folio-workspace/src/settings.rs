//! The agent's settings, typed, and the one rule that layers a shell's flags over them.
//!
//! **What is stored.** One JSON value under the store's `agent.settings` key (the app's Settings
//! dialog writes it, `folio settings set` too): the provider, model, base URL, vision model, turn
//! limit and script run budget. The API key is not among them: it lives in the keychain or the key
//! file ([`crate::keys`]).
//!
//! **The rule, for both shells.** A value is, in order: the shell's flag ([`Overrides`]), else the
//! stored setting, else — while nothing was ever saved — the environment's default
//! (`FOLIO_PROVIDER`, `FOLIO_MODEL`, `FOLIO_BASE_URL`), else the built-in default. So the README's
//! `export FOLIO_PROVIDER=ollama` works on a fresh machine, Settings saved in the app govern `folio
//! ask` on the same state root, and `--model` on one command wins over both.
//!
//! **Bounds in one place.** The script run budget's bounds and default live here
//! ([`SCRIPT_BUDGET_MIN_MS`], [`SCRIPT_BUDGET_MAX_MS`], [`DEFAULT_SCRIPT_BUDGET_MS`]); the app's
//! dialog and the CLI's flags both check through [`check_script_budget`].

use serde::{Deserialize, Serialize};

use crate::WorkspaceError;

/// The store key the settings are saved under.
pub const SETTINGS_KEY: &str = "agent.settings";

/// The turn limit (model calls per request) when none was saved.
pub const DEFAULT_MAX_TURNS: u32 = 120;
/// The script run budget when none was saved: 30 s.
pub const DEFAULT_SCRIPT_BUDGET_MS: u64 = 30_000;
/// The smallest script run budget accepted: 1 s.
pub const SCRIPT_BUDGET_MIN_MS: u64 = 1_000;
/// The largest script run budget accepted: 60 min (the CLI's bound before the shells shared one).
pub const SCRIPT_BUDGET_MAX_MS: u64 = 60 * 60_000;

/// The model providers Folio knows: one variant per `folio_agent::PRESETS` row (a test keeps the
/// two in step), stored and named by the preset's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderName {
    /// Anthropic's Messages API.
    Anthropic,
    /// OpenAI (and any compatible endpoint given a base URL).
    Openai,
    /// OpenRouter.
    Openrouter,
    /// Google Gemini.
    Gemini,
    /// A local Ollama.
    Ollama,
    /// A local LM Studio.
    Lmstudio,
}

impl ProviderName {
    /// Every provider, in the presets' order.
    pub const ALL: [ProviderName; 6] = [
        ProviderName::Anthropic,
        ProviderName::Openai,
        ProviderName::Openrouter,
        ProviderName::Gemini,
        ProviderName::Ollama,
        ProviderName::Lmstudio,
    ];

    /// The preset's name (`anthropic`, `openai`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderName::Anthropic => "anthropic",
            ProviderName::Openai => "openai",
            ProviderName::Openrouter => "openrouter",
            ProviderName::Gemini => "gemini",
            ProviderName::Ollama => "ollama",
            ProviderName::Lmstudio => "lmstudio",
        }
    }

    /// The provider called `name` (any case), or an error listing the names Folio knows.
    pub fn parse(name: &str) -> Result<ProviderName, WorkspaceError> {
        let name = name.trim();
        ProviderName::ALL
            .into_iter()
            .find(|p| p.as_str().eq_ignore_ascii_case(name))
            .ok_or_else(|| WorkspaceError::Invalid(folio_agent::preset_named(name).err().unwrap_or_default()))
    }

    /// Its preset (endpoint, default model, key variable).
    pub fn preset(self) -> &'static folio_agent::Preset {
        // The presets table is the one home of these facts; the test below keeps it in step.
        folio_agent::PRESETS.iter().find(|p| p.name == self.as_str()).unwrap_or(&folio_agent::PRESETS[0])
    }
}

impl std::fmt::Display for ProviderName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

fn default_script_budget_ms() -> u64 {
    DEFAULT_SCRIPT_BUDGET_MS
}

/// The agent's settings, as stored — and as the app's Settings dialog sends and shows them (the
/// desktop's `AgentSettings`, its TypeScript type generated from this one with the `ts` feature).
/// The API key is not among them: it lives in the keychain or the key file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AgentSettings"))]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// The provider's name (one of the presets').
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub provider: ProviderName,
    /// The model id; empty for the provider's default.
    pub model: String,
    /// Another endpoint speaking the provider's API; empty for the provider's own.
    pub base_url: String,
    /// How the agent sees images: empty (it does not), `main`, or `PROVIDER:MODEL`. Applies to
    /// folders opened after it is saved.
    pub vision_model: String,
    /// The run budget: model calls per request before the agent stops and offers Continue.
    pub max_turns: u32,
    /// The script run budget: the wall-clock milliseconds one script run may take (the agent's
    /// and the catalogue's alike), from 1 s to 60 min; 30 s when never saved. Applies to folders
    /// opened after it is saved.
    #[serde(default = "default_script_budget_ms")]
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub script_budget_ms: u64,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty())
}

impl Settings {
    /// What nothing saved means: the environment's choice, else Anthropic's defaults. An unknown
    /// `FOLIO_PROVIDER` is refused, naming the ones Folio knows.
    pub fn defaults() -> Result<Settings, WorkspaceError> {
        let provider = match env("FOLIO_PROVIDER") {
            Some(name) => {
                ProviderName::parse(&name).map_err(|e| WorkspaceError::Invalid(format!("FOLIO_PROVIDER: {e}")))?
            }
            None => ProviderName::Anthropic,
        };
        Ok(Settings {
            provider,
            model: env("FOLIO_MODEL").unwrap_or_default(),
            base_url: env("FOLIO_BASE_URL").unwrap_or_default(),
            vision_model: String::new(),
            max_turns: DEFAULT_MAX_TURNS,
            script_budget_ms: DEFAULT_SCRIPT_BUDGET_MS,
        })
    }

    /// Refuses settings that cannot run: a turn limit of 0, a script budget out of bounds.
    pub fn check(&self) -> Result<(), WorkspaceError> {
        if self.max_turns == 0 {
            return Err(WorkspaceError::Invalid(
                "the run budget must be at least 1 model call — 120 is the default".to_owned(),
            ));
        }
        check_script_budget(self.script_budget_ms)
    }

    /// The model, `None` for the provider's default.
    pub fn model(&self) -> Option<&str> {
        Some(self.model.trim()).filter(|m| !m.is_empty())
    }

    /// The base URL, `None` for the provider's own.
    pub fn base_url(&self) -> Option<&str> {
        Some(self.base_url.trim()).filter(|u| !u.is_empty())
    }
}

/// Refuses a script run budget outside [`SCRIPT_BUDGET_MIN_MS`]..=[`SCRIPT_BUDGET_MAX_MS`],
/// naming the bounds.
pub fn check_script_budget(ms: u64) -> Result<(), WorkspaceError> {
    if (SCRIPT_BUDGET_MIN_MS..=SCRIPT_BUDGET_MAX_MS).contains(&ms) {
        return Ok(());
    }
    Err(WorkspaceError::Invalid(format!(
        "the script run budget must be between 1 s and 60 min ({SCRIPT_BUDGET_MIN_MS}–{SCRIPT_BUDGET_MAX_MS} ms), got {} — 30 s is the default",
        folio_budget::duration_words(ms)
    )))
}

/// What a shell's flags say for this run, over the stored settings ([`Settings`]' rule). `None`
/// (or empty) leaves the stored value.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--provider`.
    pub provider: Option<ProviderName>,
    /// `--model`.
    pub model: Option<String>,
    /// `--base-url`.
    pub base_url: Option<String>,
    /// `--max-turns`.
    pub max_turns: Option<u32>,
    /// `--vision` (`off` turns a stored vision model off for this run).
    pub vision: Option<String>,
    /// `--run-budget-ms`.
    pub script_budget_ms: Option<u64>,
    /// `--read-only-folder` (`Some(true)`) or `--writable` (`Some(false)`) over the folder's
    /// remembered choice.
    pub read_only_folder: Option<bool>,
    /// Paths the agent may read but never change, on top of the folder's.
    pub read_only_paths: Vec<String>,
    /// MCP servers for this run on top of the configured ones (`NAME=COMMAND …`, `NAME=URL`).
    pub mcp: Vec<String>,
    /// `--local-only` for this run (the stricter of it and the stored modes wins).
    pub local_only: bool,
    /// Never-send patterns on top of the folder's.
    pub never_send: Vec<String>,
}

impl Overrides {
    /// `stored` with these flags laid over it; the result is checked.
    pub fn apply(&self, stored: Settings) -> Result<Settings, WorkspaceError> {
        let provider_changed = self.provider.is_some_and(|p| p != stored.provider);
        let mut s = stored;
        if let Some(p) = self.provider {
            s.provider = p;
            if provider_changed {
                // The stored model and endpoint belong to the stored provider.
                s.model.clear();
                s.base_url.clear();
            }
        }
        if let Some(m) = &self.model {
            s.model.clone_from(m);
        }
        if let Some(u) = &self.base_url {
            s.base_url.clone_from(u);
        }
        if let Some(n) = self.max_turns {
            s.max_turns = n;
        }
        if let Some(v) = &self.vision {
            s.vision_model = if v.trim() == "off" { String::new() } else { v.clone() };
        }
        if let Some(ms) = self.script_budget_ms {
            s.script_budget_ms = ms;
        }
        s.check()?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_enum_and_the_presets_table_name_the_same_providers() {
        let names: Vec<&str> = folio_agent::PRESETS.iter().map(|p| p.name).collect();
        let ours: Vec<&str> = ProviderName::ALL.iter().map(|p| p.as_str()).collect();
        assert_eq!(names, ours);
        for p in ProviderName::ALL {
            assert_eq!(p.preset().name, p.as_str());
            assert_eq!(serde_json::to_value(p).unwrap(), serde_json::json!(p.as_str()));
        }
        assert!(ProviderName::parse("nope").unwrap_err().to_string().contains("anthropic"));
    }

    #[test]
    fn flags_win_over_stored_values_and_a_new_provider_drops_the_old_model() {
        let stored = Settings {
            provider: ProviderName::Openai,
            model: "m1".into(),
            base_url: "http://127.0.0.1:1/v1".into(),
            vision_model: "main".into(),
            max_turns: 5,
            script_budget_ms: 2_000,
        };
        assert_eq!(Overrides::default().apply(stored.clone()).unwrap(), stored);
        let o = Overrides {
            model: Some("m2".into()),
            max_turns: Some(9),
            vision: Some("off".into()),
            ..Default::default()
        };
        let s = o.apply(stored.clone()).unwrap();
        assert_eq!((s.model.as_str(), s.max_turns, s.vision_model.as_str()), ("m2", 9, ""));
        let o = Overrides { provider: Some(ProviderName::Ollama), ..Default::default() };
        let s = o.apply(stored.clone()).unwrap();
        assert_eq!((s.provider, s.model.as_str(), s.base_url.as_str()), (ProviderName::Ollama, "", ""));
        let o = Overrides { script_budget_ms: Some(10), ..Default::default() };
        assert!(o.apply(stored).unwrap_err().to_string().contains("between 1 s and 60 min"));
    }

    #[test]
    fn the_stored_form_is_the_apps() {
        let v = serde_json::json!({"provider": "openai", "model": "", "baseUrl": "", "visionModel": "", "maxTurns": 3});
        let s: Settings = serde_json::from_value(v).unwrap();
        assert_eq!((s.provider, s.max_turns, s.script_budget_ms), (ProviderName::Openai, 3, DEFAULT_SCRIPT_BUDGET_MS));
    }
}
