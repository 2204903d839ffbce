//! A folder opened for a person: [`Workspace::open_folder`] applies what the workspace stores for
//! it — the script run budget, the vision model, the MCP servers in scope and the remembered
//! read-only choice, each under the shell's flags — and answers a [`Folder`]: the environment,
//! the agent's event queue and [`Folder::turn`] ([`crate::turn`]).
//!
//! **Settings that cannot be honoured do not refuse the folder.** A vision model without a key,
//! a budget a hand-edited store put out of bounds, an unreadable read-only choice: the folder
//! opens without that setting and [`Folder::warnings`] says why and how to fix it. A flag a person
//! typed that cannot be honoured is refused instead (by [`Overrides::apply`]).
//!
//! [`Overrides::apply`]: crate::Overrides::apply

use std::path::{Path, PathBuf};
use std::sync::Arc;

use folio_env::{Asker, Environment, OnProgress, ProgressLine};
use folio_host::{Host, Seams};

use crate::{DEFAULT_SCRIPT_BUDGET_MS, Shell, Workspace, WorkspaceError};

/// Who answers the agent's `ask_user` in this folder: the seam each shell chooses.
#[derive(Clone, Default)]
pub enum Asking {
    /// Nobody: the `ask_user` tool is absent (the model never sees it).
    #[default]
    Absent,
    /// The turn's events: the question reaches the shell as `AgentEvent::Ask` and waits for
    /// [`Folder::answer`] (the app's transcript).
    Events,
    /// The shell's own asker (a terminal prompt, an answers file).
    With(Arc<dyn Asker>),
}

/// How a shell opens a folder, beyond what the workspace stores.
#[derive(Clone, Default)]
pub struct FolderOptions {
    /// Where script console lines go as they are printed (besides the turn's events).
    pub on_progress: Option<OnProgress>,
    /// Who answers `ask_user`.
    pub asking: Asking,
    /// What a budget refusal tells a person to change.
    pub budget_raise: Option<String>,
    /// Which shell opens it (named by the turn lock).
    pub shell: Option<Shell>,
    /// The person's choice for this opening (the app's Open Read-only), over the workspace's
    /// `--read-only-folder`/`--writable` flag and the remembered choice; `None` leaves them.
    pub read_only: Option<bool>,
}

/// An open folder.
pub struct Folder {
    ws: Workspace,
    env: Arc<Environment>,
    root: PathBuf,
    events: folio_agent::HostEvents,
    read_only: bool,
    warnings: Vec<String>,
    shell: Shell,
    motion: Arc<folio_motion::modules::MotionHost>,
}

