//! Module resolution and loading for one operation.
//!
//! Specifiers resolve three ways: `env:<name>` to a registered module, `./`, `../` and `/` to VFS
//! paths (with `.js` appended when the bare path does not exist), and anything else is refused
//! with the list of `env:` modules. Sources come from the operation's [`ScriptFs`], with the
//! proposed text of a write laid over it during validation.
//!
//! Static import cycles are refused. QuickJS would link them per ESM semantics, but a cycle in
//! agent-written scripts is nearly always a mistake whose symptom (a binding that is `undefined`
//! or in its temporal dead zone during evaluation) is far from its cause. QuickJS resolves a
//! module's static imports depth-first, right after loading it, and all before any module body
//! runs; the resolver mirrors that walk as a stack, so an import of a module still on the stack
//! is a cycle, reported with its path. Dynamic `import()` runs later, from the job queue, and
//! keeps ESM semantics (a module may import itself to get its namespace).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};

use folio_vfs::{Kind, VPath};
use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::{Ctx, Exception, Function, Module, Object, Value, module::Declared};

use crate::bridge;
use crate::bytecode;
use crate::dts;
use crate::error::ScriptError;
use crate::registry::{CallContext, ModuleRegistry};
use crate::script_fs::ScriptFs;

/// What the loader learned, shared with the operation that owns it.
#[derive(Default)]
pub(crate) struct Graph {
    /// True while the entry module's static graph is being resolved.
    pub static_phase: bool,
    stack: Vec<String>,
    /// Source text of every user module loaded, by path.
    pub sources: BTreeMap<String, String>,
    /// Structured errors raised while loading; matched by message when the import fails.
    pub errors: Vec<ScriptError>,
    /// The export names of each `env:` module loaded, for the missing-export message.
    pub env_exports: BTreeMap<String, Vec<String>>,
}

pub(crate) type SharedGraph = Arc<Mutex<Graph>>;

pub(crate) fn graph(shared: &SharedGraph) -> MutexGuard<'_, Graph> {
    shared.lock().unwrap_or_else(|p| p.into_inner())
}

/// The resolver and loader of one operation (QuickJS wants two objects; both hold this).
#[derive(Clone)]
pub(crate) struct ModuleSource {
    pub registry: Arc<ModuleRegistry>,
    pub call: CallContext,
    pub overlay: Option<(VPath, String)>,
    pub graph: SharedGraph,
}

impl ModuleSource {
    fn fs(&self) -> &dyn ScriptFs {
        self.call.fs.as_ref()
    }

    fn is_file(&self, path: &VPath) -> bool {
        if self.overlay.as_ref().is_some_and(|(p, _)| p == path) {
            return true;
        }
        matches!(self.fs().stat(path), Ok(Some(s)) if s.kind == Kind::File)
    }

    fn read(&self, path: &VPath) -> Result<String, String> {
        if let Some((p, text)) = &self.overlay
            && p == path
        {
            return Ok(text.clone());
        }
        let bytes = self.fs().read(path)?;
        String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text, so it cannot be a module"))
    }

    fn fail<'js>(&self, ctx: &Ctx<'js>, err: ScriptError) -> rquickjs::Error {
        let text = err.to_string();
        graph(&self.graph).errors.push(err);
        Exception::throw_message(ctx, &text)
    }

    fn resolve_path(&self, base: &str, name: &str) -> Result<VPath, String> {
        let importer = VPath::parse(base).unwrap_or_else(|_| VPath::root());
        let target = importer.resolve(name).map_err(|e| format!("cannot import \"{name}\" from {base}: {e}"))?;
        if target.is_under(&VPath::parse("/std").map_err(|e| e.to_string())?) {
            return Err(format!(
                "cannot import \"{name}\": /std holds documentation, not modules. Import the module by name instead: import {{ … }} from 'env:<name>'."
            ));
        }
        if self.is_file(&target) {
            return Ok(target);
        }
        if target.extension() != Some("js")
            && let Ok(with_js) = VPath::parse(&format!("{target}.js"))
            && self.is_file(&with_js)
        {
            return Ok(with_js);
        }
        Err(format!("cannot import \"{name}\" from {base}: no such file {target}"))
    }
}

