//! `folio-host`: the composition root. Every shell that opens a folder — the `folio` command,
//! the desktop app, the tests that stand in for them — builds its working environment here and
//! nowhere else, so the agent meets the same environment whichever window it works in.
//!
//! # What a host decides
//!
//! - **Which `env:*` modules scripts can import**, and with which options: the builtins
//!   (`env:fs`, `env:std`, `env:assert`), then one row per module in [`modules::MODULES`]
//!   (`env:render`, `env:images`, `env:zip`, `env:media`), then the modules a shell adds for one session
//!   with [`HostBuilder::module`] (`env:vision`, which needs the model provider), then the MCP
//!   servers a person added ([`mcp`], given with [`HostBuilder::mcp`]), each `env:<name>`.
//! - **Which file handlers** let `describe`, `ls` and `view_image` understand PDFs, Office
//!   files and images ([`modules::HANDLERS`]).
//! - **The limits** a script runs under (the environment's defaults, one source for both the
//!   gateway and the engine).
//! - **The doctor's rows, once per start.** PDFium, LibreOffice, Chromium and ffmpeg are found
//!   by folio-render's discovery (a module is given only the rows of the tools it uses,
//!   `folio_render::doctor::rows_for`); a found tool's version comes from [`doctor_cache`], which
//!   spawns `--version` only for a tool whose path, size or modification time changed since it
//!   was last asked. `folio doctor` ([`probe_doctor`]) always asks again and refreshes the cache.
//!
//! # How a shell uses it
//!
//! ```no_run
//! # fn main() -> Result<(), folio_host::HostError> {
//! let host = folio_host::Host::builder().state_dir(None).build()?;
//! for warning in host.warnings() {
//!     eprintln!("warning: {warning}");
//! }
//! let env = host.open_folder(std::path::Path::new("/some/folder"), folio_host::Seams::default())?;
//! # drop(env);
//! # Ok(())
//! # }
//! ```
//!
//! [`Seams`] carries what differs per shell — how console lines reach the person, whether
//! `present`, `ask_user` and `view_image` are wired, paths kept read-only. Everything else is the
//! host's, so it cannot drift between the CLI and the desktop.
//!
//! # Decisions
//!
//! - **A table of constructors, not a function that registers.** A new module is one row in
//!   [`modules::MODULES`]; the test suite imports every row from a script, so a row that builds a
//!   module with another name, or one that does not load, fails before a person sees it.
//! - **Building a host fails only for a Folio defect** (a module that does not register); a
//!   missing tool is a doctor row, and a cache that cannot be read or written is a warning.
//! - **The cache never decides a row on its own.** Discovery runs on every start (it is a few
//!   `stat`s); only the version string of an unchanged executable is reused.

pub mod doctor_cache;
pub mod mcp;
pub mod media;
pub mod modules;
pub mod regenerate;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use folio_budget::Rates;
use folio_env::{Asker, EnvError, EnvOptions, Environment, FileHandler, OnProgress, Presenter};
use folio_render::doctor::{Probe, RunProbe};
use folio_render::{Capability, HostPaths, Renderer};
use folio_script::{Engine, ModuleRegistry, NativeModule, RegistryError, ScriptLimits};

pub use doctor_cache::Refresh;
use folio_motion::modules::MotionHost;
pub use modules::{HANDLERS, MODULES, Parts, Registration};
pub use regenerate::{RegenerateError, RegenerateOptions, Regenerated, regenerate};

/// Why a host or an environment could not be built.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A row of [`MODULES`] (or a shell's extra module) could not be built or registered: a
    /// defect in Folio, raised before any folder opens. Nobody retries; the module is fixed.
    #[error("env:{name} could not be set up: {why} — this is a bug in Folio, please report it")]
    Module {
        /// The module's name, without `env:`.
        name: String,
        /// What went wrong.
        why: String,
    },
    /// The folder could not be opened (not a folder, its state cannot be read…); the message
    /// says why and how to fix it, and the person retries after.
    #[error(transparent)]
    Env(#[from] EnvError),
}

