//! The one error type of the tree layer. Every message says what happened, where, and what to do.

use crate::path::{PathError, VPath};

/// A tree operation that could not be done. Raised by every [`crate::Tree`] implementation; the
/// caller (a verb, a script's `env:fs`, the CLI) shows the message as it is. Nothing here is
/// retried automatically: each variant is either the caller's input or the host's state, and the
/// message names the fix.
#[derive(Debug, thiserror::Error)]
pub enum VfsError {
    /// The string was not a valid VFS path.
    #[error(transparent)]
    Path(#[from] PathError),
    /// A read of a path that holds nothing.
    #[error("no such file: {0} — hint: ls its directory to see what exists")]
    NoSuchFile(VPath),
    /// A read of a directory.
    #[error("no such file: {0} (it is a directory) — hint: ls it, or read a file inside it")]
    ReadDirectory(VPath),
    /// A write whose target is a directory.
    #[error("cannot write {0}: it is a directory — hint: write to a file path inside it")]
    WriteOntoDirectory(VPath),
    /// A write or mkdir whose ancestor is a file.
    #[error("cannot {op} {path}: {ancestor} is a file — hint: choose a path whose parents are directories")]
    AncestorIsFile {
        /// `write` or `mkdir`.
        op: &'static str,
        /// The path asked for.
        path: VPath,
        /// The ancestor that is a file.
        ancestor: VPath,
    },
    /// A mkdir where a file stands.
    #[error("cannot mkdir {0}: it is a file — hint: remove the file first or pick another name")]
    MkdirOnFile(VPath),
    /// `rm /`.
    #[error("cannot remove the root directory — hint: remove the entries inside it one by one")]
    RemoveRoot,
    /// rm, mv, cp or stat-requiring verbs on a path that holds nothing.
    #[error("no such file or directory: {0} — hint: ls its directory to see what exists")]
    NoSuchEntry(VPath),
    /// A listing of a file.
    #[error("not a directory: {0} — hint: read_file or describe it instead")]
    NotADirectory(VPath),
    /// A listing of a path that holds nothing.
    #[error("no such directory: {0} — hint: ls its parent to see what exists")]
    NoSuchDirectory(VPath),
    /// mv or cp with the same source and destination.
    #[error("source and destination are the same path: {0} — hint: give a different destination")]
    SamePath(VPath),
    /// mv or cp of a directory into itself.
    #[error("cannot {op} {from} into itself ({to}) — hint: choose a destination outside {from}")]
    IntoItself {
        /// `mv` or `cp`.
        op: &'static str,
        /// The directory moved.
        from: VPath,
        /// The destination inside it.
        to: VPath,
    },
    /// A mutation of a tree opened read-only.
    #[error(
        "cannot {op} {path}: this folder is open read-only — hint: reopen it without read-only mode to make changes"
    )]
    ReadOnly {
        /// The operation refused.
        op: &'static str,
        /// Its path.
        path: VPath,
    },
    /// The host path resolves (through a symlink) outside the folder.
    #[error(
        "refusing {path}: it resolves outside the folder ({resolved}). Symlinks that leave the folder are not followed — hint: copy the file into the folder if it is needed"
    )]
    EscapesFolder {
        /// The VFS path asked for.
        path: VPath,
        /// Where the host resolved it.
        resolved: String,
    },
    /// The path is hidden by the ignore rules (`.git/`, `node_modules/`, OS litter).
    #[error(
        "{path} is hidden by Folio's ignore rules ({rule}) — hint: remove `{rule}` from the folder's ignore list to work on it"
    )]
    Ignored {
        /// The path asked for.
        path: VPath,
        /// The rule that hides it.
        rule: String,
    },
    /// A new name the folder (or a Windows machine it may sync to) cannot hold.
    #[error("cannot create {path}: {reason} — hint: choose another name")]
    UnportableName {
        /// The path asked for.
        path: VPath,
        /// Why the name cannot be held.
        reason: String,
    },
    /// On a folder that ignores case (or normalisation), a new path that is another spelling of
    /// an entry that exists or is pending.
    #[error(
        "cannot create {path}: this folder ignores {ignores}, so it is the same name as {existing}, which {state} — hint: write to {existing} to change it, or mv {existing} {path} to rename it"
    )]
    NameCollision {
        /// The path asked for.
        path: VPath,
        /// The entry it collides with.
        existing: VPath,
        /// `case` or `Unicode normalisation`.
        ignores: &'static str,
        /// `is in the folder` or `is pending`.
        state: &'static str,
    },
    /// A rename of a directory that changes only the case of its name, on a folder that ignores case.
    #[error(
        "cannot rename {from} to {to}: this folder ignores case, and renaming a directory only by case is not supported — hint: mv it to another name, commit, then mv it to {to}"
    )]
    CaseOnlyDirRename {
        /// The directory.
        from: VPath,
        /// The new spelling.
        to: VPath,
    },
    /// A commit or discard named a path that has no pending change at or below it.
    #[error("nothing is pending at {0} — hint: `folio status` lists the pending changes")]
    NotPending(VPath),
    /// A second commit of the same folder started while one was running in another process.
    #[error(
        "another Folio process is committing {0} right now — hint: wait for it to finish, then run `folio status` again"
    )]
    CommitBusy(String),
    /// The host filesystem failed an operation Folio needed.
    #[error("cannot {op} {path}: {source} — hint: {hint}")]
    Host {
        /// What was attempted (`read`, `list`, `stat`).
        op: &'static str,
        /// The host path.
        path: String,
        /// The OS error.
        source: std::io::Error,
        /// What usually fixes it.
        hint: &'static str,
    },
    /// The overlay's state (index or blobs) could not be read or written.
    #[error("the pending-changes store at {location} failed: {detail} — hint: {hint}")]
    Store {
        /// The state directory or file.
        location: String,
        /// What failed.
        detail: String,
        /// What usually fixes it.
        hint: &'static str,
    },
}

impl VfsError {
    pub(crate) fn host(op: &'static str, path: &std::path::Path, source: std::io::Error) -> VfsError {
        let hint = match source.kind() {
            std::io::ErrorKind::PermissionDenied => "check the file's permissions, or give Folio access to the folder",
            std::io::ErrorKind::NotFound => "the file changed on disk meanwhile; list the folder again",
            _ => "check that the disk is mounted and not full, then try again",
        };
        VfsError::Host { op, path: path.display().to_string(), source, hint }
    }
}

/// The tree layer's result.
pub type Result<T, E = VfsError> = std::result::Result<T, E>;
