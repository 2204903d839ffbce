//! The MCP servers a folder's session mounts and the doctor checks, with the boundary they ask
//! first. A leaf: Settings → Capabilities (which also reopens sessions) and the session both use
//! it, and it imports neither.

use std::path::{Path, PathBuf};

use folio_host::mcp::{self, Boundary, Mounted, NetworkMode};
use folio_store::{Secrets, Store};

use crate::api::DoctorRow;

/// The state root the app keeps `mcp.json` under.
pub(crate) fn root(state_dir: Option<&Path>) -> Result<PathBuf, String> {
    match state_dir {
        Some(dir) => Ok(dir.to_path_buf()),
        None => folio_vfs::default_state_root().map_err(|e| e.to_string()),
    }
}

/// The boundary MCP mounts ask first: the stored global mode and, for a folder, its own settings
/// (folio-store). A store that cannot be read counts as local-only: never less strict than what
/// the person set.
pub(crate) fn boundary(root: &Path, folder: Option<&Path>) -> Boundary {
    let stored = Store::open(&root.join("folio.sqlite")).map_err(|e| e.to_string()).and_then(|store| match folder {
        Some(folder) => store.boundary(folder).map_err(|e| e.to_string()),
        None => store
            .global_mode()
            .map_err(|e| e.to_string())
            .and_then(|mode| Boundary::new(mode, NetworkMode::Open, &[]).map_err(|e| e.to_string())),
    });
    stored.unwrap_or_else(|_| Boundary::new(NetworkMode::LocalOnly, NetworkMode::Open, &[]).unwrap_or_default())
}

pub(crate) fn lookup(secrets: &Secrets) -> impl Fn(&str) -> Option<String> + '_ {
    |reference: &str| secrets.get(reference, None).0.map(|(value, _)| value)
}

/// The servers of `folder` (the configured ones in scope), mounted on the app's runtime: what a
/// session registers when it opens the folder.
pub fn mount_for(folder: &Path, state_dir: Option<&Path>) -> Mounted {
    let Ok(root) = root(state_dir) else {
        return Mounted::default();
    };
    let secrets = super::settings::secrets_for(&root);
    let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
    mcp::mount_for_folder(
        Some(&root),
        Vec::new(),
        Some(folder),
        &boundary(&root, Some(folder)),
        &lookup(&secrets),
        &handle,
    )
}

/// One doctor row per server in scope for `folder` (every global one without a folder),
/// connected afresh.
pub fn doctor_rows(state_dir: Option<&Path>, folder: Option<&Path>) -> Vec<DoctorRow> {
    let Ok(root) = root(state_dir) else {
        return Vec::new();
    };
    let secrets = super::settings::secrets_for(&root);
    let tauri::async_runtime::RuntimeHandle::Tokio(handle) = tauri::async_runtime::handle();
    let mounted =
        mcp::mount_for_folder(Some(&root), Vec::new(), folder, &boundary(&root, folder), &lookup(&secrets), &handle);
    mounted
        .rows()
        .into_iter()
        .map(|c| DoctorRow { name: c.name, ok: c.ok, required: c.required, detail: c.detail, fix: c.fix })
        .collect()
}
