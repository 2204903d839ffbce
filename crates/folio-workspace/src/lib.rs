//! `folio-workspace`: a person's Folio — the one layer both shells (the desktop app, the `folio`
//! command) open, so they cannot resolve the same question two ways.
//!
//! [`Workspace::open`] holds what lives under the state root: the store (`folio.sqlite`), the
//! secrets policy ([`keys`]: the keychain or the key file, `FOLIO_NO_KEYCHAIN`, `FOLIO_API_KEY`),
//! the typed [`Settings`] with a shell's [`Overrides`] laid over them by one rule
//! ([`settings`]), the privacy boundary, the MCP servers ([`mcp`]), the remembered read-only
//! choices ([`recent`]) and the doctor's rows. [`Workspace::open_folder`] opens a folder with
//! the stored vision model, script budget, MCP servers and read-only choice applied, as a
//! [`Folder`]; [`Folder::turn`] runs one agent turn there behind a lock that holds across
//! processes ([`lock`]), so an app turn and a `folio ask` never write over each other's saved
//! messages, and `ask_user` is answered through the [`Asking`] seam each shell chooses.
//!
//! The shells translate: clap flags and Tauri commands in, printing and notifications out.

pub mod folder;
pub mod keys;
pub mod lock;
pub mod mcp;
pub mod recent;
pub mod settings;
mod turn;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use folio_boundary::{Boundary, NetworkMode};
use folio_store::{Secrets, Store};

pub use folder::{Asking, Folder, FolderOptions};
pub use lock::{Shell, TurnLock};
pub use settings::{
    DEFAULT_MAX_TURNS, DEFAULT_SCRIPT_BUDGET_MS, Overrides, ProviderName, SCRIPT_BUDGET_MAX_MS, SCRIPT_BUDGET_MIN_MS,
    Settings, check_script_budget,
};
pub use turn::{LINES_PER_CALL, LineBudget, TurnEvent, TurnOutcome, TurnRequest};

/// What the workspace layer refuses or fails at, each with where and the fix.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    /// A value a person gave cannot be used (a provider name, a budget out of bounds).
    #[error("{0}")]
    Invalid(String),
    /// The store under the state root could not be read or written.
    #[error(
        "the Folio store at {path} could not be used: {detail} — hint: check that the state directory is readable and writable"
    )]
    Store {
        /// The store file.
        path: PathBuf,
        /// What failed.
        detail: String,
    },
    /// The state root could not be found.
    #[error("the state directory could not be found ({0}) — hint: set HOME (or XDG_DATA_HOME), or pass --state-dir")]
    NoStateRoot(String),
    /// The model provider cannot be set up (no key, no model for a local server).
    #[error("{0}")]
    Provider(String),
    /// The folder's boundary refuses, or cannot be read.
    #[error("{0}")]
    Boundary(String),
    /// Another turn holds the folder (this process or another).
    #[error("{0}")]
    Busy(String),
    /// The folder could not be opened.
    #[error("{0}")]
    Open(String),
    /// A conversation does not fit the request.
    #[error("{0}")]
    Conversation(String),
}

struct Inner {
    root: PathBuf,
    store: Arc<Store>,
    store_path: PathBuf,
    secrets: Secrets,
    overrides: Overrides,
}

/// A person's Folio under one state root (cheap to clone: the store is shared).
#[derive(Clone)]
pub struct Workspace {
    inner: Arc<Inner>,
}

/// Runs `job` on a plain thread outside any async runtime and waits for it. The keychain client
/// (zbus on Linux) starts its own runtime and panics when called from inside one, so every key
/// lookup that may run inside a runtime goes through here.
pub fn off_runtime<T: Send>(job: impl FnOnce() -> T + Send) -> Result<T, WorkspaceError> {
    std::thread::scope(|scope| scope.spawn(job).join())
        .map_err(|_| WorkspaceError::Provider("the keychain lookup stopped unexpectedly — try again".to_owned()))
}

