//! The provider-neutral conversation: what the loop stores and what each wire format is built from.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Who said it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person, or tool results sent back on their side of the conversation.
    User,
    /// The model.
    Assistant,
}

/// One piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded (sent to multimodal models).
    Image {
        /// `image/png`, `image/jpeg`, …
        media_type: String,
        /// Base64 of the bytes.
        data: String,
        /// The file it came from (an attachment's path), for the egress ledger.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    /// A tool call the model made.
    ToolUse {
        /// The provider's call id.
        id: String,
        /// The tool's name.
        name: String,
        /// Its arguments.
        input: Value,
    },
    /// The result of a tool call, sent back to the model.
    ToolResult {
        /// The call id this answers.
        id: String,
        /// The tool's name (OpenAI-style formats do not need it; kept for transcripts).
        name: String,
        /// The full story: output on success, message and data on failure.
        content: String,
        /// True when the tool failed.
        is_error: bool,
        /// Images the tool returned for the model to look at (`view_image` for a multimodal model).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<Image>,
        /// The files the content came from, for the egress ledger (never sent to the model).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        sources: Vec<Source>,
    },
}

/// An image carried in a message, base64-encoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Image {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// Base64 of the bytes.
    pub data: String,
    /// The file it came from, for the egress ledger (never sent to the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// One message of the conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// What was said.
    pub parts: Vec<Part>,
    /// True for the summary that replaced earlier history at a compaction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub compaction: bool,
}

impl Message {
    /// A user message holding `text`.
    pub fn user(text: impl Into<String>) -> Message {
        Message { role: Role::User, parts: vec![Part::Text { text: text.into() }], compaction: false }
    }

    /// The text parts joined.
    pub fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("")
    }

    /// The tool calls in this message.
    pub fn tool_uses(&self) -> impl Iterator<Item = (&str, &str, &Value)> {
        self.parts.iter().filter_map(|p| match p {
            Part::ToolUse { id, name, input } => Some((id.as_str(), name.as_str(), input)),
            _ => None,
        })
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDef {
    /// Its name.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its arguments.
    pub input_schema: Value,
}

/// Token counts of one model call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens not served from the cache.
    pub input_tokens: u64,
    /// Tokens generated.
    pub output_tokens: u64,
    /// Prompt tokens read from the provider's cache.
    pub cache_read_tokens: u64,
    /// Prompt tokens written to the provider's cache.
    pub cache_write_tokens: u64,
}

impl Usage {
    /// The size of the prompt the model saw: what the context window is measured against.
    pub fn prompt_tokens(&self) -> u64 {
        self.input_tokens + self.cache_read_tokens + self.cache_write_tokens
    }
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its answer.
    EndTurn,
    /// It wants tools run.
    ToolUse,
    /// It hit `max_tokens`.
    MaxTokens,
    /// Anything else the provider said.
    Other(String),
}

/// One request to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRequest {
    /// The system prompt.
    pub system: String,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The tools on offer (none for a compaction call).
    pub tools: Vec<ToolDef>,
}

/// Where a tool result's content came from: a file, and which part of it when not all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// The VFS path (`/data/q3.csv`).
    pub path: String,
    /// Which part was read (`lines 1–200`, `page 3`, `matches on lines 4, 9`); `None` for the
    /// whole file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
}
