//! Why a job was refused or stopped. Every message names the job, what happened and the fix.

use crate::kind::{Unit, duration_words};

/// Why a budgeted job did not run to its end.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BudgetError {
    /// The estimate from this host's rates exceeds what is left of the run's budget: refused
    /// before any work, nothing written. The agent retries with less work per call, or the
    /// person raises the budget.
    #[error("{0}")]
    OverBudget(Box<Refusal>),
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

/// The details of an up-front refusal ([`BudgetError::OverBudget`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// Who was refused.
    pub job: String,
    /// The work in words.
    pub what: String,
    /// The estimate.
    pub estimate_ms: u64,
    /// What was left of the budget.
    pub left_ms: u64,
    /// Where the estimate came from.
    pub basis: String,
    /// How to ask for less.
    pub smaller: String,
    /// How to raise the budget.
    pub raise: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} takes about {} on this host ({}), more than the {} left of this run's budget — nothing was done — hint: {}, or {}",
            self.job,
            self.what,
            duration_words(self.estimate_ms),
            self.basis,
            duration_words(self.left_ms),
            self.smaller,
            self.raise
        )
    }
}
