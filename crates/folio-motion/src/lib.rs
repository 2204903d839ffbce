//! wip
pub mod browser;
pub mod cdp;
pub mod discovery;
pub mod error;
pub mod site;
pub mod tab;
pub mod transform;
