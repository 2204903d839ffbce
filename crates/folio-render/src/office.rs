//! Office documents to PDF through headless LibreOffice (`soffice --headless --convert-to pdf`).
//!
//! - LibreOffice is found before anything runs ([`find_soffice`]); absent, the call is refused with
//!   the platform's install command, never attempted.
//! - One user profile is reused across conversions (a fresh profile costs ~20% more per
//!   conversion, and the first run initialises it). Conversions on one profile are serialised by a
//!   process-wide lock, because concurrent `soffice` processes on a shared profile lose to each
//!   other and exit 0 without output; and each process claims a profile of its own
//!   ([`default_profile_dir`]), so two Folio processes never share one.
//! - Each run of `soffice` is supervised ([`folio_budget::child`]): its own process group, a
//!   timeout that is the shorter of the renderer's and what is left of the run, a memory cap,
//!   and the whole group killed on any stop — an orphaned `soffice.bin` once kept growing after
//!   its run returned and held the shared profile, so every conversion after it timed out too.
//! - Success is decided by whether a non-empty PDF appeared, never by the exit status.
//! - Each conversion gets its own input and output directory, so `a.docx` and `a.xlsx` never
//!   overwrite each other's `a.pdf`.
//! - On Linux the conversion is handed to the profile's warm LibreOffice
//!   ([`crate::office_server`]): the same command, answered by an office that is already up
//!   (~0.1 s instead of ~1.5 s). Every outcome and message below is the same on both routes.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use folio_budget::{ChildEnd, ChildLimits, ChildOutcome, child};

use crate::discovery::{HostPaths, describe_tried, first_existing, soffice_candidates};
use crate::error::{RenderError, Result};

/// The LibreOffice application of a kind of document lives in the workspace's file-kind table.
pub use folio_kinds::OfficeApp;

/// The applications installed with the LibreOffice whose executable is `soffice` (symbolic
/// links followed), read from its registry directory. `None` when that directory is not where
/// the usual layouts put it (a wrapper script, a snap): then nothing is known and nothing is
/// refused on this ground.
pub fn installed_apps(soffice: &Path) -> Option<Vec<OfficeApp>> {
    let real = std::fs::canonicalize(soffice).ok()?;
    let program = real.parent()?;
    let registry = [program.join("../share/registry"), program.join("../Resources/registry")]
        .into_iter()
        .find(|d| d.join("main.xcd").is_file())?;
    Some(OfficeApp::ALL.into_iter().filter(|app| registry.join(app.registry_file()).is_file()).collect())
}

/// One lock per profile directory: conversions on one profile take turns, on different profiles
/// they run side by side.
static PROFILE_LOCKS: Mutex<Vec<(PathBuf, Arc<Mutex<()>>)>> = Mutex::new(Vec::new());

fn profile_lock(profile: &Path) -> Arc<Mutex<()>> {
    let mut locks = PROFILE_LOCKS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, lock)) = locks.iter().find(|(p, _)| p == profile) {
        return lock.clone();
    }
    let lock = Arc::new(Mutex::new(()));
    locks.push((profile.to_path_buf(), lock.clone()));
    lock
}
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// The LibreOffice executable that can open `app`'s documents. Refused (with where it looked, or
/// which application is missing) when there is none, before anything runs.
pub fn find_soffice_for(name: &str, app: OfficeApp, explicit: Option<&Path>, host: &HostPaths) -> Result<PathBuf> {
    let soffice = find_soffice(explicit, host).map_err(|tried| RenderError::OfficeMissing {
        path: name.to_string(),
        tried,
        fix: host.platform.office_fix(&[app]),
    })?;
    match installed_apps(&soffice) {
        Some(apps) if !apps.contains(&app) => {
            let have: Vec<&str> = apps.iter().map(|a| a.label()).collect();
            Err(RenderError::OfficeMissing {
                path: name.to_string(),
                tried: format!(
                    "{} has {} but not {}, which opens this kind of file",
                    soffice.display(),
                    if have.is_empty() { "no application".to_string() } else { have.join(", ") },
                    app.label()
                ),
                fix: host.platform.office_fix(&[app]),
            })
        }
        _ => Ok(soffice),
    }
}

/// The LibreOffice executable, or where it was looked for.
pub fn find_soffice(explicit: Option<&Path>, host: &HostPaths) -> std::result::Result<PathBuf, String> {
    let candidates = soffice_candidates(explicit, host);
    // An explicit choice that does not exist is reported as such, never passed over for another
    // LibreOffice the person did not ask for.
    if let Some(c) = candidates.iter().find(|c| c.source == "option" || c.source == "FOLIO_SOFFICE_PATH")
        && !c.path.is_file()
    {
        return Err(format!("{} ({}): not found", c.path.display(), c.source));
    }
    first_existing(&candidates).map(|c| c.path.clone()).ok_or_else(|| describe_tried(&candidates))
}

