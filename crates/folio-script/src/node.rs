//! The npm route: vendored npm libraries imported by their own names, and the Node APIs their
//! READMEs use, answered inside the sandbox.
//!
//! A model writes what it learned from a library's README — `import ExcelJS from 'exceljs'`,
//! `workbook.xlsx.writeFile('/out/q3.xlsx')`, `fs.writeFileSync('memo.docx', buffer)` — so the
//! sandbox answers those names instead of asking for a Folio dialect:
//!
//! - **Packages** ([`PACKAGES`]): exceljs, docx, pdf-lib, @pdf-lib/fontkit and pptxgenjs, each one
//!   self-contained ES module bundled by `scripts/vendor-js.sh` (pinned, hashes checked, licences
//!   in `vendor/<name>/`). They are loaded as real ES modules from bytecode compiled once per
//!   process; their only imports are `node:*` built-ins.
//! - **Built-ins** ([`BUILTINS`]): `fs`, `fs/promises`, `path` and `buffer`, also as `node:…`.
//!   They and the globals `Buffer`, `TextEncoder`/`TextDecoder` and the timers come from one
//!   JavaScript layer (`js/node.js`) evaluated in every fresh context before any module.
//! - **Files.** `fs` is synchronous, as Node's `*Sync` calls are: its host functions call the
//!   run's [`ScriptFs`] on the script's thread, so a write is a change through the same gateway as
//!   `env:fs.writeFile` (a pending overlay edit in the environment). Paths are tree paths; a
//!   relative one resolves against `/` (the sandbox's working directory is the folder's root), and
//!   a path the tree refuses (`/../x`, a control character) fails with the message env:fs gives.
//!   Errors carry Node's `code` (`ENOENT`, `EISDIR`, …) so libraries that test it behave.
//! - **Timers** follow the real clock, and each fire is one host yield, so microtasks drain
//!   between timers as in Node. A referenced timer holds the run open as it holds a Node process
//!   (`unref()` lets go); one still pending at the deadline is named in the budget error.
//!
//! Nothing here reaches the host beyond the run's own file system: no network (`node:https`
//! exists only so pptxgenjs's Node path loads, and refuses), no `require`; `process` is a
//! stand-in with an empty `env` (`js/streams.js`).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use folio_vfs::{Kind, VPath, VfsError};
use rquickjs::function::Async;
use rquickjs::{Array, Ctx, Exception, Function, Module, Object, TypedArray, Value, module::Declared};

use crate::bytecode;
use crate::error::FsError;
use crate::script_fs::ScriptFs;
use crate::web::copy_bytes;

const NODE_JS: &str = include_str!("js/node.js");
const WEB_JS: &str = include_str!("js/web.js");
const STREAMS_JS: &str = include_str!("js/streams.js");
const INTL_JS: &str = include_str!("js/intl.js");

/// One npm package a script can import by name.
pub struct Package {
    /// The npm name, which is also the import specifier.
    pub name: &'static str,
    /// The vendored version (`vendor/<name>/VERSION`).
    pub version: &'static str,
    source: &'static str,
}

/// The vendored npm packages.
pub const PACKAGES: &[Package] = &[
    Package {
        name: "exceljs",
        version: include_str!("../vendor/exceljs/VERSION"),
        source: include_str!("../vendor/exceljs/index.js"),
    },
    Package {
        name: "docx",
        version: include_str!("../vendor/docx/VERSION"),
        source: include_str!("../vendor/docx/index.js"),
    },
    Package {
        name: "pdf-lib",
        version: include_str!("../vendor/pdf-lib/VERSION"),
        source: include_str!("../vendor/pdf-lib/index.js"),
    },
    Package {
        name: "@pdf-lib/fontkit",
        version: include_str!("../vendor/@pdf-lib/fontkit/VERSION"),
        source: include_str!("../vendor/@pdf-lib/fontkit/index.js"),
    },
    Package {
        name: "pptxgenjs",
        version: include_str!("../vendor/pptxgenjs/VERSION"),
        source: include_str!("../vendor/pptxgenjs/index.js"),
    },
];

