//! `folio-mcp`: the capability route. An MCP server — or any set of host functions
//! with JSON Schemas — becomes an `env:<name>` module a script imports, so the agent can loop over
//! forty calls in one script, keep the results in variables and return one line, instead of
//! spending forty model turns on forty tool calls.
//!
//! # Two entry points
//!
//! - [`mount_mcp`] connects to a server over stdio (a command Folio spawns) or Streamable HTTP (a
//!   URL), lists its tools and builds the module: one async binding per tool, a `.d.ts` generated
//!   from the tools' input schemas with their descriptions as JSDoc, and docs listing them. Tool
//!   names that are not JavaScript identifiers are imported with `_` for the offending characters
//!   (`get-sum` → `get_sum`); the declaration names the original.
//! - [`define_tools`] does the same for host functions: a [`ToolSpec`] is a name, a description,
//!   an input JSON Schema and a [`folio_script::HostFn`].
//!
//! Both return a [`folio_script::NativeModule`]; the host registers it with
//! [`folio_script::ModuleRegistry::register_native`] like any other module. Every binding takes
//! one object of named arguments (`{}` when the script passes none), refuses to run during
//! write-time validation (saving a script never fires an effect), and gives up when the run is
//! cancelled. MCP results arrive as data: `structuredContent` when the tool has it, otherwise the
//! text parts joined; a result flagged `isError` rejects with `env:<name>.<tool>: <text>`.
//!
//! # Decisions
//!
//! - **rmcp, client side only.** The official Rust SDK speaks the protocol; Folio uses its
//!   client, child-process and Streamable HTTP client transports. reqwest is built without a TLS
//!   crypto provider of its own and folio-mcp installs `ring`, which the workspace already builds,
//!   rather than adding aws-lc.
//! - **Arguments are validated by the server**, not here: the schema is turned into types for
//!   the agent to read, and the server's own validation message comes back as the error.
//! - **A connection failure names what was tried and the fix**: the command line or the URL, the
//!   underlying error, and for stdio servers the last lines they wrote to stderr.

mod mount;
mod schema;
mod tools;

/// Where the real MCP test server is (feature `testing`; dev-dependencies only).
#[cfg(feature = "testing")]
pub mod testing;

pub use mount::{ListedTool, McpTransport, mount_mcp, mount_mcp_listed};
pub use tools::{ToolSpec, define_tools};

/// Why a capability module could not be built. Raised when the host mounts a server or defines
/// tools, before any script runs; the person configuring the server (or the adapter author)
/// fixes the cause, and the host may retry the mount afterwards.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    /// A stdio server's command could not be started (not installed, not executable). Nothing was
    /// spawned; retrying helps only after the command is installed or the path fixed.
    #[error("cannot start the MCP server ({tried}): {detail} — {fix}")]
    Spawn {
        /// The command line or URL that was tried.
        tried: String,
        /// The operating system's error.
        detail: String,
        /// What to do about it.
        fix: String,
    },
    /// The server did not complete the MCP handshake: it exited, is not an MCP server, the URL is
    /// unreachable or refused, or it did not answer within 30 s. The host may retry once the
    /// server is running; the message includes a stdio server's last stderr lines.
    #[error("could not connect to the MCP server ({tried}): {detail} — {fix}")]
    Connect {
        /// The command line or URL that was tried.
        tried: String,
        /// The transport's error chain (and the server's stderr, for stdio).
        detail: String,
        /// What to do about it.
        fix: String,
    },
    /// The server connected but `tools/list` failed or timed out. Usually a server bug; retrying
    /// the mount may help if the server was still starting.
    #[error(
        "the MCP server ({tried}) connected but listing its tools failed: {detail} — check that the server offers tools"
    )]
    ListTools {
        /// The command line or URL that was tried.
        tried: String,
        /// The error.
        detail: String,
    },
    /// The module cannot be built as defined: a bad module name, no tools, a tool name that is not
    /// an identifier or repeats, an input schema that is not an object. Not retryable; the
    /// definition (or the mount's name) must change.
    #[error("env:{module}: {problem}")]
    Definition {
        /// The module name without `env:`.
        module: String,
        /// What is wrong and how to fix it.
        problem: String,
    },
}
