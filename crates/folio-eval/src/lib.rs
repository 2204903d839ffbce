//! `folio-eval`: does a model get an analyst's work done in Folio? Measured, not guessed.
//!
//! Every silent failure the project fixed was found by playing a model through `folio ask` by
//! hand. This crate does that itself, on the same library the shells use (folio-workspace's
//! `Folder::turn`, the real agent loop and providers):
//!
//! - [`corpus`] generates a seeded folder with planted facts, a distractor, fabrication traps
//!   and messy inputs; the generator is the ground truth.
//! - [`scenario`] holds the scenarios as data (`scenarios/<id>.json`), each with a reference
//!   solution and a planted bad one.
//! - [`check`] is tier 1: deterministic checks that re-read each artifact with another reader
//!   than wrote it ([`read`]).
//! - [`selfcheck`] proves every check before any model is paid for: each reference solution runs
//!   inside the environment and must pass, each bad one must fail.
//! - [`runner`] runs models × scenarios × repetitions in fresh folders with a spend budget checked
//!   before each run; [`report`] writes the JSON and the HTML page a person reads.
//! - [`ssb`] scores SpreadsheetBench tasks by the benchmark's own comparison rules.
//!
//! Tier 2 ([`judge`], optional) asks a judge model only the scenario's questions, with the task,
//! the ground truth and the artifact's text, and fails when unsure; `judgecheck` makes it tell a
//! known-good briefing from a known-bad one first.

pub mod check;
pub mod corpus;
pub mod judge;
pub mod read;
pub mod report;
pub mod runner;
pub mod scenario;
pub mod selfcheck;
pub mod ssb;

use std::path::Path;

/// What the harness refuses or fails at, each with where and the fix.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// A scenario file or a check is wrong (a bug in the harness's data).
    #[error("scenario: {0}")]
    Scenario(String),
    /// An artifact could not be read.
    #[error("{0}")]
    Artifact(String),
    /// The corpus could not be generated.
    #[error("the corpus could not be generated: {0}")]
    Corpus(String),
    /// A file could not be read or written.
    #[error("{path}: {detail} — hint: check the directory is writable")]
    Io {
        /// The file.
        path: String,
        /// What failed.
        detail: String,
    },
    /// The workspace layer refused (a provider, a folder, a turn).
    #[error(transparent)]
    Workspace(#[from] folio_workspace::WorkspaceError),
    /// The spend budget refuses a run before it starts.
    #[error("{0}")]
    Budget(String),
    /// A SpreadsheetBench directory is not laid out as the release is.
    #[error("{0}")]
    Bench(String),
}

impl EvalError {
    fn io(path: &Path, e: std::io::Error) -> EvalError {
        EvalError::Io { path: path.display().to_string(), detail: e.to_string() }
    }

    fn xlsx(e: rust_xlsxwriter::XlsxError) -> EvalError {
        EvalError::Corpus(format!("the budget workbook: {e}"))
    }
}
