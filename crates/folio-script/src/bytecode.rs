//! JavaScript the host evaluates in every context, compiled once per process.
//!
//! Every run gets a fresh context, so whatever JavaScript the host needs there — the prelude
//! (the console, `util.inspect`, the namespace tagging) and the `js_api` layer of each `env:`
//! module a script imports — would otherwise be parsed and compiled again on every run. For the
//! 18 KB prelude that compile was about 1 ms, most of a trivial run. Instead, each such source is
//! wrapped as a tiny ES module (`export default <expression>;`), compiled once in a throwaway
//! runtime, serialised with QuickJS's own bytecode writer, and kept in a process-wide cache;
//! each context then reads the bytecode back, which costs a fraction of a compile.
//!
//! Reading bytecode is the one `unsafe` call in the crate: QuickJS trusts bytecode not to be
//! malformed. The bytes handed to it only ever come from [`compile`] in this same process and
//! this same QuickJS build — never from disk, from a script or from any other input — so they
//! are exactly what QuickJS itself wrote.
//!
//! Because the wrapper is a module, the expression is evaluated as strict-mode code, as it would
//! be in any ES module; the prelude and the builtins declare `'use strict'` anyway, and vendored
//! libraries are ES modules to begin with.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rquickjs::module::{Declared, WriteOptions};
use rquickjs::{CatchResultExt, Context, Ctx, Module, Runtime, Value};

/// Compiled sources by their text. The set is small and fixed (the prelude and one layer per
/// registered module), so entries are never evicted.
static CACHE: OnceLock<Mutex<HashMap<String, Arc<[u8]>>>> = OnceLock::new();

/// Evaluates the JavaScript expression `expression` in `ctx` and returns its value, compiling it
/// at most once per process. `name` labels the module in stack traces (`folio:prelude`); it must
/// not be something a script could import (bare names are refused by the resolver).
pub(crate) fn evaluate<'js, T: rquickjs::FromJs<'js>>(
    ctx: &Ctx<'js>,
    name: &str,
    expression: &str,
) -> rquickjs::Result<T> {
    let bytes = cached(name, expression).map_err(|message| rquickjs::Error::new_loading_message(name, message))?;
    let declared = load(ctx, &bytes)?;
    let (evaluated, promise) = declared.eval()?;
    // The wrapper has no top-level await, so evaluation has already finished; a throw during it
    // surfaces here as the promise's rejection (the job queue is not driven from here).
    if let Some(Err(e)) = promise.result::<Value<'js>>() {
        return Err(e);
    }
    evaluated.get("default")
}

/// Whole ES modules (the vendored npm packages) by module name, compiled on first use.
static MODULES: OnceLock<Mutex<HashMap<String, Arc<[u8]>>>> = OnceLock::new();

/// Declares the ES module `source` under `name` in `ctx` from its bytecode, compiling it at most
/// once per process. `name` must be unique per source (a package's npm name); its imports are
/// resolved by the context's loader when the module is linked.
pub(crate) fn module<'js>(ctx: &Ctx<'js>, name: &str, source: &str) -> rquickjs::Result<Module<'js, Declared>> {
    let cache = MODULES.get_or_init(Mutex::default);
    let hit = cache.lock().unwrap_or_else(|p| p.into_inner()).get(name).cloned();
    let bytes = match hit {
        Some(b) => b,
        None => {
            let bytes: Arc<[u8]> =
                compile_module(name, source).map_err(|m| rquickjs::Error::new_loading_message(name, m))?.into();
            cache.lock().unwrap_or_else(|p| p.into_inner()).insert(name.to_owned(), bytes.clone());
            bytes
        }
    };
    load(ctx, &bytes)
}

/// Compiles the module `source` named `name` in a throwaway runtime and serialises it.
fn compile_module(name: &str, source: &str) -> Result<Vec<u8>, String> {
    let runtime = Runtime::new().map_err(|e| e.to_string())?;
    // quickjs-ng loads a module's static imports while compiling it; they are never evaluated
    // here, so each is an empty stand-in (the run's loader provides the real one).
    runtime.set_loader(Stubs, Stubs);
    let context = Context::full(&runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| {
        let declared = Module::declare(ctx.clone(), name, source).catch(&ctx).map_err(|e| e.to_string())?;
        declared.write(WriteOptions::default()).catch(&ctx).map_err(|e| e.to_string())
    })
}