impl Workspace {
    /// Opens the workspace under `state_root` (`None`: `$FOLIO_STATE_DIR`, else the OS app-data
    /// directory) with keys as [`keys::secrets_for`] says and `overrides` over the stored settings.
    pub fn open(state_root: Option<PathBuf>, overrides: Overrides) -> Result<Workspace, WorkspaceError> {
        let root = match state_root {
            Some(root) => root,
            None => folio_vfs::default_state_root().map_err(|e| WorkspaceError::NoStateRoot(e.to_string()))?,
        };
        let secrets = keys::secrets_for(&root);
        Workspace::open_with(root, secrets, overrides)
    }

    /// As [`Workspace::open`], with keys in `secrets` (tests: a file-only one).
    pub fn open_with(root: PathBuf, secrets: Secrets, overrides: Overrides) -> Result<Workspace, WorkspaceError> {
        let store_path = root.join("folio.sqlite");
        let store = Store::open(&store_path)
            .map_err(|e| WorkspaceError::Store { path: store_path.clone(), detail: e.to_string() })?;
        Ok(Workspace { inner: Arc::new(Inner { root, store: Arc::new(store), store_path, secrets, overrides }) })
    }

    /// The state root.
    pub fn root(&self) -> &Path {
        &self.inner.root
    }

    /// The store.
    pub fn store(&self) -> &Arc<Store> {
        &self.inner.store
    }

    /// Where keys live.
    pub fn secrets(&self) -> &Secrets {
        &self.inner.secrets
    }

    /// The flags this workspace was opened with.
    pub fn overrides(&self) -> &Overrides {
        &self.inner.overrides
    }

    fn store_error(&self, e: impl std::fmt::Display) -> WorkspaceError {
        WorkspaceError::Store { path: self.inner.store_path.clone(), detail: e.to_string() }
    }

    /// The stored settings; while nothing was saved, the environment's defaults. A stored value
    /// this Folio cannot read (a newer one wrote it) reads as the defaults too.
    pub fn stored_settings(&self) -> Result<Settings, WorkspaceError> {
        let saved = self.inner.store.setting(settings::SETTINGS_KEY).map_err(|e| self.store_error(e))?;
        match saved.and_then(|v| serde_json::from_value(v).ok()) {
            Some(s) => Ok(s),
            None => Settings::defaults(),
        }
    }

    /// The settings a run uses: the stored ones with the flags laid over them.
    pub fn settings(&self) -> Result<Settings, WorkspaceError> {
        self.inner.overrides.apply(self.stored_settings()?)
    }

    /// Saves `settings` (checked first) and, when given, the provider's key.
    pub fn save_settings(&self, settings: &Settings, api_key: Option<&str>) -> Result<(), WorkspaceError> {
        settings.check()?;
        if let Some(key) = api_key {
            self.inner.secrets.set(settings.provider.as_str(), key.trim()).map_err(WorkspaceError::Provider)?;
        }
        let value = serde_json::to_value(settings).map_err(|e| WorkspaceError::Invalid(e.to_string()))?;
        self.inner.store.set_setting(settings::SETTINGS_KEY, &value).map_err(|e| self.store_error(e))
    }

    /// `provider`'s key and where it was found, with the keychain's notice.
    pub fn key(&self, provider: &str) -> (Option<keys::FoundKey>, Option<String>) {
        keys::key(&self.inner.secrets, provider)
    }

