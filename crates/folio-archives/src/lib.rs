//! Folio's archives: zip, tar and tar.gz read and written through the tree.
//!
//! An archive is the classic way hostile input arrives: a name that climbs out of the target
//! (`../../.bashrc`, `C:\Windows\…`, `\\server\share`), a link that points elsewhere, a small file
//! that inflates to gigabytes, a million tiny entries, an encrypted or exotically compressed
//! entry a reader half-supports. This crate decides every one of those before it writes a byte:
//!
//! - [`names`] resolves an entry name segment by segment inside the target (backslashes are
//!   separators, absolute names are refused, `..` may not climb above the root);
//! - [`read`] opens the archive, counts entries against `max_entries` before inflating anything,
//!   refuses links, devices, encrypted entries and methods other than Stored/Deflated for the
//!   whole selection before the first write, and caps every inflate at the bytes left of the
//!   budget (a `.tar.gz` is inflated, capped, before tar parsing);
//! - [`write`] makes zip (deflate), tar or tar.gz bytes, deterministic for the same files;
//! - [`ops`] is one function per `env:archives` binding over an [`ops::ArchiveFs`] — the run's
//!   gateway, so extracted files are pending overlay edits, never host writes — with each
//!   extraction a `JobKind::ArchiveEntry` job of the run's budget.
//!
//! ZIP64 is read: the `zip` crate parses the ZIP64 end records, and no declared size is trusted
//! (the cap counts inflated bytes). Nested archives are never opened. Every refusal is an
//! [`ArchiveError`] naming the entry, the rule or limit, and what to do instead.
//!
//! With the default `adapters` feature, [`modules::archives_module`] is `env:archives` and
//! [`handler::ArchivesHandler`] its describe/ls handler.

pub mod error;
pub mod format;
pub mod names;
pub mod ops;
pub mod read;
pub mod write;

#[cfg(feature = "adapters")]
pub mod handler;
#[cfg(feature = "adapters")]
pub mod modules;

pub use error::ArchiveError;
pub use format::Format;
pub use ops::{ArchiveFs, BINDINGS, Call};
pub use read::{Entry, EntryKind, Limits, Opened};

#[cfg(feature = "adapters")]
pub use handler::ArchivesHandler;
#[cfg(feature = "adapters")]
pub use modules::{SKILL, archives_module};
