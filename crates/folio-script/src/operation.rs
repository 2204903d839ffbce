//! One operation — a run or a write-time load — from a fresh runtime to its settled result.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use folio_budget::{JobProgress, Rates, RunBudget};
use folio_vfs::{Kind, VPath};
use rquickjs::promise::MaybePromise;
use rquickjs::{AsyncContext, AsyncRuntime, CatchResultExt, CaughtError, Ctx, Function, Module, Object, Value};

use crate::args;
use crate::budget::{Budget, CancelToken, ScriptLimits};
use crate::bytecode;
use crate::console::{BATCH_INTERVAL, OnProgress, Sink, Stream};
use crate::contract::{self, ScriptKind};
use crate::error::ScriptError;
use crate::hints;
use crate::loader::{self, ModuleSource, SharedGraph};
use crate::registry::{CallContext, ModuleRegistry};
use crate::script_fs::ScriptFs;

/// How long a settled run waits for host work on other threads to stop.
const WORK_GRACE: std::time::Duration = std::time::Duration::from_secs(2);
const PRELUDE: &str = include_str!("js/prelude.js");
const STACK_FRAMES: usize = 4;
/// How long before the deadline a run parked on promises or timers stops to name them (the
/// interrupt handler refuses to run JavaScript once the deadline has passed).
const SETTLE_MARGIN: std::time::Duration = std::time::Duration::from_millis(10);
/// How long after the deadline the outer timer stops a run that could not name what it waited for.
const BACKSTOP: std::time::Duration = std::time::Duration::from_millis(250);
/// The loading-error name that carries a budget error naming what was pending.
const PENDING: &str = "pending";
/// The loading-error name that carries an unhandled rejection.
const UNHANDLED: &str = "unhandled";

/// What a script's default export returned.
#[derive(Debug, Clone, PartialEq)]
pub enum RunValue {
    /// `undefined` (including a function that returns nothing).
    Undefined,
    /// A value JSON can carry, as `JSON.stringify` would write it.
    Json(serde_json::Value),
    /// A value JSON cannot carry (a bigint, a cycle, a function), rendered like `util.inspect`.
    Display(String),
}

/// Per-run options.
#[derive(Clone, Default)]
pub struct RunOptions {
    /// Wall-clock budget; clamped to `limits.run_timeout_ms`, which also applies when this is
    /// `None` or 0.
    pub timeout_ms: Option<u64>,
    /// Cancels the run from the host.
    pub cancel: Option<CancelToken>,
    /// Receives console lines in batches while the run goes.
    pub on_progress: Option<OnProgress>,
    /// The id progress lines carry; the engine makes one when absent.
    pub run_id: Option<String>,
    /// This environment's run budget, in place of `limits.run_timeout_ms` (the environment's
    /// own ceiling; `timeout_ms` still lowers it).
    pub ceiling_ms: Option<u64>,
    /// How a person raises the budget in this shell (`--run-budget-ms on folio run`, a
    /// setting), for every refusal that names it.
    pub raise: Option<Arc<str>>,
}

/// The settled run.
#[derive(Debug, Clone, PartialEq)]
pub struct RunResult {
    /// The run's id (given or generated).
    pub run_id: String,
    /// The default export's result, or why there is none.
    pub outcome: Result<RunValue, ScriptError>,
    /// Lines written with `console.log`/`info`/`debug`.
    pub stdout: Vec<String>,
    /// Lines written with `console.warn`/`error`/`trace`.
    pub stderr: Vec<String>,
    /// Host-measured wall-clock milliseconds.
    pub duration_ms: u64,
    /// The advisory argument check: when the script's JSDoc declares the keys of its argument
    /// object and the arguments given miss a required one or add an unknown one, a note saying
    /// so (`note: this script's JSDoc declares args …`) for the reply to show above the result.
    /// It never stopped the run.
    pub arg_note: Option<String>,
}

/// The script engine: the module registry and limits every operation uses. Cheap to share; each
/// operation builds its own QuickJS runtime and context and drops them when it settles.
pub struct Engine {
    pub(crate) registry: Arc<ModuleRegistry>,
    pub(crate) limits: ScriptLimits,
    pub(crate) rates: Arc<Rates>,
    counter: AtomicU64,
    /// Contexts with npm packages already evaluated, each for one run (`spare.rs`).
    spares: Arc<crate::spare::Pool>,
}

