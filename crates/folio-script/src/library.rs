//! The library route: a vendored pure-JavaScript library, evaluated inside the sandbox and
//! exposed as an `env:<name>` module with its own API verbatim.
//!
//! Some capabilities need no host at all: building a zip archive, a CSV file or a checksum is
//! computation over bytes the script already holds. For those, Folio vendors a small library from
//! npm (pinned by version and sha512 integrity in `scripts/vendor-js.sh`) and lets the script call
//! it directly, writing the bytes it produces through `env:fs` like any other output. The library
//! runs in the script's own context, so it reaches exactly what the script reaches: the standard
//! intrinsics and the sandbox's Node stand-ins (`Buffer`, `TextEncoder`/`TextDecoder`, timers;
//! see `node.rs`) and nothing else. It cannot import `env:fs` or anything else by itself; a
//! library that wants a DOM, `process` or `require` at load time is refused when it is
//! registered, with the missing name in the message. (Libraries a script imports by their npm
//! name — exceljs, docx, … — are real ES modules, `node.rs`; this is the `env:<name>` route.)
//!
//! # How a module becomes a namespace
//!
//! The registry's seam is [`NativeModule::js_api`], the source of a function expression that
//! returns the namespace object. An ES module is not a function body, so [`NativeModule::library`]
//! rewrites the library's top-level `export` statements — the only part of the file it touches —
//! into a function that declares everything and returns `{ exported: local, … }`:
//!
//! - `export function f`, `export async function f`, `export function* f`, `export class C`,
//!   `export var|let|const x = …` lose their `export` keyword and are collected;
//! - `export { a, b as c };` (on one or several lines) is removed and collected;
//! - `export default`, `export *`, re-exports (`export { … } from`), destructuring exports and
//!   `import` statements are refused, naming the line and the fix (bundle the library into one
//!   self-contained file with named exports, as its ESM browser build usually is).
//!
//! Export statements are recognised at the start of a line, which is how bundlers (tsc, esbuild,
//! rollup) emit them; the rewrite keeps every other line as it was, so line numbers in the
//! library's stack traces stay meaningful. Each `export var` must declare one name.
//!
//! Registration then compiles the rewritten library to bytecode (once per process, see
//! `bytecode.rs`; as an ES module's code it runs in strict mode) and evaluates it once in a
//! throwaway QuickJS context with the same intrinsics a run has, so a library that throws while
//! loading (a missing global, a syntax error) fails when the host starts, not when a script first
//! imports it. Each run evaluates the library's bytecode afresh in its own context, without
//! compiling it again; the namespace goes through the same tagging and freeze as every `env:`
//! module, so a script cannot change it for the next import.
//!
//! # Classes
//!
//! The namespace wrapper that tags errors (`tagAndFreeze` in the prelude) keeps a library's API
//! usable as written: each exported function is wrapped in an ordinary function that forwards
//! calls, forwards `new` to the original constructor (so fflate's streaming `Zip`, `Deflate`, …
//! construct, subclass, and pass `instanceof`, since the wrapper shares the original's
//! `prototype`), and carries the original's static members. Errors thrown by the exported function
//! or constructor itself are tagged `env:<name>.<export>: …`; methods called later on an instance
//! are the library's own and throw its errors unchanged.

use std::collections::BTreeSet;

use rquickjs::{CatchResultExt, Context, Function, Object, Runtime};

use crate::registry::NativeModule;

/// Why a library could not become an `env:` module. Raised when the host builds its registry;
/// nobody retries — the adapter author re-bundles the library or fixes the definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    /// A top-level statement the rewrite cannot carry (`import`, `export default`, `export *`, a
    /// re-export, a destructuring or multi-name export). The message names the line and the fix.
    #[error("library env:{library}, line {line}: {problem}")]
    Unsupported {
        /// The module name without `env:`.
        library: String,
        /// The 1-based line of the statement.
        line: usize,
        /// What is wrong and how to fix it.
        problem: String,
    },
    /// The source has no `export` statement, so the namespace would be empty.
    #[error(
        "library env:{0} exports nothing — expose its API with `export function …` or `export {{ … }}` in the vendored ESM file"
    )]
    NoExports(String),
    /// Evaluating the library in a sandbox context threw: usually a global the sandbox lacks
    /// (`window`, `process`, `require` at load time) or a syntax error.
    #[error(
        "library env:{library} failed to load in the sandbox: {message} — the sandbox has the standard JavaScript intrinsics plus Buffer, TextEncoder/TextDecoder and timers; vendor a build that needs no DOM, process or require at load time"
    )]
    Evaluation {
        /// The module name without `env:`.
        library: String,
        /// QuickJS's error message (and stack, when it has one).
        message: String,
    },
    /// QuickJS could not create the runtime used to check the library (out of memory).
    #[error("library env:{library}: the script engine could not start to check it: {message}")]
    Engine {
        /// The module name without `env:`.
        library: String,
        /// The engine's error.
        message: String,
    },
}