/// What a shell wires into the environments it opens; everything else is the host's.
#[derive(Default)]
pub struct Seams {
    /// Absolute VFS paths the agent may read but never change.
    pub read_only_paths: Vec<String>,
    /// The whole folder read-only: nothing in it changes, nothing becomes pending.
    pub read_only_folder: bool,
    /// Receives scripts' console lines and long jobs' progress while they run.
    pub on_progress: Option<OnProgress>,
    /// The run budget per script, in milliseconds (`None`: the default, 30 s). Long native
    /// work is estimated against what is left of it and refused up front when it does not fit.
    pub run_budget_ms: Option<u64>,
    /// How a person raises that budget in this shell, for the refusals (`None`: the CLI's
    /// `--run-budget-ms`).
    pub budget_raise: Option<String>,
    /// Wires `present`.
    pub presenter: Option<Arc<dyn Presenter>>,
    /// Wires `ask_user`.
    pub asker: Option<Arc<dyn Asker>>,
    /// Wires `view_image`.
    pub vision: Option<Arc<dyn folio_env::Vision>>,
}

/// How a host is made: where its state lives, which extra modules one session adds, and how
/// the doctor's versions are learnt.
pub struct HostBuilder {
    state_dir: Option<PathBuf>,
    paths: Option<HostPaths>,
    extra: Vec<NativeModule>,
    mcp: mcp::Mounted,
    refresh: Refresh,
    probe: Arc<dyn Probe + Send>,
}

impl HostBuilder {
    /// The state root (`None`: `FOLIO_STATE_DIR`, else the OS app-data directory).
    pub fn state_dir(mut self, dir: Option<PathBuf>) -> HostBuilder {
        self.state_dir = dir;
        self
    }

    /// Where discovery looks for PDFium and the tools (default: this machine, with the state
    /// root above). Its `state_dir` is where the doctor cache is kept. Tests hide or plant tools
    /// this way without touching the process's environment.
    pub fn paths(mut self, paths: HostPaths) -> HostBuilder {
        self.paths = Some(paths);
        self
    }

    /// Adds a module that only this session has (for example `env:vision`), after [`MODULES`].
    pub fn module(mut self, module: NativeModule) -> HostBuilder {
        self.extra.push(module);
        self
    }

    /// Adds several, as [`HostBuilder::module`].
    pub fn modules(mut self, modules: Vec<NativeModule>) -> HostBuilder {
        self.extra.extend(modules);
        self
    }

    /// Registers the MCP servers [`mcp::mount_for_folder`] mounted (after [`MODULES`] and the
    /// session's modules); their reports become doctor rows ([`Host::mcp_reports`]) and each
    /// server that did not mount a warning.
    pub fn mcp(mut self, mounted: mcp::Mounted) -> HostBuilder {
        self.mcp = mounted;
        self
    }

    /// Probes every tool even when the cache knows it ([`Refresh::Always`]: what the doctor does).
    pub fn refresh(mut self, refresh: Refresh) -> HostBuilder {
        self.refresh = refresh;
        self
    }

    /// Asks `probe` for tool versions instead of running the tools (tests count probes this way).
    pub fn probe(mut self, probe: Arc<dyn Probe + Send>) -> HostBuilder {
        self.probe = probe;
        self
    }

