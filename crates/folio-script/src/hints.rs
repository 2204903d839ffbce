//! Hints appended to the first line of a failed run's error: a bare name
//! that one of the registered `env:` modules exports gets the import line that brings it in —
//! `readFile is not defined — did you mean to import it? import { readFile } from 'env:fs'`.
//!
//! The hint is offered only when a module really exports the name. A module's export names are
//! its host functions plus whatever its `js_api` layer returns, so modules with a layer are
//! evaluated once, on this error path only, in a throwaway runtime with inert stand-ins for the
//! host functions.

use rquickjs::{CatchResultExt, Context, Function, Object, Runtime};

use crate::bytecode;
use crate::registry::{ModuleRegistry, NativeModule};

/// The names `module`'s namespace has, or `None` when its layer cannot be evaluated here.
fn export_names(module: &NativeModule) -> Option<Vec<String>> {
    let Some(src) = &module.js_api else {
        return Some(module.functions.iter().map(|f| f.name.clone()).collect());
    };
    let runtime = Runtime::new().ok()?;
    let context = Context::full(&runtime).ok()?;
    context.with(|ctx| {
        let natives = Object::new(ctx.clone()).ok()?;
        for f in &module.functions {
            let inert = Function::new(ctx.clone(), || ()).ok()?;
            natives.set(f.name.as_str(), inert).ok()?;
        }
        let factory: Function<'_> =
            bytecode::evaluate(&ctx, &format!("folio:api/{}", module.name), src).catch(&ctx).ok()?;
        let api: Object<'_> = factory.call((natives,)).catch(&ctx).ok()?;
        api.keys::<String>().collect::<rquickjs::Result<Vec<_>>>().ok()
    })
}

/// The hint for `message` (a `ReferenceError`'s), or `None`.
pub(crate) fn import_hint(registry: &ModuleRegistry, message: &str) -> Option<String> {
    let name = message.strip_suffix(" is not defined")?;
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$') {
        return None;
    }
    let owners: Vec<String> = registry
        .modules()
        .iter()
        .filter(|m| export_names(m).is_some_and(|names| names.iter().any(|n| n == name)))
        .map(|m| format!("import {{ {name} }} from 'env:{}'", m.name))
        .collect();
    if owners.is_empty() {
        return None;
    }
    Some(format!(" — did you mean to import it? {}", owners.join(" or ")))
}
