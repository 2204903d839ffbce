//! Recently opened folders, newest first, kept in Folio's store (`<state root>/folio.sqlite`, the
//! `desktop.recentFolders` setting) so they survive restarts.

use std::path::{Path, PathBuf};

use folio_store::Store;
use serde_json::Value;

use crate::api::{RecentFolder, RecentListResponse};

/// The setting that holds the list.
const KEY: &str = "desktop.recentFolders";

/// How many folders are remembered.
pub const MAX_RECENT: usize = 10;

/// The store file under `state_root` (`None`: Folio's default state root).
pub fn store_path(state_root: Option<&Path>) -> Result<PathBuf, String> {
    let root = match state_root {
        Some(root) => root.to_path_buf(),
        None => folio_vfs::default_state_root().map_err(|e| e.to_string())?,
    };
    Ok(root.join("folio.sqlite"))
}

fn open(state_root: Option<&Path>) -> Result<Store, String> {
    Store::open(&store_path(state_root)?).map_err(|e| e.to_string())
}

fn paths(store: &Store) -> Result<Vec<String>, String> {
    let value = store.setting(KEY).map_err(|e| e.to_string())?;
    Ok(match value {
        Some(Value::Array(items)) => items.into_iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    })
}

/// Puts `folder` first in the list.
pub fn remember(state_root: Option<&Path>, folder: &Path) -> Result<(), String> {
    let store = open(state_root)?;
    let folder = folder.display().to_string();
    let mut list = paths(&store)?;
    list.retain(|p| *p != folder);
    list.insert(0, folder);
    list.truncate(MAX_RECENT);
    store.set_setting(KEY, &Value::from(list)).map_err(|e| e.to_string())
}

/// The remembered folders, newest first, each saying whether it still exists.
pub fn list(state_root: Option<&Path>) -> Result<RecentListResponse, String> {
    let store = open(state_root)?;
    let folders = paths(&store)?
        .into_iter()
        .map(|path| {
            let p = Path::new(&path);
            RecentFolder {
                name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.clone()),
                exists: p.is_dir(),
                path,
            }
        })
        .collect();
    Ok(RecentListResponse { folders })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn newest_first_without_duplicates_capped_and_persisted() {
        let state = tempfile::tempdir().unwrap();
        let root = Some(state.path());
        let a = tempfile::tempdir().unwrap();
        for i in 0..MAX_RECENT + 2 {
            remember(root, &a.path().join(format!("f{i}"))).unwrap();
        }
        remember(root, a.path()).unwrap();
        remember(root, &a.path().join("f5")).unwrap();
        let list = list(root).unwrap().folders;
        assert_eq!(list.len(), MAX_RECENT);
        assert_eq!(list[0].path, a.path().join("f5").display().to_string());
        assert_eq!(list[1].path, a.path().display().to_string());
        assert!(list[1].exists && !list[0].exists, "missing folders are flagged");
        assert_eq!(list.iter().filter(|f| f.name == "f5").count(), 1);
    }
}
