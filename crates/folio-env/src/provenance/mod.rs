//! Provenance: where every deliverable came from, and whether it still follows from its inputs.
//!
//! # What is recorded
//!
//! Every file a `run_script` run leaves under `/out` gets a [`ProvenanceRecord`]: the script's
//! path and the BLAKE3 hash of its source as it ran, the arguments, every file the run *read*
//! with the hash of the bytes it got, the run id, and who asked for the run ([`RunOrigin`]: a
//! model's turn in a conversation, a person running it directly with no model, or a
//! regeneration of an earlier run). The reads are captured in one place: the run's `ScriptFs`
//! (`scripts/fs.rs`), which every script read passes — `env:fs`, Node's `fs`, and every `env:*`
//! module that opens a file (env:spreadsheets, env:documents, …) ask it for bytes — so no module
//! records anything itself ([`trace`]). A file the run wrote before reading it back is its own
//! intermediate, not an input; reads of the generated zones (`/std`, `/skills`, `/.env`) are
//! documentation, not data, and are left out. The module loader reads through the same door, so
//! the modules a script imports from `/scripts/lib` are inputs too (a changed helper makes its
//! deliverables stale); the script itself is recorded as the script, with its own hash.
//!
//! # Where it is kept, and why there
//!
//! In `<folder state dir>/provenance/records.json` ([`store`]): a versioned JSON document,
//! rewritten whole through a temporary file, flushed, then renamed over the old one, so a crash
//! leaves the old records or the new ones. It sits *beside* the overlay's store and the zones,
//! never inside them: not in the person's folder (provenance is not a deliverable and must not be
//! committed), and not in `/.env` or `/tmp`, which the agent's tree can reach — a record the
//! agent could rewrite would not be evidence. SQLite was the alternative; the records are few
//! (capped), read whole, and written once per run, so one atomically replaced file is simpler
//! and needs no schema migrations beyond its `version` field.
//!
//! # Keys, pruning, staleness
//!
//! A record is keyed by the deliverable's path **and the hash of the bytes the run wrote**. A
//! commit copies those bytes into the folder unchanged, so the record still matches afterwards;
//! a file edited by hand since no longer matches any record and is reported as
//! [`Standing::EditedSince`] (with the newest record for that path), never misattributed. The
//! store keeps at most [`store::MAX_RECORDS`] records, dropping the oldest first.
//!
//! A deliverable is [`Standing::Stale`] when one of its recorded inputs now hashes differently in
//! the tree the agent sees (pending changes included) or is gone; [`Provenance::changed_inputs`]
//! names each. Whether the script itself changed is reported apart ([`ScriptState`]): regenerate
//! refuses a changed script unless asked to use the current one.

pub(crate) mod store;
pub(crate) mod trace;

use folio_vfs::{Tree, VPath, VfsError};
use serde::{Deserialize, Serialize};

use crate::error::{EnvError, Result};

pub use store::MAX_RECORDS;

/// The content hash every record uses: BLAKE3, lowercase hex.
pub fn content_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// Who asked for a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunOrigin {
    /// A model asked for it, in one turn of a conversation.
    Agent {
        /// The conversation's id (`None` when the host did not name it).
        conversation: Option<String>,
        /// The person's request in the conversation (1-based; the egress ledger's turn).
        turn: u32,
        /// The loop's model call within that request's run (1-based).
        call: u32,
        /// The model that asked.
        model: String,
    },
    /// A person ran it directly (`folio run`, `folio verbs`, a host call): no model involved.
    #[default]
    Direct,
    /// A regeneration of an earlier run's record: no model involved.
    Regenerate {
        /// The run whose record was replayed.
        from_run: String,
    },
}

impl RunOrigin {
    /// One phrase for people: "turn 3 of conversation c1, model m", "run directly, no model".
    pub fn describe(&self) -> String {
        match self {
            RunOrigin::Agent { conversation, turn, call, model } => {
                let conversation = conversation.as_deref().unwrap_or("(unnamed)");
                format!("conversation {conversation}, turn {turn} (model call {call}), model {model}")
            }
            RunOrigin::Direct => "run directly (folio run or a host call) — no model".to_owned(),
            RunOrigin::Regenerate { from_run } => format!("regenerated from run {from_run} — no model"),
        }
    }
}

/// One file a run read, as it was when read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputRecord {
    /// Its path in the tree.
    pub path: String,
    /// [`content_hash`] of the bytes the run got.
    pub hash: String,
}

