//! The one way this crate runs ffmpeg and ffprobe: an argv (never a shell), stdin closed,
//! `-hide_banner -nostdin -y` and a log level on every ffmpeg run, the child supervised by
//! `folio_budget::child::Supervised` in its own process group (timeout, the run's deadline,
//! cancel and memory all kill the group), the last lines of stderr in every failure, and
//! progress read from `-progress pipe:1` (`out_time_us`) as seconds of media done.
//!
//! Callers never put a caller's path inside a filter graph: inputs are staged under safe names in
//! a temporary directory and the run's working directory is set there ([`FfmpegCall::cwd`]).
//! Paths given as plain arguments go through [`file_arg`], so a name starting with `-` or
//! holding `:` is read as a file, never as an option or a protocol.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use folio_budget::child::{ChildEnd, ChildLimits, Supervised};

use crate::discovery::Ffmpeg;
use crate::error::{MediaError, last_lines};

/// How many stderr bytes are kept (the tail; loudnorm's JSON is at the end).
const STDERR_KEEP: usize = 256 * 1024;
/// How often the child is polled while it runs.
const POLL: Duration = Duration::from_millis(20);
/// How often once it closed its stdout (it is exiting).
const EXITING: Duration = Duration::from_millis(1);

/// What the stdout reader tells the supervisor.
enum Pipe {
    /// Seconds of output done (`out_time_us`).
    Done(f64),
    /// The child closed its stdout.
    Closed,
}
/// How many stderr lines a failure quotes.
pub const STDERR_LINES: usize = 4;

/// A path as one ffmpeg argument that is always a file: `file:` before it, so `-x.mp4` is not an
/// option and `concat:a|b` or `http:…` is not a protocol.
pub fn file_arg(path: &Path) -> OsString {
    let mut s = OsString::from("file:");
    s.push(path.as_os_str());
    s
}

/// ffmpeg's log level for a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// Only errors (the default).
    Error,
    /// Informational output too (loudnorm prints its measurement at this level).
    Info,
}

/// One ffmpeg run.
#[derive(Debug, Clone)]
pub struct FfmpegCall {
    /// The operation, as errors name it (`env:media.transcode /in/a.mp4`).
    pub what: String,
    /// The arguments after the common flags.
    pub args: Vec<OsString>,
    /// The working directory (the staging directory), so relative safe names resolve there.
    pub cwd: Option<PathBuf>,
    /// ffmpeg's log level.
    pub log: LogLevel,
    /// What to do when it fails, for the error's hint.
    pub hint: String,
}

impl FfmpegCall {
    /// A call for `what` with `args`, no working directory, errors only.
    pub fn new(what: impl Into<String>, args: Vec<OsString>) -> FfmpegCall {
        FfmpegCall {
            what: what.into(),
            args,
            cwd: None,
            log: LogLevel::Error,
            hint: "check the input file and the options; the stderr above says what ffmpeg disliked".into(),
        }
    }
}

/// A finished run.
#[derive(Debug, Clone)]
pub struct RunOutput {
    /// What the tool wrote to stdout (empty for ffmpeg runs, whose stdout carries progress).
    pub stdout: Vec<u8>,
    /// The tail of stderr.
    pub stderr: String,
    /// How long it ran.
    pub took: Duration,
}

/// Runs `call` under `limits`; `progress` gets the seconds of output done as ffmpeg reports them
/// and may stop the run by returning an error (the group is killed and that error returned).
pub fn run_ffmpeg(
    ffmpeg: &Ffmpeg,
    call: &FfmpegCall,
    limits: &ChildLimits,
    progress: &mut dyn FnMut(f64) -> Result<(), MediaError>,
) -> Result<RunOutput, MediaError> {
    let level = match call.log {
        LogLevel::Error => "error",
        LogLevel::Info => "info",
    };
    let mut args: Vec<OsString> =
        ["-hide_banner", "-nostdin", "-y", "-nostats", "-loglevel", level, "-progress", "pipe:1"]
            .map(OsString::from)
            .to_vec();
    args.extend(call.args.iter().cloned());
    let mut cmd = Command::new(ffmpeg.path());
    cmd.args(&args);
    if let Some(dir) = &call.cwd {
        cmd.current_dir(dir);
    }
    supervise(&mut cmd, &call.what, &call.hint, limits, Stdout::Progress(progress))
}

/// Runs ffprobe with `args` under `limits` and returns its stdout.
pub fn run_ffprobe(
    ffprobe: &Path,
    what: &str,
    args: &[OsString],
    limits: &ChildLimits,
) -> Result<RunOutput, MediaError> {
    let mut cmd = Command::new(ffprobe);
    cmd.args(args);
    supervise(&mut cmd, what, "check that the file is audio or video", limits, Stdout::Capture)
}

