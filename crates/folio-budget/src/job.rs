//! A run's budget and the jobs started under it: the estimate and the up-front refusal, progress
//! with an ETA, and cancel and the deadline checked at every unit.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::child::{CancelFn, ChildLimits};
use crate::error::BudgetError;
use crate::kind::{JobKind, Unit, duration_words};
use crate::rates::Rates;

/// Receives a job's progress. A panic inside it is the listener's own problem: the budget calls
/// it from the job's thread and lets the job go on.
pub type ProgressFn = Arc<dyn Fn(&JobProgress) + Send + Sync>;

/// How often progress is sent at most (the last unit is always sent).
const EMIT_EVERY: Duration = Duration::from_millis(100);

/// What the default refusal tells a person to change when a job does not fit.
pub const DEFAULT_RAISE: &str = "raise the run budget (--run-budget-ms on folio run, verbs and ask)";

/// One progress report of a long job, on the run's progress stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobProgress {
    /// Who is working (`env:render.rasterize /in/report.pdf`).
    pub job: String,
    /// Units finished.
    pub done: u64,
    /// Units in the whole job.
    pub total: u64,
    /// What is counted.
    pub unit: Unit,
    /// Milliseconds still expected, when known.
    pub eta_ms: Option<u64>,
    /// Milliseconds since the job started.
    pub elapsed_ms: u64,
}

impl JobProgress {
    /// The report as one line a person reads: `env:render.rasterize /in/a.pdf: 12/300 pages, about 31 s left`.
    pub fn text(&self) -> String {
        let eta = match self.eta_ms {
            Some(ms) if self.done < self.total => format!(", about {} left", duration_words(ms)),
            _ => String::new(),
        };
        format!("{}: {}/{} {}{eta}", self.job, self.done, self.total, self.unit.name(self.total))
    }
}

/// The budget of one run, handed to every host function the run calls.
#[derive(Clone)]
pub struct RunBudget {
    deadline: Option<Instant>,
    cancelled: CancelFn,
    progress: Option<ProgressFn>,
    rates: Arc<Rates>,
    raise: Arc<str>,
}

impl RunBudget {
    /// A budget ending at `deadline` (`None`: no deadline), estimating from `rates`.
    pub fn new(deadline: Option<Instant>, rates: Arc<Rates>) -> RunBudget {
        RunBudget { deadline, cancelled: Arc::new(|| false), progress: None, rates, raise: Arc::from(DEFAULT_RAISE) }
    }

    /// No deadline, nothing cancels it, rates in memory: for work outside a run (a preview
    /// bounded by its own timeouts).
    pub fn unbounded() -> RunBudget {
        RunBudget::new(None, Arc::new(Rates::in_memory()))
    }

    /// Cancelled when `cancelled` says so.
    pub fn with_cancel(mut self, cancelled: CancelFn) -> RunBudget {
        self.cancelled = cancelled;
        self
    }

    /// Sends progress to `progress`.
    pub fn with_progress(mut self, progress: ProgressFn) -> RunBudget {
        self.progress = Some(progress);
        self
    }

    /// What a refusal tells the person to change (the shell's own option or setting).
    pub fn with_raise(mut self, raise: impl Into<Arc<str>>) -> RunBudget {
        self.raise = raise.into();
        self
    }

    /// Time left, `None` without a deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// True once the run is cancelled.
    pub fn is_cancelled(&self) -> bool {
        (self.cancelled)()
    }

    /// The rates this budget estimates from.
    pub fn rates(&self) -> &Arc<Rates> {
        &self.rates
    }

    /// What `cost` units of `kind` take on this host.
    pub fn estimate(&self, kind: JobKind, cost: f64) -> Duration {
        Duration::from_secs_f64((self.rates.ms_per_unit(kind) * cost.max(0.0)) / 1000.0)
    }

    /// Calibrates `kind` on this host the first time it runs: when no rate is measured yet (a
    /// fresh state directory), `probe` does one unit of the work (`cost` units) and its time
    /// becomes the rate — kept in the state directory like any job's — so the estimate that
    /// [`RunBudget::start`] makes next is this machine's, not the prior. Returns what the probe
    /// made (`None` when the kind was measured already and nothing ran).
    pub fn calibrate<T, E>(
        &self,
        kind: JobKind,
        cost: f64,
        probe: impl FnOnce() -> Result<T, E>,
    ) -> Result<Option<T>, E> {
        if self.rates.measured(kind).is_some() {
            return Ok(None);
        }
        let started = Instant::now();
        let made = probe()?;
        self.rates.record(kind, cost, started.elapsed());
        Ok(Some(made))
    }