/// Where one deliverable came from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProvenanceRecord {
    /// The deliverable (under `/out`).
    pub path: String,
    /// [`content_hash`] of the bytes the run left there.
    pub hash: String,
    /// Their size.
    pub size: u64,
    /// The script that ran.
    pub script: String,
    /// [`content_hash`] of its source when it ran.
    pub script_hash: String,
    /// The arguments it got.
    pub args: serde_json::Value,
    /// Every file it read, in path order.
    pub inputs: Vec<InputRecord>,
    /// The run's id.
    pub run_id: String,
    /// Who asked for the run.
    pub origin: RunOrigin,
    /// When the run finished, in milliseconds since the Unix epoch.
    pub made_at_ms: i64,
}

/// An input whose content is not what the run read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputChange {
    /// The input's path.
    pub path: String,
    /// The hash the run read.
    pub recorded: String,
    /// Its hash now; `None` when it is gone.
    pub now: Option<String>,
}

/// The recorded script, compared with the tree now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScriptState {
    /// It holds the source that ran.
    Same,
    /// It was changed since; `now` is its current hash.
    Changed {
        /// [`content_hash`] of its source now.
        now: String,
    },
    /// It no longer exists.
    Gone,
}

/// How a deliverable stands against its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// A record matches its bytes and every input still hashes as the run read it.
    Current,
    /// A record matches its bytes but some inputs changed or are gone.
    Stale,
    /// Records exist for the path, but none for its current bytes: it was changed after the
    /// newest run made it (by hand, or by something that is not a recorded run).
    EditedSince,
    /// No run recorded making it.
    Unknown,
}

/// What is known about one file's origin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provenance {
    /// The file asked about.
    pub path: String,
    /// [`content_hash`] of its bytes now.
    pub hash: String,
    /// Its size now.
    pub size: u64,
    /// How it stands.
    pub standing: Standing,
    /// The matching record (for [`Standing::EditedSince`], the newest one for the path).
    pub record: Option<ProvenanceRecord>,
    /// The recorded inputs that changed or are gone (empty unless [`Standing::Stale`]).
    pub changed_inputs: Vec<InputChange>,
    /// The recorded script against the tree now (`None` without a record).
    pub script: Option<ScriptState>,
}

/// The bytes at `path` now, or `None` when nothing is there.
fn read_now(tree: &dyn Tree, path: &VPath) -> Result<Option<Vec<u8>>> {
    match tree.read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(VfsError::NoSuchEntry(_) | VfsError::NoSuchFile(_)) => Ok(None),
        Err(e) => match tree.stat(path)? {
            None => Ok(None),
            Some(_) => Err(e.into()),
        },
    }
}

/// `path`'s hash in `tree` now (`None`: gone, or not a file).
fn hash_now(tree: &dyn Tree, raw: &str) -> Result<Option<String>> {
    let Ok(path) = VPath::parse(raw) else { return Ok(None) };
    match tree.stat(&path)? {
        Some(s) if s.kind == folio_vfs::Kind::File => Ok(read_now(tree, &path)?.map(|b| content_hash(&b))),
        _ => Ok(None),
    }
}

/// Where the file at `path` in `tree` came from, by the records in `store`, and whether it is
/// stale (`Environment::provenance`). Refuses a path with no file (naming it); a file no run made
/// is [`Standing::Unknown`], not an error.
pub(crate) fn standing(tree: &dyn Tree, store: &store::ProvenanceStore, path: &str) -> Result<Provenance> {
    let vpath = VPath::parse(path)?;
    let bytes = match tree.stat(&vpath)? {
        Some(s) if s.kind == folio_vfs::Kind::File => read_now(tree, &vpath)?,
        Some(_) => {
            return Err(EnvError::refused(format!(
                "{vpath} is a directory — provenance is kept per file; name a file under it, like {vpath}/report.xlsx"
            )));
        }
        None => None,
    };
    let Some(bytes) = bytes else {
        return Err(EnvError::refused(format!(
            "there is no file at {vpath} — name a deliverable that exists (folio status lists pending ones; ls /out the rest)"
        )));
    };
    let hash = content_hash(&bytes);
    let records = store.for_path(vpath.as_str())?;
    let mut out = Provenance {
        path: vpath.to_string(),
        hash: hash.clone(),
        size: bytes.len() as u64,
        standing: Standing::Unknown,
        record: None,
        changed_inputs: Vec::new(),
        script: None,
    };
    let (record, matched) = match records.iter().find(|r| r.hash == hash) {
        Some(r) => (r.clone(), true),
        None => match records.into_iter().next() {
            Some(newest) => (newest, false),
            None => return Ok(out),
        },
    };
    out.script = Some(match hash_now(tree, &record.script)? {
        None => ScriptState::Gone,
        Some(now) if now == record.script_hash => ScriptState::Same,
        Some(now) => ScriptState::Changed { now },
    });
    if matched {
        for input in &record.inputs {
            let now = hash_now(tree, &input.path)?;
            if now.as_deref() != Some(input.hash.as_str()) {
                out.changed_inputs.push(InputChange { path: input.path.clone(), recorded: input.hash.clone(), now });
            }
        }
        out.standing = if out.changed_inputs.is_empty() { Standing::Current } else { Standing::Stale };
    } else {
        out.standing = Standing::EditedSince;
    }
    out.record = Some(record);
    Ok(out)
}

