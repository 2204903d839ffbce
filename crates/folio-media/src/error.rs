//! Every way a media call can fail. Each message says what happened, to which file, and the fix,
//! because the reader is usually a model that acts on the hint literally.

use folio_budget::BudgetError;

/// Why a media operation failed.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// ffmpeg or ffprobe was not found anywhere discovery looks, or an explicit path / variable
    /// names a file that is not there. Raised before any work; the host installs the tool (or
    /// fixes the variable) and calls again.
    #[error("{tool} is not available on this host ({searched}) — hint: {fix}")]
    NotFound {
        /// `ffmpeg`, `ffprobe` or the speech engine.
        tool: &'static str,
        /// Where it was looked for, or the bad setting.
        searched: String,
        /// The install command (or setting) for this platform.
        fix: String,
    },
    /// A tool this host lacks (the [`MediaError::NotFound`] found when the host started, kept
    /// as its message): every call that needs it is refused before any work. The person
    /// installs the tool; the agent does not retry.
    #[error("{0}")]
    Unavailable(String),
    /// An argument is malformed, out of range or contradicts another; checked before ffmpeg
    /// starts. The script fixes the call.
    #[error("{0}")]
    Invalid(String),
    /// The input cannot be read as media (truncated, corrupt, not media at all, zero length).
    /// Retrying the same bytes fails the same way.
    #[error(
        "{path} is not readable media ({detail}) — hint: check that the file was written completely and is audio or video; re-export it and try again"
    )]
    Unreadable {
        /// The input, as the caller named it.
        path: String,
        /// What ffprobe said.
        detail: String,
    },
    /// The input lacks the stream an operation needs (audio for `extractAudio`, video for a
    /// thumbnail). The script picks another input or operation.
    #[error("{path} has no {kind} stream — hint: {hint}")]
    NoStream {
        /// The input.
        path: String,
        /// `audio`, `video` or `subtitle`.
        kind: &'static str,
        /// What to do instead.
        hint: String,
    },
    /// The media's pictures are larger than this host decodes (refused before ffmpeg runs, so
    /// a crafted header cannot make it allocate gigabytes). The script scales a smaller copy
    /// elsewhere or skips the file.
    #[error(
        "{path} is {width}×{height} pixels, over the {max} pixel limit on either side — hint: use a smaller source (at most {max}×{max}); nothing was decoded"
    )]
    TooLarge {
        /// The input.
        path: String,
        /// Its width.
        width: u64,
        /// Its height.
        height: u64,
        /// The limit.
        max: u64,
    },
    /// ffmpeg ran and failed; the message carries its last stderr lines. Retrying the same
    /// call fails the same way unless the hint says otherwise.
    #[error("{what}: ffmpeg failed ({status}): {stderr} — hint: {hint}")]
    Failed {
        /// The operation.
        what: String,
        /// The exit status.
        status: String,
        /// The last lines ffmpeg wrote to stderr.
        stderr: String,
        /// What to do.
        hint: String,
    },
    /// ffmpeg ran longer than the call's own timeout and was killed with its process group.
    /// The script raises `timeoutMs` or asks for less media per call.
    #[error(
        "{what}: ffmpeg was stopped after {secs} s, its time limit — hint: pass a larger timeoutMs (the default is 120000), or process a shorter part of the media per call"
    )]
    TimedOut {
        /// The operation.
        what: String,
        /// The limit in seconds.
        secs: u64,
    },
    /// ffmpeg's process group passed the memory cap and was killed. The script uses a smaller
    /// source or output size.
    #[error(
        "{what}: ffmpeg used more than {mb} MB of memory and was stopped — hint: use a smaller output size or a shorter input"
    )]
    OverMemory {
        /// The operation.
        what: String,
        /// The cap in MB.
        mb: u64,
    },
    /// The run was cancelled while ffmpeg ran; its group was killed and nothing was written.
    /// Nobody retries automatically.
    #[error("{what}: the run was cancelled; ffmpeg was stopped and nothing was written")]
    Cancelled {
        /// The operation.
        what: String,
    },
    /// The run's budget ended while ffmpeg ran; its group was killed and nothing was written.
    /// The agent retries with less media per call.
    #[error(
        "{what}: the run's budget ran out; ffmpeg was stopped and nothing was written — hint: process a shorter part of the media per call, or raise the run budget"
    )]
    Deadline {
        /// The operation.
        what: String,
    },
    /// The job was refused up front (its estimate exceeds what is left of the run) or stopped
    /// by the budget; nothing was written.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// ffmpeg reported success but wrote nothing. Retrying does not help; the stderr says why.
    #[error(
        "{what}: ffmpeg wrote an empty output ({stderr}) — hint: check that the input has the streams and the time range asked for"
    )]
    EmptyOutput {
        /// The operation.
        what: String,
        /// The last stderr lines.
        stderr: String,
    },
    /// A host file operation (temp dir, pipe, spawn) failed. Usually the disk is full or the
    /// tool cannot be executed; retrying after fixing the host can help.
    #[error("{what}: {source} — hint: check free space in the temporary directory and that the tool is executable")]
    Io {
        /// What was being done.
        what: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Reading from or writing to the agent's tree failed (the gateway's own message).
    #[error("{0}")]
    Tree(String),
}

impl MediaError {
    /// An [`MediaError::Io`] for `what`.
    pub fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> MediaError {
        let what = what.into();
        move |source| MediaError::Io { what, source }
    }
}

/// `text` without ffmpeg's `[mov,mp4,… @ 0x55…] ` line prefixes (an address differs per run).
pub fn strip_contexts(text: &str) -> String {
    text.lines()
        .map(|l| {
            let t = l.trim_start();
            match (t.starts_with('['), t.find("] ")) {
                (true, Some(end)) if t[..end].contains(" @ 0x") => t[end + 2..].to_string(),
                _ => l.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The last `n` non-empty lines of `text`, joined by ` | `.
pub fn last_lines(text: &str, n: usize) -> String {
    let text = strip_contexts(text);
    let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    let from = lines.len().saturating_sub(n);
    let tail = lines[from..].join(" | ");
    if tail.is_empty() { "no message".into() } else { tail }
}
