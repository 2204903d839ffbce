//! [`Scripts`]: the environment's script engine and the runs in flight, which the `Environment`
//! holds. A leaf: `scripts/` runs scripts against the `Environment`, so the state the
//! `Environment` holds cannot live there without an import cycle.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use folio_script::{CancelToken, Engine};

/// The environment's script state: the engine and the runs in flight.
pub(crate) struct Scripts {
    pub engine: Arc<Engine>,
    active: Mutex<HashMap<u64, CancelToken>>,
    next: AtomicU64,
}

/// Keeps a run registered for [`Scripts::cancel_all`] until it is dropped.
pub(crate) struct Tracked<'a> {
    scripts: &'a Scripts,
    id: u64,
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.scripts.active.lock().unwrap_or_else(|p| p.into_inner()).remove(&self.id);
    }
}

impl Scripts {
    pub fn new(engine: Arc<Engine>) -> Scripts {
        Scripts { engine, active: Mutex::new(HashMap::new()), next: AtomicU64::new(0) }
    }

    /// Registers a run's token until the returned guard is dropped.
    pub fn track(&self, token: &CancelToken) -> Tracked<'_> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.active.lock().unwrap_or_else(|p| p.into_inner()).insert(id, token.clone());
        Tracked { scripts: self, id }
    }

    /// Cancels every registered run; returns how many there were.
    pub fn cancel_all(&self) -> usize {
        let active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        for token in active.values() {
            token.cancel();
        }
        active.len()
    }
}
