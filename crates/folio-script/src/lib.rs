//! `folio-script`: the only crate that knows QuickJS. It loads, validates and runs the
//! JavaScript modules an agent writes, in a sandbox that reaches the person's folder only through
//! injected `env:*` modules.
//!
//! # Design
//!
//! Every operation — a run, or a write-time load — gets a fresh QuickJS runtime and context
//! (rquickjs 0.14 over quickjs-ng), and drops them when it settles. A fresh runtime costs well
//! under a millisecond, so there is no pool to poison and nothing one run does to globals or
//! prototypes can be seen by the next. The context holds the standard intrinsics, a frozen
//! `console`, the web platform a script written from MDN expects (`web.rs`: `TextDecoder` over
//! encoding_rs, `URL`, `crypto`, `structuredClone`, `atob`/`btoa`, `AbortController`), `Intl`
//! over ICU4X and its compiled CLDR data (`intl.rs`, `js/intl.js`; default locale `en-US`), the Node
//! stand-ins scoped to the tree (`node.rs`: `fs`, `process` with an empty `env` and `cwd()` `/`,
//! streams, events), and nothing else: no `require`, no network, no host file system, no QuickJS
//! `std`/`os` modules. Because the host side is Rust, no host-realm object
//! exists for a script to reach; values cross as data (JSON, or bytes) and are rebuilt inside the
//! script's realm.
//!
//! - [`Engine`] holds the [`ModuleRegistry`] and the [`ScriptLimits`]. [`Engine::run`] awaits a
//!   script's default export with JSON arguments and returns a [`RunResult`];
//!   [`Engine::validate`] is the gateway's write-time hook, returning a [`Validation`] with the
//!   `.d.ts` text and the one-liner `ls` shows.
//! - Modules resolve from `env:<name>` (the registry) and from VFS paths (`./x.js`, `../x`,
//!   `/scripts/lib/x.js`; `.js` is appended when missing), read through a [`ScriptFs`], and
//!   from the vendored npm names ([`node::PACKAGES`], [`node::BUILTINS`]). Other bare
//!   specifiers fail listing what can be imported; static import cycles fail naming the cycle (see
//!   `loader.rs` for why they are refused although QuickJS could link them); syntax errors name
//!   `path:line:column` and show the line. A named import a module lacks names the module, the
//!   binding and what the module does export; a bare name some `env:` module exports (`readFile
//!   is not defined`) gets the import line as a hint (`hints.rs`).
//! - `env:*` modules are [`NativeModule`]s: host functions plus an optional JavaScript layer that
//!   shapes them. The builtins `env:fs`, `env:std` and `env:assert` are registered through the
//!   same seam adapters use. Namespaces are frozen, every binding tags its errors
//!   `env:<module>.<function>: …` (a library's constructors still work with `new`), and reading
//!   a name a namespace lacks throws `no such export "x" on env:m — available: …`.
//! - Before a run, the arguments are compared with the keys the script's JSDoc declares; a
//!   mismatch becomes [`RunResult::arg_note`], advisory only (`args.rs`).
//! - Per-run state reaches host functions through closures that capture it (an
//!   [`registry::CallContext`]), and a module's namespace reaches its synthesised module body
//!   through that module's private `import.meta`.
//! - JavaScript the host evaluates in every context (the prelude, each module's `js_api`, a
//!   vendored library) is compiled to QuickJS bytecode once per process and read back into each
//!   fresh context (`bytecode.rs`), so a trivial run does not pay an 18 KB compile. Reading that
//!   bytecode is one of the crate's two `unsafe` calls; the bytes are QuickJS's own output from
//!   the same process, never input. The other copies a `Uint8Array`'s bytes out for `fs`
//!   (`node.rs`), with no JavaScript running while the slice lives.
//! - Console output is formatted in the context by a prelude (Node's `util.format` and
//!   `util.inspect` rules: `step 1 { deep: true }`), captured up to
//!   [`ScriptLimits::console_cap_chars`] with one truncation marker, and streamed to the host in
//!   batches of at most 50 lines or 120 ms, tagged with the run id.
//!
//! # Budgets
//!
//! The wall clock is enforced twice: QuickJS's interrupt handler stops running bytecode
//! (including a `try`-wrapped loop, a microtask spin and regex backtracking), and an outer tokio
//! timer stops a script parked on a host promise or a promise that never settles — the interrupt
//! handler never runs then. Both end the run at the budget with the same message, which names the
//! budget that applied (`limits.run_timeout_ms`, or the run's own `timeout_ms` and the ceiling).
//! A memory ceiling and a stack ceiling apply per runtime; running out of memory is reported as
//! such even when QuickJS, out of memory while building the error, throws `null`. Cancellation
//! through a [`CancelToken`] stops a run within the interrupt interval, or at once while it
//! awaits the host; host calls made after a run ended are refused before anything is invoked.
//!
//! # Decisions
//!
//! - **A run ends as a Node process does.** `setTimeout`, `setInterval`, `setImmediate` and
//!   `queueMicrotask` follow the real clock, and a run ends when the default export's promise,
//!   the `env:` host calls in flight and the referenced timers have all settled — not when the
//!   default export returns — so a write a script started without `await` still lands. An
//!   `unref()`ed timer does not hold the run. A run still waiting at its deadline is stopped with
//!   the budget error and a list of what was pending (the promise, each timer with its delay and
//!   function, each host call); an unhandled rejection fails the run with its stack.
//! - **The npm route.** exceljs, docx, pdf-lib, @pdf-lib/fontkit and pptxgenjs are imported by
//!   their npm names, with Node's `fs`, `fs/promises`, `path` and `buffer` and the globals
//!   `Buffer`, `TextEncoder`/`TextDecoder` answered by the sandbox and scoped to the tree
//!   (`node.rs`). A run whose entry imports packages takes a context prepared with them off the
//!   critical path and used once (`spare.rs`), so the import costs milliseconds while every run
//!   still starts from a context no script has touched.
//! - **A script's `undefined` result is [`RunValue::Undefined`]**, not `null`; values JSON
//!   cannot carry (bigints, cycles, functions) come back as an inspect rendering
//!   ([`RunValue::Display`]) instead of being silently nulled.
//! - **Native ESM, no lexical transform.** QuickJS parses modules itself, so `import.meta` is
//!   an ordinary (empty) object, exports are live bindings and nothing is deep-frozen after
//!   evaluation — unlike the reference's transform.
//! - **`.d.ts` from a real parser.** The module text is parsed with oxc (`dts.rs`), so every
//!   default-export form (a declaration, an arrow, `export default name`, `export { f as default
//!   }`) and every parameter shape (patterns, defaults, rest) is read as JavaScript, not scanned;
//!   QuickJS only contributes the default export's run-time name.
//!
//! # Limits
//!
//! The sandbox is a discipline boundary for model-written code, not a hostile-code boundary:
//! QuickJS is memory-safe in practice but not hardened like a browser engine. `eval` and
//! `Function` remain (removing the `Eval` intrinsic disables compiling modules too); they reach
//! nothing the script could not reach anyway. `Date.now()`, `performance.now()` and
//! `Math.random()` are real, so runs are not bit-reproducible.

mod args;
pub mod blocking;
mod bridge;
mod budget;
pub mod builtins;
mod bytecode;
mod console;
mod contract;
mod dts;
mod error;
mod hints;
mod imports;
mod intl;
mod jsdoc;
mod library;
mod loader;
pub mod node;
mod operation;
pub mod registry;
mod script_fs;
mod skill;
mod spare;
mod validate;
mod web;

pub use budget::{CancelToken, ScriptLimits};
pub use console::{OnProgress, ProgressLine, Stream, TRUNCATED};
pub use contract::{ScriptKind, Validation, dts_path};
pub use dts::{Derived, derive as derive_declaration};
pub use error::{FsError, ScriptError};
pub use imports::{Import, ImportsError, imports};
pub use library::{LibraryError, zip_module, zip_module_deferred};
pub use operation::{Engine, RunOptions, RunResult, RunValue};
pub use registry::{
    CallContext, HostFn, HostFuture, HostValue, ModuleRegistry, NativeFunction, NativeModule, RegistryError, Work,
    WorkGuard,
};
pub use script_fs::{ScriptFs, TreeFs};
pub use skill::{LIBRARIES_SKILL, NODE_DTS};
