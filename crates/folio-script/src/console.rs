//! Console capture: every `console.*` call becomes one formatted line (formatting happens in the
//! prelude, Node-`util.format` style), kept for the result and streamed to the host in batches.
//!
//! Capture is capped per run; past the cap one marker line is kept and the rest dropped, so a
//! flooding script costs bounded memory. Batches go out when 50 lines are pending or 120 ms have
//! passed since the last flush (checked on every line, because a spinning script starves timers),
//! from a backstop ticker while the script awaits, and once more at the end.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use folio_budget::JobProgress;

/// Which stream a console line went to: `log`/`info`/`debug` → stdout, `warn`/`error`/`trace` →
/// stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stream {
    /// `console.log`, `info`, `debug`.
    Stdout,
    /// `console.warn`, `error`, `trace`.
    Stderr,
}

/// One streamed console line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ProgressLine {
    /// The run that printed it.
    pub run_id: String,
    /// The script path.
    pub script: String,
    /// Which stream.
    pub stream: Stream,
    /// The formatted line (for a job's progress, its [`JobProgress::text`]).
    pub text: String,
    /// Set when the line is a long job's progress rather than console output: such lines go
    /// to the listener only, never into the run's stdout.
    pub job: Option<JobProgress>,
}

/// The host's progress listener. It receives batches in order; a panic inside it is swallowed so
/// a broken listener cannot fail the run it watches.
pub type OnProgress = Arc<dyn Fn(&[ProgressLine]) + Send + Sync>;

/// The marker appended once when the capture cap is reached.
pub const TRUNCATED: &str = "[console output truncated]";
const BATCH_LINES: usize = 50;
pub(crate) const BATCH_INTERVAL: Duration = Duration::from_millis(120);

#[derive(Default)]
struct Captured {
    stdout: Vec<String>,
    stderr: Vec<String>,
    chars: usize,
    truncated: bool,
    pending: Vec<ProgressLine>,
    last_flush: Option<Instant>,
}

pub(crate) struct Sink {
    state: Mutex<Captured>,
    cap: usize,
    run_id: String,
    script: String,
    listener: Option<OnProgress>,
}

impl Sink {
    pub fn new(cap: usize, run_id: String, script: String, listener: Option<OnProgress>) -> Sink {
        Sink { state: Mutex::new(Captured::default()), cap, run_id, script, listener }
    }

    fn lock(&self) -> MutexGuard<'_, Captured> {
        // A panic while holding the lock can only come from a listener, which runs outside it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn push(&self, stream: Stream, text: String) {
        let mut s = self.lock();
        if s.truncated {
            return;
        }
        let line = if s.chars + text.len() > self.cap {
            s.truncated = true;
            TRUNCATED.to_owned()
        } else {
            s.chars += text.len();
            text
        };
        match stream {
            Stream::Stdout => s.stdout.push(line.clone()),
            Stream::Stderr => s.stderr.push(line.clone()),
        }
        if self.listener.is_none() {
            return;
        }
        s.pending.push(ProgressLine {
            run_id: self.run_id.clone(),
            script: self.script.clone(),
            stream,
            text: line,
            job: None,
        });
        let due = s.pending.len() >= BATCH_LINES || s.last_flush.is_none_or(|t| t.elapsed() >= BATCH_INTERVAL);
        if due {
            drop(s);
            self.flush();
        }
    }

    /// Streams a long job's progress (already throttled by the job) with whatever console
    /// lines are pending, in order.
    pub fn push_job(&self, progress: &JobProgress) {
        if self.listener.is_none() {
            return;
        }
        self.lock().pending.push(ProgressLine {
            run_id: self.run_id.clone(),
            script: self.script.clone(),
            stream: Stream::Stdout,
            text: progress.text(),
            job: Some(progress.clone()),
        });
        self.flush();
    }

    /// Sends whatever is pending.
    pub fn flush(&self) {
        let Some(listener) = &self.listener else { return };
        let batch = {
            let mut s = self.lock();
            s.last_flush = Some(Instant::now());
            std::mem::take(&mut s.pending)
        };
        if !batch.is_empty() {
            let _ = catch_unwind(AssertUnwindSafe(|| listener(&batch)));
        }
    }

    pub fn take(&self) -> (Vec<String>, Vec<String>) {
        let mut s = self.lock();
        (std::mem::take(&mut s.stdout), std::mem::take(&mut s.stderr))
    }
}