pub(crate) enum Mode {
    Run(Option<String>),
    Load,
}

pub(crate) struct Operation {
    pub fs: Arc<dyn ScriptFs>,
    pub path: VPath,
    pub mode: Mode,
    pub overlay: Option<(VPath, String)>,
    pub timeout_ms: Option<u64>,
    pub ceiling_ms: Option<u64>,
    pub raise: Option<Arc<str>>,
    pub cancel: CancelToken,
    pub sink: Arc<Sink>,
    pub run_id: String,
    /// What the loader learns (the sources it loaded, its errors); the caller keeps a handle.
    pub graph: SharedGraph,
}

/// What a successful load learned about the default export.
pub(crate) struct Loaded {
    pub default_name: String,
}

pub(crate) enum Done {
    Ran(RunValue),
    Loaded(Option<Loaded>),
}

impl Engine {
    /// An engine over `registry` (usually [`ModuleRegistry::with_builtins`] plus adapters).
    pub fn new(registry: ModuleRegistry, limits: ScriptLimits) -> Engine {
        Engine {
            registry: Arc::new(registry),
            limits,
            rates: Arc::new(Rates::in_memory()),
            counter: AtomicU64::new(0),
            spares: Arc::default(),
        }
    }

    /// Estimates long native work from `rates` (the host's, kept in its state directory)
    /// instead of rates measured in memory since this engine started.
    pub fn with_rates(mut self, rates: Arc<Rates>) -> Engine {
        self.rates = rates;
        self
    }

    /// The rates long jobs are estimated from.
    pub fn rates(&self) -> &Arc<Rates> {
        &self.rates
    }

    /// How many runs so far started from a spare context, with the npm packages their entry
    /// imports already evaluated (`spare.rs`); the rest evaluated them themselves.
    pub fn runs_from_spares(&self) -> u64 {
        self.spares.taken()
    }

    /// The modules scripts can import.
    pub fn registry(&self) -> &ModuleRegistry {
        &self.registry
    }

    /// The ceilings every operation gets.
    pub fn limits(&self) -> &ScriptLimits {
        &self.limits
    }

