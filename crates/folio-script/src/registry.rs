//! The seam through which crates add `env:<name>` modules: a [`ModuleRegistry`] of
//! [`NativeModule`]s. The builtins (`env:fs`, `env:std`, `env:assert`) are registered through it
//! like any adapter (`ModuleRegistry::with_builtins` lives beside them, in `builtins/`, so this
//! module does not import the modules that import it).
//!
//! A module is a set of host functions plus, optionally, a JavaScript "api" layer that shapes
//! them into the namespace a script sees (`env:std` is written almost entirely in that layer).
//! Values cross the boundary as data only — JSON, or bytes for typed arrays — so nothing a host
//! function returns can hand a script a host object, and the script always receives values built
//! in its own realm.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use crate::budget::CancelToken;
use crate::script_fs::ScriptFs;

/// A value crossing between a script and a host function.
#[derive(Debug, Clone, PartialEq)]
pub enum HostValue {
    /// JavaScript `undefined` (also what a function or symbol argument becomes).
    Undefined,
    /// Anything JSON can carry, after `JSON.stringify` semantics.
    Json(serde_json::Value),
    /// Bytes: a typed array or `ArrayBuffer` going in, a `Uint8Array` coming out.
    Bytes(Vec<u8>),
}

impl HostValue {
    /// The value as a string, when it is a JSON string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            HostValue::Json(serde_json::Value::String(s)) => Some(s),
            _ => None,
        }
    }
}

/// What a host function knows about the call: which run made it, whether the run is a
/// write-time validation (mutations must refuse), the file system the run may touch, and the
/// run's cancellation token (which also fires when the run ends).
#[derive(Clone)]
pub struct CallContext {
    /// The run id given by the host, or the engine's own.
    pub run_id: String,
    /// True during write-time validation: host functions with effects must refuse.
    pub read_only: bool,
    /// The file system of this operation (the gateway in the environment; a read-only view
    /// during validation).
    pub fs: Arc<dyn ScriptFs>,
    /// Cancelled when the host cancels the run or the run ends for any reason.
    pub cancel: CancelToken,
    /// The run's budget: long native work starts a job on it (estimate, refusal, progress,
    /// cancel per unit, child-process limits).
    pub budget: folio_budget::RunBudget,
    /// Work a host function handed to another thread: the run does not return until it has
    /// stopped (within a grace period), so nothing it does lands after the run returned.
    pub work: Work,
}

/// Counts host work still running on other threads for one run.
#[derive(Clone, Default)]
pub struct Work(Arc<std::sync::atomic::AtomicUsize>);

/// Held while a piece of host work runs; dropping it says the work has stopped.
pub struct WorkGuard(Arc<std::sync::atomic::AtomicUsize>);

impl Work {
    /// Marks work as running until the guard is dropped (move the guard into the thread).
    pub fn begin(&self) -> WorkGuard {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        WorkGuard(self.0.clone())
    }

    /// Work still running.
    pub fn running(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}

impl Drop for WorkGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The future an asynchronous host function returns.
pub type HostFuture = Pin<Box<dyn Future<Output = Result<HostValue, String>> + Send>>;
/// A synchronous host function: arguments in, a value or an error message out.
pub type SyncHostFn = Arc<dyn Fn(Vec<HostValue>, &CallContext) -> Result<HostValue, String> + Send + Sync>;
/// An asynchronous host function; the script sees a promise.
pub type AsyncHostFn = Arc<dyn Fn(Vec<HostValue>, CallContext) -> HostFuture + Send + Sync>;

/// How a host function is called.
#[derive(Clone)]
pub enum HostFn {
    /// Runs on the script's thread and returns before the script continues.
    Sync(SyncHostFn),
    /// Returns a promise; the future runs on the operation's tokio runtime.
    Async(AsyncHostFn),
}

/// One function of a module. An `Err(message)` reaches the script as an `Error` whose message is
/// `env:<module>.<name>: <message>`.
#[derive(Clone)]
pub struct NativeFunction {
    /// The binding's name (a JavaScript identifier).
    pub name: String,
    /// The implementation.
    pub call: HostFn,
}

/// An `env:<name>` module.
#[derive(Clone, Default)]
pub struct NativeModule {
    /// The name without `env:` (`fs`, `render`).
    pub name: String,
    /// One line for catalogues.
    pub description: String,
    /// The module's version, shown in orientation and compatibility checks.
    pub version: String,
    /// TypeScript declarations documenting every binding.
    pub types_dts: String,
    /// Longer documentation (Markdown).
    pub docs: String,
    /// The host functions.
    pub functions: Vec<NativeFunction>,
    /// Optional JavaScript source of a function expression `(natives) => api` that shapes the
    /// host functions (and any pure JavaScript) into the namespace object. Without it the
    /// namespace is the host functions themselves.
    pub js_api: Option<String>,
}

/// Why a module could not be registered. Raised at startup by the crate adding the module; the
/// author fixes the definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegistryError {
    /// The name is taken (the builtins `fs`, `std` and `assert` always are).
    #[error("env module name \"{0}\" is already registered — pick another name for the adapter")]
    Duplicate(String),
    /// The name or a binding is not usable from an import statement.
    #[error("{0}")]
    Invalid(String),
}

/// The modules available to scripts. Build it once (builtins first) and share it.
#[derive(Clone, Default)]
pub struct ModuleRegistry {
    modules: Vec<Arc<NativeModule>>,
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

impl ModuleRegistry {
    /// An empty registry (scripts can import no `env:` module).
    pub fn empty() -> ModuleRegistry {
        ModuleRegistry::default()
    }

    /// Appends the builtins, which need none of [`ModuleRegistry::register_native`]'s checks.
    pub(crate) fn push_builtins(&mut self, modules: impl IntoIterator<Item = Arc<NativeModule>>) {
        self.modules.extend(modules);
    }

    /// Adds a module. Refuses a taken name, a name that is not a lowercase identifier-like word,
    /// and bindings that are not identifiers (or are called `default`).
    pub fn register_native(&mut self, module: NativeModule) -> Result<(), RegistryError> {
        let name_ok = !module.name.is_empty()
            && module.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !name_ok {
            return Err(RegistryError::Invalid(format!(
                "env module name \"{}\" must be lowercase letters, digits, - or _ (like \"render\"), so scripts can write import … from 'env:{}'",
                module.name, module.name
            )));
        }
        if self.get(&module.name).is_some() {
            return Err(RegistryError::Duplicate(module.name));
        }
        for f in &module.functions {
            if !is_identifier(&f.name) || f.name == "default" {
                return Err(RegistryError::Invalid(format!(
                    "env:{}: binding \"{}\" is not usable from a script — rename it to a JavaScript identifier other than \"default\"",
                    module.name, f.name
                )));
            }
        }
        self.modules.push(Arc::new(module));
        Ok(())
    }

    /// The module called `name` (without `env:`).
    pub fn get(&self, name: &str) -> Option<&Arc<NativeModule>> {
        self.modules.iter().find(|m| m.name == name)
    }

    /// Every module, in registration order.
    pub fn modules(&self) -> &[Arc<NativeModule>] {
        &self.modules
    }

    /// `env:fs, env:std, …` — the list error messages show.
    pub fn catalogue(&self) -> String {
        if self.modules.is_empty() {
            return "(none)".into();
        }
        self.modules.iter().map(|m| format!("env:{}", m.name)).collect::<Vec<_>>().join(", ")
    }
}
