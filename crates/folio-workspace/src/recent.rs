//! Recently opened folders, newest first, kept in the store (the `desktop.recentFolders`
//! setting) so they survive restarts, and which of them were last opened read-only
//! (`desktop.readOnlyFolders`) — the choice every shell opening that folder again applies.

use std::path::Path;

use folio_store::{Store, StoreError};
use serde_json::Value;

/// The setting that holds the list.
const KEY: &str = "desktop.recentFolders";

/// The setting that holds the folders last opened read-only.
const READ_ONLY_KEY: &str = "desktop.readOnlyFolders";

/// How many folders are remembered.
pub const MAX_RECENT: usize = 10;

/// One remembered folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Recent {
    /// Its path, as opened.
    pub path: String,
    /// Its last component.
    pub name: String,
    /// Whether it still exists.
    pub exists: bool,
    /// Whether it was last opened read-only.
    pub read_only: bool,
}

fn strings(store: &Store, key: &str) -> Result<Vec<String>, StoreError> {
    Ok(match store.setting(key)? {
        Some(Value::Array(items)) => items.into_iter().filter_map(|v| v.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    })
}

/// Puts `folder` first in the list, remembering whether it was opened `read_only`.
pub fn remember(store: &Store, folder: &Path, read_only: bool) -> Result<(), StoreError> {
    let folder = folder.display().to_string();
    let mut list = strings(store, KEY)?;
    list.retain(|p| *p != folder);
    list.insert(0, folder.clone());
    list.truncate(MAX_RECENT);
    let mut read_only_list = strings(store, READ_ONLY_KEY)?;
    read_only_list.retain(|p| *p != folder && list.contains(p));
    if read_only {
        read_only_list.push(folder);
    }
    store.set_setting(KEY, &Value::from(list))?;
    store.set_setting(READ_ONLY_KEY, &Value::from(read_only_list))
}

/// Whether `folder` was last opened read-only (false when it is not in the list).
pub fn read_only_choice(store: &Store, folder: &Path) -> Result<bool, StoreError> {
    let folder = folder.display().to_string();
    Ok(strings(store, READ_ONLY_KEY)?.contains(&folder))
}

/// The remembered folders, newest first.
pub fn list(store: &Store) -> Result<Vec<Recent>, StoreError> {
    let read_only = strings(store, READ_ONLY_KEY)?;
    Ok(strings(store, KEY)?
        .into_iter()
        .map(|path| {
            let p = Path::new(&path);
            Recent {
                name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.clone()),
                exists: p.is_dir(),
                read_only: read_only.contains(&path),
                path,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn newest_first_without_duplicates_capped_and_persisted() {
        let state = tempfile::tempdir().unwrap();
        let store = Store::open(&state.path().join("folio.sqlite")).unwrap();
        let a = tempfile::tempdir().unwrap();
        for i in 0..MAX_RECENT + 2 {
            remember(&store, &a.path().join(format!("f{i}")), i == 0).unwrap();
        }
        remember(&store, a.path(), true).unwrap();
        remember(&store, &a.path().join("f5"), false).unwrap();
        let list = list(&Store::open(&state.path().join("folio.sqlite")).unwrap()).unwrap();
        assert_eq!(list.len(), MAX_RECENT);
        assert_eq!(list[0].path, a.path().join("f5").display().to_string());
        assert_eq!(list[1].path, a.path().display().to_string());
        assert!(list[1].exists && !list[0].exists, "missing folders are flagged");
        assert_eq!(list.iter().filter(|f| f.name == "f5").count(), 1);
        // The read-only choice is remembered per folder, and forgotten with the folder (f0 fell off).
        assert!(list[1].read_only && !list[0].read_only);
        assert!(read_only_choice(&store, a.path()).unwrap());
        assert!(!read_only_choice(&store, &a.path().join("f0")).unwrap());
        remember(&store, a.path(), false).unwrap();
        assert!(!read_only_choice(&store, a.path()).unwrap(), "reopening writable forgets the choice");
    }
}
