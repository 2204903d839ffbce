//! The doctor: one row per capability this crate knows about, saying whether it works on this
//! host and, when it does not, the command that fixes it. `folio doctor` prints the rows, the
//! desktop app shows them, and `env:render`'s `capabilities()` hands them to scripts (and the end
//! of `/std/render/README.md`), so a capability that cannot work is known before an agent relies
//! on it.
//!
//! Rows, in order: `pdfium` (required), `libreoffice` (optional: a missing one refuses only the
//! files that need it). folio-host adds the rows of the crates that know the other tools:
//! folio-media's `ffmpeg`, `ffprobe`, `espeak-ng` and folio-motion's `chromium`,
//! `headless-shell`, `react`, `reanimated`, `emoji-font`. The shape `{name, ok, required, detail, fix}` is
//! what every surface serialises; it does not change without changing them all.
//!
//! The doctor shows every row, but the agent is shown only what it can use: [`USED_BY`] says
//! which `env:` modules use each row's tool, and a module's "On this host" section and its
//! `capabilities()` are [`rows_for`] that module.
//!
//! A found tool's row needs its version, which means running it (`soffice --version` is a
//! process start of ~0.1–0.2 s). That question goes through [`Probe`]: [`RunProbe`] runs the
//! tool; a host can answer it from a cache instead (folio-host keeps one in the state root,
//! keyed by the executable's path, size and modification time), and tests count the calls.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use folio_budget::child::{ChildEnd, ChildLimits, Supervised};

use serde::{Deserialize, Serialize};

use crate::discovery::HostPaths;
use folio_kinds::OfficeApp;

use crate::office::{find_soffice, installed_apps};
use crate::rasterize::Renderer;

/// How long a `--version` probe may take before the doctor gives up on it.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// One capability and its state on this host.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Capability {
    /// `pdfium`, `libreoffice`, and the other crates' rows folio-host adds (the CLI adds
    /// `provider`).
    pub name: String,
    /// True when it works here.
    pub ok: bool,
    /// True when Folio is not ready without it (the doctor exits non-zero).
    pub required: bool,
    /// What was found (the path and version), or what is wrong.
    pub detail: String,
    /// The command that fixes it on this platform; empty when `ok`.
    pub fix: String,
}

impl Capability {
    fn pass(name: &str, required: bool, detail: String) -> Capability {
        Capability { name: name.into(), ok: true, required, detail, fix: String::new() }
    }

    fn fail(name: &str, required: bool, detail: String, fix: String) -> Capability {
        Capability { name: name.into(), ok: false, required, detail, fix }
    }
}

/// How the doctor learns a found tool's version: the first line `program arg` prints, or why
/// it printed none. Called from several threads at once (one per tool).
pub trait Probe: Sync {
    /// The version line of `program` run with `arg` (`--version`, `-version`).
    fn version(&self, program: &Path, arg: &str) -> Result<String, String>;
}

/// The probe that runs the tool, within [`PROBE_TIMEOUT`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RunProbe;

impl Probe for RunProbe {
    fn version(&self, program: &Path, arg: &str) -> Result<String, String> {
        version(program, arg)
    }
}

/// The rows for this machine, with Folio's state directory `state_dir` (`None`: the default).
/// Loads PDFium (once per process) and runs each tool's `--version`, so call it off the UI
/// thread; hosts go through folio-host, which answers unchanged tools from its cache.
pub fn on_this_host(state_dir: Option<PathBuf>) -> Vec<Capability> {
    capabilities(&Renderer::new(HostPaths::from_host(state_dir)))
}

/// The rows, in the order the doctor prints them, for the tools `renderer` would use, running
/// each found tool to learn its version.
pub fn capabilities(renderer: &Renderer) -> Vec<Capability> {
    capabilities_with(renderer, &RunProbe)
}

/// As [`capabilities`], with versions from `probe`.
pub fn capabilities_with(renderer: &Renderer, probe: &dyn Probe) -> Vec<Capability> {
    // The version probes (each a process start when not cached, ~0.1–0.2 s for soffice) run
    // side by side instead of one after another.
    std::thread::scope(|scope| {
        let office = scope.spawn(|| office_row(renderer, probe));
        let mut rows = vec![pdfium_row(renderer)];
        rows.push(office.join().unwrap_or_else(|_| lost("libreoffice")));
        rows
    })
}

/// The row of a probe whose thread died (it cannot, short of a bug): a failure, said plainly.
fn lost(name: &str) -> Capability {
    Capability::fail(
        name,
        false,
        "the check stopped unexpectedly".into(),
        "run folio doctor again; report it if it repeats".into(),
    )
}

/// Which `env:` modules (names without `env:`) use the tool behind each doctor row — the one
/// table that says so. A row missing here is used by no module; a test checks that every row the
/// doctor computes is listed, so a new tool states its users when it is added.
pub const USED_BY: &[(&str, &[&str])] = &[
    ("pdfium", &["render"]),
    ("libreoffice", &["render"]),
    // folio-motion's rows (folio-host adds them).
    ("chromium", &["motion"]),
    ("headless-shell", &["motion"]),
    ("react", &["motion"]),
    ("reanimated", &["motion"]),
    ("emoji-font", &["motion"]),
    // folio-media's rows (folio-host adds them).
    ("ffmpeg", &["media", "motion"]),
    ("ffprobe", &["media"]),
    ("espeak-ng", &["media"]),
];

