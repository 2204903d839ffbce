// Generated from src-tauri/src/api/ by `UPDATE_BINDINGS=1 FOLIO_SKIP_UI_BUILD=1 cargo test -p folio-desktop bindings`.
// Do not edit by hand.

export type ProvenanceGetParams = { 
/**
 * The agent's path (`/out/summary.xlsx`).
 */
path: string, };

export type ProvenanceStanding = "current" | "stale" | "editedSince" | "unknown";

export type ProvenanceScriptState = "same" | "changed" | "gone";

export type ProvenanceOriginKind = "agent" | "direct" | "regenerate";

export type ProvenanceInput = { 
/**
 * Its path.
 */
path: string, 
/**
 * The first 12 hex digits of the hash the run read.
 */
hash: string, 
/**
 * True when its content is not what the run read (changed, or gone).
 */
changed: boolean, 
/**
 * True when it no longer exists.
 */
gone: boolean, };

export type ProvenanceMade = { 
/**
 * The script.
 */
script: string, 
/**
 * The first 12 hex digits of its hash when it ran.
 */
scriptHash: string, 
/**
 * The script now.
 */
scriptState: ProvenanceScriptState, 
/**
 * Every file the run read, in path order.
 */
inputs: Array<ProvenanceInput>, 
/**
 * The run's id.
 */
runId: string, 
/**
 * Who asked for it.
 */
origin: ProvenanceOriginKind, 
/**
 * The conversation, for [`ProvenanceOriginKind::Agent`] (when the host named it).
 */
conversation: string | null, 
/**
 * The person's request in that conversation (1-based), for an agent's run.
 */
turn: number | null, 
/**
 * The model, for an agent's run.
 */
model: string | null, 
/**
 * The replayed run, for a regeneration.
 */
fromRun: string | null, 
/**
 * When the run finished, in milliseconds since the Unix epoch.
 */
madeAtMs: number, };

export type ProvenanceGetResponse = { 
/**
 * The file.
 */
path: string, 
/**
 * How it stands.
 */
standing: ProvenanceStanding, 
/**
 * The matching run (for `editedSince`, the newest one), or `None` when unknown.
 */
made: ProvenanceMade | null, 
/**
 * The same as one line (`folio provenance`'s words).
 */
line: string, };

export type ProvenanceRegenerateParams = { 
/**
 * The deliverable.
 */
path: string, 
/**
 * Run the script as it is now even though it changed since the record.
 */
useCurrentScript: boolean, };

export type ProvenanceRegenerateResponse = { 
/**
 * The deliverable.
 */
path: string, 
/**
 * The script that ran.
 */
script: string, 
/**
 * The new run.
 */
runId: string, 
/**
 * Bytes before.
 */
beforeSize: number, 
/**
 * Bytes after.
 */
afterSize: number, 
/**
 * True when the bytes changed.
 */
changed: boolean, 
/**
 * True when the folder has pending changes to review.
 */
pending: boolean, 
/**
 * The inputs that had changed since the record.
 */
changedInputs: Array<string>, 
/**
 * Notes for the person (hand edits replaced, the current script used).
 */
notes: Array<string>, };