    pub(crate) fn next_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
        format!("run_{ms:x}_{n}")
    }

    /// Runs the default export of the script at `path` with `args_json` (`None` = no argument),
    /// awaiting it. Never panics and never hangs past the budget: every failure is in `outcome`.
    pub async fn run(
        &self,
        fs: Arc<dyn ScriptFs>,
        path: &VPath,
        args_json: Option<&str>,
        options: RunOptions,
    ) -> RunResult {
        let started = Instant::now();
        let run_id = options.run_id.clone().unwrap_or_else(|| self.next_id());
        let sink = Arc::new(Sink::new(
            self.limits.console_cap_chars,
            run_id.clone(),
            path.to_string(),
            options.on_progress.clone(),
        ));
        let preflight = if path.extension() != Some("js") {
            Err(ScriptError::not_js(path))
        } else {
            match fs.stat(path) {
                Ok(Some(s)) if s.kind == Kind::File => Ok(()),
                Ok(Some(_)) => Err(ScriptError::NotRunnable {
                    path: path.to_string(),
                    reason: "it is a directory — name the .js file inside it to run".into(),
                }),
                Ok(None) => Err(ScriptError::NotRunnable {
                    path: path.to_string(),
                    reason: "no such script — write it first, or list /scripts to see what exists".into(),
                }),
                Err(e) => Err(ScriptError::NotRunnable { path: path.to_string(), reason: e.to_string() }),
            }
        };
        let graph = SharedGraph::default();
        let outcome = match preflight {
            Err(e) => Err(e),
            Ok(()) => {
                let op = Operation {
                    fs,
                    path: path.clone(),
                    mode: Mode::Run(args_json.map(str::to_owned)),
                    overlay: None,
                    timeout_ms: options.timeout_ms,
                    ceiling_ms: options.ceiling_ms,
                    raise: options.raise.clone(),
                    cancel: options.cancel.clone().unwrap_or_default(),
                    sink: sink.clone(),
                    run_id: run_id.clone(),
                    graph: graph.clone(),
                };
                self.execute(op).await.and_then(|done| match done {
                    Done::Ran(v) => Ok(v),
                    Done::Loaded(_) => Err(ScriptError::Engine("a run finished as a load".into())),
                })
            }
        };
        let duration_ms = started.elapsed().as_millis() as u64;
        // The entry's source as the loader read it, so the check costs no second read.
        let entry = loader::graph(&graph).sources.get(path.as_str()).cloned();
        let arg_note = entry.and_then(|source| args::note(&source, args_json));
        let (stdout, stderr) = sink.take();
        RunResult { run_id, outcome, stdout, stderr, duration_ms, arg_note }
    }

    /// [`Engine::run`] for callers without an async runtime: runs on a fresh thread with its own
    /// current-thread tokio runtime, so it is also safe to call from inside another runtime.
    pub fn run_blocking(
        &self,
        fs: Arc<dyn ScriptFs>,
        path: &VPath,
        args_json: Option<&str>,
        options: RunOptions,
    ) -> RunResult {
        let run_id = options.run_id.clone().unwrap_or_else(|| self.next_id());
        let options = RunOptions { run_id: Some(run_id.clone()), ..options };
        let joined = std::thread::scope(|s| {
            s.spawn(|| match current_thread_runtime() {
                Ok(rt) => {
                    let result = rt.block_on(self.run(fs, path, args_json, options));
                    // Host calls still on the blocking pool are abandoned, not awaited.
                    rt.shutdown_background();
                    result
                }
                Err(e) => RunResult {
                    run_id: run_id.clone(),
                    outcome: Err(e),
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    duration_ms: 0,
                    arg_note: None,
                },
            })
            .join()
        });
        joined.unwrap_or_else(|_| RunResult {
            run_id,
            outcome: Err(ScriptError::Engine("the script thread panicked".into())),
            stdout: Vec::new(),
            stderr: Vec::new(),
            duration_ms: 0,
            arg_note: None,
        })
    }

    pub(crate) async fn execute(&self, op: Operation) -> Result<Done, ScriptError> {
        if op.cancel.is_cancelled() {
            return Err(ScriptError::Cancelled);
        }
        let budget = Budget::new(op.timeout_ms, op.ceiling_ms.unwrap_or(self.limits.run_timeout_ms))
            .with_raise(op.raise.clone());
        let life = CancelToken::new();
        let host_work = crate::registry::Work::default();
        let graph = op.graph.clone();
        let read_only = matches!(op.mode, Mode::Load);
        let run_budget = {
            let (life, host) = (life.clone(), op.cancel.clone());
            let sink = op.sink.clone();
            let b = RunBudget::new(Some(budget.deadline), self.rates.clone())
                .with_cancel(Arc::new(move || life.is_cancelled() || host.is_cancelled()))
                .with_progress(Arc::new(move |p: &JobProgress| sink.push_job(p)));
            match &op.raise {
                Some(raise) => b.with_raise(raise.clone()),
                None => b,
            }
        };
        let call = CallContext {
            run_id: op.run_id.clone(),
            read_only,
            fs: op.fs.clone(),
            cancel: life.clone(),
            budget: run_budget,
            work: host_work.clone(),
        };
        let run_call = call.clone();
        let source =
            ModuleSource { registry: self.registry.clone(), call, overlay: op.overlay.clone(), graph: graph.clone() };
        let engine_err = |e: rquickjs::Error| ScriptError::Engine(e.to_string());
        // An entry that imports npm packages takes a context with them already evaluated.
        let packages = match &op.overlay {
            Some((p, text)) if *p == op.path => crate::node::packages_in(text),
            _ => {
                op.fs.read(&op.path).map(|b| crate::node::packages_in(&String::from_utf8_lossy(&b))).unwrap_or_default()
            }
        };
        let spare = if packages.is_empty() { None } else { self.spares.take(&packages, &self.limits).await };
        let prepared = spare.is_some();
        let (rt, spare_ctx) = match spare {
            Some(s) => (s.runtime, Some(s.context)),
            None => (AsyncRuntime::new().map_err(engine_err)?, None),
        };
        rt.set_memory_limit((self.limits.memory_mb as usize).saturating_mul(1024 * 1024)).await;
        rt.set_max_stack_size((self.limits.stack_kb as usize).saturating_mul(1024)).await;
        let (deadline, interrupt_cancel) = (budget.deadline, op.cancel.clone());
        rt.set_interrupt_handler(Some(Box::new(move || interrupt_cancel.is_cancelled() || Instant::now() >= deadline)))
            .await;
        rt.set_loader(source.clone(), source).await;
        // Every change in a promise's "rejected with no handler" state goes to the host kit.
        rt.set_host_promise_rejection_tracker(Some(Box::new(|ctx, promise, reason, handled| {
            if let Some(kit) = ctx.userdata::<Object<'_>>()
                && let Ok(track) = kit.get::<_, Function>("rejection")
            {
                let _ignored: rquickjs::Result<()> = track.call((promise, reason, handled));
            }
        })))
        .await;
        let ctx = match spare_ctx {
            Some(c) => c,
            None => AsyncContext::full(&rt).await.map_err(engine_err)?,
        };
        let (sink, cancel, limits) = (op.sink.clone(), op.cancel.clone(), self.limits.clone());
        let registry = self.registry.clone();
        let host_cancel = op.cancel.clone();
        let in_budget = budget.clone();
        let work = ctx.async_with(async move |ctx| {
            let result = inside(&ctx, &op, &graph, &run_call, prepared, &in_budget).await;
            result.map_err(|caught| failure(&ctx, caught, &graph, &in_budget, &cancel, &limits, &registry))
        });
        let ticker = async {
            loop {
                tokio::time::sleep(BATCH_INTERVAL).await;
                sink.flush();
            }
        };
        let outcome = tokio::select! {
            r = work => r,
            // The run names what is pending just before the deadline; this is the backstop.
            () = tokio::time::sleep(budget.remaining() + BACKSTOP) => Err(budget.error()),
            () = host_cancel.cancelled() => Err(ScriptError::Cancelled),
            () = ticker => Err(ScriptError::Engine("the progress ticker stopped".into())),
        };
        life.cancel();
        // Freeing a heap that holds a library (exceljs: ~20 MB of objects) takes tens of
        // milliseconds; the run's result does not wait for it. Then the next spare is prepared.
        let dropped = std::thread::Builder::new().name("folio-free".into()).spawn(move || drop((ctx, rt)));
        drop(dropped);
        if !packages.is_empty() {
            self.spares.replenish(&packages, &self.limits);
        }
        // Host work on other threads sees the cancel at its next unit (a page, a child poll);
        // the run returns once it has stopped, so nothing it does lands after the result.
        let grace = Instant::now() + WORK_GRACE;
        while host_work.running() > 0 && Instant::now() < grace {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        // A job of this run could not save the rate it measured: said on the run that hit it.
        for warning in self.rates.take_warnings() {
            sink.push(Stream::Stderr, format!("warning: {warning}"));
        }
        sink.flush();
        outcome
    }
}

