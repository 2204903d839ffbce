//! Budgets: the wall-clock limit of one operation, the memory and stack ceilings, and the host's
//! cancellation token.
//!
//! Two guards enforce the wall clock, because neither suffices alone. QuickJS's interrupt
//! handler stops bytecode that keeps running (loops, regex backtracking, microtask spins), but it
//! is never consulted while the script awaits a host promise. An outer tokio timer stops those,
//! by dropping the whole operation future. Both fire at the same deadline and yield the same
//! message, so the model sees one error whichever guard caught it.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::error::ScriptError;

/// The ceilings one engine applies to every operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Wall-clock ceiling per run and per write-time validation, in milliseconds. A run's own
    /// `timeout_ms` can lower it, never raise it.
    pub run_timeout_ms: u64,
    /// QuickJS heap ceiling per operation, in MiB.
    pub memory_mb: u64,
    /// QuickJS stack ceiling, in KiB.
    pub stack_kb: u64,
    /// Characters of console output kept per run; after that one truncation marker is appended.
    pub console_cap_chars: usize,
}

impl Default for ScriptLimits {
    fn default() -> ScriptLimits {
        ScriptLimits { run_timeout_ms: 30_000, memory_mb: 256, stack_kb: 1024, console_cap_chars: 1_000_000 }
    }
}

/// The wall-clock budget of one operation, and the words its refusal uses.
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    pub ms: u64,
    pub ceiling_ms: u64,
    pub deadline: Instant,
    /// How a person raises the ceiling in this shell, when the host said.
    pub raise: Option<Arc<str>>,
}

impl Budget {
    /// `requested` is clamped to the ceiling; zero or absent means the ceiling.
    pub fn new(requested: Option<u64>, ceiling_ms: u64) -> Budget {
        let ms = match requested {
            Some(r) if r > 0 => r.min(ceiling_ms),
            _ => ceiling_ms,
        };
        Budget { ms, ceiling_ms, deadline: Instant::now() + Duration::from_millis(ms), raise: None }
    }

    /// Names `raise` as the way to a larger ceiling.
    pub fn with_raise(mut self, raise: Option<Arc<str>>) -> Budget {
        self.raise = raise;
        self
    }

    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    pub fn error(&self) -> ScriptError {
        if self.ms >= self.ceiling_ms
            && let Some(raise) = &self.raise
        {
            ScriptError::Timeout(format!(
                "script exceeded the wall-clock limit: {}ms (this environment's run budget). Make it do less per run (process a batch, return, run again), or {raise}",
                self.ms
            ))
        } else if self.ms >= self.ceiling_ms {
            ScriptError::Timeout(format!(
                "script exceeded the wall-clock limit: {}ms (limits.run_timeout_ms). Make it do less per run (process a batch, return, run again), or ask the host to raise limits.run_timeout_ms",
                self.ms
            ))
        } else {
            ScriptError::Timeout(format!(
                "script exceeded the wall-clock limit for this run: {}ms (run_script timeout_ms; this environment allows up to {}ms). Pass a larger timeout_ms, or make the script do less per run",
                self.ms, self.ceiling_ms
            ))
        }
    }
}

/// A host-side cancellation token. Cloning shares it; `cancel` stops every run holding a clone
/// within the interrupt interval (bytecode) or at once (host awaits).
#[derive(Debug, Clone)]
pub struct CancelToken {
    tx: Arc<watch::Sender<bool>>,
}

impl Default for CancelToken {
    fn default() -> CancelToken {
        CancelToken::new()
    }
}

impl CancelToken {
    /// A token that has not been cancelled.
    pub fn new() -> CancelToken {
        CancelToken { tx: Arc::new(watch::Sender::new(false)) }
    }

    /// Cancels every operation holding this token. Idempotent.
    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    /// True once `cancel` was called.
    pub fn is_cancelled(&self) -> bool {
        *self.tx.borrow()
    }

    /// Resolves when the token is cancelled.
    pub async fn cancelled(&self) {
        let mut rx = self.tx.subscribe();
        // The sender lives inside `self`, so `wait_for` can only end by seeing `true`.
        let _ = rx.wait_for(|c| *c).await;
    }
}