/// Node built-ins: the specifier without `node:`, and the key of the layer's module object.
pub const BUILTINS: &[&str] = &[
    "fs",
    "fs/promises",
    "path",
    "buffer",
    "events",
    "stream",
    "stream/promises",
    "util",
    "crypto",
    "url",
    "timers",
    "timers/promises",
    "process",
];

/// `node:https`, for pptxgenjs's Node path only: it is not listed as importable.
const HTTPS: &str = "https";

/// The canonical module name a bare specifier names, when it is a package or a built-in.
pub(crate) fn resolve(specifier: &str) -> Option<String> {
    if PACKAGES.iter().any(|p| p.name == specifier) {
        return Some(specifier.to_owned());
    }
    let bare = specifier.strip_prefix("node:").unwrap_or(specifier);
    (BUILTINS.contains(&bare) || specifier == "node:https").then(|| format!("node:{bare}"))
}

/// The list an unknown bare specifier's error shows.
pub(crate) fn importable() -> String {
    let packages: Vec<&str> = PACKAGES.iter().map(|p| p.name).collect();
    format!("the packages {} and Node's {} (also as node:fs, …)", packages.join(", "), BUILTINS.join(", "))
}

/// The packages `source` imports statically, sorted (what a spare context is prepared with).
pub(crate) fn packages_in(source: &str) -> Vec<&'static str> {
    if !PACKAGES.iter().any(|p| source.contains(p.name)) {
        return Vec::new();
    }
    let Ok(imports) = crate::imports::imports(source) else { return Vec::new() };
    let mut found: Vec<&'static str> = PACKAGES
        .iter()
        .filter(|p| imports.iter().any(|i| !i.dynamic && i.specifier == p.name))
        .map(|p| p.name)
        .collect();
    found.sort_unstable();
    found
}

/// Declares the module `name` (a name [`resolve`] returned) in `ctx`. Built-ins need the layer
/// [`install`] put in the context's kit.
pub(crate) fn load<'js>(
    ctx: &Ctx<'js>,
    name: &str,
    layer: Option<Object<'js>>,
) -> rquickjs::Result<Module<'js, Declared>> {
    if let Some(package) = PACKAGES.iter().find(|p| p.name == name) {
        return bytecode::module(ctx, package.name, package.source);
    }
    let key = name.strip_prefix("node:").unwrap_or(name);
    let Some(layer) = layer else {
        return Err(Exception::throw_internal(ctx, "the Node layer is missing from this context"));
    };
    let ns: Object<'js> = if key == HTTPS {
        let refuse = Function::new(ctx.clone(), |ctx: Ctx<'js>| -> rquickjs::Result<()> {
            Err(Exception::throw_message(
                &ctx,
                "https: the sandbox has no network — hint: put the file in the folder and give its path",
            ))
        })?;
        let o = Object::new(ctx.clone())?;
        o.set("get", refuse.clone())?;
        o.set("request", refuse)?;
        o
    } else {
        let modules: Object<'js> = layer.get("modules")?;
        modules.get(key)?
    };
    let keys: Vec<String> =
        ns.keys::<String>().filter_map(Result::ok).filter(|k| is_identifier(k) && k != "default").collect();
    let mut source = String::from("const ns = import.meta.ns;\nexport default ns;\n");
    if !keys.is_empty() {
        source.push_str(&format!("export const {{ {} }} = ns;\n", keys.join(", ")));
    }
    let declared = Module::declare(ctx.clone(), name, source)?;
    declared.meta()?.set("ns", ns)?;
    Ok(declared)
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A future that is pending once: a timer fire yields to the host, so jobs and host futures get
/// their turn and the run can see its default export settle.
#[derive(Default)]
struct YieldOnce(bool);

