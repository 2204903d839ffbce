//! The conversation in the window: the agent runtime ([`runtime`]) that runs turns through the
//! library crates and records them in the store, the mapping from the loop's events to the
//! transcript's notifications ([`notify`]), the settings and keys ([`settings`]), the doctor rows
//! ([`doctor`]), what crosses the boundary ([`egress`]: the stored boundary a turn runs behind,
//! the ledger's "What was sent" rows) and Settings → Privacy ([`privacy`]), and the Tauri
//! commands over them ([`commands`]).

pub mod capabilities;
pub mod commands;
pub mod doctor;
pub mod egress;
pub mod handoff;
pub mod mcp_mount;
pub mod notify;
pub mod privacy;
pub mod runtime;
pub mod settings;

pub use runtime::AgentHost;
