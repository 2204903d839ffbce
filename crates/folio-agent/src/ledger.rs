//! The egress ledger: what each model request carried, recorded by the client as it sends it.
//!
//! [`ModelClient`](crate::ModelClient) is the only place in Folio that sends to a model, so it is
//! the only place that records. Before each attempt it serialises the body itself, hashes the
//! exact bytes it is about to send and describes them as a [`LedgerEntry`]: the provider, model
//! and endpoint; the system prompt; every message text; each tool call; each tool result with the
//! files (and line, page or byte ranges) it came from; each image with its source path and the
//! hash of its bytes. The entry reaches the shells as [`AgentEvent::ModelRequest`](crate::AgentEvent),
//! which they store with the conversation like every other event.
//!
//! # Decisions
//!
//! - **A faithful structured form plus the exact body's hash**, not the body: a request carries
//!   the whole visible history, so keeping bodies would store every earlier message again with
//!   every call, and images as base64. The structure is what a person reads; `body_sha256` and
//!   `body_bytes` prove it describes the bytes that left (the fake provider's tests compare them
//!   with what it received).
//! - **Every attempt is an entry.** A retried request left the machine twice.
//! - **Provenance comes from the tools.** `EnvTools` knows what each verb read and puts it on the
//!   tool result ([`Source`]); the ledger copies it, so a person sees "lines 1–40 of
//!   /data/q3.csv" beside the text that was sent.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::Site;
pub use crate::message::Source;
use crate::message::{ModelRequest, Part, Role};
use crate::wire::heal;

/// Why a request was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Purpose {
    /// A model call of the agent's loop.
    Turn,
    /// The summary a compaction asks for.
    Summary,
    /// The vision model looking at an image.
    Vision,
    /// The settings dialog's connection test.
    ConnectionTest,
}

/// One thing a request carried.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum LedgerItem {
    /// The system prompt.
    System {
        /// Its text.
        text: String,
    },
    /// A message's text (the person's request, the model's earlier answers, a summary).
    Text {
        /// Whose.
        role: Role,
        /// The text.
        text: String,
    },
    /// A tool call the model made earlier, sent back as history.
    ToolCall {
        /// Call id.
        id: String,
        /// Tool name.
        name: String,
        /// The arguments as sent.
        arguments: String,
    },
    /// A tool's result.
    ToolResult {
        /// The call it answers.
        id: String,
        /// Tool name.
        name: String,
        /// The text sent.
        text: String,
        /// True when the tool failed (a refusal among them).
        #[serde(rename = "isError")]
        is_error: bool,
        /// The files it came from.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        sources: Vec<Source>,
    },
    /// An image.
    Image {
        /// Its media type.
        #[serde(rename = "mediaType")]
        media_type: String,
        /// Size of the image itself (decoded), in bytes.
        bytes: u64,
        /// SHA-256 of the image's bytes, hex (`sha256sum` of the file gives the same).
        sha256: String,
        /// The file it came from, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
        /// The tool call that returned it, when a tool did.
        #[serde(rename = "callId", default, skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
    },
}

/// One model request, as it was sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    /// The person's request this belongs to (1-based within the conversation); 0 when outside a
    /// conversation (a connection test).
    #[serde(default)]
    pub turn: u32,
    /// The model call within that request's run (1-based); 0 when not a loop call.
    #[serde(default)]
    pub call: u32,
    /// Why it was made.
    pub purpose: Purpose,
    /// Which attempt (2 = the first retry).
    pub attempt: u32,
    /// The provider's name (a preset's, or `OpenAI-compatible` …).
    pub provider: String,
    /// The model id.
    pub model: String,
    /// The URL the body was posted to.
    pub endpoint: String,
    /// Size of the exact body sent.
    pub body_bytes: u64,
    /// SHA-256 of the exact body sent, hex.
    pub body_sha256: String,
    /// Names of the tools offered.
    #[serde(default)]
    pub tools: Vec<String>,
    /// What it carried, in the conversation's order.
    pub items: Vec<LedgerItem>,
}

/// Hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn image_item(media_type: &str, data: &str, source: &Option<String>, call_id: Option<&str>) -> LedgerItem {
    use base64::Engine as _;
    let decoded = base64::engine::general_purpose::STANDARD.decode(data.as_bytes()).unwrap_or_default();
    LedgerItem::Image {
        media_type: media_type.to_owned(),
        bytes: decoded.len() as u64,
        sha256: sha256_hex(&decoded),
        source: source.clone(),
        call_id: call_id.map(str::to_owned),
    }
}

/// The entry for `body` (the exact bytes about to be posted), built from `req` the way the wire
/// formats build bodies (the healed history).
pub(crate) fn entry(site: &Site, purpose: Purpose, attempt: u32, req: &ModelRequest, body: &[u8]) -> LedgerEntry {
    let mut items = Vec::new();
    if !req.system.is_empty() {
        items.push(LedgerItem::System { text: req.system.clone() });
    }
    for m in heal(&req.messages) {
        for part in &m.parts {
            match part {
                Part::Text { text } => items.push(LedgerItem::Text { role: m.role, text: text.clone() }),
                Part::Image { media_type, data, source } => items.push(image_item(media_type, data, source, None)),
                Part::ToolUse { id, name, input } => items.push(LedgerItem::ToolCall {
                    id: id.clone(),
                    name: name.clone(),
                    arguments: match input {
                        serde_json::Value::String(raw) => raw.clone(),
                        other => other.to_string(),
                    },
                }),
                Part::ToolResult { id, name, content, is_error, images, sources } => {
                    items.push(LedgerItem::ToolResult {
                        id: id.clone(),
                        name: name.clone(),
                        text: content.clone(),
                        is_error: *is_error,
                        sources: sources.clone(),
                    });
                    for image in images {
                        items.push(image_item(&image.media_type, &image.data, &image.source, Some(id)));
                    }
                }
            }
        }
    }
    LedgerEntry {
        turn: 0,
        call: 0,
        purpose,
        attempt,
        provider: site.provider.clone(),
        model: site.model.clone(),
        endpoint: site.endpoint.clone(),
        body_bytes: body.len() as u64,
        body_sha256: sha256_hex(body),
        tools: req.tools.iter().map(|t| t.name.clone()).collect(),
        items,
    }
}

/// Where a client's entries go besides the stream (the vision model's calls, made inside a tool,
/// reach the conversation through the host's event queue).
pub type LedgerSink = std::sync::Arc<dyn Fn(LedgerEntry) + Send + Sync>;
