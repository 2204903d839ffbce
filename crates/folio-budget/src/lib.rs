//! # folio-budget
//!
//! The one budget facility every long native operation uses: rendering pages, LibreOffice
//! conversions, and the coming motion, media, spreadsheet and archive work. It exists because a
//! job killed at the run's deadline loses all its work and tells the agent nothing it can act
//! on, while a job refused *before it starts* costs nothing and names the fix.
//!
//! - **Estimate, then refuse up front.** [`RunBudget::start`] turns a [`Plan`] (a [`JobKind`], a
//!   cost) into an estimate from the rates this host measured ([`Rates`], kept in the state
//!   directory and refreshed by [`Job::finish`]); over what is left of the run, it is refused
//!   with [`BudgetError::OverBudget`], naming how to ask for less and the shell's option to raise
//!   the budget. A kind this host has not measured yet is calibrated first
//!   ([`RunBudget::calibrate`]: one unit timed before the estimate), so the first long job on a
//!   new machine is refused up front like the tenth, not judged by a prior from another machine.
//! - **Progress with an ETA.** [`Job::step`] after each unit sends a [`JobProgress`]
//!   `{done, total, unit, etaMs}` to the run's progress stream, at most every 100 ms.
//! - **Cancel within one unit.** The same call returns [`BudgetError::Cancelled`] or
//!   [`BudgetError::OutOfTime`] as soon as the run is cancelled or its budget is spent, so the
//!   caller stops before the next page, frame or file — nothing lands after the run returned.
//! - **Children bounded by the run.** [`child::run`] starts a tool as its own process group with
//!   [`Job::child_limits`]: its timeout is the shorter of its own and what is left of the run,
//!   its group's memory is capped, and the whole group is killed on any stop and after the
//!   leader exits.
//!
//! It knows no script engine and no tool: folio-script builds a [`RunBudget`] per run from its
//! deadline, cancel token and progress sink; folio-render and the modules after it start jobs.

pub mod child;
mod error;
mod job;
mod kind;
mod rates;

pub use child::{CancelFn, ChildEnd, ChildLimits, ChildOutcome, Supervised};
pub use error::{BudgetError, Refusal};
pub use job::{DEFAULT_RAISE, Job, JobProgress, Plan, ProgressFn, RunBudget};
pub use kind::{JobKind, Unit, duration_words};
pub use rates::{Rate, Rates};
