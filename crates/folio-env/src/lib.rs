//! `folio-env`: the working environment an agent gets over a person's folder.
//!
//! # The shape
//!
//! The agent sees one tree. Its `/` is the person's folder (in practice a copy-on-write
//! [`folio_vfs::Overlay`], so nothing reaches the disk until the person commits), with the
//! conventional `/inbox`, `/scripts` (and `/scripts/lib`) and `/out`. Four zones belong to the
//! environment and live in the folder's *state directory* instead: `/tmp` (scratch and spilled
//! output), `/.env` (run log, undo versions, checkpoints, the orientation file), `/std` (module
//! documentation) and `/skills` (recipes). A [`MountTree`] routes each path to the right backing
//! tree, so zone files can never show up in a commit. `/tmp` and `/.env` are kept in host
//! directories with atomic writes because each `folio verbs` run is a separate process; `/std`
//! and `/skills` are regenerated in memory at every start. A folder entry that happens to share
//! a zone's name is shadowed, and the orientation file says so rather than hiding it silently.
//!
//! # One gateway
//!
//! Every mutation — verbs, later the scripts' `env:fs`, adapters, the host's guarded writes —
//! goes through [`Gateway`]: zone checks (including a directory that *contains* a read-only
//! path, and `/skills`, both gaps in the reference design), size limits naming the field to
//! raise, the script-validation hook (which `mount` into `/scripts` passes too), the per-file
//! version ring behind `undo`/`redo`, and the mutation counter from which telemetry *measures*
//! whether a call changed anything. The host's `mount` door skips read-only paths (seeding
//! reference material is its purpose) but never overwrites: a taken name gets a `-2` suffix.
//! The environment's own state — the run log and checkpoints — takes the gateway's checked path
//! for state ([`Gateway::write_state`]: only under `/.env`, within the size limits, fsynced
//! before the rename), and a checkpoint restore passes the checks a write does (zones, limits,
//! script validation, the stored copy's hash), refusing with nothing changed.
//!
//! # Verbs and self-description
//!
//! Each verb is declared once, in the verb table ([`VERBS`]). [`Environment::tools`] lists the
//! offered ones with JSON Schemas generated from their argument types;
//! [`Environment::call`] runs one, escalating repeated identical failures and capping responses
//! (overflow spilled to `/tmp/run-<id>.*`). Host-gated verbs (`present`, `ask_user`) exist only
//! when wired.
//!
//! # Scripts
//!
//! Scripts are on by default (`EnvOptions::no_scripts` turns them off): an [`Engine`] from
//! `folio-script` validates every `.js` that lands under `/scripts` (the gateway then writes its
//! `.d.ts` sibling in the same step, removes it with the script, and regenerates it on undo),
//! serves scripts' `env:fs` through the gateway, and runs `run_script`/`run_tests`, logging each
//! run to `/.env/history.jsonl`. A host stops a running script with
//! [`Environment::call_with_cancel`] (cancel the token it passed) or
//! [`Environment::cancel_runs`] (every run in flight); `EnvOptions::on_progress` streams console
//! lines while a script runs. `/.env/orientation.md`
//! is rebuilt on every read; [`preamble`] is the text an agent loop prepends. [`run_jsonl`] drives
//! it all from JSON lines for the CLI.
//!
//! # Limits of this version
//!
//! Script validation runs under the gateway lock, so a slow module top level (bounded by
//! `limits.run_timeout_ms`) stalls other mutations meanwhile. A directory `mv`/`cp` validates each
//! destination against the tree as it was, so scripts importing each other inside the moved
//! subtree resolve against their old locations. Mutations are serialised by one non-re-entrant mutex. The tree-size figure is counted once and
//! then adjusted by each mutation's measured delta (see [`MountTree`]); a change made to the real
//! folder behind the environment's back is not seen until [`Gateway::note_external_change`]. `grep`
//! uses fancy-regex, which is close to but not exactly JavaScript's regex dialect. Checkpoints
//! capture files, not empty directories, and leave `/std`, `/skills` and read-only paths alone.
//! One environment per folder at a time: two processes mutating the same `/.env` concurrently
//! can lose undo history (not content).

mod checkpoint;
mod compat;
mod docs;
mod env;
mod error;
mod format;
mod gateway;
mod host_dir_tree;
mod jsonl;
mod media;
mod mounts;
mod open;
mod orientation;
mod pipeline;
pub mod provenance;
mod repeat;
mod runlog;
mod runs;
mod scripts;
mod seams;
mod staged;
mod tools;
pub mod verbs;
mod versions;
mod zone;

pub use compat::ADAPTERS_PATH;
pub use docs::preamble;
pub use env::{EnvOptions, Environment};
pub use error::{EnvError, Result};
pub use folio_script::{CancelToken, Engine, OnProgress, ProgressLine, Stream};
pub use format::{fmt_bytes, iso};
pub use gateway::{
    AcceptScripts, Counters, Gateway, Limits, ScriptCheck, ScriptValidator, Stepped, WriteMode, Written,
};
pub use host_dir_tree::HostDirTree;
pub use jsonl::run_jsonl;
pub use media::{media_type, sniff};
pub use mounts::MountTree;
pub use provenance::{
    InputChange, InputRecord, Provenance, ProvenanceRecord, RunOrigin, ScriptState, Standing, content_hash, short_hash,
};
pub use runlog::RunRecord;
pub use scripts::{EngineValidator, RunReport};
pub use seams::{
    Answers, Asker, FileHandler, KeepPresented, Magic, OnVerb, Presented, Presenter, RenderedPage, Sight, VerbEvent,
    Vision, part_marker,
};
pub use tools::{Status, ToolDef, ToolResult};
pub use verbs::table::{Capability, Doc, VERBS, Verb, VerbSpec, verb};
pub use versions::{Revision, Ring, Side, Versions};
pub use zone::{ZONES, Zone, ZoneRow};

/// Appends a run to `/.env/history.jsonl` (for the script runner), through the gateway's checked
/// path for the environment's own state ([`Gateway::write_state`]).
pub fn record_run(env: &Environment, record: &RunRecord) -> Result<()> {
    runlog::append(env.gateway(), record)
}

/// The orientation text as it would read now (also what `read_file /.env/orientation.md` shows).
pub fn orientation(env: &Environment) -> String {
    orientation::build(env)
}
