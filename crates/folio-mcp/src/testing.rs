//! Test support, behind the `testing` feature (dev-dependencies only, never in a release build):
//! where the real MCP server the tests talk to is installed, so the four suites that mount it
//! (folio-mcp's, folio-host's, `folio ask --mcp`'s and the app's Capabilities e2e) find it the
//! same way and fail the same way when it is missing — with the command that installs it, never
//! by skipping.
//!
//! The server is `@modelcontextprotocol/server-everything`, pinned and installed by
//! `scripts/get-mcp-test-server.sh` (which `scripts/install.sh` runs) into
//! `$HOME/.cache/folio/npm`, outside the clone.

use std::path::PathBuf;

use crate::McpTransport;

/// Where `scripts/get-mcp-test-server.sh` installs the server's entry point, under `home`.
pub fn everything_path(home: &std::path::Path) -> PathBuf {
    home.join(".cache/folio/npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// The installed server's entry point (`node <it> stdio` runs it), or why it cannot be used and
/// the command that installs it.
pub fn everything_entry() -> Result<PathBuf, String> {
    let home = std::env::var_os("HOME")
        .ok_or("HOME is not set, so the MCP test server's install directory is unknown — hint: set HOME")?;
    let entry = everything_path(std::path::Path::new(&home));
    if entry.is_file() {
        Ok(entry)
    } else {
        Err(format!(
            "the MCP test server is not installed at {} — hint: run `bash scripts/get-mcp-test-server.sh` (or `bash scripts/install.sh`) from the repository root",
            entry.display()
        ))
    }
}

/// The installed server over stdio, for tests; panics with [`everything_entry`]'s message (and
/// the install command) when it is missing.
#[allow(clippy::panic)]
pub fn everything_stdio() -> McpTransport {
    let entry = everything_entry().unwrap_or_else(|e| panic!("{e}"));
    McpTransport::stdio("node", [entry.to_string_lossy().into_owned(), "stdio".to_owned()])
}

/// The installed server's entry point; panics with the install command when it is missing.
#[allow(clippy::panic)]
pub fn server_entry() -> PathBuf {
    everything_entry().unwrap_or_else(|e| panic!("{e}"))
}
