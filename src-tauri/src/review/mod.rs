//! Review and the things around it: the diff of each pending change ([`diff`], reading the
//! folder's side with [`disk`]; pages, images, videos and archives compared visually by
//! folio-diff in [`visual`], workbooks in [`cells`]), files dropped on the window into `/inbox` ([`drop`]), the tree's
//! filter and open/reveal ([`files`]), the script catalogue's argument form ([`form`]) and recent
//! folders ([`recent`]). [`commands`] exposes them to the UI; nothing else here knows Tauri.

pub mod cells;
pub mod commands;
pub mod diff;
pub mod disk;
pub mod drop;
pub mod files;
pub mod form;
pub mod recent;
pub mod visual;
