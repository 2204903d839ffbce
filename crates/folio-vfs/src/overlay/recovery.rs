//! What opening a folder does about a commit a crash interrupted: a journal in state `preparing`
//! is rolled back (nothing the person sees had changed), one in state `applying` is completed.

use crate::error::Result;
use crate::overlay::Overlay;
use crate::overlay::commit::{CommitReport, Outcome};
use crate::overlay::journal::{self, JournalState, Op};
use crate::overlay::pending::Conflict;
use crate::path::VPath;

/// Which way an interrupted commit was resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryOutcome {
    /// The crash came after every new file was durable: the commit was finished.
    Completed,
    /// The crash came before: temp files were removed and every change is still pending.
    RolledBack,
}

/// The report of a recovery, shown to the person when the folder opens.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Recovery {
    /// Completed or rolled back.
    pub outcome: RecoveryOutcome,
    /// The paths the interrupted commit was writing or removing.
    pub paths: Vec<VPath>,
    /// Changes the completion skipped because the folder changed meanwhile.
    pub conflicts: Vec<(VPath, Conflict)>,
}

impl std::fmt::Display for Recovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.outcome {
            RecoveryOutcome::Completed => write!(
                f,
                "a commit interrupted by a crash was completed: {} change(s) are now on disk",
                self.paths.len()
            )?,
            RecoveryOutcome::RolledBack => write!(
                f,
                "a commit interrupted by a crash was rolled back: nothing on disk had changed, and its {} change(s) are still pending",
                self.paths.len()
            )?,
        }
        if !self.conflicts.is_empty() {
            write!(f, "; {} change(s) were left pending because the folder changed meanwhile", self.conflicts.len())?;
        }
        Ok(())
    }
}

impl Overlay {
    /// Resolves an interrupted commit if one is journaled and no other process is committing.
    pub(crate) fn recover(&self) -> Result<Option<Recovery>> {
        if self.read_only || self.with_conn(journal::state)?.is_none() {
            return Ok(None);
        }
        let Ok(_lock) = self.commit_lock() else {
            // Another process holds the commit lock: the journal is its live commit, not a crash.
            return Ok(None);
        };
        self.recover_locked()
    }

    /// Resolves the journaled commit; the caller holds the commit lock.
    pub(crate) fn recover_locked(&self) -> Result<Option<Recovery>> {
        let Some((state, _pid)) = self.with_conn(journal::state)? else { return Ok(None) };
        let steps = self.with_conn(journal::load)?;
        let mut paths: Vec<VPath> =
            steps.iter().filter(|s| s.op != Op::MkParent && s.rev != 0).map(|s| s.path.clone()).collect();
        paths.sort();
        paths.dedup();
        if state == JournalState::Applying {
            let outcomes: Vec<(i64, Outcome)> = self.apply(&steps)?;
            let mut report = CommitReport::default();
            self.finish(&steps, &outcomes, &mut report)?;
            Ok(Some(Recovery { outcome: RecoveryOutcome::Completed, paths, conflicts: report.conflicts }))
        } else {
            self.roll_back(&steps);
            self.with_conn(journal::clear)?;
            Ok(Some(Recovery { outcome: RecoveryOutcome::RolledBack, paths, conflicts: Vec::new() }))
        }
    }
}
