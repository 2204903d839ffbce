//! `folio-vfs`: the tree Folio's agent works in, and the promise that nothing reaches the person's
//! folder until they say so.
//!
//! Three layers, bottom up:
//!
//! - [`VPath`] — the path rules. Every path is absolute, `/`-separated and normalised before any
//!   tree sees it; `..` cannot climb above `/`, control characters are refused.
//! - [`Tree`] — the interface every backend implements (read, write, append, rm, mv, cp, mkdir,
//!   list, stat, walk, glob, total size, and `read_range` for part of a file), synchronous and
//!   shareable across threads. [`MemTree`] is the in-memory backend.
//! - [`Overlay`] — a copy-on-write view of a real folder. Reads fall through to the disk; writes,
//!   removals and renames are kept as entries in a per-folder state directory (SQLite index plus
//!   content-addressed blobs), so pending work survives the process ending and a crash. Each entry
//!   remembers what the disk had when it was first shadowed, which is how [`Overlay::pending`]
//!   spots a file the person changed meanwhile. [`Overlay::commit`] is journaled: a crash at any
//!   instant leaves every file wholly old or wholly new, and the next open completes or rolls back
//!   the interrupted commit and says which.
//!
//! This crate knows nothing of zones, verbs, scripts or the UI: those layers call it. It is the
//! only crate that writes to the person's folder, and it does so only in `commit`.
//!
//! Limitations: reads of a host file are not snapshotted, so a file the person edits while the
//! agent reads it may be seen half-written (as any editor would see it); the ignore rules match
//! whole names, not patterns.

mod error;
pub mod fault;
mod glob;
mod ignore;
mod mem;
mod names;
mod overlay;
mod path;
pub mod range;
mod tree;

pub use error::{Result, VfsError};
pub use glob::Glob;
pub use ignore::IgnoreRules;
pub use mem::MemTree;
pub use names::NameRules;
pub use overlay::{
    CaseMode, Change, ChangeKind, CommitReport, Conflict, Fingerprint, HostChange, HostWatch, NormalisationMode,
    Overlay, OverlayOptions, Probe, Recovery, RecoveryOutcome, Selection, default_state_root, detect_case_insensitive,
    folder_state_dir, probe_folder,
};
pub use path::{PathError, VPath};
pub use tree::{DirEntry, Kind, Stat, Tree, transfer_pairs};