impl Future for YieldOnce {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<()> {
        if self.0 {
            return Poll::Ready(());
        }
        self.0 = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// Evaluates the web layer and the Node layer in `ctx`, installs their globals (removing
/// `WebAssembly`), and returns the Node layer object (`modules`, `bind`, `track`, `settled`,
/// `pending`).
pub(crate) fn install<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
    let factory: Function<'js> = bytecode::evaluate(ctx, "folio:node", NODE_JS)?;
    let encode = Function::new(ctx.clone(), |ctx: Ctx<'js>, s: rquickjs::String<'js>| {
        TypedArray::<u8>::new(ctx, s.to_string()?.into_bytes())
    })?;
    let decode = Function::new(ctx.clone(), |bytes: TypedArray<'js, u8>| -> rquickjs::Result<String> {
        Ok(String::from_utf8_lossy(&copy_bytes(&bytes)).into_owned())
    })?;
    let yield_now = Function::new(
        ctx.clone(),
        Async(|| async {
            YieldOnce::default().await;
            rquickjs::Result::Ok(())
        }),
    )?;
    let native = crate::web::natives(ctx)?;
    let web_factory: Function<'js> = bytecode::evaluate(ctx, "folio:web", WEB_JS)?;
    let web: Object<'js> = web_factory.call((native.clone(), encode.clone()))?;
    let intl_factory: Function<'js> = bytecode::evaluate(ctx, "folio:intl", INTL_JS)?;
    let intl: Object<'js> = intl_factory.call((crate::intl::natives(ctx)?,))?;
    let layer: Object<'js> = factory.call((encode, decode, yield_now, native))?;
    let streams: Function<'js> = bytecode::evaluate(ctx, "folio:streams", STREAMS_JS)?;
    let layer: Object<'js> = streams.call((layer, web.clone()))?;
    let globals = ctx.globals();
    globals.remove("WebAssembly")?;
    // Node's name for the global object; browserify bundles (exceljs) find `crypto` through it.
    globals.set("global", globals.clone())?;
    for installed in [
        web.get::<_, Object<'js>>("globals")?,
        intl.get::<_, Object<'js>>("globals")?,
        layer.get::<_, Object<'js>>("globals")?,
    ] {
        for key in installed.keys::<String>() {
            let key = key?;
            globals.set(key.as_str(), installed.get::<_, Value<'js>>(key.as_str())?)?;
        }
    }
    Ok(layer)
}

/// Node's `code` for a refusal, so libraries that test `err.code` behave.
fn code(err: &FsError) -> &'static str {
    match err {
        FsError::Tree(e) => match e {
            VfsError::NoSuchFile(_) | VfsError::NoSuchEntry(_) | VfsError::NoSuchDirectory(_) => "ENOENT",
            VfsError::ReadDirectory(_) | VfsError::WriteOntoDirectory(_) => "EISDIR",
            VfsError::NotADirectory(_) | VfsError::AncestorIsFile { .. } => "ENOTDIR",
            VfsError::MkdirOnFile(_) => "EEXIST",
            VfsError::Path(_) | VfsError::SamePath(_) | VfsError::IntoItself { .. } => "EINVAL",
            VfsError::ReadOnly { .. } | VfsError::RemoveRoot => "EACCES",
            _ => "EIO",
        },
        FsError::Refused(_) | FsError::NotNow { .. } => "EACCES",
        FsError::Gone(_) => "ECANCELED",
    }
}

/// What a file operation gives back: a value, or `{ error, code }` the layer throws.
enum Answer {
    Bytes(Vec<u8>),
    Done,
    Stat(Option<folio_vfs::Stat>),
    List(Vec<folio_vfs::DirEntry>),
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::File => "file",
        Kind::Dir => "dir",
    }
}

fn answer<'js>(ctx: &Ctx<'js>, result: Result<Answer, FsError>) -> rquickjs::Result<Object<'js>> {
    let out = Object::new(ctx.clone())?;
    match result {
        Err(e) => {
            out.set("error", e.to_string())?;
            out.set("code", code(&e))?;
        }
        Ok(Answer::Bytes(b)) => out.set("value", TypedArray::<u8>::new(ctx.clone(), b)?)?,
        Ok(Answer::Done) => out.set("value", Value::new_undefined(ctx.clone()))?,
        Ok(Answer::Stat(None)) => out.set("value", Value::new_null(ctx.clone()))?,
        Ok(Answer::Stat(Some(s))) => {
            let o = Object::new(ctx.clone())?;
            o.set("kind", kind_name(s.kind))?;
            o.set("size", s.size as f64)?;
            o.set("mtime", s.mtime_ms as f64)?;
            out.set("value", o)?;
        }
        Ok(Answer::List(entries)) => {
            let list = Array::new(ctx.clone())?;
            for (i, e) in entries.iter().enumerate() {
                let o = Object::new(ctx.clone())?;
                o.set("name", e.name.as_str())?;
                o.set("kind", kind_name(e.kind))?;
                o.set("size", e.size as f64)?;
                list.set(i, o)?;
            }
            out.set("value", list)?;
        }
    }
    Ok(out)
}