enum Stdout<'a> {
    Progress(&'a mut dyn FnMut(f64) -> Result<(), MediaError>),
    Capture,
}

fn supervise(
    cmd: &mut Command,
    what: &str,
    hint: &str,
    limits: &ChildLimits,
    mut stdout: Stdout<'_>,
) -> Result<RunOutput, MediaError> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let program = cmd.get_program().to_string_lossy().into_owned();
    let mut child = Supervised::spawn(cmd).map_err(MediaError::io(format!("{what}: starting {program}")))?;
    let mut stderr = StderrTail::collect(child.child_mut().stderr.take());
    let out = child.child_mut().stdout.take();
    let (tx, rx) = mpsc::channel::<Pipe>();
    let capture = matches!(stdout, Stdout::Capture);
    let reader: Option<JoinHandle<Vec<u8>>> = out.map(|pipe| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if capture {
                let _ = BufReader::new(pipe).read_to_end(&mut buf);
            } else {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if let Some(us) = line.strip_prefix("out_time_us=").and_then(|v| v.trim().parse::<i64>().ok())
                        && us >= 0
                    {
                        let _ = tx.send(Pipe::Done(us as f64 / 1e6));
                    }
                }
            }
            // The child closed its stdout: it is exiting, so the supervisor looks right away
            // instead of at its next poll.
            let _ = tx.send(Pipe::Closed);
            buf
        })
    });
    let mut closed = false;
    let outcome = loop {
        let polled = child.check(limits).map_err(MediaError::io(format!("{what}: waiting for {program}")))?;
        if let Some(o) = polled {
            break o;
        }
        let wait = if closed { EXITING } else { POLL };
        let mut latest = None;
        match rx.recv_timeout(wait) {
            Ok(Pipe::Done(secs)) => latest = Some(secs),
            Ok(Pipe::Closed) => closed = true,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                closed = true;
                std::thread::sleep(EXITING);
            }
        }
        while let Ok(msg) = rx.try_recv() {
            match msg {
                Pipe::Done(secs) => latest = Some(secs),
                Pipe::Closed => closed = true,
            }
        }
        if let (Stdout::Progress(report), Some(secs)) = (&mut stdout, latest)
            && let Err(e) = report(secs)
        {
            child.kill(ChildEnd::Cancelled);
            return Err(e);
        }
    };
    let stdout_bytes = reader.and_then(|r| r.join().ok()).unwrap_or_default();
    let tail = stderr.take();
    match outcome.end {
        ChildEnd::Exited(status) if status.success() => {
            Ok(RunOutput { stdout: stdout_bytes, stderr: tail, took: outcome.took })
        }
        ChildEnd::Exited(status) => Err(MediaError::Failed {
            what: what.to_string(),
            status: status.to_string(),
            stderr: last_lines(&tail, STDERR_LINES),
            hint: hint.to_string(),
        }),
        end => Err(end_error(what, end, limits)),
    }
}

/// The error for a child a limit stopped.
pub fn end_error(what: &str, end: ChildEnd, limits: &ChildLimits) -> MediaError {
    match end {
        ChildEnd::TimedOut => MediaError::TimedOut { what: what.to_string(), secs: limits.timeout.as_secs() },
        ChildEnd::Deadline => MediaError::Deadline { what: what.to_string() },
        ChildEnd::OverMemory => {
            MediaError::OverMemory { what: what.to_string(), mb: limits.memory_bytes.unwrap_or(0) / (1024 * 1024) }
        }
        ChildEnd::Cancelled | ChildEnd::Exited(_) => MediaError::Cancelled { what: what.to_string() },
    }
}

/// A thread keeping the tail of a child's stderr.
pub struct StderrTail {
    handle: Option<JoinHandle<String>>,
}

impl StderrTail {
    /// Starts reading `pipe` (nothing to read without one).
    pub fn collect(pipe: Option<ChildStderr>) -> StderrTail {
        let handle = pipe.map(|mut pipe| {
            std::thread::spawn(move || {
                let mut kept: Vec<u8> = Vec::new();
                let mut buf = [0u8; 8192];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    kept.extend_from_slice(&buf[..n]);
                    if kept.len() > 2 * STDERR_KEEP {
                        kept.drain(..kept.len() - STDERR_KEEP);
                    }
                }
                String::from_utf8_lossy(&kept).into_owned()
            })
        });
        StderrTail { handle }
    }

    /// Everything read, once the pipe closed (the child ended).
    pub fn take(&mut self) -> String {
        self.handle.take().and_then(|h| h.join().ok()).unwrap_or_default()
    }
}