impl Workspace {
    /// Opens `folder` with the stored script budget, vision model, MCP servers and read-only
    /// choice applied, each under this workspace's flags; MCP servers and the vision client run
    /// on `handle`.
    pub fn open_folder(
        &self,
        folder: &Path,
        options: FolderOptions,
        handle: &tokio::runtime::Handle,
    ) -> Result<Folder, WorkspaceError> {
        if !folder.is_dir() {
            return Err(WorkspaceError::Open(format!(
                "{} is not a folder Folio can open — hint: name an existing folder",
                folder.display()
            )));
        }
        let real = std::fs::canonicalize(folder).unwrap_or_else(|_| folder.to_path_buf());
        let mut warnings = Vec::new();
        let overrides = self.overrides();
        // The flags were checked when the workspace's settings were asked for; a stored value out
        // of bounds is said and replaced by the default.
        let settings = match self.settings() {
            Ok(s) => Some(s),
            Err(e) if overrides.script_budget_ms.is_some() || overrides.max_turns.is_some() => return Err(e),
            Err(e) => {
                warnings.push(format!("{e}; the defaults apply — fix it in Settings (or `folio settings set`)"));
                None
            }
        };
        let budget = settings.as_ref().map_or(DEFAULT_SCRIPT_BUDGET_MS, |s| s.script_budget_ms);
        let read_only = match options.read_only.or(overrides.read_only_folder) {
            Some(choice) => choice,
            None => self.read_only_choice(&real).or_else(|_| self.read_only_choice(folder)).unwrap_or_else(|e| {
                warnings.push(format!("the folder's read-only choice could not be read ({e}); it opens writable"));
                false
            }),
        };
        let events = folio_agent::HostEvents::default();
        let vision = match settings.as_ref().filter(|s| !s.vision_model.trim().is_empty()) {
            None => None,
            Some(s) => match self.vision(s, &real, handle, events.ledger_sink()) {
                Ok(v) => v,
                Err(e) => {
                    warnings.push(format!(
                        "the agent cannot see images in this folder: {e} — fix the vision model in Settings (or pass --vision), then open the folder again"
                    ));
                    None
                }
            },
        };
        let (seam, modules) = match vision {
            Some(v) => (Some(v.seam), v.modules),
            None => (None, Vec::new()),
        };
        let mounted = self.mount_mcp(Some(&real), handle)?;
        let host = Host::builder()
            .state_dir(Some(self.root().to_path_buf()))
            .modules(modules)
            .mcp(mounted)
            .build()
            .map_err(|e| WorkspaceError::Open(e.to_string()))?;
        let agent_progress = events.progress_callback();
        let shell_progress = options.on_progress.clone();
        let on_progress: OnProgress = Arc::new(move |batch: &[ProgressLine]| {
            agent_progress(batch);
            if let Some(also) = &shell_progress {
                also(batch);
            }
        });
        let asker = match &options.asking {
            Asking::Absent => None,
            Asking::Events => Some(events.asker()),
            Asking::With(asker) => Some(asker.clone()),
        };
        let seams = Seams {
            read_only_paths: overrides.read_only_paths.clone(),
            read_only_folder: read_only,
            on_progress: Some(on_progress),
            run_budget_ms: Some(budget),
            budget_raise: options.budget_raise.clone(),
            presenter: Some(Arc::new(folio_env::KeepPresented)),
            asker,
            vision: seam,
        };
        let env = host
            .open_folder(folder, seams)
            .map_err(|e| WorkspaceError::Open(format!("{} could not be opened: {e}", folder.display())))?;
        if let Some(recovery) = env.overlay().and_then(|o| o.recovery()) {
            warnings.push(recovery.to_string());
        }
        warnings.extend(host.warnings().iter().cloned());
        warnings.extend(env.warnings().iter().cloned());
        let root = env.overlay().map(|o| o.root().to_path_buf()).unwrap_or(real);
        Ok(Folder {
            ws: self.clone(),
            env: Arc::new(env),
            root,
            events,
            read_only,
            warnings,
            shell: options.shell.unwrap_or(Shell::Cli),
            motion: Arc::clone(host.motion()),
        })
    }

    /// The vision setup `settings` ask for in `folder`, behind its stored boundary.
    pub fn vision(
        &self,
        settings: &crate::Settings,
        folder: &Path,
        handle: &tokio::runtime::Handle,
        ledger: folio_agent::LedgerSink,
    ) -> Result<Option<folio_agent::VisionSetup>, WorkspaceError> {
        let boundary = self.boundary(folder)?;
        let main = self.provider(settings, None)?;
        crate::off_runtime(|| {
            folio_agent::vision_setup_within(
                &settings.vision_model,
                &main,
                handle,
                |p| self.key(p.name).0.map(|f| f.key),
                &boundary,
                Some(ledger),
            )
        })?
        .map_err(WorkspaceError::Provider)
    }
}

impl Folder {
    /// env:motion as this folder's host found it (browser, encoder: the app's scene previews
    /// render stills through it).
    pub fn motion(&self) -> &Arc<folio_motion::modules::MotionHost> {
        &self.motion
    }

    /// The workspace it was opened from.
    pub fn workspace(&self) -> &Workspace {
        &self.ws
    }

    /// The working environment.
    pub fn environment(&self) -> &Arc<Environment> {
        &self.env
    }

    /// The folder (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The agent's side of the environment: script lines, hand-offs and questions.
    pub fn events(&self) -> &folio_agent::HostEvents {
        &self.events
    }

    /// Whether it is open read-only.
    pub fn read_only(&self) -> bool {
        self.read_only
    }

    /// What opening it found worth saying.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Which shell opened it.
    pub fn shell(&self) -> Shell {
        self.shell
    }

    /// The folder's state directory (where its overlay and turn lock live).
    pub fn state_dir(&self) -> PathBuf {
        match self.env.overlay() {
            Some(o) => o.state_dir().to_path_buf(),
            None => folio_vfs::folder_state_dir(self.ws.root(), &self.root),
        }
    }

    /// Answers the agent's waiting question `id`; false when no such question waits.
    pub fn answer(&self, id: u64, answer: Option<String>) -> bool {
        self.events.answer(id, answer)
    }

    /// The pending changes, as a line for a person: how many, or why they could not be read.
    pub fn pending_line(&self) -> String {
        match self.env.overlay().map(|o| o.pending()) {
            Some(Ok(changes)) => format!("{} change(s) pending", changes.len()),
            Some(Err(e)) => format!("the pending changes could not be read ({e})"),
            None => "nothing is pending (no folder overlay)".to_string(),
        }
    }
}