/// Resolves every import to an empty module, for [`compile_module`].
struct Stubs;

impl rquickjs::loader::Resolver for Stubs {
    fn resolve<'js>(
        &mut self,
        _ctx: &Ctx<'js>,
        _base: &str,
        name: &str,
        _attributes: Option<rquickjs::loader::ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        Ok(name.to_owned())
    }
}

impl rquickjs::loader::Loader for Stubs {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _attributes: Option<rquickjs::loader::ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js, Declared>> {
        Module::declare(ctx.clone(), name, "export default undefined;")
    }
}

/// The bytecode of `expression`, compiling it on first use.
fn cached(name: &str, expression: &str) -> Result<Arc<[u8]>, String> {
    let cache = CACHE.get_or_init(Mutex::default);
    if let Some(bytes) = cache.lock().unwrap_or_else(|p| p.into_inner()).get(expression) {
        return Ok(bytes.clone());
    }
    // Compiled outside the lock: two threads racing on a cold entry both compile, and the second
    // insert replaces an identical value.
    let bytes: Arc<[u8]> = compile(name, expression)?.into();
    cache.lock().unwrap_or_else(|p| p.into_inner()).insert(expression.to_owned(), bytes.clone());
    Ok(bytes)
}

/// Compiles `export default (<expression>);` in a throwaway runtime and serialises it. A syntax
/// error comes back as QuickJS's message with its location.
pub(crate) fn compile(name: &str, expression: &str) -> Result<Vec<u8>, String> {
    let runtime = Runtime::new().map_err(|e| e.to_string())?;
    let context = Context::full(&runtime).map_err(|e| e.to_string())?;
    context.with(|ctx| {
        // The expression starts on the first line, so its line numbers in stack traces are the
        // source's own; the closing parenthesis goes on a line of its own, so a trailing line
        // comment cannot swallow it.
        let source = format!("export default ({expression}\n);\n");
        let declared = Module::declare(ctx.clone(), name, source).catch(&ctx).map_err(|e| e.to_string())?;
        declared.write(WriteOptions::default()).catch(&ctx).map_err(|e| e.to_string())
    })
}

/// Reads bytecode that [`compile`] wrote back into a module of `ctx`.
#[allow(unsafe_code)]
fn load<'js>(ctx: &Ctx<'js>, bytes: &[u8]) -> rquickjs::Result<Module<'js, Declared>> {
    // SAFETY: `Module::load` requires valid QuickJS bytecode. Every byte slice reaching this
    // function comes from `cached`, whose only producer is `compile`: QuickJS's own
    // `JS_WriteObject` output for a module, made in this process by the same linked QuickJS
    // build (so the bytecode version and layout match), never read from disk or from any input a
    // script or a user controls. The reader copies what it keeps (`JS_READ_OBJ_ROM_DATA` is a
    // no-op in quickjs-ng), so the slice only needs to live for this call.
    unsafe { Module::load(ctx.clone(), bytes) }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn a_cached_expression_evaluates_in_each_fresh_context() {
        for _ in 0..3 {
            let runtime = Runtime::new().unwrap();
            let context = Context::full(&runtime).unwrap();
            let got: i32 = context.with(|ctx| {
                let f: rquickjs::Function = evaluate(&ctx, "folio:test-add", "(a, b) => a + b").unwrap();
                f.call((2, 3)).unwrap()
            });
            assert_eq!(got, 5);
        }
    }

    #[test]
    fn the_wrapped_expression_is_strict_and_a_syntax_error_names_the_module() {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let strict: bool =
                evaluate(&ctx, "folio:test-strict", "(function () { return this === undefined; })()").unwrap();
            assert!(strict);
        });
        let err = compile("folio:test-broken", "function (").unwrap_err();
        assert!(err.contains("folio:test-broken"), "{err}");
    }
}
