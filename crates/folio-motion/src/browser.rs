//! One browser process: launched in its own process group with the flags determinism needs,
//! reached over its DevTools socket, and killed whole (renderers, GPU and zygote processes
//! included) when it is dropped.
//!
//! **Nothing outlives the process that launched it.** A `Drop` does not run when `folio` exits
//! with its pools in statics, panics across an FFI edge, or is SIGKILLed, so the browser does not
//! rely on one. On Unix it is started by a watchdog, `/bin/sh` as the leader of the browser's
//! process group: the shell starts the browser in the background, closes its own stderr (so an
//! early crash still reads as end-of-file) and blocks reading its stdin, a pipe whose only
//! writer is this process (`O_CLOEXEC`, so no other child inherits it). However this process
//! ends — normally, by an error, or killed — the kernel closes the pipe, the read returns, and
//! the shell kills its whole group. `PR_SET_PDEATHSIG` would not do: it fires when the *thread*
//! that forked ends, and reaches only the direct child, while distributions start Chromium
//! through a shell script that forks it (`/usr/bin/chromium-headless-shell`) and Chromium's
//! zygotes fork the rest.
//!
//! The page can reach nothing: every request is intercepted by the tab (see `tab.rs`), DNS maps
//! every name to nothing, and all traffic that escapes interception (WebSocket, WebRTC) is sent
//! to a proxy that does not exist, loopback included, so a scene cannot even reach the DevTools
//! socket that drives it.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, BufReader};

use crate::cdp::Cdp;
use crate::error::MotionError;

/// How long a launch may take before it counts as failed.
const LAUNCH_WITHIN: Duration = Duration::from_secs(30);
/// Lines of the browser's stderr kept for error messages.
const STDERR_TAIL: usize = 12;

/// The flags every launch gets. The last group exists for determinism: no subpixel text, no
/// hinting, no runtime-selected Skia paths, a fixed colour profile, DPR 1.
const FLAGS: &[&str] = &[
    "--headless",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-quic",
    "--mute-audio",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-features=PaintHolding,Translate,MediaRouter,OptimizationHints",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--force-device-scale-factor=1",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
    "--disable-lcd-text",
    "--font-render-hinting=none",
    "--disable-skia-runtime-opts",
];

/// The headless shell's deterministic compositor: nothing is drawn until a BeginFrame asks.
const BEGIN_FRAME_FLAGS: &[&str] = &[
    "--deterministic-mode",
    "--enable-begin-frame-control",
    "--run-all-compositor-stages-before-draw",
    "--disable-threaded-animation",
    "--disable-threaded-scrolling",
    "--disable-checker-imaging",
    "--disable-new-content-rendering-timeout",
];

