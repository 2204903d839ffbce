//! The Tauri commands: each parses its `*Params`, asks the open [`Session`], and answers a
//! `*Response` or a [`CommandError`] the person can read (what happened, and apart, the fix).

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

use folio_workspace::{Overrides, Workspace};
use tauri::State;
use tauri::ipc::Channel;

use crate::api::*;
use crate::session::Session;

/// What opening a folder gives: the session and what to tell the window, or why it failed.
type Opening = Result<(Session, FolderOpenResponse), String>;

/// The app's state: the workspace, the open folder, if any, and where per-folder state lives.
#[derive(Default)]
pub struct AppState {
    /// The person's Folio under the state root (store, keys, settings), opened on first use.
    workspace: std::sync::OnceLock<Workspace>,
    /// The open folder. Read it through [`AppState::session`], which waits for the start-up open.
    session: Mutex<Option<Arc<Session>>>,
    /// Where per-folder state lives (`None`: the default state directory).
    pub state_dir: Option<PathBuf>,
    /// Why the folder named on the command line did not open, shown once.
    pub notice: Mutex<Option<String>>,
    /// What opening that folder answered (warnings, a recovery), given once.
    started: Mutex<Option<FolderOpenResponse>>,
    /// The folder named on the command line, opening on its own thread while the window and its
    /// web process start (the two used to run one after the other: about half a second of a cold
    /// start). Taken and joined by the first command that needs the folder.
    starting: Mutex<Option<std::thread::JoinHandle<Opening>>>,
}

impl AppState {
    /// No folder open yet; per-folder state under `state_dir` (`None`: the default directory).
    pub fn new(state_dir: Option<PathBuf>) -> AppState {
        AppState { state_dir, ..AppState::default() }
    }

    /// The workspace under the state root (the same store, keys and settings `folio` uses).
    pub fn workspace(&self) -> Result<Workspace, String> {
        if let Some(ws) = self.workspace.get() {
            return Ok(ws.clone());
        }
        let ws = Workspace::open(self.state_dir.clone(), Overrides::default()).map_err(|e| e.to_string())?;
        Ok(self.workspace.get_or_init(|| ws).clone())
    }

    /// Starts opening `folder` on a thread; every command that needs the folder waits for it.
    pub fn open_in_background(&self, folder: PathBuf) {
        let workspace = self.workspace();
        let spawned = std::thread::Builder::new().name("folio-open".into()).spawn(move || {
            let opened = open_session(&workspace?, &folder.to_string_lossy(), None);
            crate::trace_stage("folder opened");
            opened
        });
        match spawned {
            Ok(handle) => *self.starting.lock().unwrap_or_else(PoisonError::into_inner) = Some(handle),
            Err(e) => {
                *self.notice.lock().unwrap_or_else(PoisonError::into_inner) =
                    Some(format!("the folder could not be opened: no thread could start ({e}) — hint: open it again"))
            }
        }
    }

    /// Waits for the start-up open, if one is running, and keeps what it gave.
    fn settle(&self) {
        let mut starting = self.starting.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(handle) = starting.take() else {
            return;
        };
        let outcome = handle.join().unwrap_or_else(|_| {
            Err("opening the folder stopped unexpectedly (a Folio bug) — hint: open it again, and report it".into())
        });
        match outcome {
            Ok((session, opened)) => {
                *self.session.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(session));
                *self.started.lock().unwrap_or_else(PoisonError::into_inner) = Some(opened);
            }
            Err(e) => *self.notice.lock().unwrap_or_else(PoisonError::into_inner) = Some(e),
        }
    }

    /// The open session, if any (after the start-up open has finished).
    pub fn session(&self) -> Option<Arc<Session>> {
        self.settle();
        self.session.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// The open session, or the error that tells the person to open a folder first.
    pub fn current(&self) -> Result<Arc<Session>, CommandError> {
        self.session().ok_or_else(CommandError::no_folder)
    }

    /// Opens `path`, replacing the open folder; read-only when `read_only` says so, or (`None`)
    /// when the recent list remembers it was last opened that way.
    pub fn open(&self, path: &str, read_only: Option<bool>) -> Result<FolderOpenResponse, String> {
        self.settle();
        let (session, opened) = open_session(&self.workspace()?, path, read_only)?;
        *self.session.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(session));
        Ok(opened)
    }
}