    /// Starts `plan`, or refuses it before any work when its estimate exceeds what is left.
    pub fn start(&self, plan: Plan) -> Result<Job, BudgetError> {
        if self.is_cancelled() {
            return Err(BudgetError::Cancelled { job: plan.job, done: 0, total: plan.total, unit: plan.kind.unit() });
        }
        let estimate = self.estimate(plan.kind, plan.cost);
        if let Some(left) = self.remaining()
            && estimate > left
        {
            let ms = self.rates.ms_per_unit(plan.kind);
            let basis = match self.rates.measured(plan.kind) {
                Some(r) => format!(
                    "{} ms a {}, measured over {} job{} here",
                    round(ms),
                    plan.kind.cost_unit(),
                    r.samples,
                    if r.samples == 1 { "" } else { "s" }
                ),
                None => format!("{} ms a {}, the default before any is measured", round(ms), plan.kind.cost_unit()),
            };
            return Err(BudgetError::OverBudget(Box::new(crate::error::Refusal {
                job: plan.job,
                what: plan.what,
                estimate_ms: estimate.as_millis() as u64,
                left_ms: left.as_millis() as u64,
                basis,
                smaller: plan.smaller,
                raise: self.raise.to_string(),
            })));
        }
        let mut job = Job { budget: self.clone(), plan, started: Instant::now(), done: 0, last_emit: None, estimate };
        job.emit();
        Ok(job)
    }
}

fn round(ms: f64) -> String {
    if ms >= 10.0 { format!("{}", ms.round() as u64) } else { format!("{ms:.1}") }
}

/// What a job is about to do.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Which rate applies.
    pub kind: JobKind,
    /// Who is working, as messages and progress name it (`env:render.rasterize /in/a.pdf`).
    pub job: String,
    /// The work in words, for a refusal (`rendering 300 pages`).
    pub what: String,
    /// Progress units in all.
    pub total: u64,
    /// Cost units in all (see [`JobKind::cost_unit`]).
    pub cost: f64,
    /// How to ask for less work in one call (`render fewer pages per call: {pages: [1, 2, 3]}`).
    pub smaller: String,
}

/// A job under way. Call [`Job::step`] after every unit and [`Job::finish`] at the end.
pub struct Job {
    budget: RunBudget,
    plan: Plan,
    started: Instant,
    done: u64,
    last_emit: Option<Instant>,
    estimate: Duration,
}

impl Job {
    /// What the job was estimated to take.
    pub fn estimate(&self) -> Duration {
        self.estimate
    }

    /// Units finished so far.
    pub fn done(&self) -> u64 {
        self.done
    }

    /// Records that `done` units are finished, sends progress (at most every 100 ms, and always
    /// for the last unit), then stops the job if the run was cancelled or its budget is spent.
    pub fn step(&mut self, done: u64) -> Result<(), BudgetError> {
        self.done = done.min(self.plan.total);
        let due = self.done == self.plan.total || self.last_emit.is_none_or(|t| t.elapsed() >= EMIT_EVERY);
        if due {
            self.emit();
        }
        self.check()
    }

    /// Stops the job if the run was cancelled or its budget is spent (between units, or while
    /// waiting on a child process).
    pub fn check(&self) -> Result<(), BudgetError> {
        if self.budget.is_cancelled() {
            return Err(BudgetError::Cancelled {
                job: self.plan.job.clone(),
                done: self.done,
                total: self.plan.total,
                unit: self.plan.kind.unit(),
            });
        }
        if self.budget.remaining().is_some_and(|left| left.is_zero()) {
            return Err(self.out_of_time());
        }
        Ok(())
    }

    /// The error for a job the run's budget ended.
    pub fn out_of_time(&self) -> BudgetError {
        BudgetError::OutOfTime {
            job: self.plan.job.clone(),
            done: self.done,
            total: self.plan.total,
            unit: self.plan.kind.unit(),
            smaller: self.plan.smaller.clone(),
            raise: self.budget.raise.to_string(),
        }
    }

    /// Limits for a child process doing this job's work: its own `timeout`, the run's end, at
    /// most `memory_mb` (0: no cap), killed on cancel.
    pub fn child_limits(&self, timeout: Duration, memory_mb: u64) -> ChildLimits {
        ChildLimits {
            timeout,
            deadline: self.budget.deadline,
            memory_bytes: (memory_mb > 0).then(|| memory_mb.saturating_mul(1024 * 1024)),
            cancel: Some(self.budget.cancelled.clone()),
        }
    }

    fn progress(&self) -> JobProgress {
        let elapsed = self.started.elapsed();
        let eta = if self.done > 0 {
            let per = elapsed.as_secs_f64() / self.done as f64;
            Some((per * (self.plan.total - self.done) as f64 * 1000.0) as u64)
        } else {
            Some(self.estimate.saturating_sub(elapsed).as_millis() as u64)
        };
        JobProgress {
            job: self.plan.job.clone(),
            done: self.done,
            total: self.plan.total,
            unit: self.plan.kind.unit(),
            eta_ms: eta,
            elapsed_ms: elapsed.as_millis() as u64,
        }
    }

    fn emit(&mut self) {
        self.last_emit = Some(Instant::now());
        if let Some(listener) = &self.budget.progress {
            listener(&self.progress());
        }
    }

    /// Ends a job whose every unit is done: the time it took refreshes this host's rate.
    pub fn finish(mut self) {
        if self.done < self.plan.total {
            self.done = self.plan.total;
            self.emit();
        }
        self.budget.rates.record(self.plan.kind, self.plan.cost, self.started.elapsed());
    }
}
