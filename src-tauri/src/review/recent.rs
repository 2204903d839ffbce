//! Recently opened folders, newest first, kept in Folio's store (`<state root>/folio.sqlite`, the
//! `desktop.recentFolders` setting) so they survive restarts, and which of them were last opened
//! read-only (`desktop.readOnlyFolders`), so reopening one from the list makes the same choice.

use std::path::{Path, PathBuf};

use folio_store::Store;
use serde_json::Value;

use crate::api::{RecentFolder, RecentListResponse};

/// The setting that holds the list.
const KEY: &str = "desktop.recentFolders";

/// The setting that holds the folders last opened read-only.
const READ_ONLY_KEY: &str = "desktop.readOnlyFolders";

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
    strings(store, KEY)
}

fn strings(store: &Store, key: &str) -> Result<Vec<String>, String> {
    let value = store.setting(key).map_err(|e| e.to_string())?;
    Ok(match value {
        Some(Value::Array(items)) => items.into_iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    })
}

/// Puts `folder` first in the list, remembering whether it was opened `read_only`.
pub fn remember(state_root: Option<&Path>, folder: &Path, read_only: bool) -> Result<(), String> {
    let store = open(state_root)?;
    let folder = folder.display().to_string();
    let mut list = paths(&store)?;
    list.retain(|p| *p != folder);
    list.insert(0, folder.clone());
    list.truncate(MAX_RECENT);
    let mut read_only_list = strings(&store, READ_ONLY_KEY)?;
    read_only_list.retain(|p| *p != folder && list.contains(p));
    if read_only {
        read_only_list.push(folder);
    }
    store.set_setting(KEY, &Value::from(list)).map_err(|e| e.to_string())?;
    store.set_setting(READ_ONLY_KEY, &Value::from(read_only_list)).map_err(|e| e.to_string())
}

/// Whether `folder` was last opened read-only (false when it is not in the list).
pub fn read_only_choice(state_root: Option<&Path>, folder: &Path) -> Result<bool, String> {
    let store = open(state_root)?;
    let folder = folder.display().to_string();
    Ok(strings(&store, READ_ONLY_KEY)?.contains(&folder))
}

/// The remembered folders, newest first, each saying whether it still exists.
pub fn list(state_root: Option<&Path>) -> Result<RecentListResponse, String> {
    let store = open(state_root)?;
    let read_only = strings(&store, READ_ONLY_KEY)?;
    let folders = paths(&store)?
        .into_iter()
        .map(|path| {
            let p = Path::new(&path);
            RecentFolder {
                name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.clone()),
                exists: p.is_dir(),
                read_only: read_only.contains(&path),
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
            remember(root, &a.path().join(format!("f{i}")), i == 0).unwrap();
        }
        remember(root, a.path(), true).unwrap();
        remember(root, &a.path().join("f5"), false).unwrap();
        let list = list(root).unwrap().folders;
        assert_eq!(list.len(), MAX_RECENT);
        assert_eq!(list[0].path, a.path().join("f5").display().to_string());
        assert_eq!(list[1].path, a.path().display().to_string());
        assert!(list[1].exists && !list[0].exists, "missing folders are flagged");
        assert_eq!(list.iter().filter(|f| f.name == "f5").count(), 1);
        // The read-only choice is remembered per folder, and forgotten with the folder (f0 fell off).
        assert!(list[1].read_only && !list[0].read_only);
        assert!(read_only_choice(root, a.path()).unwrap());
        assert!(!read_only_choice(root, &a.path().join("f0")).unwrap());
        remember(root, a.path(), false).unwrap();
        assert!(!read_only_choice(root, a.path()).unwrap(), "reopening writable forgets the choice");
    }
}