/// The profile directory this process reuses: `<cache>/folio/libreoffice/<slot>/libreoffice-profile`.
///
/// One profile belongs to one process at a time. A LibreOffice started on a profile another
/// process's LibreOffice holds does not convert anything: it hands its request to that other
/// office (or gives up) and exits 0 without output — so the app and any number of `folio`
/// commands each claim a slot of their own, the first free one, by an exclusive lock on
/// `<slot>.lock` held for the process's life ([`std::fs::File::try_lock`]; the OS frees it when the
/// process ends, crash included). Profiles are still reused across runs: the next process takes
/// the slot (and its warmed-up profile) the last one left. Past [`SLOTS`] busy slots, or where
/// no lock can be taken, the process gets a profile named by its process id.
pub fn default_profile_dir() -> PathBuf {
    slot_dir().join("libreoffice-profile")
}

/// How many reusable profile slots there are.
pub const SLOTS: u32 = 32;

fn slot_dir() -> PathBuf {
    static SLOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    SLOT.get_or_init(|| {
        let root = dirs::cache_dir().unwrap_or_else(std::env::temp_dir).join("folio").join("libreoffice");
        if std::fs::create_dir_all(&root).is_ok() {
            for n in 0..SLOTS {
                let Ok(file) = std::fs::File::options()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(root.join(format!("{n}.lock")))
                else {
                    break;
                };
                if file.try_lock().is_ok() {
                    // Held until the process ends.
                    std::mem::forget(file);
                    return root.join(n.to_string());
                }
            }
        }
        root.join(format!("pid-{}", std::process::id()))
    })
    .clone()
}

/// Converts the Office document `bytes` (called `name`, whose extension tells LibreOffice the
/// format) to PDF bytes.
pub fn convert_to_pdf(
    name: &str,
    bytes: &[u8],
    soffice: &Path,
    profile: &Path,
    limits: &ChildLimits,
) -> Result<Vec<u8>> {
    convert(name, bytes, soffice, profile, limits, "pdf")
}

/// The `to` conversion of `bytes` when it was made lately (no LibreOffice runs): callers that
/// budget a conversion take this first, so a cached answer neither costs an estimate nor
/// teaches the rates that LibreOffice is instant.
pub fn converted(bytes: &[u8], to: &str) -> Option<Vec<u8>> {
    converted::get(&(blake3::hash(bytes), to.to_owned()))
}

/// Forgets every conversion kept by [`converted`] (a benchmark measuring LibreOffice itself).
pub fn forget_converted() {
    converted::clear();
}

