//! `folio-store`: what Folio remembers between runs, in one SQLite file (`folio.sqlite` under the
//! state root): the folders opened, each conversation's full provider-neutral history (so a
//! conversation resumes in a new process exactly where it stopped), the event log a transcript is
//! replayed from, the files presented, and settings.
//!
//! Messages and events are stored as JSON values: this crate does not know the agent's types, so
//! the agent can evolve its message model without a migration here (a message that no longer
//! parses is the agent's to handle). Schema changes go through numbered migrations
//! (`PRAGMA user_version`).
//!
//! The boundary settings (issue 16) live here too: the global network mode and each folder's
//! mode and never-send patterns, read back as one [`folio_boundary::Boundary`] by
//! [`Store::boundary`] so every shell asks the same question the same way.
//!
//! API keys never enter SQLite. They go to the OS keychain (Keychain on macOS, Credential Manager
//! on Windows, the Secret Service on Linux); where no keychain service runs (headless Linux, CI)
//! a key file readable only by its owner (`keys.json` under the state root, when the host asks for
//! it with [`Secrets::for_state_root`]) or the provider's environment variable is used instead, and
//! [`Secrets::get`] says so in a one-line notice rather than failing.

mod boundary;
mod secrets;
mod store;

pub use boundary::{FolderBoundary, GLOBAL_MODE_KEY, folder_boundary_key};
pub use secrets::{KeySource, Secrets};
pub use store::{ConversationInfo, Presented, Store, StoreError};