/// What a finished run says about itself, for [`record_run`].
pub(crate) struct MadeBy<'a> {
    pub script: &'a VPath,
    pub script_hash: String,
    pub args: &'a serde_json::Value,
    pub run_id: &'a str,
    pub origin: &'a RunOrigin,
}

/// Stores one record per file the run left under `/out` (a written directory counts for every
/// file below it); a file the run wrote and then removed gets none.
pub(crate) fn record_run(
    tree: &dyn Tree,
    store: &store::ProvenanceStore,
    trace: &trace::RunTrace,
    made: &MadeBy<'_>,
) -> Result<()> {
    let out = VPath::parse("/out")?;
    let mut files: Vec<VPath> = Vec::new();
    for path in trace.written().into_iter().filter(|p| p.is_under(&out)) {
        match tree.stat(&path)? {
            Some(s) if s.kind == folio_vfs::Kind::File => files.push(path),
            Some(_) => files.extend(tree.glob(&format!("{path}/**/*"))?),
            None => {}
        }
    }
    files.sort();
    files.dedup();
    // The script itself is recorded as the script (with its hash); the modules it imports
    // (`/scripts/lib/…`) stay inputs, so a changed helper makes the deliverable stale.
    let script = made.script.to_string();
    let inputs: Vec<InputRecord> = trace.inputs().into_iter().filter(|i| i.path != script).collect();
    let made_at_ms = crate::format::now_ms();
    let mut records = Vec::new();
    for path in files {
        let Some(bytes) = read_now(tree, &path)? else { continue };
        records.push(ProvenanceRecord {
            path: path.to_string(),
            hash: content_hash(&bytes),
            size: bytes.len() as u64,
            script: made.script.to_string(),
            script_hash: made.script_hash.clone(),
            args: made.args.clone(),
            inputs: inputs.iter().filter(|i| i.path != path.to_string()).cloned().collect(),
            run_id: made.run_id.to_owned(),
            origin: made.origin.clone(),
            made_at_ms,
        });
    }
    store.add(records)
}

/// The first 12 hex digits of a hash, as people are shown it.
pub fn short_hash(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

impl Provenance {
    /// The one line people read: "made by /scripts/q3.js (blake3 1a2b…) from /inbox/sales.csv —
    /// run R, conversation C, turn N (model call K), model M", then what is stale or edited.
    pub fn line(&self) -> String {
        let Some(r) = &self.record else {
            return format!(
                "{}: no recorded run made it (written by hand, by a verb, or its record was pruned)",
                self.path
            );
        };
        let from = if r.inputs.is_empty() {
            "no files".to_owned()
        } else {
            r.inputs.iter().map(|i| i.path.as_str()).collect::<Vec<_>>().join(", ")
        };
        let mut line = format!(
            "{}: made by {} (blake3 {}) from {} — run {}, {}",
            self.path,
            r.script,
            short_hash(&r.script_hash),
            from,
            r.run_id,
            r.origin.describe()
        );
        match self.standing {
            Standing::Current | Standing::Unknown => {}
            Standing::Stale => {
                let changed: Vec<String> = self
                    .changed_inputs
                    .iter()
                    .map(|c| match &c.now {
                        Some(now) => format!("{} (was {}, now {})", c.path, short_hash(&c.recorded), short_hash(now)),
                        None => format!("{} (gone)", c.path),
                    })
                    .collect();
                line.push_str(&format!("\nSTALE: changed since: {}", changed.join(", ")));
            }
            Standing::EditedSince => line.push_str(&format!(
                "\nEDITED SINCE: its content ({}) is not what run {} wrote ({}) — changed after it was made",
                short_hash(&self.hash),
                r.run_id,
                short_hash(&r.hash)
            )),
        }
        match &self.script {
            Some(ScriptState::Changed { now }) => line.push_str(&format!(
                "\nscript changed since: {} was {}, now {}",
                r.script,
                short_hash(&r.script_hash),
                short_hash(now)
            )),
            Some(ScriptState::Gone) => line.push_str(&format!("\nscript gone: {} no longer exists", r.script)),
            _ => {}
        }
        line
    }
}
