//! `folio-agent`: the agent loop, and the only crate that speaks HTTP to model providers.
//!
//! Two wire formats are implemented completely, both streamed over SSE: **Anthropic Messages** and
//! **OpenAI Chat Completions** (which OpenAI, OpenRouter, Gemini's OpenAI endpoint, Ollama and LM
//! Studio all speak). A [`ModelRequest`] is provider-neutral; `wire::*` turns it into a body and
//! the provider's events into [`StreamEvent`]s, and [`ModelClient`] adds what a flaky network needs:
//! retries with backoff that honour `Retry-After`, a named error for a truncated or silent stream,
//! and cancel that drops the connection at once.
//!
//! [`Agent`] runs the loop over a [`Tools`] implementation (the working environment's verbs) and
//! reports a typed [`AgentEvent`] stream: text as it streams, tool calls as the model writes their
//! arguments, results, retries, usage, compaction, the turn limit, errors.
//!
//! Limits: tool calls of one model turn run sequentially; images reach the model only through
//! [`Part::Image`] in a user message (the vision verbs come with the rendering issue).

mod agent;
mod client;
pub mod context;
mod env_tools;
mod error;
mod events;
mod ledger;
mod message;
mod prompt;
mod providers;
mod setup;
pub mod sse;
#[cfg(feature = "testing")]
pub mod testing;
mod vision;
mod wire;

pub use agent::{Agent, AgentConfig, BoxFuture, Conversation, ToolOutcome, Tools, TurnContext};
pub use client::{ModelClient, Pricing, Provider};
pub use env_tools::{EnvTools, HostEvents};
pub use error::{AgentError, Secs, Site, StallPhase, Tries};
pub use events::{AgentEvent, FinishReason, ToolCallStatus};
pub use ledger::{LedgerEntry, LedgerItem, LedgerSink, Purpose, Source, sha256_hex};
pub use message::{Image, Message, ModelRequest, Part, Role, StopReason, ToolDef, Usage};
pub use prompt::{DESK_PROMPT, system_prompt};
pub use providers::{PRESETS, Preset, preset};
pub use setup::{
    ConnectionOutcome, ConnectionReport, VisionSetup, conversation_from_stored, preset_named, test_connection,
    test_connection_within, vision_setup, vision_setup_within,
};
pub use vision::{VisionClient, VisionSeam, vision_module};
pub use wire::openai::TokenParam;
pub use wire::{ModelTurn, StreamEvent, TurnBuilder, WireFormat, heal};
