//! The boundary settings: the global network mode (one settings key) and, per folder, its own
//! mode and never-send patterns (one key per canonical folder path). [`Store::boundary`] combines
//! them into the [`Boundary`] every shell hands to the agent, the MCP mount and the tools.
//!
//! Patterns are validated when they are saved ([`folio_boundary::validate_pattern`]), so a bad
//! pattern is refused in the settings form, not at the next turn.

use std::path::{Path, PathBuf};

use folio_boundary::{Boundary, NetworkMode};
use serde::{Deserialize, Serialize};

use crate::store::{Store, StoreError};

/// The settings key of the global network mode.
pub const GLOBAL_MODE_KEY: &str = "boundary.mode";

/// One folder's own boundary settings, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FolderBoundary {
    /// The folder's own switch (the global one still applies: the stricter wins).
    #[serde(default)]
    pub mode: NetworkMode,
    /// Globs (VFS paths, e.g. `/clients/**`) whose contents never reach a model.
    #[serde(default)]
    pub never_send: Vec<String>,
}

/// The folder as the key names it: canonical when it exists, as given otherwise.
fn canonical(folder: &Path) -> PathBuf {
    std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf())
}

/// The settings key of `folder`'s boundary settings.
pub fn folder_boundary_key(folder: &Path) -> String {
    format!("boundary.folder:{}", canonical(folder).display())
}

impl Store {
    /// The global network mode (open when never set).
    pub fn global_mode(&self) -> Result<NetworkMode, StoreError> {
        match self.setting(GLOBAL_MODE_KEY)? {
            None => Ok(NetworkMode::Open),
            Some(v) => serde_json::from_value(v)
                .map_err(|e| StoreError::BadSetting { key: GLOBAL_MODE_KEY.to_owned(), detail: e.to_string() }),
        }
    }

    /// Sets the global network mode.
    pub fn set_global_mode(&self, mode: NetworkMode) -> Result<(), StoreError> {
        self.set_setting(GLOBAL_MODE_KEY, &serde_json::json!(mode))
    }

    /// `folder`'s own settings (defaults when never set).
    pub fn folder_boundary(&self, folder: &Path) -> Result<FolderBoundary, StoreError> {
        let key = folder_boundary_key(folder);
        match self.setting(&key)? {
            None => Ok(FolderBoundary::default()),
            Some(v) => serde_json::from_value(v).map_err(|e| StoreError::BadSetting { key, detail: e.to_string() }),
        }
    }

    /// Saves `folder`'s own settings; every pattern is checked first and nothing is written when
    /// one is refused. Patterns are stored trimmed, without duplicates.
    pub fn set_folder_boundary(&self, folder: &Path, settings: &FolderBoundary) -> Result<(), StoreError> {
        let mut patterns: Vec<String> = Vec::new();
        for p in &settings.never_send {
            folio_boundary::validate_pattern(p)?;
            let p = p.trim().to_owned();
            if !patterns.contains(&p) {
                patterns.push(p);
            }
        }
        let value = serde_json::json!(FolderBoundary { mode: settings.mode, never_send: patterns });
        self.set_setting(&folder_boundary_key(folder), &value)
    }

    /// The boundary for `folder`: the global mode, the folder's mode and its never-send list.
    pub fn boundary(&self, folder: &Path) -> Result<Boundary, StoreError> {
        let global = self.global_mode()?;
        let own = self.folder_boundary(folder)?;
        Ok(Boundary::new(global, own.mode, &own.never_send)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use folio_boundary::ModeSource;

    #[test]
    fn boundary_settings_round_trip_and_combine() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let folder = dir.path().join("work");
        std::fs::create_dir_all(&folder).unwrap();
        let b = store.boundary(&folder).unwrap();
        assert_eq!(b.mode(), NetworkMode::Open);
        assert_eq!(b.never_send_patterns().count(), 0);

        store
            .set_folder_boundary(
                &folder,
                &FolderBoundary {
                    mode: NetworkMode::Open,
                    never_send: vec![" /clients/** ".into(), "/clients/**".into()],
                },
            )
            .unwrap();
        // The same folder by another spelling reaches the same key.
        let b = store.boundary(&folder.join("..").join("work")).unwrap();
        assert_eq!(b.never_send_patterns().collect::<Vec<_>>(), ["/clients/**"]);
        assert_eq!(b.never_send("/clients/a.csv"), Some("/clients/**"));

        store.set_global_mode(NetworkMode::LocalOnly).unwrap();
        assert_eq!(store.boundary(&folder).unwrap().mode_source(), Some(ModeSource::Global));
        store.set_global_mode(NetworkMode::Open).unwrap();
        store
            .set_folder_boundary(&folder, &FolderBoundary { mode: NetworkMode::LocalOnly, never_send: vec![] })
            .unwrap();
        assert_eq!(store.boundary(&folder).unwrap().mode_source(), Some(ModeSource::Folder));
        // Another folder is untouched.
        assert_eq!(store.boundary(dir.path()).unwrap().mode(), NetworkMode::Open);
    }

    #[test]
    fn a_bad_pattern_is_refused_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let err = store
            .set_folder_boundary(
                dir.path(),
                &FolderBoundary { mode: NetworkMode::LocalOnly, never_send: vec!["/ok/**".into(), "/a/../b".into()] },
            )
            .unwrap_err()
            .to_string();
        assert!(err.contains("contains .."), "{err}");
        assert_eq!(store.folder_boundary(dir.path()).unwrap(), FolderBoundary::default());
        store.set_setting(GLOBAL_MODE_KEY, &serde_json::json!("sometimes")).unwrap();
        let err = store.global_mode().unwrap_err().to_string();
        assert!(err.contains("boundary.mode is not valid"), "{err}");
    }
}
