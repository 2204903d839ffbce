//! The payloads of Settings → Capabilities: the MCP servers a person added (the state root's
//! `mcp.json`, which `folio ask` reads too), and Test, which mounts one and lists its tools or
//! shows why it failed with the server's own stderr.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How a server is reached, as the form edits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum McpTransportKind {
    /// A command Folio starts, spoken to over stdin and stdout.
    Stdio,
    /// A Streamable HTTP URL.
    Http,
}

/// One environment variable (stdio) or header (HTTP).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpSettingRow {
    /// The variable or header name.
    pub name: String,
    /// Its value. For a saved secret the answer leaves it empty (the value stays in the
    /// keychain); sending it empty keeps the saved one.
    pub value: String,
    /// Kept in the keychain, never in the file.
    pub secret: bool,
    /// In answers: a secret value is saved for it.
    #[serde(default)]
    pub saved: bool,
}

/// A server as the list shows it and the form edits it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpServerForm {
    /// The module name: scripts import `env:<name>`.
    pub name: String,
    /// Stdio or HTTP.
    pub kind: McpTransportKind,
    /// The program (stdio).
    #[serde(default)]
    pub command: String,
    /// Its arguments (stdio).
    #[serde(default)]
    pub args: Vec<String>,
    /// The endpoint (HTTP).
    #[serde(default)]
    pub url: String,
    /// Environment variables (stdio) or headers (HTTP).
    #[serde(default)]
    pub settings: Vec<McpSettingRow>,
    /// Mounted in new conversations.
    pub enabled: bool,
    /// `None`: every folder; otherwise only this folder.
    #[serde(default)]
    pub folder: Option<String>,
}

/// `capabilities.get`: the list, and the open folder (for "only this folder").
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesGetResponse {
    /// The servers, in the order they were added.
    pub servers: Vec<McpServerForm>,
    /// The open folder, when one is open.
    pub folder: Option<String>,
    /// Names a server may not take (Folio's own modules).
    pub reserved: Vec<String>,
    /// Where the list is kept.
    pub file: String,
    /// What applying the last change said (reopening the folder, a server that did not mount).
    pub warnings: Vec<String>,
}

/// `capabilities.save`: adds a server, or replaces the one called `replacing`.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesSaveParams {
    /// The server.
    pub server: McpServerForm,
    /// The name of the server it replaces (an edit); `None` adds it.
    #[serde(default)]
    pub replacing: Option<String>,
}

/// `capabilities.remove`: removes a server and its saved secrets.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesRemoveParams {
    /// The server's name.
    pub name: String,
}

/// `capabilities.enable`: turns a server on or off.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesEnableParams {
    /// The server's name.
    pub name: String,
    /// On or off.
    pub enabled: bool,
}

/// `capabilities.test`: mounts the server as the form has it (saved secrets fill empty ones).
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesTestParams {
    /// The server.
    pub server: McpServerForm,
}

/// One tool a tested server offers.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct McpToolRow {
    /// The name scripts import.
    pub binding: String,
    /// The server's own name for it.
    pub remote: String,
    /// What it does.
    pub description: String,
}

/// What Test found.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesTestResponse {
    /// It mounted.
    pub ok: bool,
    /// What was tried (the command line or URL).
    pub tried: String,
    /// Its tools, when it mounted.
    pub tools: Vec<McpToolRow>,
    /// Why it did not (the server's stderr included), when it did not.
    pub error: Option<String>,
    /// How long connecting and listing took.
    #[ts(type = "number")]
    pub took_ms: u64,
}

pub(crate) fn decls() -> Vec<String> {
    vec![
        McpTransportKind::decl(),
        McpSettingRow::decl(),
        McpServerForm::decl(),
        CapabilitiesGetResponse::decl(),
        CapabilitiesSaveParams::decl(),
        CapabilitiesRemoveParams::decl(),
        CapabilitiesEnableParams::decl(),
        CapabilitiesTestParams::decl(),
        McpToolRow::decl(),
        CapabilitiesTestResponse::decl(),
    ]
}
