//! One browser per environment, reused between renders and closed when idle, never shared
//! between folders (each environment has its own [`Pool`]; isolation between renders comes from
//! a fresh browser context per tab). A browser that died is discarded and the next render
//! launches a fresh one. Work runs on the crate's own small runtime, so a browser outlives the
//! script run that launched it.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::Mutex;

use crate::browser::Browser;
use crate::discovery::Found;
use crate::error::MotionError;

/// How long an unused browser stays open.
pub const DEFAULT_IDLE: Duration = Duration::from_secs(30);

/// The runtime every browser and render of this process runs on.
pub fn runtime() -> Result<&'static tokio::runtime::Runtime, MotionError> {
    static RT: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("folio-motion")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| MotionError::Browser(format!("could not start the render runtime: {e}")))
}

/// Figures a benchmark or the doctor reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Browsers launched by this pool.
    pub launches: u64,
    /// Renders using the browser now.
    pub in_use: usize,
    /// Whether a browser is open.
    pub open: bool,
}

/// An environment's browser.
pub struct Pool {
    found: Found,
    idle: Duration,
    browser: Mutex<Option<Arc<Browser>>>,
    /// Browsers for a long render's further tabs: each tab gets its own process, because one
    /// browser issues BeginFrames one at a time (two tabs of one browser cannot draw at once).
    helpers: Mutex<Vec<Arc<Browser>>>,
    in_use: Arc<AtomicUsize>,
    generation: Arc<AtomicU64>,
    launches: AtomicU64,
}

/// A render's hold on the browser; released (idempotently) when dropped.
pub struct Lease {
    /// The browser.
    pub browser: Arc<Browser>,
    /// Whether this lease launched it.
    pub launched: bool,
    pool: Arc<Pool>,
}

impl Drop for Lease {
    fn drop(&mut self) {
        let pool = Arc::clone(&self.pool);
        if pool.in_use.fetch_sub(1, Ordering::SeqCst) == 1 {
            pool.schedule_idle_close();
        }
    }
}

impl Pool {
    /// A pool over the browser `found`.
    pub fn new(found: Found, idle: Duration) -> Arc<Pool> {
        Arc::new(Pool {
            found,
            idle,
            browser: Mutex::new(None),
            helpers: Mutex::new(Vec::new()),
            in_use: Arc::new(AtomicUsize::new(0)),
            generation: Arc::new(AtomicU64::new(0)),
            launches: AtomicU64::new(0),
        })
    }

    /// The browser this pool launches.
    pub fn found(&self) -> &Found {
        &self.found
    }

    /// Claims the browser, launching it when none is open or the open one died.
    pub async fn acquire(self: &Arc<Self>) -> Result<Lease, MotionError> {
        self.in_use.fetch_add(1, Ordering::SeqCst);
        self.generation.fetch_add(1, Ordering::SeqCst);
        let mut slot = self.browser.lock().await;
        if let Some(b) = slot.as_ref().filter(|b| b.is_alive()) {
            return Ok(Lease { browser: Arc::clone(b), launched: false, pool: Arc::clone(self) });
        }
        *slot = None;
        let launched = match Browser::launch(&self.found.path, self.found.headless_shell).await {
            Ok(b) => b,
            // One retry: a launch can lose a race for its port or its profile directory.
            Err(_) => match Browser::launch(&self.found.path, self.found.headless_shell).await {
                Ok(b) => b,
                Err(e) => {
                    self.in_use.fetch_sub(1, Ordering::SeqCst);
                    return Err(e);
                }
            },
        };
        self.launches.fetch_add(1, Ordering::SeqCst);
        let b = Arc::new(launched);
        *slot = Some(Arc::clone(&b));
        Ok(Lease { browser: b, launched: true, pool: Arc::clone(self) })
    }

    /// `n` browsers besides the main one, for a render split across tabs (launched on first
    /// use, reused after, closed with the main one).
    pub async fn helpers(&self, n: usize) -> Result<Vec<Arc<Browser>>, MotionError> {
        let mut list = self.helpers.lock().await;
        list.retain(|b| b.is_alive());
        while list.len() < n {
            let b = Browser::launch(&self.found.path, self.found.headless_shell).await?;
            self.launches.fetch_add(1, Ordering::SeqCst);
            list.push(Arc::new(b));
        }
        Ok(list.iter().take(n).cloned().collect())
    }

    /// Drops a browser that failed mid-render, so the next render starts fresh.
    pub async fn discard(&self) {
        *self.browser.lock().await = None;
        self.helpers.lock().await.clear();
    }

    /// Closes the browser now (the environment is closing).
    pub fn close(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut slot) = self.browser.try_lock() {
            *slot = None;
        }
        if let Ok(mut list) = self.helpers.try_lock() {
            list.clear();
        }
    }

    /// What the pool has done.
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            launches: self.launches.load(Ordering::SeqCst),
            in_use: self.in_use.load(Ordering::SeqCst),
            open: self.browser.try_lock().map(|b| b.is_some()).unwrap_or(true),
        }
    }

    fn schedule_idle_close(self: &Arc<Self>) {
        let Ok(rt) = runtime() else { return };
        let generation = self.generation.load(Ordering::SeqCst);
        let pool = Arc::downgrade(self);
        let idle = self.idle;
        rt.spawn(async move {
            tokio::time::sleep(idle).await;
            let Some(pool) = pool.upgrade() else { return };
            if pool.generation.load(Ordering::SeqCst) == generation && pool.in_use.load(Ordering::SeqCst) == 0 {
                *pool.browser.lock().await = None;
                pool.helpers.lock().await.clear();
            }
        });
    }
}
