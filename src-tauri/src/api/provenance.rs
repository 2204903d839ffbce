//! The payloads of the provenance commands (`provenance_*`): where a deliverable came from,
//! whether it is stale, and regenerating it with no model. The library types are
//! `folio_env::Provenance` and `folio_host::Regenerated`; these are their wire form.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Asks where a file came from.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceGetParams {
    /// The agent's path (`/out/summary.xlsx`).
    pub path: String,
}

/// How a file stands against its provenance records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProvenanceStanding {
    /// A recorded run made these bytes and its inputs are unchanged.
    Current,
    /// A recorded run made these bytes, but some inputs changed or are gone since.
    Stale,
    /// Runs made this path, but its bytes were changed after the newest one.
    EditedSince,
    /// No recorded run made it.
    Unknown,
}

/// The recorded script against the tree now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProvenanceScriptState {
    /// It holds the source that ran.
    Same,
    /// It changed since (Regenerate asks before using it as it is now).
    Changed,
    /// It no longer exists (Regenerate is not offered).
    Gone,
}

/// Who asked for the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProvenanceOriginKind {
    /// A model, in a conversation's turn.
    Agent,
    /// A person ran the script directly: no model.
    Direct,
    /// A regeneration of an earlier run: no model.
    Regenerate,
}

/// One input of the run.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceInput {
    /// Its path.
    pub path: String,
    /// The first 12 hex digits of the hash the run read.
    pub hash: String,
    /// True when its content is not what the run read (changed, or gone).
    pub changed: bool,
    /// True when it no longer exists.
    pub gone: bool,
}

/// The run that made a file.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceMade {
    /// The script.
    pub script: String,
    /// The first 12 hex digits of its hash when it ran.
    pub script_hash: String,
    /// The script now.
    pub script_state: ProvenanceScriptState,
    /// Every file the run read, in path order.
    pub inputs: Vec<ProvenanceInput>,
    /// The run's id.
    pub run_id: String,
    /// Who asked for it.
    pub origin: ProvenanceOriginKind,
    /// The conversation, for [`ProvenanceOriginKind::Agent`] (when the host named it).
    pub conversation: Option<String>,
    /// The person's request in that conversation (1-based), for an agent's run.
    pub turn: Option<u32>,
    /// The model, for an agent's run.
    pub model: Option<String>,
    /// The replayed run, for a regeneration.
    pub from_run: Option<String>,
    /// When the run finished, in milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub made_at_ms: i64,
}

/// Where a file came from.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceGetResponse {
    /// The file.
    pub path: String,
    /// How it stands.
    pub standing: ProvenanceStanding,
    /// The matching run (for `editedSince`, the newest one), or `None` when unknown.
    pub made: Option<ProvenanceMade>,
    /// The same as one line (`folio provenance`'s words).
    pub line: String,
}

/// Regenerates a file with no model.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceRegenerateParams {
    /// The deliverable.
    pub path: String,
    /// Run the script as it is now even though it changed since the record.
    #[serde(default)]
    pub use_current_script: bool,
}

/// What a regeneration did.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProvenanceRegenerateResponse {
    /// The deliverable.
    pub path: String,
    /// The script that ran.
    pub script: String,
    /// The new run.
    pub run_id: String,
    /// Bytes before.
    #[ts(type = "number")]
    pub before_size: u64,
    /// Bytes after.
    #[ts(type = "number")]
    pub after_size: u64,
    /// True when the bytes changed.
    pub changed: bool,
    /// True when the folder has pending changes to review.
    pub pending: bool,
    /// The inputs that had changed since the record.
    pub changed_inputs: Vec<String>,
    /// Notes for the person (hand edits replaced, the current script used).
    pub notes: Vec<String>,
}

/// The provenance payloads, for the generated bindings.
pub fn decls() -> Vec<String> {
    vec![
        ProvenanceGetParams::decl(),
        ProvenanceStanding::decl(),
        ProvenanceScriptState::decl(),
        ProvenanceOriginKind::decl(),
        ProvenanceInput::decl(),
        ProvenanceMade::decl(),
        ProvenanceGetResponse::decl(),
        ProvenanceRegenerateParams::decl(),
        ProvenanceRegenerateResponse::decl(),
    ]
}
