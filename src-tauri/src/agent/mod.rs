//! The conversation in the window: the agent runtime ([`runtime`]) that runs turns through the
//! library crates and records them in the store, the mapping from the loop's events to the
//! transcript's notifications ([`notify`]), the Settings dialog over folio-workspace's settings
//! and keys ([`settings`]), the doctor rows ([`doctor`]), the ledger's "What was sent" rows
//! ([`egress`]), Settings → Privacy ([`privacy`]) and → Capabilities ([`capabilities`]), and the
//! Tauri commands over them ([`commands`]).

pub mod capabilities;
pub mod commands;
pub mod doctor;
pub mod egress;
pub mod handoff;
pub mod notify;
pub mod privacy;
pub mod runtime;
pub mod settings;

pub use runtime::AgentHost;