/// Converts the document `bytes` (called `name`, whose extension tells LibreOffice the format) to
/// the format of the extension `to` (`pdf`, `xlsx`, `pptx`, `docx`, …), returning its bytes.
pub fn convert(
    name: &str,
    bytes: &[u8],
    soffice: &Path,
    profile: &Path,
    limits: &ChildLimits,
    to: &str,
) -> Result<Vec<u8>> {
    let key = (blake3::hash(bytes), to.to_owned());
    if let Some(done) = converted::get(&key) {
        return Ok(done);
    }
    let file = name.rsplit(['/', '\\']).next().filter(|f| !f.is_empty()).unwrap_or("document.docx");
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let work = std::env::temp_dir().join(format!(
        "folio-office-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let out_dir = work.join("out");
    std::fs::create_dir_all(&out_dir).map_err(|e| RenderError::io(&out_dir, e))?;
    std::fs::create_dir_all(profile).map_err(|e| RenderError::io(profile, e))?;
    let input = work.join(file);
    let result = (|| {
        std::fs::write(&input, bytes).map_err(|e| RenderError::io(&input, e))?;
        run_soffice(name, soffice, profile, &input, &out_dir, &work, limits, to)?;
        let pdf = out_dir.join(format!("{stem}.{to}"));
        match std::fs::read(&pdf) {
            Ok(b) if !b.is_empty() => {
                converted::put(key, &b);
                Ok(b)
            }
            _ => {
                let stderr = std::fs::read_to_string(work.join("stderr.txt")).unwrap_or_default();
                let fix = if stderr.contains("source file could not be loaded") {
                    "LibreOffice could not load it: either the file is damaged, or the import filter for its format is missing (install libreoffice-writer-nogui for .docx/.odt, -calc-nogui for .xlsx/.ods, -impress-nogui for .pptx/.odp)"
                } else {
                    "open the file in an Office application to check it is not damaged; if it opens, install the full LibreOffice component for its format"
                };
                Err(RenderError::OfficeFailed {
                    path: name.to_string(),
                    detail: format!("no {to} file appeared; LibreOffice said: {}", last_line(&stderr)),
                    fix: fix.into(),
                })
            }
        }
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}

/// The documents converted lately, by content and target format: the preview and a script's
/// render of the same file share one LibreOffice run, and a re-render after an unrelated edit
/// costs nothing. Bounded in bytes, oldest dropped first.
mod converted {
    use std::collections::VecDeque;
    use std::sync::Mutex;

    pub type Key = (blake3::Hash, String);
    const MAX_BYTES: usize = 256 * 1024 * 1024;
    static KEPT: Mutex<VecDeque<(Key, Vec<u8>)>> = Mutex::new(VecDeque::new());

    pub fn get(key: &Key) -> Option<Vec<u8>> {
        let kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        kept.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
    }

    pub fn clear() {
        KEPT.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    pub fn put(key: Key, bytes: &[u8]) {
        if bytes.len() > MAX_BYTES / 4 {
            return;
        }
        let mut kept = KEPT.lock().unwrap_or_else(|p| p.into_inner());
        kept.retain(|(k, _)| *k != key);
        kept.push_back((key, bytes.to_vec()));
        while kept.iter().map(|(_, v)| v.len()).sum::<usize>() > MAX_BYTES {
            kept.pop_front();
        }
    }
}

fn last_line(s: &str) -> String {
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map_or_else(|| "(nothing on stderr)".to_string(), |l| l.trim().to_string())
}

#[allow(clippy::too_many_arguments)]
fn run_soffice(
    name: &str,
    soffice: &Path,
    profile: &Path,
    input: &Path,
    out_dir: &Path,
    work: &Path,
    limits: &ChildLimits,
    to: &str,
) -> Result<()> {
    let stderr_path = work.join("stderr.txt");
    let stderr = std::fs::File::create(&stderr_path).map_err(|e| RenderError::io(&stderr_path, e))?;
    let mut cmd = Command::new(soffice);
    cmd.arg(format!("-env:UserInstallation={}", crate::office_server::file_url(profile)))
        .args([
            "--headless",
            "--norestore",
            "--invisible",
            "--nolockcheck",
            "--nodefault",
            "--convert-to",
            to,
            "--outdir",
        ])
        .arg(out_dir)
        .arg(input)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr);
    // Calc recalculates on load, so a workbook's conversion shows computed values; a profile
    // that cannot be written keeps LibreOffice's own setting.
    let _ = crate::office_server::recalc_always(profile);
    let outcome = if crate::office_server::enabled() {
        let (reply, answer) = std::sync::mpsc::channel();
        let request = crate::office_server::Request {
            name: name.to_string(),
            soffice: soffice.to_path_buf(),
            client: cmd,
            stderr: stderr_path,
            limits: limits.clone(),
            reply,
        };
        match crate::office_server::submit(profile, request) {
            Ok(()) => answer.recv().map_err(|_| RenderError::OfficeFailed {
                path: name.to_string(),
                detail: "the LibreOffice conversion thread ended without an answer".into(),
                fix: "try again; if it keeps failing, run folio doctor".into(),
            })??,
            Err(request) => one_shot(name, soffice, profile, request.client, limits)?,
        }
    } else {
        one_shot(name, soffice, profile, cmd, limits)?
    };
    ended(name, profile, limits, outcome)
}

/// Today's route: a LibreOffice of its own for this conversion, on a profile nobody else is
/// converting on at the moment.
fn one_shot(
    name: &str,
    soffice: &Path,
    profile: &Path,
    mut cmd: Command,
    limits: &ChildLimits,
) -> Result<ChildOutcome> {
    let lock = profile_lock(profile);
    let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
    // Its own process group, supervised: soffice.bin is killed with the launcher on every stop
    // and after it exits, so no orphan keeps growing or holds the profile the next one needs.
    child::run(&mut cmd, limits).map_err(|e| RenderError::OfficeFailed {
        path: name.to_string(),
        detail: format!("cannot start {}: {e}", soffice.display()),
        fix: "check that the LibreOffice installation is complete and executable".into(),
    })
}

/// What a finished LibreOffice means for the conversion, by how it ended.
fn ended(name: &str, profile: &Path, limits: &ChildLimits, outcome: ChildOutcome) -> Result<()> {
    if !matches!(outcome.end, ChildEnd::Exited(_)) {
        // A killed LibreOffice can leave its lock in the profile; the next conversion must not
        // find the profile held.
        let _ = std::fs::remove_file(profile.join(".lock"));
    }
    let mb = |b: u64| b / (1024 * 1024);
    match outcome.end {
        ChildEnd::Exited(_) => Ok(()),
        ChildEnd::Cancelled => Err(RenderError::Cancelled { path: name.to_string() }),
        ChildEnd::Deadline => Err(RenderError::OutOfBudget {
            path: name.to_string(),
            detail: format!("LibreOffice was stopped after {} s, when the run's budget ran out", outcome.took.as_secs()),
        }),
        ChildEnd::TimedOut => Err(RenderError::OfficeFailed {
            path: name.to_string(),
            detail: format!("LibreOffice did not finish within {} s and was stopped", limits.timeout.as_secs()),
            fix: "simplify the document or split it, or try again when the machine is less busy".into(),
        }),
        ChildEnd::OverMemory => Err(RenderError::OfficeFailed {
            path: name.to_string(),
            detail: format!(
                "LibreOffice grew past its memory cap of {} MB converting it (it had reached {} MB) and was stopped",
                limits.memory_bytes.map_or(0, mb),
                mb(outcome.peak_bytes)
            ),
            fix: "the document expands to far more than its size on disk (huge or repeated ranges); open it in an office application, delete what is not needed and save a trimmed copy, then render that".into(),
        }),
    }
}
