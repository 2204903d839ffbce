//! Spare contexts: a fresh runtime with a set of npm packages already evaluated, prepared off the
//! run's critical path and used by exactly one run.
//!
//! Every run starts from a fresh context, and bytecode is cached, but evaluating a library's top
//! level is not free (exceljs: ~250 ms in QuickJS), and QuickJS cannot snapshot a heap. So when a
//! run's entry imports packages, the engine looks for a spare prepared with exactly that set: a
//! runtime in which only the Node layer and those packages have been evaluated, by a background
//! thread, from nothing. The run takes it (it is removed from the pool, never handed out twice),
//! installs its prelude, binds its file system and loader, and imports the entry; the packages'
//! modules are found already evaluated. When the run ends, its runtime is freed on another
//! thread and a replacement is prepared for the next run (not during the run, which would compete
//! with it for the CPU).
//!
//! Freshness holds because a spare has never run a script: what a run does to globals,
//! prototypes or a library's objects dies with its runtime. When no spare is ready (the first run
//! with a set, or runs closer together than a preparation), the run evaluates the packages itself,
//! as any import would, and the cost shows in its duration.
//!
//! Bounds: one spare per set, at most [`MAX_SETS`] sets per engine (a set beyond that is simply
//! evaluated per run); a spare holds a library's heap (exceljs ~20 MB) under the run's memory cap.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rquickjs::{AsyncContext, AsyncRuntime, CatchResultExt, Module, Object};

use crate::budget::ScriptLimits;
use crate::loader::PackageSource;

/// How many different package sets an engine keeps a spare for.
const MAX_SETS: usize = 4;
/// How long a run waits for a spare being prepared before evaluating the packages itself.
const WAIT: Duration = Duration::from_millis(1_500);

/// A prepared runtime and context.
pub(crate) struct Spare {
    pub runtime: AsyncRuntime,
    pub context: AsyncContext,
}

#[derive(Default)]
struct Slot {
    ready: Option<Spare>,
    building: bool,
}

/// The spares of one engine.
#[derive(Default)]
pub(crate) struct Pool {
    slots: Mutex<HashMap<Vec<&'static str>, Slot>>,
    /// Spares handed to runs so far.
    taken: std::sync::atomic::AtomicU64,
}

impl Pool {
    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<&'static str>, Slot>> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes the spare prepared with `packages`, waiting briefly for one being prepared, and
    /// starts preparing the next. `None`: the run evaluates the packages itself.
    pub(crate) async fn take(self: &Arc<Self>, packages: &[&'static str], limits: &ScriptLimits) -> Option<Spare> {
        let deadline = Instant::now() + WAIT;
        loop {
            let (taken, build, wait) = {
                let mut slots = self.slots();
                let known = slots.contains_key(packages);
                if !known && slots.len() >= MAX_SETS {
                    return None;
                }
                let slot = slots.entry(packages.to_vec()).or_default();
                match slot.ready.take() {
                    // The replacement is prepared when the run ends (`replenish`), so it does not
                    // compete with the run for the CPU.
                    Some(spare) => (Some(spare), false, false),
                    None if slot.building => (None, false, true),
                    None => {
                        slot.building = true;
                        (None, true, false)
                    }
                }
            };
            if build {
                self.prepare(packages.to_vec(), limits.clone());
            }
            if taken.is_some() {
                self.taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            if !wait || taken.is_some() || Instant::now() >= deadline {
                return taken;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// How many runs have started from a spare.
    pub(crate) fn taken(&self) -> u64 {
        self.taken.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// After a run with `packages`: prepares the next spare unless one is ready or on its way.
    pub(crate) fn replenish(self: &Arc<Self>, packages: &[&'static str], limits: &ScriptLimits) {
        let start = {
            let mut slots = self.slots();
            match slots.get_mut(packages) {
                Some(slot) if slot.ready.is_none() && !slot.building => {
                    slot.building = true;
                    true
                }
                _ => false,
            }
        };
        if start {
            self.prepare(packages.to_vec(), limits.clone());
        }
    }

    /// Prepares a spare with `packages` on a background thread.
    fn prepare(self: &Arc<Self>, packages: Vec<&'static str>, limits: ScriptLimits) {
        let pool = Arc::downgrade(self);
        let key = packages.clone();
        let spawned = std::thread::Builder::new().name("folio-spare".into()).spawn(move || {
            let spare = tokio::runtime::Builder::new_current_thread()
                .build()
                .ok()
                .and_then(|rt| rt.block_on(build(&packages, &limits)).ok());
            if let Some(pool) = pool.upgrade() {
                let mut slots = pool.slots();
                let slot = slots.entry(packages).or_default();
                slot.building = false;
                slot.ready = spare;
            }
        });
        if spawned.is_err() {
            // No thread: the next run with this set evaluates it itself and asks again.
            if let Some(slot) = self.slots().get_mut(&key) {
                slot.building = false;
            }
        }
    }
}

/// A fresh runtime with the Node layer and `packages` evaluated, nothing else.
pub(crate) async fn build(packages: &[&'static str], limits: &ScriptLimits) -> Result<Spare, String> {
    let runtime = AsyncRuntime::new().map_err(|e| e.to_string())?;
    runtime.set_memory_limit((limits.memory_mb as usize).saturating_mul(1024 * 1024)).await;
    runtime.set_max_stack_size((limits.stack_kb as usize).saturating_mul(1024)).await;
    runtime.set_loader(PackageSource, PackageSource).await;
    let context = AsyncContext::full(&runtime).await.map_err(|e| e.to_string())?;
    let names: Vec<&'static str> = packages.to_vec();
    let prepared = context
        .async_with(async move |ctx| {
            let result: Result<(), String> = async {
                let layer = crate::node::install(&ctx).catch(&ctx).map_err(|e| e.to_string())?;
                let holder = Object::new(ctx.clone()).map_err(|e| e.to_string())?;
                holder.set("node", layer).map_err(|e| e.to_string())?;
                let _ = ctx.store_userdata(holder);
                for name in names {
                    let promise = Module::import(&ctx, name).catch(&ctx).map_err(|e| e.to_string())?;
                    promise.into_future::<Object>().await.catch(&ctx).map_err(|e| e.to_string())?;
                }
                Ok(())
            }
            .await;
            result
        })
        .await;
    prepared?;
    Ok(Spare { runtime, context })
}
