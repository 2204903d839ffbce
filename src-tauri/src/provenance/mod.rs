//! The provenance commands: `provenance_get` (where a deliverable came from, and whether it is
//! stale) and `provenance_regenerate` (re-run the recorded script on the current inputs, with no
//! model). Both are one library call each — `Environment::provenance` and
//! `folio_host::regenerate`, exactly what `folio provenance` and `folio regenerate` call — run
//! on the blocking pool; this module only maps their results to the wire types of
//! `crate::api::provenance` and their errors to a [`CommandError`] of the right kind.
//! A regeneration's writes are pending changes like any run's, so the review panel shows them.

use folio_env::{EnvError, Provenance, RunOrigin, ScriptState, Standing, short_hash};
use folio_host::{RegenerateError, RegenerateOptions, Regenerated};
use folio_vfs::VfsError;
use tauri::State;

use crate::api::*;
use crate::commands::{AppState, blocking};

/// An environment error as the UI receives it.
fn env_error(e: EnvError) -> CommandError {
    let kind = match &e {
        EnvError::Vfs(VfsError::NoSuchEntry(_) | VfsError::NoSuchFile(_)) => ErrorKind::NotFound,
        EnvError::Vfs(VfsError::EscapesFolder { .. } | VfsError::ReadOnly { .. }) | EnvError::EnvZone { .. } => {
            ErrorKind::Refused
        }
        EnvError::Path(_) | EnvError::BadArgs { .. } | EnvError::Refused(_) => ErrorKind::BadRequest,
        _ => ErrorKind::Failed,
    };
    CommandError::new(kind, e.to_string())
}

/// A refused or failed regeneration as the UI receives it (the fix is the message's hint).
fn regenerate_error(e: RegenerateError) -> CommandError {
    let kind = match &e {
        RegenerateError::Env(_) => ErrorKind::Failed,
        RegenerateError::NoRecord { .. } | RegenerateError::ScriptGone { .. } => ErrorKind::NotFound,
        RegenerateError::ScriptChanged { .. } => ErrorKind::BadRequest,
        RegenerateError::RunFailed { .. } | RegenerateError::NotWritten { .. } => ErrorKind::Failed,
    };
    match e {
        RegenerateError::Env(inner) => env_error(inner),
        other => CommandError::new(kind, other.to_string()),
    }
}

/// The wire form of what the library knows about a file.
pub fn response(known: &Provenance) -> ProvenanceGetResponse {
    let standing = match known.standing {
        Standing::Current => ProvenanceStanding::Current,
        Standing::Stale => ProvenanceStanding::Stale,
        Standing::EditedSince => ProvenanceStanding::EditedSince,
        Standing::Unknown => ProvenanceStanding::Unknown,
    };
    let made = known.record.as_ref().map(|r| {
        let (origin, conversation, turn, model, from_run) = match &r.origin {
            RunOrigin::Agent { conversation, turn, model, .. } => {
                (ProvenanceOriginKind::Agent, conversation.clone(), Some(*turn), Some(model.clone()), None)
            }
            RunOrigin::Direct => (ProvenanceOriginKind::Direct, None, None, None, None),
            RunOrigin::Regenerate { from_run } => {
                (ProvenanceOriginKind::Regenerate, None, None, None, Some(from_run.clone()))
            }
        };
        ProvenanceMade {
            script: r.script.clone(),
            script_hash: short_hash(&r.script_hash).to_owned(),
            script_state: match known.script {
                Some(ScriptState::Changed { .. }) => ProvenanceScriptState::Changed,
                Some(ScriptState::Gone) => ProvenanceScriptState::Gone,
                _ => ProvenanceScriptState::Same,
            },
            inputs: r
                .inputs
                .iter()
                .map(|i| {
                    let change = known.changed_inputs.iter().find(|c| c.path == i.path);
                    ProvenanceInput {
                        path: i.path.clone(),
                        hash: short_hash(&i.hash).to_owned(),
                        changed: change.is_some(),
                        gone: change.is_some_and(|c| c.now.is_none()),
                    }
                })
                .collect(),
            run_id: r.run_id.clone(),
            origin,
            conversation,
            turn,
            model,
            from_run,
            made_at_ms: r.made_at_ms,
        }
    });
    ProvenanceGetResponse { path: known.path.clone(), standing, made, line: known.line() }
}

fn regenerated(done: Regenerated) -> ProvenanceRegenerateResponse {
    ProvenanceRegenerateResponse {
        path: done.path,
        script: done.script,
        run_id: done.run_id,
        before_size: done.before.size,
        after_size: done.after.size,
        changed: done.changed,
        pending: done.pending,
        changed_inputs: done.changed_inputs,
        notes: done.notes,
    }
}

/// `provenance.get`: where a file came from, and whether it is stale.
#[tauri::command]
pub async fn provenance_get(
    state: State<'_, AppState>,
    params: ProvenanceGetParams,
) -> Result<ProvenanceGetResponse, CommandError> {
    let session = state.current()?;
    blocking(move || session.environment().provenance(&params.path).map(|p| response(&p)).map_err(env_error)).await
}

/// `provenance.regenerate`: re-runs the recorded script on the current inputs, with no model;
/// the result is a pending change.
#[tauri::command]
pub async fn provenance_regenerate(
    state: State<'_, AppState>,
    params: ProvenanceRegenerateParams,
) -> Result<ProvenanceRegenerateResponse, CommandError> {
    let session = state.current()?;
    blocking(move || {
        let opts = RegenerateOptions { use_current_script: params.use_current_script };
        folio_host::regenerate(session.environment(), &params.path, opts).map(regenerated).map_err(regenerate_error)
    })
    .await
}
