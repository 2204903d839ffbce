//! Recently opened folders for the window's list: folio-workspace's list (the store's
//! `desktop.recentFolders`, with the read-only choice each was last opened with — the one every
//! shell applies when it opens that folder again), as the UI's payload.

use folio_workspace::Workspace;

use crate::api::{RecentFolder, RecentListResponse};

/// The remembered folders, newest first, each saying whether it still exists.
pub fn list(ws: &Workspace) -> Result<RecentListResponse, String> {
    let folders = ws
        .recent()
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|r| RecentFolder { path: r.path, name: r.name, exists: r.exists, read_only: r.read_only })
        .collect();
    Ok(RecentListResponse { folders })
}