/// The vendored fflate ESM browser build (MIT; see `vendor/fflate/LICENSE`).
const FFLATE_JS: &str = include_str!("../vendor/fflate/browser.js");
/// What `/std/zip/index.d.ts` shows: a written summary of what works here (the sync functions and
/// the streaming classes' sync members), not fflate's 1,540-line typings.
const FFLATE_DTS: &str = include_str!("js/zip.d.ts");
/// The vendored fflate version, written by `scripts/vendor-js.sh`.
const FFLATE_VERSION: &str = include_str!("../vendor/fflate/VERSION");

const ZIP_DOCS: &str = "\
# env:zip — fflate, vendored

Zip, gzip, zlib and raw deflate in pure JavaScript ([fflate](https://github.com/101arrowz/fflate),
MIT). The namespace is fflate's own API; everything runs inside the script, and the bytes it
produces reach the folder only through `env:fs`.

```js
import { zipSync, unzipSync, strToU8, strFromU8 } from 'env:zip';
import * as fs from 'env:fs';

export default async function () {
  const archive = zipSync({
    'report.csv': await fs.readBytes('/data/report.csv'),
    'notes/readme.txt': strToU8('made by a script'),
  });
  await fs.writeFile('/out/report.zip', archive);
}
```

Use the synchronous functions (`zipSync`, `unzipSync`, `gzipSync`, `gunzipSync`, `deflateSync`,
`inflateSync`, `strToU8`, `strFromU8`), or the streaming classes with their synchronous members
(`new Zip(cb)` with `ZipDeflate`/`ZipPassThrough`, `new Deflate(cb)`, `new Unzip(cb)` with
`UnzipInflate`) to build an archive piece by piece. The callback forms and the `Async…` classes
need Web Workers, which the sandbox does not have.

```js
import { Zip, ZipDeflate, strToU8 } from 'env:zip';

const chunks = [];
const zip = new Zip((err, chunk, final) => { if (err) throw err; chunks.push(chunk); });
const entry = new ZipDeflate('notes.txt', { level: 9 });
zip.add(entry);
entry.push(strToU8('first part, '));
entry.push(strToU8('last part'), true);
zip.end();
// chunks now hold the whole archive: concatenate them and write with env:fs.writeFile.
```
";

impl NativeModule {
    /// An `env:<name>` module whose namespace is the named exports of `source_js`, a
    /// self-contained ES module (a library's ESM build). `types_dts` documents the exports (a
    /// library usually ships its own `.d.ts`); `docs` is Markdown for the catalogue.
    ///
    /// The library is evaluated once here, in a throwaway sandbox context, so a library that
    /// cannot load in the sandbox is refused now rather than at a script's first import.
    pub fn library(
        name: &str,
        description: &str,
        version: &str,
        source_js: &str,
        types_dts: &str,
        docs: &str,
    ) -> Result<NativeModule, LibraryError> {
        let module = NativeModule::library_deferred(name, description, version, source_js, types_dts, docs)?;
        check_loads(name, module.js_api.as_deref().unwrap_or_default())?;
        Ok(module)
    }

    /// As [`NativeModule::library`], with the exports checked from the source but the library
    /// not evaluated until a script first imports it (where a failure to load is that script's
    /// error, naming the module). For hosts that start a process per command, where the
    /// evaluation (~8 ms for fflate) would be paid by every run that never imports it; the
    /// vendored library's tests build it with [`NativeModule::library`].
    pub fn library_deferred(
        name: &str,
        description: &str,
        version: &str,
        source_js: &str,
        types_dts: &str,
        docs: &str,
    ) -> Result<NativeModule, LibraryError> {
        let factory = factory_source(name, source_js)?;
        Ok(NativeModule {
            name: name.to_owned(),
            description: description.to_owned(),
            version: version.trim().to_owned(),
            types_dts: types_dts.to_owned(),
            docs: docs.to_owned(),
            functions: Vec::new(),
            js_api: Some(factory),
        })
    }
}

/// `env:zip`: the vendored fflate library (zip, gzip, zlib, deflate). Register it with
/// [`crate::ModuleRegistry::register_native`].
pub fn zip_module() -> Result<NativeModule, LibraryError> {
    let module = zip_module_deferred()?;
    check_loads(&module.name, module.js_api.as_deref().unwrap_or_default())?;
    Ok(module)
}

/// `env:zip` built with [`NativeModule::library_deferred`]: fflate is evaluated at a script's
/// first import, not now. What folio-host registers, so a start pays nothing for it.
pub fn zip_module_deferred() -> Result<NativeModule, LibraryError> {
    NativeModule::library_deferred(
        "zip",
        "Zip, unzip, gzip and deflate bytes in the script (fflate); write the result with env:fs.writeFile.",
        FFLATE_VERSION,
        FFLATE_JS,
        FFLATE_DTS,
        ZIP_DOCS,
    )
}

/// An export collected from the source: the name scripts import and the local binding behind it.
struct Export {
    exported: String,
    local: String,
    line: usize,
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The identifier at the start of `s`, and the rest.
fn leading_identifier(s: &str) -> (&str, &str) {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).unwrap_or(s.len());
    (&s[..end], &s[end..])
}

/// Rewrites `source` into the text of `function (natives) { …; return { … }; }`.
fn factory_source(library: &str, source: &str) -> Result<String, LibraryError> {
    let unsupported =
        |line: usize, problem: String| LibraryError::Unsupported { library: library.to_owned(), line, problem };
    let mut body = String::with_capacity(source.len() + 256);
    let mut exports: Vec<Export> = Vec::new();
    // The text of an `export { … }` list that spans lines, and the line it started on.
    let mut pending_list: Option<(String, usize)> = None;
    for (index, line) in source.lines().enumerate() {
        let number = index + 1;
        if let Some((mut list, start)) = pending_list.take() {
            list.push_str(line);
            list.push(' ');
            if line.contains('}') {
                collect_list(&list, start, &mut exports).map_err(|p| unsupported(start, p))?;
            } else {
                pending_list = Some((list, start));
            }
            body.push('\n');
            continue;
        }
        let trimmed = line.trim_start();
        if let Some(rest) = keyword(trimmed, "import")
            && !rest.starts_with('(')
            && !rest.starts_with('.')
        {
            return Err(unsupported(
                number,
                "the library imports another module; vendor a self-contained bundle (its ESM browser build, or bundle it with esbuild --bundle --format=esm)".into(),
            ));
        }
        let Some(rest) = keyword(trimmed, "export") else {
            body.push_str(line);
            body.push('\n');
            continue;
        };
        if rest.starts_with('{') {
            if rest.contains('}') {
                collect_list(rest, number, &mut exports).map_err(|p| unsupported(number, p))?;
            } else {
                pending_list = Some((format!("{rest} "), number));
            }
            body.push('\n');
            continue;
        }
        let (declared, local) = declaration(rest).map_err(|p| unsupported(number, p))?;
        exports.push(Export { exported: local.to_owned(), local: local.to_owned(), line: number });
        let indent = &line[..line.len() - trimmed.len()];
        body.push_str(indent);
        body.push_str(declared);
        body.push('\n');
    }
    if let Some((_, start)) = pending_list {
        return Err(unsupported(start, "an `export {` list is never closed with `}`".into()));
    }
    if exports.is_empty() {
        return Err(LibraryError::NoExports(library.to_owned()));
    }
    let mut seen = BTreeSet::new();
    let mut namespace = String::from("return {");
    for e in &exports {
        if e.exported == "default" || !is_identifier(&e.exported) {
            return Err(unsupported(
                e.line,
                format!(
                    "\"{}\" cannot be imported by name from an env: module; export it under an identifier",
                    e.exported
                ),
            ));
        }
        if !seen.insert(e.exported.as_str()) {
            return Err(unsupported(e.line, format!("\"{}\" is exported twice", e.exported)));
        }
        namespace.push_str(&format!(" {}: {},", e.exported, e.local));
    }
    namespace.push_str(" };");
    Ok(format!("function (natives) {{ 'use strict';\n{body}{namespace}\n}}"))
}

/// The text after `word` when `line` starts with it as a whole keyword.
fn keyword<'a>(line: &'a str, word: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(word)?;
    match rest.chars().next() {
        Some(c) if c.is_whitespace() => Some(rest.trim_start()),
        Some('{' | '*' | '"' | '\'' | '(' | '.') => Some(rest),
        _ => None,
    }
}

