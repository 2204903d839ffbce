//! One warm LibreOffice per profile: the same `soffice --convert-to` as a one-shot run, made
//! fast by a LibreOffice that is already up.
//!
//! # How it works (measured on LibreOffice 7.4, headless, no network)
//!
//! A `soffice --convert-to` started while another LibreOffice runs on the same
//! `UserInstallation` does not start a second office: it hands its request over the profile's
//! single-instance pipe and waits until the running one has written the file (0.04–0.16 s for a
//! corpus .docx, against 1.1–1.8 s for a fresh LibreOffice). Two things make that usable:
//!
//! - **Kept alive by a document.** A headless LibreOffice that served a forwarded conversion
//!   shuts down when no document is left open. The warm instance is therefore started with an
//!   one-line text file of its own open (hidden), so it stays up between conversions.
//! - **Ready when its pipe appears.** It is started with `--accept=pipe,name=folio-lo-…` and
//!   counted as ready once that pipe exists (LibreOffice opens it after start-up); a client
//!   started earlier would become a second office on the same profile.
//!
//! No UNO client is needed (Debian's `python3-uno` is not installed here and the office does
//! not need it): the client is exactly today's one-shot command, so when the warm instance is
//! missing (it could not start, another process's LibreOffice owns the profile, the platform is
//! not Linux) the same command still converts, only slower.
//!
//! # Bounds
//!
//! - One thread per profile owns that profile's instance and takes its conversions one at a
//!   time (concurrent conversions on one profile lose to each other); different profiles run
//!   side by side, at most [`MAX_INSTANCES`] of them — past that the profile used longest ago
//!   gives its instance up.
//! - The instance is `soffice.bin` itself, in its own process group (`folio_budget::child`),
//!   with `PR_SET_PDEATHSIG` so it dies with the thread that owns it, hence with the host.
//! - During a conversion the client gets the conversion's limits (timeout, run deadline,
//!   cancel) and the instance's group is held to the conversion's memory cap; a timeout, a
//!   cancel or a memory overrun kills the instance too (it may be stuck in that document), and
//!   a crash is reported by name. The next conversion starts a fresh one.
//! - Between conversions: restarted after [`WarmPolicy::max_conversions`], stopped when idle
//!   for [`WarmPolicy::idle`] or when it grows past [`WarmPolicy::idle_memory_bytes`].
//! - `FOLIO_OFFICE_WARM=0` turns the warm instance off (every conversion one-shot).
//!
//! Every profile an instance starts on is set to recalculate formulas on load
//! ([`recalc_always`]), so a workbook's conversion shows computed values, not stale caches.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use folio_budget::child::Supervised;
use folio_budget::{ChildEnd, ChildLimits, ChildOutcome};

use crate::error::{RenderError, Result};

/// At most this many warm instances (one per profile) per host process.
pub const MAX_INSTANCES: usize = 4;
/// How often a running conversion, and an idle instance, is looked at.
const POLL: Duration = Duration::from_millis(20);
const WATCH: Duration = Duration::from_millis(500);

/// How a profile's warm instance is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarmPolicy {
    /// Stopped after this long without a conversion.
    pub idle: Duration,
    /// Restarted after this many conversions (LibreOffice's memory creeps up).
    pub max_conversions: u32,
    /// Stopped between conversions when its group is resident past this.
    pub idle_memory_bytes: u64,
    /// How long it may take to come up (at most half the conversion's own limit); past that
    /// the conversion runs one-shot.
    pub start_timeout: Duration,
}

impl Default for WarmPolicy {
    fn default() -> Self {
        WarmPolicy {
            idle: Duration::from_secs(300),
            max_conversions: 200,
            idle_memory_bytes: 1536 * 1024 * 1024,
            start_timeout: Duration::from_secs(45),
        }
    }
}

/// One conversion handed to a profile's thread. The caller owns `work` (input, `out/`, stderr).
pub(crate) struct Request {
    pub name: String,
    pub soffice: PathBuf,
    pub client: Command,
    /// Where the client's stderr goes (a retry appends to it, so the message keeps both).
    pub stderr: PathBuf,
    pub limits: ChildLimits,
    pub reply: Sender<Result<ChildOutcome>>,
}

struct Entry {
    profile: PathBuf,
    used: Instant,
    soffice: PathBuf,
    tx: Sender<Request>,
    pid: Arc<AtomicU32>,
}

static POOL: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static POLICIES: Mutex<Vec<(PathBuf, WarmPolicy)>> = Mutex::new(Vec::new());
static COUNTER: AtomicU64 = AtomicU64::new(0);

