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

// The failing-closed rule's tests live with the rule, in folio-workspace's `mcp` module; this
// file only hands the app's state root and runtime to it.