pub(crate) fn current_thread_runtime() -> Result<tokio::runtime::Runtime, ScriptError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|e| ScriptError::Engine(format!("cannot start a tokio runtime: {e}")))
}

/// Everything that happens inside the context: the prelude, the module graph, the contract and
/// (in run mode) the call.
async fn inside<'js>(
    ctx: &Ctx<'js>,
    op: &Operation,
    graph: &SharedGraph,
    call: &CallContext,
    prepared: bool,
    budget: &Budget,
) -> Result<Done, CaughtError<'js>> {
    // A spare context already holds the Node layer (with its globals) on its holder object.
    let layer: Object<'js> = match prepared.then(|| loader::node_layer(ctx)).flatten() {
        Some(layer) => layer,
        None => crate::node::install(ctx).catch(ctx)?,
    };
    crate::node::bind(ctx, &layer, call).catch(ctx)?;
    let factory: Function<'js> = bytecode::evaluate(ctx, "folio:prelude", PRELUDE).catch(ctx)?;
    let sink = op.sink.clone();
    let emit = Function::new(ctx.clone(), move |stream: String, line: String| {
        let stream = if stream == "stderr" { Stream::Stderr } else { Stream::Stdout };
        sink.push(stream, line);
    })
    .catch(ctx)?;
    let kit: Object<'js> = factory.call((emit, layer.clone())).catch(ctx)?;
    let globals = ctx.globals();
    globals.set("console", kit.get::<_, Value>("console").catch(ctx)?).catch(ctx)?;
    kit.set("node", layer.clone()).catch(ctx)?;
    // node:util's inspect/format and process.stdout reach the console through the kit.
    layer.set("kit", kit.clone()).catch(ctx)?;
    let _ = ctx.store_userdata(kit.clone());

    loader::graph(graph).static_phase = true;
    let imported = Module::import(ctx, op.path.as_str());
    loader::graph(graph).static_phase = false;
    let ns: Object<'js> = imported.catch(ctx)?.into_future::<Object<'js>>().await.catch(ctx)?;

    let kind = match op.mode {
        Mode::Run(_) => ScriptKind::Entry,
        Mode::Load => ScriptKind::of(&op.path),
    };
    if kind == ScriptKind::Library {
        return Ok(Done::Loaded(None));
    }
    // A contract failure travels as a loading error named "contract"; `failure` turns it back
    // into `ScriptError::Contract`.
    let default: Value<'js> =
        contract::check(&ns).map_err(|e| CaughtError::Error(rquickjs::Error::new_loading_message("contract", e)))?;
    let f: Function<'js> = default.get().catch(ctx)?;
    match &op.mode {
        Mode::Load => {
            let default_name: String = f.get("name").unwrap_or_default();
            Ok(Done::Loaded(Some(Loaded { default_name })))
        }
        Mode::Run(args) => {
            let arg: Value<'js> = match args {
                Some(text) => ctx.json_parse(text.as_str()).catch(ctx)?,
                None => Value::new_undefined(ctx.clone()),
            };
            let ret: MaybePromise<'js> = f.call((arg,)).catch(ctx)?;
            // Like Node's event loop, the run ends when the default export's promise, the host
            // calls and the timers it started have settled — or names them at the deadline.
            let stop =
                tokio::time::Instant::from_std(budget.deadline.checked_sub(SETTLE_MARGIN).unwrap_or(budget.deadline));
            // A rejection still unhandled once the microtasks ran fails the run at once, as an
            // unhandled rejection (or a throw in a timer callback) ends a Node process.
            let fatal: rquickjs::Promise<'js> = kit.get("fatal").catch(ctx)?;
            let mut fatal = std::pin::pin!(fatal.into_future::<String>());
            let main = ret.into_future::<Value<'js>>();
            let waited = tokio::time::timeout_at(stop, async {
                tokio::select! {
                    v = main => Ok(v),
                    text = &mut fatal => Err(text),
                }
            });
            let v: Value<'js> = match waited.await {
                Ok(Ok(v)) => v.catch(ctx)?,
                Ok(Err(text)) => return Err(unhandled_rejection(text.catch(ctx)?)),
                Err(_) => return Err(pending(&layer, &kit, "the default export's promise, which never settled")),
            };
            let settled: Function<'js> = layer.get("settled").catch(ctx)?;
            let idle: rquickjs::Promise<'js> = settled.call(()).catch(ctx)?;
            let idle = idle.into_future::<()>();
            let waited = tokio::time::timeout_at(stop, async {
                tokio::select! {
                    r = idle => Ok(r),
                    text = &mut fatal => Err(text),
                }
            });
            match waited.await {
                Ok(Ok(r)) => r.catch(ctx)?,
                Ok(Err(text)) => return Err(unhandled_rejection(text.catch(ctx)?)),
                Err(_) => return Err(pending(&layer, &kit, "work the default export started and did not await")),
            }
            let unhandled: Function<'js> = kit.get("unhandled").catch(ctx)?;
            let left: Vec<String> = unhandled.call(()).catch(ctx)?;
            if let Some(first) = left.into_iter().next() {
                return Err(unhandled_rejection(first));
            }
            let settle: Function<'js> = kit.get("settle").catch(ctx)?;
            let pair: Vec<String> = settle.call((v,)).catch(ctx)?;
            let (kind, text) = (pair.first().cloned().unwrap_or_default(), pair.get(1).cloned().unwrap_or_default());
            Ok(Done::Ran(match kind.as_str() {
                "undefined" => RunValue::Undefined,
                "json" => RunValue::Json(serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))),
                _ => RunValue::Display(text),
            }))
        }
    }
}