    /// The provider `settings` describe, with `typed_key` (not saved) or the saved key. Looks
    /// keys up off any async runtime ([`off_runtime`]).
    pub fn provider(
        &self,
        settings: &Settings,
        typed_key: Option<String>,
    ) -> Result<folio_agent::Provider, WorkspaceError> {
        let preset = settings.provider.preset();
        let key = match typed_key.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty()) {
            Some(k) => Some(k),
            None => off_runtime(|| self.key(preset.name).0.map(|f| f.key))?,
        };
        preset.provider(settings.model(), settings.base_url(), key).map_err(WorkspaceError::Provider)
    }

    /// The boundary a turn in `folder` runs behind, read afresh from the store, with this run's
    /// `--local-only` and never-send flags added (the stricter wins).
    pub fn boundary(&self, folder: &Path) -> Result<Boundary, WorkspaceError> {
        let own = self.inner.store.folder_boundary(folder).map_err(|e| self.unreadable(&e))?;
        let global = if self.inner.overrides.local_only {
            NetworkMode::LocalOnly
        } else {
            self.inner.store.global_mode().map_err(|e| self.unreadable(&e))?
        };
        let mut patterns = own.never_send;
        patterns.extend(self.inner.overrides.never_send.iter().cloned());
        Boundary::new(global, own.mode, &patterns).map_err(|e| WorkspaceError::Boundary(e.to_string()))
    }

    /// The boundary outside any folder: the global mode alone.
    pub fn global_boundary(&self) -> Result<Boundary, WorkspaceError> {
        let mode = if self.inner.overrides.local_only {
            NetworkMode::LocalOnly
        } else {
            self.inner.store.global_mode().map_err(|e| self.unreadable(&e))?
        };
        Boundary::new(mode, NetworkMode::Open, &[]).map_err(|e| WorkspaceError::Boundary(e.to_string()))
    }

    fn unreadable(&self, e: &dyn std::fmt::Display) -> WorkspaceError {
        WorkspaceError::Boundary(format!(
            "the privacy settings (local-only mode, never-send paths) could not be read from {}: {e}, so nothing was sent — hint: fix them in Settings → Privacy, or check that the state directory is readable",
            self.inner.store_path.display()
        ))
    }

    /// The MCP servers in scope for `folder` (every global one without a folder) plus this run's
    /// `--mcp` servers, mounted on `handle` behind the stored boundary (failing closed when it
    /// cannot be read).
    pub fn mount_mcp(
        &self,
        folder: Option<&Path>,
        handle: &tokio::runtime::Handle,
    ) -> Result<folio_host::mcp::Mounted, WorkspaceError> {
        let extra = self
            .inner
            .overrides
            .mcp
            .iter()
            .map(|s| folio_host::mcp::parse_cli_server(s).map_err(|e| WorkspaceError::Invalid(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        let boundary = mcp::boundary(&self.inner.root, folder);
        Ok(mcp::mount(
            &self.inner.root,
            folder,
            extra,
            boundary.as_ref().map_err(String::as_str),
            self.secrets(),
            handle,
        ))
    }

    /// The doctor's rows: every capability `folio_host::probe_doctor` checks, then one row per MCP
    /// server in scope for `folder`, connected afresh. The shell adds its provider row. Also the
    /// warnings the probe found worth saying.
    pub fn doctor(
        &self,
        folder: Option<&Path>,
        handle: &tokio::runtime::Handle,
    ) -> (Vec<folio_render::doctor::Capability>, Vec<String>) {
        let mounted = match self.mount_mcp(folder, handle) {
            Ok(mounted) => mounted,
            Err(e) => mcp::failed("mcp", e.to_string()),
        };
        let (mut rows, warnings) = folio_host::probe_doctor(Some(self.inner.root.clone()));
        rows.extend(mounted.rows());
        (rows, warnings)
    }

    /// Whether `folder` was last opened read-only.
    pub fn read_only_choice(&self, folder: &Path) -> Result<bool, WorkspaceError> {
        recent::read_only_choice(&self.inner.store, folder).map_err(|e| self.store_error(e))
    }

    /// The remembered folders, newest first.
    pub fn recent(&self) -> Result<Vec<recent::Recent>, WorkspaceError> {
        recent::list(&self.inner.store).map_err(|e| self.store_error(e))
    }

    /// Puts `folder` first in the recent list, remembering whether it was opened `read_only`.
    pub fn remember(&self, folder: &Path, read_only: bool) -> Result<(), WorkspaceError> {
        recent::remember(&self.inner.store, folder, read_only).map_err(|e| self.store_error(e))
    }
}