/// A running browser.
pub struct Browser {
    /// Its DevTools connection.
    pub cdp: Arc<Cdp>,
    /// Whether tabs are driven by `HeadlessExperimental.beginFrame`.
    pub begin_frame: bool,
    /// The executable.
    pub path: PathBuf,
    /// How long the launch took.
    pub launch: Duration,
    /// The BeginFrame clock shared by every tab: the compositor needs `frameTimeTicks` to grow
    /// across the whole browser, and two tabs' frames must not overlap (the GPU process
    /// treats that as a bad message and exits), so frames are issued one at a time.
    pub ticks: Arc<tokio::sync::Mutex<f64>>,
    pgid: u32,
    child: Mutex<Option<tokio::process::Child>>,
    /// The write end of the watchdog's stdin (see the module notes); never written.
    _lifeline: Option<tokio::process::ChildStdin>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// Launches `path` (with beginFrame control when `begin_frame`) and connects to it.
    pub async fn launch(path: &Path, begin_frame: bool) -> Result<Browser, MotionError> {
        let start = Instant::now();
        let profile = tempfile::Builder::new().prefix("folio-motion-profile-").tempdir().map_err(|e| {
            MotionError::Launch { path: path.to_path_buf(), reason: format!("no temporary profile: {e}") }
        })?;
        let mut cmd = watched(path);
        cmd.args(FLAGS);
        if begin_frame {
            cmd.args(BEGIN_FRAME_FLAGS);
        }
        if running_as_root() {
            // Chromium refuses to start as root with its sandbox; the page still reaches nothing
            // (every request is intercepted and the network is mapped away).
            cmd.arg("--no-sandbox");
        }
        cmd.arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("--remote-debugging-port=0")
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        #[cfg(unix)]
        cmd.process_group(0);
        let mut child =
            cmd.spawn().map_err(|e| MotionError::Launch { path: path.to_path_buf(), reason: e.to_string() })?;
        let pgid = child.id().unwrap_or(0);
        // The watchdog's lifeline: held until this browser is dropped or this process ends.
        let lifeline = child.stdin.take();
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (url_tx, url_rx) = tokio::sync::oneshot::channel::<String>();
        if let Some(err) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            tokio::spawn(async move {
                let mut lines = BufReader::new(err).lines();
                let mut url_tx = Some(url_tx);
                while let Ok(Some(line)) = lines.next_line().await {
                    if let Some(at) = line.find("ws://")
                        && line.contains("DevTools listening")
                        && let Some(tx) = url_tx.take()
                    {
                        let _ = tx.send(line[at..].trim().to_string());
                        continue;
                    }
                    if let Ok(mut t) = tail.lock() {
                        if t.len() == STDERR_TAIL {
                            t.pop_front();
                        }
                        t.push_back(line);
                    }
                }
            });
        }
        let tail_text = |tail: &Arc<Mutex<VecDeque<String>>>| {
            tail.lock().map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | ")).unwrap_or_default()
        };
        let url = match tokio::time::timeout(LAUNCH_WITHIN, url_rx).await {
            Ok(Ok(url)) => url,
            Ok(Err(_)) => {
                folio_budget::child::kill_group(pgid);
                return Err(MotionError::Launch {
                    path: path.to_path_buf(),
                    reason: format!("it exited before opening its DevTools socket: {}", tail_text(&stderr_tail)),
                });
            }
            Err(_) => {
                folio_budget::child::kill_group(pgid);
                return Err(MotionError::Launch {
                    path: path.to_path_buf(),
                    reason: format!(
                        "no DevTools socket within {} s: {}",
                        LAUNCH_WITHIN.as_secs(),
                        tail_text(&stderr_tail)
                    ),
                });
            }
        };
        let cdp = match Cdp::connect(&url).await {
            Ok(c) => c,
            Err(e) => {
                folio_budget::child::kill_group(pgid);
                return Err(MotionError::Launch { path: path.to_path_buf(), reason: e.to_string() });
            }
        };
        Ok(Browser {
            cdp,
            begin_frame,
            path: path.to_path_buf(),
            launch: start.elapsed(),
            ticks: Arc::new(tokio::sync::Mutex::new(start_ticks())),
            pgid,
            child: Mutex::new(Some(child)),
            _lifeline: lifeline,
            stderr: stderr_tail,
            _profile: profile,
        })
    }

    /// The browser's last stderr lines (for an error after a crash).
    pub fn stderr_tail(&self) -> String {
        self.stderr.lock().map(|t| t.iter().cloned().collect::<Vec<_>>().join(" | ")).unwrap_or_default()
    }

    /// The process group's id (the browser's pid), for memory figures.
    pub fn pgid(&self) -> u32 {
        self.pgid
    }

    /// Resident bytes of the whole browser tree now.
    pub fn resident_bytes(&self) -> u64 {
        folio_budget::child::group_resident_bytes(self.pgid)
    }

    /// Whether the browser still answers.
    pub fn is_alive(&self) -> bool {
        self.cdp.is_alive()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        folio_budget::child::kill_group(self.pgid);
        if let Ok(mut c) = self.child.lock()
            && let Some(mut child) = c.take()
        {
            let _ = child.start_kill();
            // Reap it so no zombie stays behind (the group is already gone).
            let _ = child.try_wait();
        }
    }
}

/// The watchdog script: `$@` is the browser and its arguments. The browser runs in the
/// background in the shell's process group; the shell drops its stderr, waits for its stdin to
/// reach end-of-file (this process ended or dropped the browser) and kills the group, itself
/// included.
#[cfg(unix)]
const WATCHDOG: &str = r#""$@" & exec 2>&-; read -r _; kill -9 0"#;

/// The command that launches `path` under the watchdog (Unix) or directly (elsewhere, where the
/// pool's idle close and `Drop` are what end it).
fn watched(path: &Path) -> tokio::process::Command {
    #[cfg(unix)]
    {
        let mut cmd = tokio::process::Command::new("/bin/sh");
        cmd.arg("-c").arg(WATCHDOG).arg("folio-motion-watchdog").arg(path);
        cmd
    }
    #[cfg(not(unix))]
    {
        tokio::process::Command::new(path)
    }
}

fn running_as_root() -> bool {
    #[cfg(target_os = "linux")]
    {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
            .unwrap_or(false)
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// BeginFrame ticks must grow monotonically and run ahead of the renderer's own clock
/// (CLOCK_MONOTONIC in ms): start ten seconds past this host's uptime.
fn start_ticks() -> f64 {
    let uptime = std::fs::read_to_string("/proc/uptime")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|v| v.parse::<f64>().ok()))
        .unwrap_or(1.0e8);
    uptime * 1000.0 + 10_000.0
}
