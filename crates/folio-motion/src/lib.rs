//! wip
pub mod args;
pub mod browser;
pub mod cdp;
pub mod check;
pub mod discovery;
pub mod docs;
pub mod doctor;
pub mod error;
pub mod modules;
pub mod pool;
pub mod render;
pub mod scripts;
pub mod site;
pub mod tab;
pub mod transform;
pub mod worklets;