/// Which file operation, and whether it changes the tree.
#[derive(Clone, Copy)]
enum Op {
    Read,
    Write,
    Append,
    Stat,
    List,
    Mkdir,
    Rm,
    Mv,
    Cp,
}

const OPS: &[(&str, Op)] = &[
    ("read", Op::Read),
    ("write", Op::Write),
    ("append", Op::Append),
    ("stat", Op::Stat),
    ("list", Op::List),
    ("mkdir", Op::Mkdir),
    ("rm", Op::Rm),
    ("mv", Op::Mv),
    ("cp", Op::Cp),
];

impl Op {
    fn mutates(self) -> bool {
        !matches!(self, Op::Read | Op::Stat | Op::List)
    }
}

fn run_op(fs: &dyn ScriptFs, op: Op, path: &str, other: &Value<'_>) -> Result<Answer, FsError> {
    let path = VPath::parse(path).map_err(|e| FsError::Tree(e.into()))?;
    let second = || -> Result<VPath, FsError> {
        let text: String = other.get().map_err(|_| FsError::Tree(folio_vfs::PathError::Empty.into()))?;
        VPath::parse(&text).map_err(|e| FsError::Tree(e.into()))
    };
    let bytes =
        || -> Vec<u8> { TypedArray::<u8>::from_value(other.clone()).map(|t| copy_bytes(&t)).unwrap_or_default() };
    Ok(match op {
        Op::Read => Answer::Bytes(fs.read(&path)?),
        Op::Write => fs.write(&path, &bytes()).map(|()| Answer::Done)?,
        Op::Append => fs.append(&path, &bytes()).map(|()| Answer::Done)?,
        Op::Stat => Answer::Stat(fs.stat(&path)?),
        Op::List => Answer::List(fs.list(&path)?),
        Op::Mkdir => fs.mkdir(&path).map(|()| Answer::Done)?,
        Op::Rm => fs.rm(&path).map(|()| Answer::Done)?,
        Op::Mv => fs.mv(&path, &second()?).map(|()| Answer::Done)?,
        Op::Cp => fs.cp(&path, &second()?).map(|()| Answer::Done)?,
    })
}

/// Binds the layer's `fs` to this run's file system: synchronous host calls on the script's
/// thread. During write-time validation (`read_only`) changes are refused as env:fs refuses them;
/// after the run ended every call is refused.
pub(crate) fn bind<'js>(
    ctx: &Ctx<'js>,
    layer: &Object<'js>,
    call: &crate::registry::CallContext,
) -> rquickjs::Result<()> {
    let host = Object::new(ctx.clone())?;
    for &(name, op) in OPS {
        let (fs, cancel, read_only): (Arc<dyn ScriptFs>, _, _) = (call.fs.clone(), call.cancel.clone(), call.read_only);
        let f = Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, path: String, other: rquickjs::function::Opt<Value<'js>>| {
                let other = other.0.unwrap_or_else(|| Value::new_undefined(ctx.clone()));
                let result = if cancel.is_cancelled() {
                    Err(FsError::Gone(crate::bridge::RUN_ENDED))
                } else if read_only && op.mutates() {
                    Err(FsError::NotNow {
                        op: name,
                        why: "is not available while a script is being validated — module top-level code runs during write_file/edit_file and must not change the tree. Do the work inside the default export instead.",
                    })
                } else {
                    run_op(fs.as_ref(), op, &path, &other)
                };
                answer(&ctx, result)
            },
        )?;
        host.set(name, f)?;
    }
    let bind: Function<'js> = layer.get("bind")?;
    bind.call((host,))
}
