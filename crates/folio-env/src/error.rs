//! The one error type of the environment. Every message names what happened, the path it
//! happened at, and the move that gets the agent (or the host) unstuck. Nothing here is retried
//! automatically: a refusal is a statement about the request, so the caller changes the request.

use folio_vfs::{PathError, VPath, VfsError};

/// A verb, a gateway mutation or the environment's setup failed.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// The tree layer refused or failed (missing file, directory in the way, host I/O). The agent
    /// retries with a corrected path; host I/O failures are for the person to fix.
    #[error(transparent)]
    Vfs(#[from] VfsError),
    /// A path argument broke the path rules. The agent retries with an absolute path.
    #[error(transparent)]
    Path(#[from] PathError),
    /// A mutation named `/`. The agent names an entry inside it instead.
    #[error("cannot {op} the root directory — name a file or directory inside it")]
    Root {
        /// The verb's operation word (`write`, `remove`, …).
        op: &'static str,
    },
    /// A change to the person's folder while it is open read-only (`EnvOptions::read_only_folder`,
    /// `--read-only-folder`). Nobody retries: the agent works in /tmp or the person reopens the
    /// folder writable.
    #[error(
        "cannot {op} {path}: the folder is open read-only, so nothing in it can change here — write to /tmp/{name} instead, or reopen the folder without --read-only-folder to make pending edits"
    )]
    ReadOnlyFolder {
        /// The operation word.
        op: &'static str,
        /// The path asked for.
        path: VPath,
        /// The path's last segment.
        name: String,
    },
    /// A mutation inside an environment-owned zone (`/.env`, `/std`, `/skills`). The agent works
    /// on a copy under `/tmp` instead.
    #[error(
        "cannot {op} {path}: {zone} {why} and is read-only. Copy what you need out first — cp {path} /tmp/{name} — and work on the copy"
    )]
    EnvZone {
        /// The operation word.
        op: &'static str,
        /// The path asked for.
        path: VPath,
        /// The zone root.
        zone: &'static str,
        /// What the zone holds.
        why: &'static str,
        /// The path's last segment, for the suggested copy.
        name: String,
    },
    /// A mutation inside a host-configured read-only path. The agent copies out and works on the
    /// copy; the host can drop the path from `read_only_paths` to allow edits.
    #[error(
        "cannot {op} {path}: {zone} is read-only in this environment (reference material the host set aside). Copy what you need out first — cp {path} /tmp/{name} — and work on the copy"
    )]
    ReadOnlyPath {
        /// The operation word.
        op: &'static str,
        /// The path asked for.
        path: VPath,
        /// The configured read-only root.
        zone: VPath,
        /// The path's last segment.
        name: String,
    },
    /// An `rm`/`mv` of a directory that contains a protected zone (it would take the zone with
    /// it). The agent removes or moves the other entries one by one.
    #[error(
        "cannot {op} {path}: it contains {zone}, which is read-only. Act on the entries beside {zone} one at a time instead"
    )]
    ContainsZone {
        /// The operation word.
        op: &'static str,
        /// The directory asked for.
        path: VPath,
        /// The protected zone inside it.
        zone: VPath,
    },
    /// A mutation of a `.d.ts` path under `/scripts` (those are derived). The agent edits the `.js`.
    #[error(
        "cannot {op} {path}: .d.ts paths under /scripts are derived from their sibling scripts and regenerated automatically — edit the .js file instead"
    )]
    Derived {
        /// The operation word.
        op: &'static str,
        /// The path asked for.
        path: VPath,
    },
    /// A TypeScript file under `/scripts`. The agent writes JavaScript with JSDoc types.
    #[error(
        "cannot {op} {path}: TypeScript sources cannot run here — write JavaScript (.js) with JSDoc type annotations instead"
    )]
    TypeScript {
        /// The operation word.
        op: &'static str,
        /// The path asked for.
        path: VPath,
    },
    /// One file would exceed `max_file_bytes`. The agent splits the content; the host raises the
    /// limit in `EnvOptions::limits`.
    #[error(
        "file size limit exceeded: {path} would be {size} bytes, over the {cap}-byte cap (limits.max_file_bytes). Split the content across files, or ask the host to raise limits.max_file_bytes"
    )]
    FileTooLarge {
        /// The file.
        path: VPath,
        /// Its size after the mutation.
        size: u64,
        /// The cap.
        cap: u64,
    },
    /// The whole tree (version blobs included) would exceed `max_vfs_bytes`. The agent removes
    /// files it no longer needs (under `/tmp` first); the host raises the limit.
    #[error(
        "environment size limit exceeded: this change to {path} would grow the tree to {would} bytes, past {cap} bytes (limits.max_vfs_bytes; earlier versions kept for undo count too). Remove what you no longer need under /tmp, or ask the host to raise limits.max_vfs_bytes"
    )]
    TreeTooLarge {
        /// The path being written.
        path: VPath,
        /// The total after the mutation.
        would: u64,
        /// The cap.
        cap: u64,
    },
    /// The environment tried to store its own state (run log, checkpoint) outside `/.env`. A
    /// Folio bug: nobody retries, the person reports it.
    #[error(
        "cannot store environment state at {path}: the environment keeps its own state (run log, checkpoints) only under /.env, apart from the person's files and the agent's zones — this is a Folio bug; report it with this message"
    )]
    StateOutsideEnv {
        /// Where the write was aimed.
        path: VPath,
    },
    /// A checkpoint fork would grow the tree past `max_vfs_bytes`. The agent drops checkpoints
    /// or `/tmp` files it no longer needs; the host raises the limit. Nothing was saved.
    #[error(
        "checkpoint \"{name}\" was not saved: its {new_bytes} new bytes would grow the tree to {would} bytes, past {cap} bytes (limits.max_vfs_bytes; checkpoints count too). Drop a checkpoint you no longer need (checkpoint({{action:'drop', name:'…'}})), remove what you no longer need under /tmp, or ask the host to raise limits.max_vfs_bytes"
    )]
    CheckpointTooLarge {
        /// The checkpoint.
        name: String,
        /// Bytes the fork would add (new blobs and the manifest's growth).
        new_bytes: u64,
        /// The tree's size after it.
        would: u64,
        /// The cap.
        cap: u64,
    },
    /// A checkpoint restore found a file that could not come back as a write could not: an
    /// invalid script, a file over the cap, a protected path, content changed on disk since the
    /// fork. Nothing was changed. The agent forks afresh (and drops the checkpoint) or, for a
    /// read-only folder, the person reopens it writable.
    #[error("checkpoint \"{name}\" was not restored, and nothing was changed: {reason}{}", restore_fix(.name, *.tampered))]
    RestoreRefused {
        /// The checkpoint.
        name: String,
        /// Which file and why, with that refusal's own fix.
        reason: String,
        /// True when the checkpoint itself is at fault (its stored copy cannot be trusted or
        /// could not be written by any write), so dropping it is the fix.
        tampered: bool,
    },
    /// The script-validation hook refused a script. The agent fixes the script and writes again.
    #[error("{path} was not saved: {reason}")]
    ScriptRejected {
        /// The script.
        path: VPath,
        /// What the validator said, with its own fix.
        reason: String,
    },
    /// `undo` with an empty undo ring.
    #[error("nothing to undo for {0} — `history` with this path shows what is recorded")]
    NothingToUndo(VPath),
    /// `redo` with an empty redo ring.
    #[error("nothing to redo for {0} — redo only walks forward after an undo, and a fresh change clears it")]
    NothingToRedo(VPath),
    /// `undo`/`redo` of a directory path. The agent names one file.
    #[error(
        "cannot {op} {path}: it is a directory — undo works one file at a time; `history` with a file path lists its versions"
    )]
    UndoDirectory {
        /// `undo` or `redo`.
        op: &'static str,
        /// The directory.
        path: VPath,
    },
    /// A mutating verb was given a wildcard that names nothing. The agent uses a script.
    #[error(
        "cannot {op} {path}: this verb takes one path, not a pattern — nothing is named \"{path}\". Do it in a script, where you can see the list before acting on it:\n  import * as fs from 'env:fs';\n  for (const p of await fs.glob('{path}')) {{ {recipe} }}\n(`ls` and `grep` do take patterns; the mutating verbs deliberately do not.)"
    )]
    Pattern {
        /// `remove`, `move` or `copy`.
        op: &'static str,
        /// The pattern as given.
        path: String,
        /// The loop body of the suggested script.
        recipe: &'static str,
    },
    /// A read of a binary file through a text verb. The agent uses `describe`.
    #[error(
        "{path} is a binary file ({size}) — {verb} only handles text. Use describe({path}) or a module's describe() from a script to inspect it"
    )]
    Binary {
        /// The verb.
        verb: &'static str,
        /// The file.
        path: VPath,
        /// Its size, formatted.
        size: String,
    },
    /// A text verb asked for a file over `max_file_bytes`: it is refused before being read. The
    /// agent describes it or searches it; the host raises the limit.
    #[error(
        "{path} is {size} bytes, over the {cap}-byte cap {verb} reads whole (limits.max_file_bytes) — use describe({path}) to see what it is and grep to find lines in it, or ask the host to raise limits.max_file_bytes"
    )]
    TooLargeToRead {
        /// The verb.
        verb: &'static str,
        /// The file.
        path: VPath,
        /// Its size.
        size: u64,
        /// The cap.
        cap: u64,
    },
    /// The arguments do not fit the verb. The agent resends them in the shape named.
    #[error("{verb}: {detail}")]
    BadArgs {
        /// The verb.
        verb: String,
        /// What is wrong and what the right shape is.
        detail: String,
    },
    /// A verb-specific refusal whose full text (with its fix) is built by the verb: `edit_file`
    /// match counts, `read_file` ranges, `present` outside `/out`, checkpoint names, `diff` states.
    /// The agent reads the message and changes the call.
    #[error("{0}")]
    Refused(String),
    /// A host callback (`present`, `ask_user`, a handler's describe) failed. The agent carries on
    /// or tells the person; nothing is retried.
    #[error("{what} failed: {reason}")]
    Host {
        /// Which callback.
        what: String,
        /// What it reported.
        reason: String,
    },
    /// The environment's own state (version index, checkpoint) could not be decoded. The host
    /// inspects or removes the named file; the environment keeps working without it.
    #[error("the environment's state at {path} is unreadable: {detail} — remove that file to start it afresh")]
    State {
        /// The state file.
        path: String,
        /// What went wrong.
        detail: String,
    },
    /// A script run (or a test run) failed. `short` is the first line of the error (at most 400
    /// characters): what repeats are recognised by, and the result's data for hosts; `full` is
    /// the whole formatted run — error, console output — and is the verb's message, said once.
    /// The agent fixes the script and runs it again.
    #[error("{short}")]
    Run {
        /// The first line of the error.
        short: String,
        /// The full formatted text of the run.
        full: String,
    },
    /// The host configured the environment wrongly (for example a relative read-only path). The
    /// host fixes its options; the agent never sees this.
    #[error("invalid environment options: {0}")]
    Config(String),
}

impl EnvError {
    /// A refusal with a verb-built message.
    pub(crate) fn refused(msg: impl Into<String>) -> EnvError {
        EnvError::Refused(msg.into())
    }

    /// An argument error for `verb`.
    pub(crate) fn args(verb: &str, detail: impl Into<String>) -> EnvError {
        EnvError::BadArgs { verb: verb.to_owned(), detail: detail.into() }
    }

    /// True when the failure is a limit refusal (counted in [`crate::Counters::limit_hits`]).
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            EnvError::FileTooLarge { .. } | EnvError::TreeTooLarge { .. } | EnvError::CheckpointTooLarge { .. }
        )
    }
}

fn restore_fix(name: &str, tampered: bool) -> String {
    if tampered {
        format!(
            ". This checkpoint cannot be restored as it is — drop it (checkpoint({{action:'drop', name:'{name}'}})) and fork a new one from a good tree"
        )
    } else {
        String::new()
    }
}

/// The environment's result.
pub type Result<T, E = EnvError> = std::result::Result<T, E>;