impl Resolver for ModuleSource {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        base: &str,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        if let Some(module) = name.strip_prefix("env:") {
            if self.registry.get(module).is_some() {
                return Ok(name.to_owned());
            }
            let msg = format!("unknown module \"{name}\". Available env modules: {}", self.registry.catalogue());
            return Err(self.fail(ctx, ScriptError::Import(msg)));
        }
        if let Some(canonical) = crate::node::resolve(name) {
            return Ok(canonical);
        }
        if !(name.starts_with("./") || name.starts_with("../") || name.starts_with('/')) {
            let msg = format!(
                "only relative VFS paths, env:* modules and the vendored packages can be imported (got \"{name}\"). Importable by name: {}. Available env modules: {}. Write a helper under /scripts/lib and import it as './lib/name.js'.",
                crate::node::importable(),
                self.registry.catalogue()
            );
            return Err(self.fail(ctx, ScriptError::Import(msg)));
        }
        let target = match self.resolve_path(base, name) {
            Ok(t) => t,
            Err(msg) => return Err(self.fail(ctx, ScriptError::Import(msg))),
        };
        let cycle = {
            let mut g = graph(&self.graph);
            if g.static_phase && g.stack.iter().any(|m| m == base) {
                while g.stack.last().is_some_and(|top| top != base) {
                    g.stack.pop();
                }
                // A module importing itself is allowed: it is how a script reaches its own namespace.
                let target_is_base = target.as_str() == base;
                g.stack.iter().position(|m| m == target.as_str()).filter(|_| !target_is_base).map(|at| {
                    let mut chain: Vec<&str> = g.stack[at..].iter().map(String::as_str).collect();
                    chain.push(target.as_str());
                    chain.join(" -> ")
                })
            } else {
                None
            }
        };
        if let Some(chain) = cycle {
            let msg = format!(
                "circular import detected: {chain}. Move what both modules need into a third module under /scripts/lib that imports neither."
            );
            return Err(self.fail(ctx, ScriptError::Import(msg)));
        }
        Ok(target.to_string())
    }
}

impl Loader for ModuleSource {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js, Declared>> {
        if let Some(short) = name.strip_prefix("env:") {
            return self.load_env(ctx, name, short);
        }
        if !name.starts_with('/') {
            return crate::node::load(ctx, name, node_layer(ctx));
        }
        let path = VPath::parse(name).map_err(|e| Exception::throw_message(ctx, &e.to_string()))?;
        let source = match self.read(&path) {
            Ok(s) => s,
            Err(msg) => return Err(self.fail(ctx, ScriptError::Import(format!("cannot load {path}: {msg}")))),
        };
        {
            let mut g = graph(&self.graph);
            g.sources.insert(name.to_owned(), source.clone());
            if g.static_phase {
                g.stack.push(name.to_owned());
            }
        }
        match Module::declare(ctx.clone(), name, source.clone()) {
            Ok(m) => Ok(m),
            Err(rquickjs::Error::Exception) => {
                // quickjs-ng resolves and loads a module's imports while compiling it, so the
                // exception may be an import error already recorded for a dependency: pass it on
                // unchanged rather than dressing it up as this module's syntax error.
                let caught = ctx.catch();
                let message = caught.as_object().and_then(|o| o.get::<_, String>("message").ok()).unwrap_or_default();
                if graph(&self.graph).errors.iter().any(|e| e.to_string() == message) {
                    return Err(Exception::throw_message(ctx, &message));
                }
                let err = syntax_error(name, &source, &caught);
                Err(self.fail(ctx, err))
            }
            Err(other) => Err(other),
        }
    }
}

impl ModuleSource {
    fn load_env<'js>(&self, ctx: &Ctx<'js>, name: &str, short: &str) -> rquickjs::Result<Module<'js, Declared>> {
        let Some(module) = self.registry.get(short).cloned() else {
            return Err(Exception::throw_message(ctx, &format!("unknown module \"{name}\"")));
        };
        let kit: Object<'js> = match ctx.userdata::<Object<'js>>() {
            Some(k) => k.clone(),
            None => return Err(Exception::throw_internal(ctx, "the host kit is missing from this context")),
        };
        let natives = Object::new(ctx.clone())?;
        let bridge_fn: Function<'js> = kit.get("bridge")?;
        for f in &module.functions {
            let native = bridge::native_function(ctx, &module.name, f, self.call.clone())?;
            let label = format!("env:{}.{}", module.name, f.name);
            let wrapped: Function<'js> = bridge_fn.call((native, f.name.as_str(), label))?;
            natives.set(f.name.as_str(), wrapped)?;
        }
        let api: Object<'js> = match &module.js_api {
            Some(src) => {
                let factory: Function<'js> = bytecode::evaluate(ctx, &format!("folio:api/{}", module.name), src)?;
                factory.call((natives,))?
            }
            None => natives,
        };
        let tag: Function<'js> = kit.get("tagAndFreeze")?;
        let ns: Object<'js> = tag.call((name, api))?;
        let keys: Vec<String> = ns.keys::<String>().collect::<rquickjs::Result<_>>()?;
        let mut names = keys.clone();
        names.push("default".into());
        graph(&self.graph).env_exports.insert(name.to_owned(), names);
        let mut source = String::from("const ns = import.meta.ns;\nexport default ns;\n");
        if !keys.is_empty() {
            source.push_str(&format!("export const {{ {} }} = ns;\n", keys.join(", ")));
        }
        let declared = Module::declare(ctx.clone(), name, source)?;
        declared.meta()?.set("ns", ns)?;
        Ok(declared)
    }
}

