//! Settings → Privacy: the global network mode, the open folder's own mode and its never-send
//! patterns, kept in the store (folio-store's boundary settings, which `folio ask` reads too).
//!
//! Patterns are validated before anything is saved: an invalid one is refused by name with its
//! fix, and nothing changes. A saved change takes effect at the next turn (each turn reads the
//! boundary afresh, see [`super::egress`]); the open folder is also reopened, so its MCP servers
//! are mounted again behind the new boundary and its vision model asks it.

use std::path::Path;

use folio_boundary::Boundary;
use folio_store::{FolderBoundary, Store};
use tauri::State;

use super::commands::AgentState;
use super::egress::{mode_name, mode_of, source_name};
use crate::api::*;
use crate::commands::{AppState, blocking};

/// The form's content for `folder` (the open folder, if any).
pub fn view(store: &Store, folder: Option<&Path>, warnings: Vec<String>) -> Result<PrivacyGetResponse, String> {
    let unreadable = |e: folio_store::StoreError| {
        format!(
            "the privacy settings could not be read: {e} — hint: save them again in Settings → Privacy, or check that the state directory is readable"
        )
    };
    let global = store.global_mode().map_err(unreadable)?;
    let own = match folder {
        Some(folder) => store.folder_boundary(folder).map_err(unreadable)?,
        None => FolderBoundary::default(),
    };
    let effective = Boundary::new(global, own.mode, &[]).map_err(|e| e.to_string())?;
    Ok(PrivacyGetResponse {
        global_mode: mode_name(global),
        folder: folder.map(|f| f.display().to_string()),
        folder_mode: mode_name(own.mode),
        never_send: own.never_send,
        effective: mode_name(effective.mode()),
        source: effective.mode_source().map(source_name),
        warnings,
    })
}

/// Saves the form: every pattern is checked first (the first invalid one is named with its fix,
/// and nothing is saved); the folder's part needs an open folder unless it is the default.
pub fn save(store: &Store, folder: Option<&Path>, params: &PrivacySaveParams) -> Result<(), String> {
    let patterns: Vec<String> =
        params.never_send.iter().map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect();
    for pattern in &patterns {
        folio_boundary::validate_pattern(pattern).map_err(|e| e.to_string())?;
    }
    let own = FolderBoundary { mode: mode_of(params.folder_mode), never_send: patterns };
    match folder {
        Some(folder) => store.set_folder_boundary(folder, &own).map_err(|e| e.to_string())?,
        None if own != FolderBoundary::default() => {
            return Err(
                "no folder is open, so there is no folder to apply this folder's settings to — hint: open the folder first (the global switch applies to every folder)"
                    .to_owned(),
            );
        }
        None => {}
    }
    store.set_global_mode(mode_of(params.global_mode)).map_err(|e| e.to_string())
}

fn open_folder(app: &AppState) -> Option<std::path::PathBuf> {
    app.session().map(|s| s.folder().to_path_buf())
}

/// `privacy.get`: the switches and the open folder's never-send list (also the header's badge).
#[tauri::command]
pub async fn privacy_get(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
) -> Result<PrivacyGetResponse, CommandError> {
    let host = agent.host(&app)?;
    let folder = open_folder(&app);
    blocking(move || view(host.store(), folder.as_deref(), Vec::new())).await
}

/// `privacy.save`: saves the switches and the never-send list, then reopens the open folder so
/// its MCP servers and vision model run behind the new boundary (turns read it afresh anyway).
#[tauri::command]
pub async fn privacy_save(
    app: State<'_, AppState>,
    agent: State<'_, AgentState>,
    params: PrivacySaveParams,
) -> Result<PrivacyGetResponse, CommandError> {
    let host = agent.host(&app)?;
    let folder = open_folder(&app);
    let (saving, at) = (host.clone(), folder.clone());
    blocking(move || save(saving.store(), at.as_deref(), &params)).await?;
    let warnings = if folder.is_some() { super::capabilities::reopen(&app) } else { Vec::new() };
    let folder = open_folder(&app);
    blocking(move || view(host.store(), folder.as_deref(), warnings)).await
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use folio_boundary::NetworkMode;

    fn params(global: NetworkModeName, folder: NetworkModeName, patterns: &[&str]) -> PrivacySaveParams {
        PrivacySaveParams {
            global_mode: global,
            folder_mode: folder,
            never_send: patterns.iter().map(|p| (*p).to_owned()).collect(),
        }
    }

    #[test]
    fn the_form_round_trips_names_the_switch_in_force_and_refuses_a_bad_pattern_whole() {
        let state = tempfile::tempdir().unwrap();
        let folder = tempfile::tempdir().unwrap();
        let store = Store::open(&state.path().join("folio.sqlite")).unwrap();
        let fresh = view(&store, Some(folder.path()), Vec::new()).unwrap();
        assert_eq!((fresh.effective, fresh.source), (NetworkModeName::Open, None));

        let p = params(NetworkModeName::Open, NetworkModeName::LocalOnly, &[" /clients/** ", "", "**/*.xlsx"]);
        save(&store, Some(folder.path()), &p).unwrap();
        let saved = view(&store, Some(folder.path()), Vec::new()).unwrap();
        assert_eq!(saved.never_send, ["/clients/**", "**/*.xlsx"], "trimmed, blanks dropped");
        assert_eq!((saved.effective, saved.source), (NetworkModeName::LocalOnly, Some(ModeSourceName::Folder)));
        // The turn's boundary is the same store's.
        let b = store.boundary(folder.path()).unwrap();
        assert_eq!(b.never_send("/clients/acme.xlsx"), Some("/clients/**"));

        let bad = params(NetworkModeName::LocalOnly, NetworkModeName::Open, &["/ok/**", "/a/../b"]);
        let err = save(&store, Some(folder.path()), &bad).unwrap_err();
        assert!(err.contains("\"/a/../b\"") && err.contains("hint:"), "{err}");
        let unchanged = view(&store, Some(folder.path()), Vec::new()).unwrap();
        assert_eq!(unchanged.global_mode, NetworkModeName::Open, "nothing was saved");
        assert_eq!(unchanged.never_send, saved.never_send);

        save(&store, None, &params(NetworkModeName::LocalOnly, NetworkModeName::Open, &[])).unwrap();
        let global = view(&store, Some(folder.path()), Vec::new()).unwrap();
        // The folder's own switch is still on: it is the one named.
        assert_eq!(global.source, Some(ModeSourceName::Folder));
        let elsewhere = view(&store, None, Vec::new()).unwrap();
        assert_eq!((elsewhere.effective, elsewhere.source), (NetworkModeName::LocalOnly, Some(ModeSourceName::Global)));
        let err = save(&store, None, &params(NetworkModeName::Open, NetworkModeName::LocalOnly, &[])).unwrap_err();
        assert!(err.contains("no folder is open"), "{err}");
    }

    #[test]
    fn network_modes_map_both_ways() {
        for mode in [NetworkMode::Open, NetworkMode::LocalOnly] {
            assert_eq!(mode_of(mode_name(mode)), mode);
        }
    }
}
