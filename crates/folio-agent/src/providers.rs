//! The providers Folio knows by name. Any other OpenAI- or Anthropic-compatible endpoint works
//! with an explicit base URL.

use crate::client::{Pricing, Provider};
use crate::error::Site;
use crate::wire::WireFormat;

/// A named provider's defaults.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Preset {
    /// The name used on the command line and in settings.
    pub name: &'static str,
    /// The API it speaks.
    pub format: WireFormat,
    /// Base URL, as the official SDKs take it (OpenAI-style includes `/v1`).
    pub base_url: &'static str,
    /// The model used when none is given; empty when the person must choose (local servers).
    pub default_model: &'static str,
    /// The environment variable holding the key, when the provider needs one.
    pub key_env: Option<&'static str>,
    /// Context window of the default model, in tokens.
    pub context_window: u64,
    /// List prices of the default model in USD per million tokens (input, output, cache read,
    /// cache write), as published in 2026; `None` where the model runs locally or the price varies.
    pub pricing: Option<Pricing>,
}

/// Every named provider.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "anthropic",
        format: WireFormat::Anthropic,
        base_url: "https://api.anthropic.com",
        default_model: "claude-sonnet-4-5",
        key_env: Some("ANTHROPIC_API_KEY"),
        context_window: 200_000,
        pricing: Some(Pricing { input: 3.0, output: 15.0, cache_read: 0.3, cache_write: 3.75 }),
    },
    Preset {
        name: "openai",
        format: WireFormat::OpenAi,
        base_url: "https://api.openai.com/v1",
        default_model: "gpt-4.1",
        key_env: Some("OPENAI_API_KEY"),
        context_window: 1_000_000,
        pricing: Some(Pricing { input: 2.0, output: 8.0, cache_read: 0.5, cache_write: 0.0 }),
    },
    Preset {
        name: "openrouter",
        format: WireFormat::OpenAi,
        base_url: "https://openrouter.ai/api/v1",
        default_model: "anthropic/claude-sonnet-4.5",
        key_env: Some("OPENROUTER_API_KEY"),
        context_window: 200_000,
        pricing: None,
    },
    Preset {
        name: "gemini",
        format: WireFormat::OpenAi,
        base_url: "https://generativelanguage.googleapis.com/v1beta/openai",
        default_model: "gemini-2.5-flash",
        key_env: Some("GEMINI_API_KEY"),
        context_window: 1_000_000,
        pricing: None,
    },
    Preset {
        name: "ollama",
        format: WireFormat::OpenAi,
        base_url: "http://localhost:11434/v1",
        default_model: "",
        key_env: None,
        context_window: 32_768,
        pricing: None,
    },
    Preset {
        name: "lmstudio",
        format: WireFormat::OpenAi,
        base_url: "http://localhost:1234/v1",
        default_model: "",
        key_env: None,
        context_window: 32_768,
        pricing: None,
    },
];

/// The preset named `name`.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

impl Preset {
    /// A provider from this preset; `model` and `base_url` override the defaults.
    pub fn provider(
        &self,
        model: Option<&str>,
        base_url: Option<&str>,
        api_key: Option<String>,
    ) -> Result<Provider, String> {
        let model = model.filter(|m| !m.is_empty()).unwrap_or(self.default_model);
        if model.is_empty() {
            return Err(format!(
                "{} serves whatever model you pulled, so Folio cannot guess one — hint: pass --model, e.g. --model llama3.1 (list them with `ollama list`)",
                self.name
            ));
        }
        if api_key.is_none()
            && let Some(var) = self.key_env
        {
            return Err(format!(
                "no API key for {}: none is saved in the keychain and {var} is not set — hint: export {var}=… (or save it in Folio's settings)",
                self.name
            ));
        }
        let mut p = Provider::new(self.format, base_url.unwrap_or(self.base_url), model);
        p.api_key = api_key;
        p.context_window = self.context_window;
        p.pricing = if model == self.default_model { self.pricing } else { None };
        p.preset = Some(self.name.to_owned());
        Ok(p)
    }
}

// Kept beside the presets it reads, so the client does not import the table that imports it.
impl Provider {
    /// Where calls go, for error messages and the ledger: the preset it was made from, else the
    /// preset whose host it is, else the API it speaks (`OpenAI-compatible`).
    pub fn site(&self) -> Site {
        let endpoint = self.endpoint();
        let host_of = |url: &str| -> String {
            let rest = url.split_once("://").map_or(url, |(_, r)| r);
            rest.split(['/', '?']).next().unwrap_or(rest).to_owned()
        };
        let host = host_of(&self.base_url);
        let provider = self
            .preset
            .clone()
            .or_else(|| {
                PRESETS
                    .iter()
                    .find(|p| p.format == self.format && host_of(p.base_url) == host)
                    .map(|p| p.name.to_owned())
            })
            .unwrap_or_else(|| {
                match self.format {
                    WireFormat::Anthropic => "Anthropic-compatible",
                    WireFormat::OpenAi => "OpenAI-compatible",
                }
                .to_owned()
            });
        Site { provider, host, model: self.model.clone(), endpoint }
    }
}