/// The Node layer of this context (kept on the host kit under `node`), when it has one.
pub(crate) fn node_layer<'js>(ctx: &Ctx<'js>) -> Option<Object<'js>> {
    ctx.userdata::<Object<'js>>().and_then(|kit| kit.get::<_, Object<'js>>("node").ok())
}

/// Resolves and loads only what a spare context is prepared with: the vendored packages and the
/// Node built-ins they import (no tree, no env: modules — the run's own loader replaces this one).
#[derive(Clone, Copy)]
pub(crate) struct PackageSource;

impl Resolver for PackageSource {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        _base: &str,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<String> {
        crate::node::resolve(name)
            .ok_or_else(|| Exception::throw_message(ctx, &format!("a spare context cannot import \"{name}\"")))
    }
}

impl Loader for PackageSource {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> rquickjs::Result<Module<'js, Declared>> {
        crate::node::load(ctx, name, node_layer(ctx))
    }
}

/// QuickJS's link error for a named import the module does not export (`Could not find export
/// 'two' in module '/scripts/lib/u.js'`), rewritten to name the module, the binding and what the
/// module does export. `None` for any other message, or a module this operation did not load.
pub(crate) fn missing_export(g: &Graph, message: &str) -> Option<ScriptError> {
    let rest = message.strip_prefix("Could not find export '")?;
    let (binding, rest) = rest.split_once("' in module '")?;
    let module = rest.strip_suffix('\'')?;
    let (mut names, star) = match module.strip_prefix("env:") {
        Some(_) => (g.env_exports.get(module)?.clone(), String::new()),
        None => {
            let (names, re_exports) = dts::export_names(g.sources.get(module)?);
            let note = if re_exports { " (plus whatever its `export *` re-exports)".to_owned() } else { String::new() };
            (names, note)
        }
    };
    names.sort();
    names.dedup();
    let listed = if names.is_empty() { "nothing".to_owned() } else { names.join(", ") };
    let fix = if let Some(short) = module.strip_prefix("env:") {
        format!(" Its types are in /std/{short}/index.d.ts.")
    } else {
        format!(" Import one of those, or add `export` to \"{binding}\" in {module}.")
    };
    Some(ScriptError::Import(format!(
        "module \"{module}\" has no export \"{binding}\" — it exports: {listed}{star}.{fix}"
    )))
}

/// Builds the located syntax error from QuickJS's exception (its stack names `path:line:col`).
fn syntax_error(path: &str, source: &str, caught: &Value<'_>) -> ScriptError {
    let (message, stack) = match caught.as_object() {
        Some(o) => (
            o.get::<_, String>("message").unwrap_or_else(|_| "unparseable source".into()),
            o.get::<_, String>("stack").unwrap_or_default(),
        ),
        None => ("unparseable source".into(), String::new()),
    };
    let marker = format!("{path}:");
    let (line, column) = stack
        .find(&marker)
        .map(|at| {
            let mut nums = stack[at + marker.len()..]
                .split(|c: char| !c.is_ascii_digit())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<u32>().unwrap_or(0));
            (nums.next().unwrap_or(1), nums.next().unwrap_or(1))
        })
        .unwrap_or((1, 1));
    let text: String = source.lines().nth(line.saturating_sub(1) as usize).unwrap_or("").chars().take(200).collect();
    let caret = format!("{}^", " ".repeat(column.saturating_sub(1).min(200) as usize));
    ScriptError::Syntax { path: path.to_owned(), line, column, message, excerpt: format!("{text}\n{caret}") }
}