fn pool() -> std::sync::MutexGuard<'static, Vec<Entry>> {
    POOL.lock().unwrap_or_else(|p| p.into_inner())
}

static OFF: AtomicBool = AtomicBool::new(false);

/// Whether conversions go through a warm instance on this host (Linux, not turned off by
/// `FOLIO_OFFICE_WARM=0` or [`set_warm`]).
pub fn enabled() -> bool {
    cfg!(target_os = "linux")
        && !OFF.load(Ordering::SeqCst)
        && std::env::var("FOLIO_OFFICE_WARM").map_or(true, |v| v != "0")
}

/// Turns the warm route on or off for this process (the benchmark's cold figures; a host that
/// must not keep LibreOffice running). Off, running instances are left to their idle stop.
pub fn set_warm(on: bool) {
    OFF.store(!on, Ordering::SeqCst);
}

/// Keeps `profile`'s instance by `policy` from its next start on (tests, hosts with little memory).
pub fn set_policy(profile: &Path, policy: WarmPolicy) {
    let mut all = POLICIES.lock().unwrap_or_else(|p| p.into_inner());
    all.retain(|(p, _)| p != profile);
    all.push((profile.to_path_buf(), policy));
}

fn policy_for(profile: &Path) -> WarmPolicy {
    let all = POLICIES.lock().unwrap_or_else(|p| p.into_inner());
    all.iter().find(|(p, _)| p == profile).map_or_else(WarmPolicy::default, |(_, w)| *w)
}

/// The process id of `profile`'s warm LibreOffice while it runs (tests kill it to prove recovery).
pub fn instance_pid(profile: &Path) -> Option<u32> {
    let pid = pool().iter().find(|e| e.profile == profile).map(|e| e.pid.load(Ordering::SeqCst))?;
    (pid != 0).then_some(pid)
}

/// Stops `profile`'s warm instance now (a later conversion starts another).
pub fn shutdown(profile: &Path) {
    let entry = {
        let mut all = pool();
        all.iter().position(|e| e.profile == profile).map(|i| all.remove(i))
    };
    // Dropping the only sender ends the thread, which stops its instance.
    drop(entry);
}

/// Hands `request` to `profile`'s thread (started on first use). `Err(request)` when no thread
/// can take it: the caller converts one-shot.
pub(crate) fn submit(profile: &Path, request: Request) -> std::result::Result<(), Box<Request>> {
    let mut all = pool();
    if let Some(i) = all.iter().position(|e| e.profile == profile) {
        if all[i].soffice == request.soffice {
            all[i].used = Instant::now();
            return all[i].tx.send(request).map_err(|e| Box::new(e.0));
        }
        // Another LibreOffice asked for on this profile: the old instance goes.
        all.remove(i);
    }
    if all.len() >= MAX_INSTANCES {
        // The profile used longest ago gives way: its thread finishes what it was handed,
        // then stops its instance.
        if let Some(oldest) = all.iter().enumerate().min_by_key(|(_, e)| e.used).map(|(i, _)| i) {
            all.remove(oldest);
        }
    }
    let (tx, rx) = channel();
    let pid = Arc::new(AtomicU32::new(0));
    let policy = policy_for(profile);
    let (p, s, thread_pid) = (profile.to_path_buf(), request.soffice.clone(), pid.clone());
    let s_entry = s.clone();
    let spawned =
        std::thread::Builder::new().name("folio-office".into()).spawn(move || serve(p, s, policy, thread_pid, rx));
    if spawned.is_err() {
        return Err(Box::new(request));
    }
    let sent = tx.send(request).map_err(|e| Box::new(e.0));
    all.push(Entry { profile: profile.to_path_buf(), used: Instant::now(), soffice: s_entry, tx, pid });
    sent
}

/// A running warm instance.
struct Instance {
    proc: Supervised,
    pipe: PathBuf,
    dir: PathBuf,
    conversions: u32,
}