/// The modules that use row `name`'s tool (empty for a tool no module uses yet).
pub fn used_by(name: &str) -> &'static [&'static str] {
    USED_BY.iter().find(|(row, _)| *row == name).map_or(&[], |(_, modules)| modules)
}

/// The rows of the tools `module` uses, in the doctor's order: what that module tells the agent
/// about this host.
pub fn rows_for(module: &str, rows: &[Capability]) -> Vec<Capability> {
    rows.iter().filter(|r| used_by(&r.name).contains(&module)).cloned().collect()
}

/// True when every required row passes.
pub fn ready(rows: &[Capability]) -> bool {
    rows.iter().all(|r| r.ok || !r.required)
}

fn pdfium_row(renderer: &Renderer) -> Capability {
    match renderer.pdfium() {
        Ok(engine) => Capability::pass(
            "pdfium",
            true,
            format!("{} — env:render can rasterise PDFs", engine.library_path().display()),
        ),
        // The loader's own fix: when FOLIO_PDFIUM_PATH names a library that is not there, it
        // says to re-point or unset the variable (installing PDFium elsewhere would not help).
        Err(crate::RenderError::PdfiumMissing { tried, fix }) => {
            Capability::fail("pdfium", true, format!("not loadable; tried {tried}"), fix)
        }
        Err(other) => Capability::fail("pdfium", true, other.to_string(), renderer.host.platform.pdfium_fix()),
    }
}

fn office_row(renderer: &Renderer, probe: &dyn Probe) -> Capability {
    let platform = renderer.host.platform;
    let path = match find_soffice(renderer.soffice_path.as_deref(), &renderer.host) {
        Ok(path) => path,
        Err(tried) => {
            // FOLIO_SOFFICE_PATH naming nothing is never passed over, so installing LibreOffice
            // would not help until the variable is fixed: say that first.
            let named = renderer.host.env.get("FOLIO_SOFFICE_PATH").filter(|v| !v.is_empty());
            let fix = match named {
                Some(v) if !Path::new(v).is_file() => format!(
                    "point FOLIO_SOFFICE_PATH at the soffice executable, or unset it to search PATH; to install it: {}",
                    platform.office_fix(&OfficeApp::ALL)
                ),
                _ => platform.office_fix(&OfficeApp::ALL),
            };
            return Capability::fail(
                "libreoffice",
                false,
                format!("not found (optional: without it .docx/.xlsx/.pptx are refused); looked at {tried}"),
                fix,
            );
        }
    };
    let version = match probe.version(&path, "--version") {
        Ok(v) => v,
        Err(why) => {
            return Capability::fail(
                "libreoffice",
                false,
                format!("{} is there but does not run: {why}", path.display()),
                platform.office_fix(&OfficeApp::ALL),
            );
        }
    };
    let Some(apps) = installed_apps(&path) else {
        return Capability::pass("libreoffice", false, format!("{} ({version}) — Office files render", path.display()));
    };
    let missing: Vec<OfficeApp> = OfficeApp::ALL.into_iter().filter(|a| !apps.contains(a)).collect();
    let have: Vec<&str> = apps.iter().map(|a| a.label()).collect();
    if missing.is_empty() {
        return Capability::pass(
            "libreoffice",
            false,
            format!("{} ({version}; {}) — Office files render", path.display(), have.join(", ")),
        );
    }
    let refused: Vec<String> =
        missing.iter().map(|a| format!("{} files need {}", a.extension_list(), a.label())).collect();
    Capability::fail(
        "libreoffice",
        false,
        format!(
            "{} ({version}) has {} only — {} and are refused",
            path.display(),
            if have.is_empty() { "no application".to_string() } else { have.join(", ") },
            refused.join("; ")
        ),
        platform.office_fix(&missing),
    )
}

/// The first non-empty line `program arg` prints, within [`PROBE_TIMEOUT`]. The tool runs
/// under `folio_budget::child` like every other child: its own process group, killed whole at
/// the timeout and after it exits, so a wrapper script's helpers (soffice's `soffice.bin`) go too.
fn version(program: &Path, arg: &str) -> Result<String, String> {
    let mut cmd = Command::new(program);
    cmd.arg(arg).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null());
    let mut child = Supervised::spawn(&mut cmd).map_err(|e| format!("cannot start it: {e}"))?;
    let reader = child.child_mut().stdout.take().map(|mut stdout| {
        std::thread::spawn(move || {
            let mut out = String::new();
            let _ = std::io::Read::read_to_string(&mut stdout, &mut out);
            out
        })
    });
    let outcome = child.wait(&ChildLimits::timeout(PROBE_TIMEOUT)).map_err(|e| format!("lost track of it: {e}"))?;
    let status = match outcome.end {
        ChildEnd::Exited(status) => status,
        _ => return Err(format!("`{arg}` did not answer within {} s", PROBE_TIMEOUT.as_secs())),
    };
    let out = reader.and_then(|r| r.join().ok()).unwrap_or_default();
    // ffmpeg's first line goes on with a copyright notice; the version is what matters.
    let line = out
        .lines()
        .map(|l| l.split(" Copyright").next().unwrap_or(l).trim())
        .find(|l| !l.is_empty())
        .map(str::to_string);
    match (status.success(), line) {
        (true, Some(line)) => Ok(line),
        (true, None) => Err(format!("`{arg}` printed nothing")),
        (false, _) => Err(format!("`{arg}` exited with {status}")),
    }
}
