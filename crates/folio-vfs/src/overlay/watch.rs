//! Watching the host folder. Reads always fall through to the disk, so an outside change is seen
//! by the next read and marks conflicts at the next `pending()` without any cache to invalidate;
//! the watcher exists so the app can refresh promptly. Events are debounced (200 ms) and carry
//! VFS paths; the overlay's own temp files and ignored names are filtered out.

use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify::RecursiveMode;
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer};

use crate::error::{Result, VfsError};
use crate::overlay::Overlay;
use crate::path::VPath;

/// A batch of host paths that changed outside Folio's view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostChange {
    /// The changed paths, sorted, without duplicates.
    pub paths: Vec<VPath>,
}

/// A running watch; dropping it stops watching.
pub struct HostWatch {
    /// Debounced batches of changes.
    pub changes: Receiver<HostChange>,
    _debouncer: Debouncer<notify::RecommendedWatcher>,
}

impl Overlay {
    /// Starts watching the folder.
    pub fn watch(&self) -> Result<HostWatch> {
        let (tx, rx) = channel();
        let root = self.host.root.clone();
        let ignore = self.ignore.clone();
        let host = self.host.clone();
        let mut debouncer = new_debouncer(Duration::from_millis(200), move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let mut paths: Vec<VPath> = events
                .into_iter()
                .filter_map(|e| host.vpath(&e.path))
                .filter(|p| ignore.rule_for(p).is_none())
                .collect();
            paths.sort();
            paths.dedup();
            if !paths.is_empty() {
                let _ = tx.send(HostChange { paths });
            }
        })
        .map_err(|e| watch_err(&root, e))?;
        debouncer.watcher().watch(&root, RecursiveMode::Recursive).map_err(|e| watch_err(&root, e))?;
        Ok(HostWatch { changes: rx, _debouncer: debouncer })
    }
}

fn watch_err(root: &std::path::Path, e: notify::Error) -> VfsError {
    VfsError::Host {
        op: "watch",
        path: root.display().to_string(),
        source: std::io::Error::other(e.to_string()),
        hint: "raise the inotify limit (sudo sysctl fs.inotify.max_user_watches=524288) or close other watchers",
    }
}
