//! The payloads of what crosses the boundary: Settings → Privacy (the global network mode, the
//! open folder's mode and never-send patterns), the header's mode badge, and the transcript's
//! "What was sent" rows (the egress ledger's entries, as the UI shows them).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whether destinations off this machine are allowed (folio-boundary's `NetworkMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum NetworkModeName {
    /// Providers and MCP servers anywhere may be used.
    Open,
    /// Only providers and MCP servers on this machine; everything else is refused before a
    /// connection is opened.
    LocalOnly,
}

/// Which switch turned local-only mode on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ModeSourceName {
    /// The global switch (every folder).
    Global,
    /// The open folder's own switch.
    Folder,
}

/// Settings → Privacy's content, and the header badge's.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PrivacyGetResponse {
    /// The global switch.
    pub global_mode: NetworkModeName,
    /// The open folder, when one is open (its own settings apply only to it).
    pub folder: Option<String>,
    /// The open folder's own switch (`open` when no folder is open).
    pub folder_mode: NetworkModeName,
    /// The open folder's never-send patterns (VFS globs such as `/clients/**`).
    pub never_send: Vec<String>,
    /// The mode in force for the open folder (the stricter of the two switches).
    pub effective: NetworkModeName,
    /// Which switch put local-only mode in force, when it is.
    pub source: Option<ModeSourceName>,
    /// What applying the last change said (the folder reopened, an MCP server that did not mount).
    pub warnings: Vec<String>,
}

/// Saves Settings → Privacy. The folder's part applies to the open folder and is refused when
/// none is open and it differs from the defaults.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PrivacySaveParams {
    /// The global switch.
    pub global_mode: NetworkModeName,
    /// The open folder's own switch.
    pub folder_mode: NetworkModeName,
    /// The open folder's never-send patterns, one per entry; blank entries are dropped, each
    /// other one is validated (an invalid one is named with its fix and nothing is saved).
    pub never_send: Vec<String>,
}

/// Why a model request was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum SentPurpose {
    /// A model call of the agent's loop.
    Turn,
    /// The summary a compaction asks for.
    Summary,
    /// The vision model looking at an image.
    Vision,
    /// Settings' connection test.
    ConnectionTest,
}

/// What kind of thing a request carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum SentItemKind {
    /// The system prompt.
    System,
    /// A message's text (the person's, the model's earlier answers, a summary).
    Text,
    /// A tool call the model made earlier, sent back as history.
    ToolCall,
    /// A tool's result (with the files it came from).
    ToolResult,
    /// An image (with its file and hash).
    Image,
}

/// A file (part) a tool result came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SentSource {
    /// The folder path (`/data/q3.csv`).
    pub path: String,
    /// Which part (`lines 1–40`, `page 3`); `None` for the whole file.
    pub range: Option<String>,
}

/// An image a request carried.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SentImage {
    /// Its media type.
    pub media_type: String,
    /// Its decoded size.
    #[ts(type = "number")]
    pub bytes: u64,
    /// SHA-256 of its bytes, hex (`sha256sum` of the file gives the same).
    pub sha256: String,
    /// The file it came from, when known.
    pub source: Option<String>,
}

/// One thing a request carried, as one line of the "What was sent" panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SentItem {
    /// What it is.
    pub kind: SentItemKind,
    /// Whose or which: `user`/`assistant` for text, the tool's name for calls and results.
    pub label: String,
    /// How many characters of text it carried (the arguments of a call, the text of a result).
    pub chars: u32,
    /// The start of that text, on one line (the whole text is in the stored conversation).
    pub preview: String,
    /// True for a tool result that was an error (a refusal among them).
    pub is_error: bool,
    /// The files a tool result came from.
    pub sources: Vec<SentSource>,
    /// The image, for an image item.
    pub image: Option<SentImage>,
}

/// One model request, as the client recorded it while sending it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SentRequest {
    /// The person's request it belongs to (1-based in the conversation).
    pub turn: u32,
    /// The model call within that request (1-based).
    pub call: u32,
    /// Why it was made.
    pub purpose: SentPurpose,
    /// Which attempt (2 = the first retry).
    pub attempt: u32,
    /// The provider.
    pub provider: String,
    /// The model id.
    pub model: String,
    /// The URL the body was posted to.
    pub endpoint: String,
    /// Size of the exact body sent.
    #[ts(type = "number")]
    pub body_bytes: u64,
    /// SHA-256 of the exact body sent, hex.
    pub body_sha256: String,
    /// What it carried, in the conversation's order.
    pub items: Vec<SentItem>,
}

/// The TypeScript declarations of this module's payloads.
pub(crate) fn decls() -> Vec<String> {
    vec![
        NetworkModeName::decl(),
        ModeSourceName::decl(),
        PrivacyGetResponse::decl(),
        PrivacySaveParams::decl(),
        SentPurpose::decl(),
        SentItemKind::decl(),
        SentSource::decl(),
        SentImage::decl(),
        SentItem::decl(),
        SentRequest::decl(),
    ]
}