impl Instance {
    fn stop(mut self, profile: &Path) {
        self.proc.kill(ChildEnd::Cancelled);
        let _ = std::fs::remove_file(&self.pipe);
        let _ = std::fs::remove_file(profile.join(".lock"));
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn serve(profile: PathBuf, soffice: PathBuf, policy: WarmPolicy, pid: Arc<AtomicU32>, rx: Receiver<Request>) {
    let mut warm: Option<Instance> = None;
    let mut last_use = Instant::now();
    loop {
        let request = match rx.recv_timeout(WATCH) {
            Ok(r) => r,
            Err(RecvTimeoutError::Timeout) => {
                warm = warm.and_then(|i| healthy(i, &profile, &policy));
                if warm.is_none() {
                    pid.store(0, Ordering::SeqCst);
                }
                if last_use.elapsed() >= policy.idle {
                    match retire(&profile, &rx) {
                        Some(r) => r,
                        None => break,
                    }
                } else {
                    continue;
                }
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        let mut instance = warm.take().and_then(|i| healthy(i, &profile, &policy));
        // Starting counts against the conversion's own limit, as it does for a one-shot run.
        let begun = Instant::now();
        let fresh = instance.is_none();
        if fresh {
            instance = start(&soffice, &profile, &policy, &request.limits);
        }
        let limits = ChildLimits {
            timeout: request.limits.timeout.saturating_sub(begun.elapsed()).max(POLL),
            ..request.limits.clone()
        };
        pid.store(instance.as_ref().map_or(0, |i| i.proc.id()), Ordering::SeqCst);
        let again = copy_command(&request.client, &request.stderr);
        let (mut result, mut keep) = convert(instance, &profile, request.client, &limits, &request.name);
        // An instance that dies in its very first conversion met the profile in a bad state (a
        // lock left by an office that was killed, a start that restarted itself), not this
        // document: stopping it cleared that, so the document gets one more fresh instance. A
        // warm instance that dies is reported at once (the document may be what killed it).
        // Only with room for it: a run whose deadline is near gets the error instead of a wait.
        let room = |l: &ChildLimits| {
            let left = l.timeout.saturating_sub(begun.elapsed());
            let until_deadline = l.deadline.map_or(left, |d| d.saturating_duration_since(Instant::now()));
            left.min(until_deadline) > RETRY_ROOM
        };
        if fresh && stopped_while_converting(&result) && room(&request.limits) {
            let retry = start(&soffice, &profile, &policy, &limits);
            let limits = ChildLimits {
                timeout: request.limits.timeout.saturating_sub(begun.elapsed()).max(POLL),
                ..request.limits.clone()
            };
            pid.store(retry.as_ref().map_or(0, |i| i.proc.id()), Ordering::SeqCst);
            (result, keep) = convert(retry, &profile, again, &limits, &request.name);
        }
        warm = match keep {
            Some(i) if i.conversions >= policy.max_conversions => {
                i.stop(&profile);
                None
            }
            other => other,
        };
        if warm.is_none() {
            pid.store(0, Ordering::SeqCst);
        }
        let _ = request.reply.send(result);
        last_use = Instant::now();
    }
    if let Some(i) = warm {
        i.stop(&profile);
    }
    pid.store(0, Ordering::SeqCst);
}

/// The message a conversion gets when its instance crashed or was killed under it.
const STOPPED: &str =
    "LibreOffice stopped while converting it (it crashed or was killed); a fresh one starts for the next file";

/// The time a retry needs to be worth it: a start and a conversion of a small document.
const RETRY_ROOM: Duration = Duration::from_secs(20);

fn stopped_while_converting(result: &Result<ChildOutcome>) -> bool {
    matches!(result, Err(RenderError::OfficeFailed { detail, .. }) if detail.starts_with(STOPPED))
}

/// The last non-empty line of an instance's log, or what stands in for it.
fn last_log_line(log: &Path) -> String {
    std::fs::read_to_string(log)
        .ok()
        .and_then(|t| t.lines().rev().find(|l| !l.trim().is_empty()).map(|l| l.trim().chars().take(300).collect()))
        .unwrap_or_else(|| "(it wrote nothing)".to_string())
}

/// The same command again (program, arguments, environment, directory; no input or output, as
/// the client never has; stderr appended to the first attempt's file): `Command` is not `Clone`.
fn copy_command(cmd: &Command, stderr: &Path) -> Command {
    let mut copy = Command::new(cmd.get_program());
    copy.args(cmd.get_args()).stdin(std::process::Stdio::null()).stdout(std::process::Stdio::null());
    match std::fs::File::options().append(true).create(true).open(stderr) {
        Ok(file) => copy.stderr(file),
        Err(_) => copy.stderr(std::process::Stdio::null()),
    };
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => copy.env(key, v),
            None => copy.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        copy.current_dir(dir);
    }
    copy
}

/// Idle too long: leaves the pool unless a request arrived meanwhile (checked under the pool's
/// lock, which every sender holds while sending, so no request is lost).
fn retire(profile: &Path, rx: &Receiver<Request>) -> Option<Request> {
    let mut all = pool();
    if let Ok(r) = rx.try_recv() {
        return Some(r);
    }
    all.retain(|e| e.profile != profile);
    None
}

/// The instance if it still runs within its idle bounds; otherwise stopped.
fn healthy(mut i: Instance, profile: &Path, policy: &WarmPolicy) -> Option<Instance> {
    let idle = ChildLimits {
        memory_bytes: Some(policy.idle_memory_bytes),
        ..ChildLimits::timeout(Duration::from_secs(u64::from(u32::MAX)))
    };
    match i.proc.check(&idle) {
        Ok(None) => Some(i),
        _ => {
            i.stop(profile);
            None
        }
    }
}

/// `soffice.bin` beside `soffice` (symbolic links followed), so the instance is LibreOffice
/// itself and not a launcher that would leave it behind; `soffice` when there is none.
fn office_binary(soffice: &Path) -> PathBuf {
    std::fs::canonicalize(soffice)
        .ok()
        .and_then(|real| real.parent().map(|d| d.join("soffice.bin")))
        .filter(|bin| bin.is_file())
        .unwrap_or_else(|| soffice.to_path_buf())
}

/// Starts a warm instance on `profile` and waits until it is ready; `None` when it cannot
/// (the conversion then runs one-shot, which starts its own LibreOffice or reaches whichever
/// one already serves the profile).
fn start(soffice: &Path, profile: &Path, policy: &WarmPolicy, limits: &ChildLimits) -> Option<Instance> {
    let dir = std::env::temp_dir().join(format!(
        "folio-lo-warm-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).ok()?;
    let keep = dir.join("keep-alive.txt");
    // Not empty: an empty file is not recognised as text, is not opened, and the office then
    // shuts down after its first conversion like any other.
    std::fs::write(&keep, b"Folio keeps this LibreOffice running between conversions.\n").ok()?;
    let uid = uid_of(&keep)?;
    // Not `folio-office-<pid>-…`, the mark of a one-shot conversion's files and processes.
    let name = format!("folio-lo-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
    let pipe = PathBuf::from(format!("/tmp/OSL_PIPE_{uid}_{name}"));
    let _ = std::fs::remove_file(&pipe);
    let _ = recalc_always(profile);
    let begun = Instant::now();
    // Half the conversion's limit at most, so a slow start still leaves the one-shot route time.
    let wait = policy.start_timeout.min(limits.timeout / 2);
    let bound = ChildLimits { memory_bytes: limits.memory_bytes, ..ChildLimits::timeout(wait) };
    // LibreOffice's first start on a new profile fills it and exits with 81 ("restart me"),
    // which its launcher would answer by starting it again; so does this.
    for _attempt in 0..2 {
        let Ok(log) = std::fs::File::create(dir.join("office.log")) else { break };
        let mut cmd = Command::new(office_binary(soffice));
        cmd.arg(format!("-env:UserInstallation={}", file_url(profile)))
            .args(["--headless", "--invisible", "--norestore", "--nolockcheck"])
            .arg(format!("--accept=pipe,name={name};urp;"))
            .arg(&keep)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log);
        die_with_owner(&mut cmd);
        let Ok(mut proc) = Supervised::spawn(&mut cmd) else { break };
        let restart = loop {
            if pipe.exists() {
                return Some(Instance { proc, pipe, dir, conversions: 0 });
            }
            let stop =
                limits.cancel.as_ref().is_some_and(|c| c()) || limits.deadline.is_some_and(|d| Instant::now() >= d);
            if stop || begun.elapsed() >= wait {
                proc.kill(ChildEnd::Cancelled);
                break false;
            }
            match proc.check(&bound) {
                Ok(None) => std::thread::sleep(POLL),
                Ok(Some(ChildOutcome { end: ChildEnd::Exited(status), .. })) => break status.code() == Some(81),
                _ => break false,
            }
        };
        if !restart {
            break;
        }
    }
    let _ = std::fs::remove_file(&pipe);
    let _ = std::fs::remove_file(profile.join(".lock"));
    let _ = std::fs::remove_dir_all(&dir);
    None
}

#[cfg(unix)]
fn uid_of(path: &Path) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| m.uid())
}

#[cfg(not(unix))]
fn uid_of(_path: &Path) -> Option<u32> {
    None
}

/// The instance is killed by the kernel when the thread that started it ends — the profile's
/// thread, which lives as long as the host process — so a host that crashes leaves no office
/// behind holding the profile.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // one prctl(2) between fork and exec, documented at the call
fn die_with_owner(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs in the forked child before exec and only calls prctl(2), which
    // is async-signal-safe and touches no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_owner(_cmd: &mut Command) {}

/// Runs the client `cmd` while watching the instance; returns the client's outcome and the
/// instance when it may serve the next conversion.
fn convert(
    mut instance: Option<Instance>,
    profile: &Path,
    mut cmd: Command,
    limits: &ChildLimits,
    name: &str,
) -> (Result<ChildOutcome>, Option<Instance>) {
    let mut client = match Supervised::spawn(&mut cmd) {
        Ok(c) => c,
        Err(e) => {
            let err = RenderError::OfficeFailed {
                path: name.to_string(),
                detail: format!("cannot start LibreOffice: {e}"),
                fix: "check that the LibreOffice installation is complete and executable".into(),
            };
            return (Err(err), instance);
        }
    };
    let office_limits = ChildLimits {
        memory_bytes: limits.memory_bytes,
        ..ChildLimits::timeout(Duration::from_secs(u64::from(u32::MAX)))
    };
    loop {
        let done = match client.check(limits) {
            Ok(done) => done,
            Err(e) => {
                client.kill(ChildEnd::Cancelled);
                let err = RenderError::OfficeFailed {
                    path: name.to_string(),
                    detail: format!("lost track of LibreOffice while it converted: {e}"),
                    fix: "try again; if it keeps failing, run folio doctor".into(),
                };
                return (Err(err), instance);
            }
        };
        if let Some(outcome) = done {
            return match outcome.end {
                ChildEnd::Exited(_) => {
                    if let Some(i) = instance.as_mut() {
                        i.conversions += 1;
                    }
                    (Ok(outcome), instance)
                }
                // Stopped by a limit: the instance may be stuck in this very document.
                _ => {
                    if let Some(i) = instance {
                        i.stop(profile);
                    }
                    (Ok(outcome), None)
                }
            };
        }
        if let Some(i) = instance.as_mut() {
            match i.proc.check(&office_limits) {
                Ok(None) => {}
                Ok(Some(office)) => {
                    let took = client.kill(ChildEnd::Cancelled).took;
                    let log = instance.as_ref().map(|i| last_log_line(&i.dir.join("office.log"))).unwrap_or_default();
                    if let Some(i) = instance {
                        i.stop(profile);
                    }
                    let how = match &office.end {
                        ChildEnd::Exited(status) => match status.code() {
                            Some(code) => format!("exit status {code}"),
                            None => format!("{status}"),
                        },
                        other => format!("{other:?}"),
                    };
                    let result = match office.end {
                        ChildEnd::OverMemory => {
                            Ok(ChildOutcome { end: ChildEnd::OverMemory, peak_bytes: office.peak_bytes, took })
                        }
                        _ => Err(RenderError::OfficeFailed {
                            path: name.to_string(),
                            detail: format!("{STOPPED} ({how}; LibreOffice's last log line: {log})"),
                            fix: "this is a LibreOffice crash, not a verdict on the document: try again; if it crashes on this file every time, run folio doctor and report the log line".into(),
                        }),
                    };
                    return (result, None);
                }
                Err(_) => {
                    if let Some(i) = instance.take() {
                        i.stop(profile);
                    }
                }
            }
        }
        std::thread::sleep(POLL);
    }
}

/// Sets `profile` to recalculate every formula when a workbook is loaded (Calc's
/// `OOXMLRecalcMode` and `ODFRecalcMode` = 0, "always"), keeping the rest of its settings.
/// LibreOffice reads this at start, so it is written before an instance starts on the profile.
pub fn recalc_always(profile: &Path) -> std::io::Result<()> {
    const PATH: &str = "/org.openoffice.Office.Calc/Formula/Load";
    let item = |prop: &str| {
        format!("<item oor:path=\"{PATH}\"><prop oor:name=\"{prop}\" oor:op=\"fuse\"><value>0</value></prop></item>\n")
    };
    let ours = format!("{}{}", item("OOXMLRecalcMode"), item("ODFRecalcMode"));
    let file = profile.join("user").join("registrymodifications.xcu");
    let text = match std::fs::read_to_string(&file) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e),
    };
    if text.contains(&ours) {
        return Ok(());
    }
    let kept: String = text
        .split_inclusive('\n')
        .filter(|l| !(l.contains(PATH) && (l.contains("\"OOXMLRecalcMode\"") || l.contains("\"ODFRecalcMode\""))))
        .collect();
    let out = match kept.rfind("</oor:items>") {
        Some(end) => format!("{}{ours}{}", &kept[..end], &kept[end..]),
        None => format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n{ours}</oor:items>\n"
        ),
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&file, out)
}

pub(crate) fn file_url(path: &Path) -> String {
    let s = path.to_string_lossy().replace('\\', "/").replace(' ', "%20");
    if s.starts_with('/') { format!("file://{s}") } else { format!("file:///{s}") }
}
