//! What every host does around a run, shared by the `folio` command and the desktop app: resolving
//! a named provider, restoring a stored conversation, and checking a connection with one minimal
//! real request whose outcome is reported by name.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use crate::agent::Conversation;
use crate::client::{ModelClient, Provider};
use crate::error::AgentError;
use crate::message::{Message, ModelRequest};
use crate::providers::{PRESETS, Preset, preset};

/// The preset named `name`, or an error listing the names Folio knows.
pub fn preset_named(name: &str) -> Result<&'static Preset, String> {
    preset(name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!(
            "no provider named `{name}` — hint: use one of {}, or any compatible endpoint with provider openai and a base URL",
            names.join(", ")
        )
    })
}

/// Restores a conversation from the messages a store kept (each one JSON value, in order).
pub fn conversation_from_stored(id: &str, stored: Vec<serde_json::Value>) -> Result<Conversation, String> {
    let messages: Result<Vec<Message>, _> = stored.into_iter().map(serde_json::from_value).collect();
    messages
        .map(|messages| Conversation { messages })
        .map_err(|e| format!("conversation {id} was saved by an incompatible Folio ({e}) — hint: start a new one"))
}

/// How a connection check ended, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConnectionOutcome {
    /// The model answered.
    Ok,
    /// The key was refused (401, 403).
    Unauthorised,
    /// The endpoint or the model does not exist there (404).
    NotFound,
    /// Nothing answered at the base URL (DNS, refused connection, TLS).
    Unreachable,
    /// The provider is rate-limiting this key (429).
    RateLimited,
    /// The provider answered something else (a 4xx/5xx, a stream Folio cannot read).
    Failed,
}

/// The result of [`test_connection`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionReport {
    /// How it ended.
    pub outcome: ConnectionOutcome,
    /// The model asked.
    pub model: String,
    /// Wall time of the request.
    pub latency_ms: u64,
    /// One line for the person: what happened and, unless it worked, the fix.
    pub message: String,
}

/// Makes one minimal streamed request (a few output tokens, no tools, no retries) and reports the
/// outcome by name. Costs a handful of tokens on a paid provider.
pub async fn test_connection(provider: &Provider) -> ConnectionReport {
    test_connection_within(provider, &folio_boundary::Boundary::open()).await
}

/// [`test_connection`] behind `boundary`: a provider the folder's local-only mode refuses is
/// reported as failed, naming the setting, and no connection is opened.
pub async fn test_connection_within(provider: &Provider, boundary: &folio_boundary::Boundary) -> ConnectionReport {
    let mut probe = provider.clone();
    probe.max_tokens = 16;
    probe.max_retries = 0;
    probe.idle_timeout_ms = probe.idle_timeout_ms.min(30_000);
    let model = probe.model.clone();
    let started = Instant::now();
    let request = ModelRequest {
        system: "This is a connection test.".to_owned(),
        messages: vec![Message::user("Reply with the single word: ok")],
        tools: Vec::new(),
    };
    let result = match ModelClient::new(probe) {
        Ok(client) => client
            .with_boundary(boundary.clone())
            .stream_as(
                crate::ledger::Purpose::ConnectionTest,
                &request,
                &CancellationToken::new(),
                &mut |_| {},
                &mut |_| {},
            )
            .await
            .map(drop),
        Err(e) => Err(e),
    };
    let latency_ms = started.elapsed().as_millis() as u64;
    let (outcome, message) = match result {
        Ok(()) => (ConnectionOutcome::Ok, format!("ok — {model} answered in {latency_ms} ms")),
        Err(e) => {
            let outcome = match &e {
                AgentError::Status { status: 401 | 403, .. } => ConnectionOutcome::Unauthorised,
                AgentError::Status { status: 404, .. } => ConnectionOutcome::NotFound,
                AgentError::Status { status: 429, .. } => ConnectionOutcome::RateLimited,
                AgentError::Connect { .. } => ConnectionOutcome::Unreachable,
                _ => ConnectionOutcome::Failed,
            };
            let label = match outcome {
                ConnectionOutcome::Unauthorised => "unauthorised",
                ConnectionOutcome::NotFound => "not found",
                ConnectionOutcome::Unreachable => "unreachable",
                ConnectionOutcome::RateLimited => "rate-limited",
                ConnectionOutcome::Ok | ConnectionOutcome::Failed => "failed",
            };
            (outcome, format!("{label}: {e}"))
        }
    };
    ConnectionReport { outcome, model, latency_ms, message }
}

/// How the agent sees images, wired into an environment: the `view_image` seam, and the
/// `env:vision` module when a separate vision model answers.
pub struct VisionSetup {
    /// For `EnvOptions::vision`.
    pub seam: std::sync::Arc<dyn folio_env::Vision>,
    /// Modules to register: `env:vision`, over the separate model or the main one.
    pub modules: Vec<folio_script::NativeModule>,
}

/// Resolves a vision setting: empty (no vision), `main` (the main model sees images), or
/// `PROVIDER:MODEL` (a separate model, whose key `key_for` finds). `runtime` runs the separate
/// model's calls. The `folio` command (`--vision`) and the app (Settings) both call this.
pub fn vision_setup(
    mode: &str,
    main: &Provider,
    runtime: &tokio::runtime::Handle,
    key_for: impl Fn(&Preset) -> Option<String>,
) -> Result<Option<VisionSetup>, String> {
    vision_setup_within(mode, main, runtime, key_for, &folio_boundary::Boundary::open(), None)
}

/// [`vision_setup`] behind the folder's `boundary`, each vision request ledgered to `ledger`
/// (`HostEvents::ledger_sink`, so the entries join the conversation's).
pub fn vision_setup_within(
    mode: &str,
    main: &Provider,
    runtime: &tokio::runtime::Handle,
    key_for: impl Fn(&Preset) -> Option<String>,
    boundary: &folio_boundary::Boundary,
    ledger: Option<crate::ledger::LedgerSink>,
) -> Result<Option<VisionSetup>, String> {
    let guard = |client: crate::VisionClient| client.guarded(boundary.clone(), ledger.clone());
    let mode = mode.trim();
    if mode.is_empty() {
        return Ok(None);
    }
    if mode == "main" {
        // The main model sees images: `view_image` attaches them to its own turn, and scripts'
        // `env:vision.look` asks the same model (the documented behaviour of `--vision main`).
        let client = guard(crate::VisionClient::new(main.clone()).map_err(|e| e.to_string())?);
        return Ok(Some(VisionSetup {
            seam: std::sync::Arc::new(crate::VisionSeam::MainModel),
            modules: vec![crate::vision_module(client, runtime.clone())],
        }));
    }
    let (name, model) = mode.split_once(':').ok_or_else(|| {
        format!("the vision setting takes `main` or PROVIDER:MODEL, got `{mode}` — hint: e.g. openai:gpt-4.1-mini")
    })?;
    let preset = preset_named(name)?;
    let provider = preset.provider(Some(model), None, key_for(preset))?;
    let client = guard(crate::VisionClient::new(provider).map_err(|e| e.to_string())?);
    Ok(Some(VisionSetup {
        seam: std::sync::Arc::new(crate::VisionSeam::Model {
            client: Box::new(client.clone()),
            runtime: runtime.clone(),
        }),
        modules: vec![crate::vision_module(client, runtime.clone())],
    }))
}