/// The error of a run that left a rejection unhandled (`text` is the reason with its stack).
fn unhandled_rejection<'js>(text: String) -> CaughtError<'js> {
    CaughtError::Error(rquickjs::Error::new_loading_message(
        UNHANDLED,
        format!(
            "unhandled promise rejection, which fails the run as it ends a Node process: {text}\n  hint: await the promise (or add .catch), and catch errors inside timer callbacks, so the error reaches your code"
        ),
    ))
}

/// The error of a run stopped at its deadline while parked: `what` it waited for, then every
/// timer and host call still pending and every rejection nobody handled.
fn pending<'js>(layer: &Object<'js>, kit: &Object<'js>, what: &str) -> CaughtError<'js> {
    let list = |o: &Object<'js>, name: &str| -> Vec<String> {
        o.get::<_, Function<'js>>(name).and_then(|f| f.call::<_, Vec<String>>(())).unwrap_or_default()
    };
    let mut items = vec![what.to_owned()];
    items.extend(list(layer, "pending"));
    items.extend(list(kit, "unhandled").into_iter().map(|e| format!("an unhandled rejection: {e}")));
    CaughtError::Error(rquickjs::Error::new_loading_message(PENDING, items.join("; ")))
}

/// Turns whatever the context threw into the named error the model sees.
fn failure<'js>(
    ctx: &Ctx<'js>,
    caught: CaughtError<'js>,
    graph: &SharedGraph,
    budget: &Budget,
    cancel: &CancelToken,
    limits: &ScriptLimits,
    registry: &ModuleRegistry,
) -> ScriptError {
    if cancel.is_cancelled() {
        return ScriptError::Cancelled;
    }
    let g = loader::graph(graph);
    match caught {
        CaughtError::Error(rquickjs::Error::Loading { name, message }) if name == "contract" => {
            ScriptError::Contract(message.unwrap_or_default())
        }
        CaughtError::Error(rquickjs::Error::Loading { name, message }) if name == PENDING => {
            let base = budget.error().to_string();
            ScriptError::Timeout(format!("{base}. Still pending when it stopped: {}", message.unwrap_or_default()))
        }
        CaughtError::Error(rquickjs::Error::Loading { name, message }) if name == UNHANDLED => {
            ScriptError::Thrown(message.unwrap_or_default())
        }
        CaughtError::Error(e) => ScriptError::Engine(e.to_string()),
        CaughtError::Value(v) if v.is_null() && !g.sources.values().any(|s| s.contains("throw null")) => {
            ScriptError::OutOfMemory { limit_mb: limits.memory_mb }
        }
        CaughtError::Value(v) => {
            let shown = ctx
                .userdata::<Object<'js>>()
                .and_then(|kit| kit.get::<_, Function>("inspect").ok())
                .and_then(|inspect| inspect.call::<_, String>((v,)).ok())
                .unwrap_or_else(|| "a non-Error value".into());
            ScriptError::Thrown(format!(
                "Uncaught {shown} — the script threw a value that is not an Error; throw new Error(\"…\") so the message carries a stack"
            ))
        }
        CaughtError::Exception(e) => {
            let message = e.message().unwrap_or_default();
            let name: String = e.get("name").unwrap_or_else(|_| "Error".into());
            if name == "InternalError" && message == "interrupted" {
                return budget.error();
            }
            if message == "out of memory" {
                return ScriptError::OutOfMemory { limit_mb: limits.memory_mb };
            }
            if let Some(known) = g.errors.iter().find(|k| k.to_string() == message) {
                return known.clone();
            }
            if let Some(missing) = loader::missing_export(&g, &message) {
                return missing;
            }
            let stack = e.stack().unwrap_or_default();
            let mut text = format!("{name}: {message}");
            if name == "TypeError" && message == "not a function" {
                text = match hints::callee(&stack, &g.sources) {
                    Some(callee) => format!(
                        "TypeError: {callee} is not a function — hint: check the name and what `{callee}` holds (typeof, or console.log the object it is read from)"
                    ),
                    None => "TypeError: not a function — hint: the value called is not a function; the stack line below shows where".into(),
                };
            }
            if name == "ReferenceError"
                && let Some(hint) = hints::import_hint(registry, &message)
            {
                text.push_str(&hint);
            }
            if message.contains("Maximum call stack size exceeded") || message.contains("stack overflow") {
                text.push_str(&format!(
                    " — a recursion with no base case, or one deeper than the {}KB stack (limits.stack_kb) allows; make it iterative",
                    limits.stack_kb
                ));
            }
            let frames = stack
                .lines()
                .map(str::trim)
                .filter(|l| {
                    let file = l.trim_start_matches("at ").rsplit(['(', ' ']).next().unwrap_or("");
                    let file = file.trim_end_matches(')');
                    let file = file.rsplitn(3, ':').nth(2).unwrap_or("");
                    g.sources.contains_key(file)
                })
                .take(STACK_FRAMES);
            for frame in frames {
                text.push_str("\n  ");
                text.push_str(frame);
            }
            ScriptError::Thrown(text)
        }
    }
}