/// For `export <declaration>`: the declaration without `export`, and the name it declares.
fn declaration(rest: &str) -> Result<(&str, &str), String> {
    if keyword(rest, "default").is_some() {
        return Err(
            "`export default` has no name scripts can import; export it by name (`export { x as name }`)".into()
        );
    }
    if rest.starts_with('*') {
        return Err("`export *` re-exports another module; vendor a self-contained bundle with named exports".into());
    }
    let mut after = rest;
    if let Some(r) = keyword(after, "async") {
        after = r;
    }
    let name_part = if let Some(r) = keyword(after, "function") {
        r.trim_start_matches('*').trim_start()
    } else if let Some(r) = keyword(after, "class") {
        r
    } else if let Some(r) = ["var", "let", "const"].iter().find_map(|w| keyword(after, w)) {
        if r.starts_with('{') || r.starts_with('[') {
            return Err("destructuring exports are not supported; export each name on its own line".into());
        }
        r
    } else {
        return Err(format!("unrecognised export statement `export {}`", rest.chars().take(40).collect::<String>()));
    };
    let (name, _) = leading_identifier(name_part);
    if name.is_empty() || !is_identifier(name) {
        return Err("the exported declaration has no name".into());
    }
    Ok((rest, name))
}

/// Collects the names of `{ a, b as c }` (followed by `;`, not by `from`).
fn collect_list(text: &str, line: usize, exports: &mut Vec<Export>) -> Result<(), String> {
    let open = text.find('{').unwrap_or(0);
    let close = text.find('}').ok_or_else(|| "an `export {` list is never closed with `}`".to_owned())?;
    let tail = text[close + 1..].trim_start();
    if keyword(tail, "from").is_some() {
        return Err("`export { … } from` re-exports another module; vendor a self-contained bundle".into());
    }
    for item in text[open + 1..close].split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let words: Vec<&str> = item.split_whitespace().collect();
        let (local, exported) = match words.as_slice() {
            [local] => (*local, *local),
            [local, "as", exported] => (*local, *exported),
            _ => return Err(format!("cannot read the export `{item}`")),
        };
        if !is_identifier(local) {
            return Err(format!("cannot read the export `{item}`"));
        }
        exports.push(Export { exported: exported.to_owned(), local: local.to_owned(), line });
    }
    Ok(())
}

/// Evaluates the factory once in a fresh context with the sandbox's intrinsics.
fn check_loads(library: &str, factory: &str) -> Result<(), LibraryError> {
    let engine = |e: rquickjs::Error| LibraryError::Engine { library: library.to_owned(), message: e.to_string() };
    let runtime = Runtime::new().map_err(engine)?;
    let context = Context::full(&runtime).map_err(engine)?;
    context.with(|ctx| {
        let result: rquickjs::Result<Object<'_>> = (|| {
            // A run's globals: the Node layer's Buffer, text codecs and timers are there too.
            crate::node::install(&ctx)?;
            // The same compiled form every run loads, so this also fills the bytecode cache.
            let make: Function<'_> = crate::bytecode::evaluate(&ctx, &format!("folio:api/{library}"), factory)?;
            make.call((Object::new(ctx.clone())?,))
        })();
        result.catch(&ctx).map(|_| ()).map_err(|caught| LibraryError::Evaluation {
            library: library.to_owned(),
            message: caught.to_string().trim_end().to_owned(),
        })
    })
}