/// Opens the folder at `path` in `ws` (what folio-workspace stores for it applied; read-only as
/// `read_only` says, else as remembered), and remembers it in the recent list.
fn open_session(ws: &Workspace, path: &str, read_only: Option<bool>) -> Opening {
    let session = Session::open_in(ws, &PathBuf::from(path), read_only)?;
    let mut opened = session.opened();
    if let Err(e) = ws.remember(session.folder(), session.read_only()) {
        opened.warnings.push(format!("the recent-folders list could not be updated: {e}"));
    }
    // The preview cache stays bounded; it is trimmed off the start's path.
    if let Some(previews) = session.environment().overlay().map(|o| o.state_dir().join("previews")) {
        let _ = std::thread::Builder::new().name("folio-prune".into()).spawn(move || {
            crate::preview::prune::prune(&previews, crate::preview::prune::CAP_BYTES, std::time::SystemTime::now())
        });
    }
    Ok((session, opened))
}

/// Runs `job` on the blocking pool (files, the store, PDFium), its error made a [`CommandError`].
pub(crate) async fn blocking<T: Send + 'static, E: Into<CommandError> + Send + 'static>(
    job: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, CommandError> {
    tauri::async_runtime::spawn_blocking(job)
        .await
        .map_err(|e| CommandError::stopped("the operation", e, "try again"))?
        .map_err(Into::into)
}

/// `folder.open`: opens a folder.
#[tauri::command]
pub async fn folder_open(
    state: State<'_, AppState>,
    params: FolderOpenParams,
) -> Result<FolderOpenResponse, CommandError> {
    Ok(state.open(&params.path, params.read_only)?)
}

/// `status.get`: the open folder and its pending changes.
#[tauri::command]
pub async fn status_get(state: State<'_, AppState>) -> Result<StatusGetResponse, CommandError> {
    let session = state.session();
    let notice = state.notice.lock().unwrap_or_else(PoisonError::into_inner).take();
    let mut status = match session {
        Some(session) => blocking(move || session.status()).await?,
        None => StatusGetResponse {
            folder: None,
            changes: Vec::new(),
            conflicts: 0,
            notice: None,
            opened: None,
            read_only: false,
        },
    };
    status.notice = notice;
    status.opened = state.started.lock().unwrap_or_else(PoisonError::into_inner).take();
    crate::trace_first_answer("status_get");
    Ok(status)
}

/// `tree.list`: one directory of the agent's view, with badges.
#[tauri::command]
pub async fn tree_list(state: State<'_, AppState>, params: TreeListParams) -> Result<TreeListResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.list(&params.path)).await
}

/// `file.read`: a file's text for the preview pane.
#[tauri::command]
pub async fn file_read(state: State<'_, AppState>, params: FileReadParams) -> Result<FileReadResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.read(&params.path)).await
}

/// `scripts.list`: the script catalogue.
#[tauri::command]
pub async fn scripts_list(state: State<'_, AppState>) -> Result<ScriptsListResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.scripts()).await
}

/// `scripts.run`: runs a script, streaming its console lines over `on_progress`.
#[tauri::command]
pub async fn scripts_run(
    state: State<'_, AppState>,
    params: ScriptsRunParams,
    on_progress: Channel<ScriptProgressNotification>,
) -> Result<ScriptsRunResponse, CommandError> {
    let session = state.current()?;
    blocking(move || {
        session.run_script(
            params,
            Box::new(move |line| {
                let _ = on_progress.send(line);
            }),
        )
    })
    .await
}

/// `commit.apply`: writes the selected changes into the folder.
#[tauri::command]
pub async fn commit_apply(
    state: State<'_, AppState>,
    params: CommitApplyParams,
) -> Result<CommitApplyResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.commit(&params)).await
}

/// `discard.apply`: throws the selected changes away.
#[tauri::command]
pub async fn discard_apply(
    state: State<'_, AppState>,
    params: DiscardApplyParams,
) -> Result<DiscardApplyResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.discard(&params)).await
}
