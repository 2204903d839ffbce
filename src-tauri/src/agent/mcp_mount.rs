//! The MCP servers a folder's session mounts and the doctor checks, with the boundary they ask
//! first. A leaf: Settings → Capabilities (which also reopens sessions) and the session both use
//! it, and it imports neither.
//!
//! **Failing closed, saying why.** When the stored boundary cannot be read, no server off this
//! machine is connected (never less strict than what the person set), and each one refused so
//! carries that reason — the store's path and the fix — not a local-only setting nobody turned
//! on. Servers on this machine (stdio, loopback HTTP) still mount. A state root that cannot be
//! found mounts nothing and says so, as a failed mount does.

use std::path::{Path, PathBuf};

use folio_host::mcp::{self, Boundary, Mounted, ServerConfig};

use crate::api::DoctorRow;

/// The state root the app keeps `mcp.json` under.
pub(crate) fn root(state_dir: Option<&Path>) -> Result<PathBuf, String> {
    match state_dir {
        Some(dir) => Ok(dir.to_path_buf()),
        None => folio_vfs::default_state_root().map_err(|e| e.to_string()),
    }
}

/// The boundary MCP mounts ask first (folio-workspace's rule); `Err` says why the store could
/// not be read.
pub(crate) fn boundary(root: &Path, folder: Option<&Path>) -> Result<Boundary, String> {
    folio_workspace::mcp::boundary(root, folder)
}

/// Why `server` is not connected when the stored boundary is unreadable (`reason`).
pub(crate) fn refusal(server: &ServerConfig, reason: &str) -> Option<String> {
    folio_workspace::mcp::refusal(server, reason)
}

/// A report for something that stopped every server from mounting (no state root).
fn failed(name: &str, error: String) -> Mounted {
    folio_workspace::mcp::failed(name, error)
}

/// The servers in scope for `folder` under `root`, mounted on `handle` as folio-workspace mounts
/// them for every shell (failing closed when the stored boundary cannot be read).
fn mount(root: &Path, folder: Option<&Path>, handle: &tauri::async_runtime::TokioHandle) -> Mounted {
    let secrets = super::settings::secrets_for(root);
    let stored = boundary(root, folder);
    folio_workspace::mcp::mount(root, folder, Vec::new(), stored.as_ref().map_err(String::as_str), &secrets, handle)
}

/// The servers of `folder` (the configured ones in scope), mounted on the app's runtime: what a
/// session registers when it opens the folder.
pub fn mount_for(folder: &Path, state_dir: Option<&Path>) -> Mounted {
    let root = match root(state_dir) {
        Ok(root) => root,
        Err(e) => {
            return failed(
                mcp::CONFIG_FILE,
                format!(
                    "the state directory could not be found ({e}), so no MCP server was mounted — hint: set HOME (or XDG_DATA_HOME) and open the folder again"
                ),
            );
        }
    };
    let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
    mount(&root, Some(folder), &handle)
}

/// One doctor row per server in scope for `folder` (every global one without a folder),
/// connected afresh.
pub fn doctor_rows(state_dir: Option<&Path>, folder: Option<&Path>) -> Vec<DoctorRow> {
    let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
    let mounted = match root(state_dir) {
        Ok(root) => mount(&root, folder, &handle),
        Err(e) => failed(
            "mcp",
            format!("the state directory could not be found ({e}), so the MCP servers could not be checked"),
        ),
    };
    mounted
        .rows()
        .into_iter()
        .map(|c| DoctorRow { name: c.name, ok: c.ok, required: c.required, detail: c.detail, fix: c.fix })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use folio_host::mcp::{McpConfig, Scope, TransportConfig};

    fn http(name: &str, url: &str) -> ServerConfig {
        ServerConfig {
            name: name.into(),
            enabled: true,
            scope: Scope::Global,
            transport: TransportConfig::Http { url: url.into(), headers: Vec::new() },
        }
    }

    /// An unreadable store refuses the servers off this machine with its own reason (the path
    /// and the fix), never "the global local-only setting", and connects to none of them.
    #[test]
    fn an_unreadable_store_refuses_remote_servers_with_its_own_reason() {
        let root = tempfile::tempdir().unwrap();
        // A directory where the database file should be: the store cannot be opened.
        std::fs::create_dir_all(root.path().join("folio.sqlite").join("x")).unwrap();
        let reason = boundary(root.path(), None).unwrap_err();
        assert!(reason.contains("folio.sqlite") && reason.contains("hint:"), "{reason}");
        assert!(!reason.contains("local-only setting"), "{reason}");
        let remote = http("far", "http://10.255.255.1:9/mcp");
        let said = refusal(&remote, &reason).unwrap();
        assert!(said.contains("http://10.255.255.1:9/mcp") && said.contains("could not be read"), "{said}");
        assert_eq!(refusal(&http("near", "http://127.0.0.1:9/mcp"), &reason), None);

        let config = McpConfig { servers: vec![remote], ..McpConfig::default() };
        config.save(root.path()).unwrap();
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let mounted = mount(root.path(), None, runtime.handle());
        let warnings = mounted.warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].starts_with("env:far is not available: not connected") && warnings[0].contains("folio.sqlite")
        );
    }

    #[test]
    fn a_missing_state_root_is_a_warning_not_silence() {
        let said = failed(mcp::CONFIG_FILE, "the state directory could not be found (no HOME)".into());
        assert_eq!(said.warnings().len(), 1);
        assert_eq!(said.rows().len(), 1);
        assert!(!said.rows()[0].ok);
    }
}
