//! Regenerate without a model: re-run the script a deliverable's provenance record names, with
//! the recorded arguments, on the inputs as they are now — no model call anywhere.
//!
//! The desktop's Regenerate button and `folio regenerate` both call [`regenerate`], so they
//! cannot drift. It runs through [`Environment::run_script_as`], the path every run takes: the
//! writes go through the gateway, so they are *pending* changes the person reviews and commits
//! (nothing reaches the folder here), and the run gets its own provenance record with
//! [`RunOrigin::Regenerate`] naming the run it replayed.
//!
//! Refusals, each naming the fix: no record for the file; a script that no longer exists; a
//! script whose source changed since the record (its recorded hash against its hash now) unless
//! the caller asks for the current script ([`RegenerateOptions::use_current_script`]); a run
//! that failed; a run that did not write the file again. A file edited by hand since it was made
//! is regenerated from its newest record and the reply says the edits are replaced as a pending
//! change (discard it to keep them).

use folio_env::{EnvError, Environment, Provenance, RunOrigin, ScriptState, Standing};

/// Why a deliverable could not be regenerated. Nothing retries these: each names what to do.
#[derive(Debug, thiserror::Error)]
pub enum RegenerateError {
    /// No run recorded making the file (it was written by hand, by a verb, or its record was
    /// pruned). The person asks the agent again.
    #[error(
        "{path} has no provenance record — no recorded run made it, so there is nothing to re-run — hint: ask the agent to make it again with a script"
    )]
    NoRecord {
        /// The deliverable.
        path: String,
    },
    /// The recorded script is gone. The person restores it (undo, or from a copy) or asks the
    /// agent again.
    #[error(
        "{path} was made by {script}, which no longer exists — hint: restore {script} (its recorded hash is {recorded}) or ask the agent to make {path} again"
    )]
    ScriptGone {
        /// The deliverable.
        path: String,
        /// The recorded script.
        script: String,
        /// Its recorded hash.
        recorded: String,
    },
    /// The recorded script's source changed since the run. The person re-runs with the
    /// current script deliberately (`--use-current-script`, the app's confirmation).
    #[error(
        "{script} changed since it made {path} (recorded hash {recorded}, now {now}) — hint: pass --use-current-script to regenerate with the script as it is now"
    )]
    ScriptChanged {
        /// The deliverable.
        path: String,
        /// The script.
        script: String,
        /// Its recorded hash.
        recorded: String,
        /// Its hash now.
        now: String,
    },
    /// The script ran and failed; its error is quoted. The person fixes the script or its
    /// inputs (often a changed input's shape) and regenerates again.
    #[error(
        "regenerating {path}: {script} failed: {error} — hint: the inputs may have changed shape; fix the script or ask the agent"
    )]
    RunFailed {
        /// The deliverable.
        path: String,
        /// The script.
        script: String,
        /// The run's error, first line.
        error: String,
    },
    /// The script ran but did not write the file again (its arguments or inputs now lead it
    /// elsewhere). Its other writes stay pending for review.
    #[error(
        "regenerating {path}: {script} ran but did not write {path} this time — hint: check its arguments and inputs; folio status lists what it did write"
    )]
    NotWritten {
        /// The deliverable.
        path: String,
        /// The script.
        script: String,
    },
    /// The environment refused (a bad path, a state file that cannot be read, scripts off).
    #[error(transparent)]
    Env(#[from] EnvError),
}

/// How to regenerate.
#[derive(Debug, Clone, Copy, Default)]
pub struct RegenerateOptions {
    /// Run the script as it is now even when it changed since the record.
    pub use_current_script: bool,
}

/// A file's content, before or after.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Version {
    /// Its size in bytes.
    pub size: u64,
    /// Its BLAKE3 content hash.
    pub hash: String,
}

/// What a regeneration did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Regenerated {
    /// The deliverable.
    pub path: String,
    /// The script that ran.
    pub script: String,
    /// The run that replayed the record.
    pub run_id: String,
    /// The record's run.
    pub from_run: String,
    /// The file before.
    pub before: Version,
    /// The file after (a pending change unless it came out identical).
    pub after: Version,
    /// True when the bytes differ from before.
    pub changed: bool,
    /// True when the folder has pending changes to review after the run.
    pub pending: bool,
    /// Inputs whose content changed since the record, by path.
    pub changed_inputs: Vec<String>,
    /// Notes for the person (hand edits replaced, the current script used).
    pub notes: Vec<String>,
}

/// Re-runs what made `path`, with no model. See the module docs.
pub fn regenerate(env: &Environment, path: &str, opts: RegenerateOptions) -> Result<Regenerated, RegenerateError> {
    let known: Provenance = env.provenance(path)?;
    let Some(record) = known.record.clone() else {
        return Err(RegenerateError::NoRecord { path: known.path });
    };
    let mut notes = Vec::new();
    match known.script.clone().unwrap_or(ScriptState::Same) {
        ScriptState::Same => {}
        ScriptState::Gone => {
            return Err(RegenerateError::ScriptGone {
                path: known.path,
                script: record.script,
                recorded: record.script_hash,
            });
        }
        ScriptState::Changed { now } if !opts.use_current_script => {
            return Err(RegenerateError::ScriptChanged {
                path: known.path,
                script: record.script,
                recorded: record.script_hash,
                now,
            });
        }
        ScriptState::Changed { now } => notes.push(format!(
            "{} changed since the record (recorded {}, now {}); ran it as it is now, as asked",
            record.script,
            folio_env::short_hash(&record.script_hash),
            folio_env::short_hash(&now)
        )),
    }
    if known.standing == Standing::EditedSince {
        notes.push(format!(
            "{} was edited since run {} made it; the regenerated file replaces those edits as a pending change — discard it to keep them",
            known.path, record.run_id
        ));
    }
    let origin = RunOrigin::Regenerate { from_run: record.run_id.clone() };
    let report = env.run_script_as(&record.script, record.args.clone(), None, None, &origin)?;
    if !report.ok {
        return Err(RegenerateError::RunFailed {
            path: known.path,
            script: record.script,
            error: report.short_error(),
        });
    }
    let after = match env.provenance(&known.path) {
        Ok(p) => p,
        Err(_) => return Err(RegenerateError::NotWritten { path: known.path, script: record.script }),
    };
    let rerecorded = after.record.as_ref().is_some_and(|r| r.run_id == report.run_id);
    if !rerecorded {
        return Err(RegenerateError::NotWritten { path: known.path, script: record.script });
    }
    let pending = match env.overlay() {
        Some(overlay) => overlay.pending_count().map_err(EnvError::from)? > 0,
        None => false,
    };
    Ok(Regenerated {
        path: known.path,
        script: record.script,
        run_id: report.run_id,
        from_run: record.run_id,
        changed: after.hash != known.hash,
        before: Version { size: known.size, hash: known.hash },
        after: Version { size: after.size, hash: after.hash },
        pending,
        changed_inputs: known.changed_inputs.into_iter().map(|c| c.path).collect(),
        notes,
    })
}