    /// Computes the doctor's rows (from the cache where the tools did not change), builds every
    /// module and handler, and the one script engine the host's environments share.
    pub fn build(self) -> Result<Host, HostError> {
        let paths = self.paths.unwrap_or_else(|| HostPaths::from_host(self.state_dir.clone()));
        let rates = Arc::new(paths.state_dir.as_deref().map_or_else(Rates::in_memory, Rates::open));
        let renderer = Arc::new(Renderer::new(paths));
        let motion = Arc::new(motion_host(&renderer.host));
        let (doctor, mut warnings) = rows(&renderer, self.refresh, self.probe.as_ref());
        let doctor = with_motion_rows(doctor, &motion);
        // A torn or unreadable rates file is said at start, beside the doctor cache's problems.
        warnings.extend(rates.take_warnings());
        let parts = Parts::new(renderer, doctor, motion);
        let mut registry = ModuleRegistry::with_builtins();
        for row in MODULES.iter().filter(|row| modules::present(row, &parts)) {
            let module = (row.build)(&parts).map_err(|why| HostError::Module { name: row.name.into(), why })?;
            if module.name != row.name {
                return Err(HostError::Module {
                    name: row.name.into(),
                    why: format!("its row in folio_host::MODULES builds a module called env:{}", module.name),
                });
            }
            register(&mut registry, module)?;
        }
        for module in self.extra {
            register(&mut registry, module)?;
        }
        warnings.extend(self.mcp.warnings());
        for module in self.mcp.modules {
            register(&mut registry, module)?;
        }
        let handlers = HANDLERS.iter().filter_map(|make| make(&parts)).collect();
        let defaults = EnvOptions::default();
        let limits = ScriptLimits {
            run_timeout_ms: defaults.limits.run_timeout_ms,
            memory_mb: defaults.limits.script_memory_mb,
            ..ScriptLimits::default()
        };
        Ok(Host {
            state_dir: self.state_dir,
            engine: Arc::new(Engine::new(registry, limits).with_rates(rates)),
            handlers,
            parts,
            warnings,
            mcp: self.mcp.reports,
        })
    }
}

/// env:motion's browser and encoder as the host's paths see them.
fn motion_host(host: &HostPaths) -> MotionHost {
    let env = |k: &str| host.env.get(k).cloned();
    let platform = media::platform(host);
    let browser = folio_motion::discovery::locate(platform, None, &env, host.system);
    MotionHost::new(browser, media::with_search(host, |s| folio_media::Ffmpeg::discover_with(s, None).ok()), platform)
}

/// The doctor's rows followed by env:motion's (the browser, the headless shell, the bundled
/// React and Reanimated): folio-motion is the crate that knows Chromium.
fn with_motion_rows(mut rows: Vec<Capability>, motion: &MotionHost) -> Vec<Capability> {
    let mine: Vec<Capability> = motion
        .rows()
        .iter()
        .map(|r| Capability {
            name: r.name.into(),
            ok: r.ok,
            required: r.required,
            detail: r.detail.clone(),
            fix: r.fix.clone(),
        })
        .collect();
    rows.extend(mine);
    rows
}

fn register(registry: &mut ModuleRegistry, module: NativeModule) -> Result<(), HostError> {
    let name = module.name.clone();
    registry.register_native(module).map_err(|e: RegistryError| HostError::Module { name, why: e.to_string() })
}

/// The doctor's rows for `renderer`'s tools and the cache's warnings.
fn rows(renderer: &Renderer, refresh: Refresh, probe: &dyn Probe) -> (Vec<Capability>, Vec<String>) {
    let cache = doctor_cache::ProbeCache::load(renderer.host.state_dir.as_deref(), refresh, probe);
    // The rows ask their tools one after another; on a first start (or after an upgrade) that
    // is a process start each, soffice, ffmpeg, ffprobe and espeak-ng together ~0.4–0.6 s. A
    // dry pass learns which versions the rows want, and the cache asks them all at once.
    let wanted = doctor_cache::Wanted::default();
    let _ = media::with_media_rows(folio_render::doctor::capabilities_with(renderer, &wanted), &renderer.host, &wanted);
    cache.prefetch(&wanted.take());
    let rows = folio_render::doctor::capabilities_with(renderer, &cache);
    let rows = media::with_media_rows(rows, &renderer.host, &cache);
    (rows, cache.save())
}

