//! The conversation in the window: the agent runtime ([`runtime`]) that runs turns through the
//! library crates and records them in the store, the mapping from the loop's events to the
//! transcript's notifications ([`notify`]), the settings and keys ([`settings`]), the doctor rows
//! ([`doctor`]), and the Tauri commands over them ([`commands`]).

pub mod capabilities;
pub mod commands;
pub mod doctor;
pub mod handoff;
pub mod mcp_mount;
pub mod notify;
pub mod runtime;
pub mod settings;

pub use runtime::AgentHost;
