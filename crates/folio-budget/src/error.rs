//! Why a job was refused or stopped. Every message names the job, what happened and the fix.

use crate::job::duration_words;
use crate::kind::Unit;

/// Why a budgeted job did not run to its end.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BudgetError {
    /// The estimate from this host's rates exceeds what is left of the run's budget: refused
    /// before any work, nothing written. The agent retries with less work per call, or the
    /// person raises the budget.
    #[error(
        "{job}: {what} takes about {} on this host ({basis}), more than the {} left of this run's budget — nothing was done — hint: {smaller}, or {raise}",
        duration_words(*.estimate_ms),
        duration_words(*.left_ms)
    )]
    OverBudget {
        /// Who was refused.
        job: String,
        /// The work in words.
        what: String,
        /// The estimate.
        estimate_ms: u64,
        /// What was left of the budget.
        left_ms: u64,
        /// Where the estimate came from.
        basis: String,
        /// How to ask for less.
        smaller: String,
        /// How to raise the budget.
        raise: String,
    },
    /// The run was cancelled (by the person, or it ended) while the job ran; it stopped within
    /// one unit. Nobody retries automatically.
    #[error("{job}: cancelled after {done} of {total} {}; nothing more is written", .unit.name(*.total))]
    Cancelled {
        /// Who stopped.
        job: String,
        /// Units finished.
        done: u64,
        /// Units in all.
        total: u64,
        /// What was counted.
        unit: Unit,
    },
    /// The run's budget ran out while the job ran (the estimate was too low); it stopped within
    /// one unit. The agent retries with less work per call.
    #[error("{job}: the run's budget ran out after {done} of {total} {} — hint: {smaller}, or {raise}", .unit.name(*.total))]
    OutOfTime {
        /// Who stopped.
        job: String,
        /// Units finished.
        done: u64,
        /// Units in all.
        total: u64,
        /// What was counted.
        unit: Unit,
        /// How to ask for less.
        smaller: String,
        /// How to raise the budget.
        raise: String,
    },
}
