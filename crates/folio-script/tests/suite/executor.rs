//! Loading and running: modules, JSON in and out, errors (executor.test.ts, pipeline basics).

use super::*;

/// `(name, files, main source, args, expected outcome substring)`.
type Case = (&'static str, &'static [(&'static str, &'static str)], &'static str, Option<&'static str>, &'static str);

const CASES: &[Case] = &[
    ("json in and out", &[], "export default async (a) => ({ sum: a.x + 1 })", Some(r#"{"x":41}"#), r#"{"sum":42}"#),
    ("sync default", &[], "export default function f(a) { return [a, 2]; }", Some("1"), "[1,2]"),
    ("undefined stays undefined", &[], "export default async function () {}", None, "undefined"),
    ("no args means undefined", &[], "export default (a) => typeof a", None, r#""undefined""#),
    ("bigint is displayed", &[], "export default () => 10n", None, "display: 10n"),
    (
        "cycle is displayed",
        &[],
        "export default () => { const o = {}; o.me = o; return o; }",
        None,
        "display: <ref *1> { me: [Circular *1] }",
    ),
    (
        "relative import",
        &[("/scripts/lib/u.js", "export default function u() { return 7; }")],
        "import u from './lib/u.js'; export default () => u()",
        None,
        "7",
    ),
    (
        "absolute import",
        &[("/scripts/lib/u.js", "export const n = 3;")],
        "import { n } from '/scripts/lib/u.js'; export default () => n",
        None,
        "3",
    ),
    (
        "extension-less import",
        &[("/scripts/lib/helper.js", "export const h = 'ok';")],
        "import { h } from './lib/helper'; export default () => h",
        None,
        r#""ok""#,
    ),
    (
        "parent import",
        &[("/scripts/shared.js", "export const s = 1;"), ("/scripts/lib/a.js", "export { s } from '../shared.js';")],
        "import { s } from './lib/a.js'; export default () => s",
        None,
        "1",
    ),
    (
        "dynamic import",
        &[("/scripts/lib/late.js", "export default 7;")],
        "export default async () => (await import('./lib/late.js')).default",
        None,
        "7",
    ),
    (
        "top-level await",
        &[("/data/x.txt", "hello")],
        "import { readFile } from 'env:fs'; const t = await readFile('/data/x.txt'); export default () => t",
        None,
        r#""hello""#,
    ),
    (
        "self import is not a cycle",
        &[],
        "export const k = 5; export default async () => (await import('./main.js')).k",
        None,
        "5",
    ),
    (
        "bare specifier",
        &[],
        "import _ from 'lodash'; export default () => 1",
        None,
        r#"ERR: only relative VFS paths, env:* modules and the vendored packages can be imported (got "lodash"). Importable by name: the packages exceljs, docx, pdf-lib, @pdf-lib/fontkit, pptxgenjs and Node's fs, fs/promises, path, buffer, events, stream, stream/promises, util, crypto, url, timers, timers/promises, process (also as node:fs, …). Available env modules: env:fs, env:std, env:assert"#,
    ),
    ("std module refused", &[], "import * as s from 'std'; export default () => 1", None, "(got \"std\")"),
    (
        "unknown env module",
        &[],
        "import x from 'env:documents'; export default () => 1",
        None,
        r#"ERR: unknown module "env:documents". Available env modules: env:fs, env:std, env:assert"#,
    ),
    (
        "missing file",
        &[],
        "import x from './nope.js'; export default () => 1",
        None,
        "ERR: cannot import \"./nope.js\" from /scripts/main.js: no such file /scripts/nope.js",
    ),
    (
        "missing named export",
        &[("/scripts/lib/u.js", "export const one = 1;")],
        "import { two } from './lib/u.js'; export default () => two",
        None,
        "ERR: module \"/scripts/lib/u.js\" has no export \"two\" — it exports: one. Import one of those, or add `export` to \"two\" in /scripts/lib/u.js.",
    ),
    (
        "missing named export lists every form of export",
        &[
            ("/scripts/shared.js", "export const s = 1;"),
            (
                "/scripts/lib/u.js",
                "export function f() {}\nconst g = 2;\nexport { g as gee };\nexport { s } from '../shared.js';\nexport * from '../shared.js';\nexport default 1;",
            ),
        ],
        "import { two } from './lib/u.js'; export default () => two",
        None,
        "ERR: module \"/scripts/lib/u.js\" has no export \"two\" — it exports: default, f, gee, s (plus whatever its `export *` re-exports).",
    ),
    (
        "missing export of an env module",
        &[],
        "import { readFiles } from 'env:fs'; export default () => readFiles",
        None,
        "ERR: module \"env:fs\" has no export \"readFiles\" — it exports: appendFile, cp, default, exists, glob, mkdir, mv, readBytes, readFile, readText, readdir, rm, stat, writeFile. Its types are in /std/fs/index.d.ts.",
    ),
    (
        "import from /std",
        &[],
        "import x from '/std/fs/index.js'; export default () => 1",
        None,
        "/std holds documentation, not modules",
    ),
    (
        "cycle",
        &[
            ("/scripts/a.js", "import { b } from './b.js'; export const a = 1; export default () => b;"),
            ("/scripts/b.js", "import { a } from './a.js'; export const b = 2; export default () => a;"),
        ],
        "import a from './a.js'; export default () => a()",
        None,
        "ERR: circular import detected: /scripts/a.js -> /scripts/b.js -> /scripts/a.js",
    ),
    (
        "syntax error is located",
        &[],
        "export default async function (args) {\n  return args +;\n}",
        None,
        "ERR: /scripts/main.js:2:",
    ),
    (
        "syntax error shows the line",
        &[],
        "export default async function (args) {\n  return args +;\n}",
        None,
        "  return args +;",
    ),
    (
        "syntax error in a library names it",
        &[("/scripts/lib/bad.js", "export const = 1;")],
        "import './lib/bad.js'; export default () => 1",
        None,
        "ERR: /scripts/lib/bad.js:1:",
    ),
    (
        "thrown error keeps class and frames",
        &[],
        "function inner() { throw new TypeError('kapow'); }\nexport default function main() { inner(); }",
        None,
        "ERR: TypeError: kapow\n  at inner (/scripts/main.js:1:",
    ),
    (
        "frames show the caller line",
        &[],
        "function inner() { throw new Error('kapow'); }\nexport default function main() {\n  inner();\n}",
        None,
        "at main (/scripts/main.js:3:",
    ),
    (
        "rejection",
        &[],
        "export default async () => { await null; throw new RangeError('late'); }",
        None,
        "ERR: RangeError: late",
    ),
    (
        "non-error throw",
        &[],
        "export default () => { throw { code: 7 }; }",
        None,
        "ERR: Uncaught { code: 7 } — the script threw a value that is not an Error",
    ),
    (
        "no default export",
        &[],
        "console.log('hi');",
        None,
        "ERR: script has no default export. Scripts must export default async function(args) { ... } — top-level program-style scripts are not supported.",
    ),
    (
        "named but no default",
        &[],
        "export function parse() {} export function format() {}",
        None,
        "ERR: script exports { format, parse } but no default. Add \"export default format\" or wrap in a default function. Scripts must export default async function(args) { ... }",
    ),
    (
        "object default",
        &[],
        "export default { a: 1 };",
        None,
        "ERR: default export is a object; expected a function of shape async (args) => result.",
    ),
    ("string default", &[], "export default 'x';", None, "default export is a string;"),
    ("array default", &[], "export default [];", None, "default export is a array;"),
    (
        "class default counts as function",
        &[],
        "export default class X {}",
        None,
        "class constructors must be invoked with 'new'",
    ),
    ("export fn as default", &[], "function fn(a) { return a * 3; } export { fn as default };", Some("5"), "15"),
    (
        "recursion by name",
        &[],
        "export default function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }",
        Some("5"),
        "120",
    ),
    (
        "sandbox scope",
        &[],
        "export default () => [typeof fetch, typeof process, typeof require, typeof setTimeout, typeof setInterval, typeof XMLHttpRequest, typeof WebSocket, typeof Buffer, typeof WebAssembly, typeof queueMicrotask, typeof JSON, typeof Promise]",
        None,
        // Timers, Buffer, process and queueMicrotask are the sandbox's own stand-ins (node.rs); the rest stay absent.
        r#"["undefined","object","undefined","function","function","undefined","undefined","function","undefined","function","object","function"]"#,
    ),
];

#[test]
fn cases() {
    let mut failures = Vec::new();
    for (name, files, src, args, expect) in CASES {
        let r = run_with(src, files, *args, RunOptions::default());
        let got = outcome(&r);
        if !got.contains(expect) {
            failures.push(format!("{name}:\n  expected to contain: {expect}\n  got: {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_are_typed() {
    let r = run("export default async function (a) {\n  return a +;\n}");
    match r.outcome {
        Err(ScriptError::Syntax { line, path, .. }) => {
            assert_eq!(line, 2);
            assert_eq!(path, "/scripts/main.js");
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
    assert!(matches!(run("import 'lodash'; export default () => 1").outcome, Err(ScriptError::Import(_))));
    assert!(matches!(run("export const a = 1;").outcome, Err(ScriptError::Contract(_))));
    assert!(matches!(run("export default () => { throw new Error('x'); }").outcome, Err(ScriptError::Thrown(_))));
}

#[test]
fn refuses_what_is_not_a_script() {
    let t = tree(&[("/scripts/notes.txt", "x"), ("/scripts/dir/a.js", "export default () => 1")]);
    let fs: Arc<dyn folio_script::ScriptFs> = Arc::new(TreeFs::new(t));
    let e = engine();
    let cases = [
        ("/scripts/notes.txt", "only .js files are scripts"),
        ("/scripts/missing.js", "no such script"),
        ("/scripts/dir", "only .js files are scripts"),
    ];
    for (path, expect) in cases {
        let r = e.run_blocking(fs.clone(), &vp(path), None, RunOptions::default());
        let got = outcome(&r);
        assert!(got.contains(expect), "{path}: {got}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_run_works_on_a_multi_thread_runtime() {
    let t = tree(&[(
        "/scripts/a.js",
        "import { sleep } from 'env:std'; export default async (n) => { await sleep(5); return n * 2; }",
    )]);
    let fs: Arc<dyn folio_script::ScriptFs> = Arc::new(TreeFs::new(t));
    let e = Arc::new(engine());
    let mut handles = Vec::new();
    for i in 0..4 {
        let (e, fs) = (e.clone(), fs.clone());
        handles.push(tokio::spawn(async move {
            e.run(fs, &vp("/scripts/a.js"), Some(&i.to_string()), RunOptions::default()).await
        }));
    }
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(outcome(&h.await.unwrap()), (i * 2).to_string());
    }
}

#[test]
fn the_advisory_argument_check_notes_a_mismatch_and_runs_anyway() {
    let src = "/**\n * Echoes its source.\n * @param {string} args.source\n * @param {number} [args.limit]\n */\nexport default async function echo(args) { return Object.keys(args); }";
    let wrong = run_with(src, &[], Some(r#"{"src":"a.csv"}"#), RunOptions::default());
    assert_eq!(outcome(&wrong), r#"["src"]"#, "the run is not blocked");
    assert_eq!(
        wrong.arg_note.as_deref(),
        Some(
            "note: this script's JSDoc declares args { source: string, limit?: number }; got { src } (missing `source`; unexpected `src`). Ran it anyway — if the result below is wrong, that is probably why."
        )
    );
    let right = run_with(src, &[], Some(r#"{"source":"a.csv"}"#), RunOptions::default());
    assert_eq!((outcome(&right).as_str(), right.arg_note), (r#"["source"]"#, None));
    // A failing run keeps the note: that is when it matters most.
    let failing = run_with(
        "/** @param {{ path: string }} args */\nexport default async ({ path }) => path.trim();",
        &[],
        Some("{}"),
        RunOptions::default(),
    );
    assert!(outcome(&failing).starts_with("ERR: TypeError"), "{}", outcome(&failing));
    assert!(failing.arg_note.is_some_and(|n| n.contains("got {} (missing `path`)")));
}

#[test]
fn a_bare_name_a_module_exports_suggests_the_import_and_only_then() {
    let cases: &[(&str, &str)] = &[
        (
            "export default async () => readFile('/x')",
            "ERR: ReferenceError: readFile is not defined — did you mean to import it? import { readFile } from 'env:fs'\n  at ",
        ),
        (
            "export default () => csv.parse('a')",
            "ERR: ReferenceError: csv is not defined — did you mean to import it? import { csv } from 'env:std'\n  at ",
        ),
        ("export default () => nope()", "ERR: ReferenceError: nope is not defined\n  at "),
    ];
    for (src, expected) in cases {
        let got = outcome(&run(src));
        assert!(got.starts_with(expected), "{src}: {got}");
    }
}