/// One host: the modules, handlers and engine its environments share, and the doctor's rows of
/// this start.
pub struct Host {
    state_dir: Option<PathBuf>,
    engine: Arc<Engine>,
    handlers: Vec<Arc<dyn FileHandler>>,
    parts: Parts,
    warnings: Vec<String>,
    mcp: Vec<mcp::ServerReport>,
}

impl Host {
    /// A builder with the defaults: the default state root, [`MODULES`] only, the cache consulted.
    pub fn builder() -> HostBuilder {
        HostBuilder {
            state_dir: None,
            paths: None,
            extra: Vec::new(),
            mcp: mcp::Mounted::default(),
            refresh: Refresh::WhenChanged,
            probe: Arc::new(RunProbe),
        }
    }

    /// The working environment over `folder`, with this host's modules and `seams`.
    pub fn open_folder(&self, folder: &Path, seams: Seams) -> Result<Environment, HostError> {
        Ok(Environment::open_folder(folder, self.options(seams))?)
    }

    /// The options [`Host::open_folder`] uses, for an environment over another tree.
    pub fn options(&self, seams: Seams) -> EnvOptions {
        let mut limits = folio_env::Limits::default();
        if let Some(ms) = seams.run_budget_ms {
            limits.run_timeout_ms = ms;
        }
        EnvOptions {
            limits,
            budget_raise: Some(Arc::from(seams.budget_raise.as_deref().unwrap_or(folio_budget::DEFAULT_RAISE))),
            state_root: self.state_dir.clone(),
            engine: Some(self.engine.clone()),
            handlers: self.handlers.clone(),
            read_only_paths: seams.read_only_paths,
            read_only_folder: seams.read_only_folder,
            on_progress: seams.on_progress,
            presenter: seams.presenter,
            asker: seams.asker,
            vision: seams.vision,
            skills: self.module_skills(),
            ..EnvOptions::default()
        }
    }

    /// The skills of the registered modules that bring one (only what a script can import).
    fn module_skills(&self) -> Vec<modules::Skill> {
        let registry = self.engine.registry();
        // The npm libraries are part of every engine, so their skill always travels.
        let modules = MODULES.iter().filter(|row| registry.get(row.name).is_some()).filter_map(|row| row.skill);
        std::iter::once(folio_script::LIBRARIES_SKILL).chain(modules).collect()
    }

    /// The doctor's rows of this start.
    pub fn doctor(&self) -> &[Capability] {
        &self.parts.doctor
    }

    /// What mounting this host's MCP servers found, one per server (their doctor rows:
    /// [`mcp::ServerReport::row`]).
    pub fn mcp_reports(&self) -> &[mcp::ServerReport] {
        &self.mcp
    }

    /// What building the host found worth saying (a torn doctor cache, one that cannot be
    /// written). Shells print them with the environment's own warnings.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The modules scripts can import, in registration order (without `env:`).
    pub fn module_names(&self) -> Vec<String> {
        self.engine.registry().modules().iter().map(|m| m.name.clone()).collect()
    }

    /// The renderer the modules and handlers share.
    pub fn renderer(&self) -> &Arc<Renderer> {
        &self.parts.renderer
    }

    /// What env:motion found (the app's scene previews render stills through it).
    pub fn motion(&self) -> &Arc<MotionHost> {
        &self.parts.motion
    }
}

/// What `folio doctor` and the desktop's doctor panel show: every tool probed again (the cache
/// is refreshed for the next start), and the cache's warnings.
pub fn probe_doctor(state_dir: Option<PathBuf>) -> (Vec<Capability>, Vec<String>) {
    let renderer = Renderer::new(HostPaths::from_host(state_dir));
    let (rows, warnings) = rows(&renderer, Refresh::Always, &RunProbe);
    let motion = motion_host(&renderer.host);
    (with_motion_rows(rows, &motion), warnings)
}
